import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { getHeapSpaceStatistics, setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { inParallel, startServer, type TestServer } from './harness.ts';
import { austin } from './fixtures.ts';

// A full collection on demand, so that what is measured is what stays reachable and not when V8 last collected.
setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

let server: TestServer;
let key: string;

before(async () => {
  server = await startServer({ env: { SHIPD_RATE_LIMIT_PER_SECOND: '1000000', SHIPD_RATE_LIMIT_BURST: '1000000' } });
  key = (await server.key(await server.account())).secret;
});
after(() => server.close());

// The load asks the questions a shop asks all day: a few hundred routes and parcels, each asked again and again.
const destinations = [
  { street1: '415 Mission St', city: 'San Francisco', state: 'CA', zip: '94105' },
  { street1: '200 N Spring St', city: 'Los Angeles', state: 'CA', zip: '90012' },
  { street1: '350 5th Ave', city: 'New York', state: 'NY', zip: '10118' },
  { street1: '233 S Wacker Dr', city: 'Chicago', state: 'IL', zip: '60606' },
  { street1: '1 Pike Pl', city: 'Seattle', state: 'WA', zip: '98101' },
  { street1: '100 Peachtree St NW', city: 'Atlanta', state: 'GA', zip: '30303' },
];
function shop(n: number) {
  const body = {
    ship_from: austin,
    ship_to: { name: 'Ada Lovelace', ...destinations[n % destinations.length]! },
    parcel: { weight: { value: 1 + (n % 40) / 4, unit: 'lb' }, dimensions: { length: 10, width: 8, height: 4, unit: 'in' } },
  };
  return server.request('POST', '/rates', { key, body });
}

/** Rate shops, 16 at a time; each must answer with rates. */
async function load(count: number): Promise<void> {
  await inParallel(count, 16, async (n) => {
    const res = await shop(n);
    assert.equal(res.status, 200);
    assert.ok(res.body.rates.length > 0);
  });
  // The test server keeps its log lines for the tests to read: this load's are not the server's to keep.
  server.logs.length = 0;
}

/** V8's old generation (old space and large objects) in use after full collections, in bytes. */
function oldGeneration(): number {
  gc();
  gc();
  return getHeapSpaceStatistics()
    .filter((s) => s.space_name === 'old_space' || s.space_name === 'large_object_space')
    .reduce((sum, s) => sum + s.space_used_size, 0);
}

const megabytes = (bytes: number) => (bytes / 1_048_576).toFixed(1);

test('rate shops leave nothing behind: the old generation does not grow over rounds of them, and RSS settles', async (t) => {
  // Warm-up: the simulators' remembered quotes and every other cache reach their working size, and V8 compiles the
  // hot code (optimized code and its data live in the old generation too, and went on growing by about 100 KB a
  // round for a few rounds after a shorter warm-up, then stopped).
  await load(1500);
  const settled = oldGeneration();
  const rounds: number[] = [];
  // Four rounds in the suite; SHIPD_MEMORY_SOAK_MINUTES=10 goes on with rounds for that long (bench/RESULTS.md).
  const until = Date.now() + Number(process.env.SHIPD_MEMORY_SOAK_MINUTES ?? 0) * 60_000;
  const started = Date.now();
  for (let round = 0; round < 4 || Date.now() < until; round++) {
    await load(500);
    rounds.push(oldGeneration());
  }
  const growth = rounds.at(-1)! - settled;
  const rss = process.memoryUsage().rss;
  const shown = rounds.length > 8 ? [...rounds.slice(0, 4), ...rounds.slice(-4)] : rounds;
  const detail = `old generation ${megabytes(settled)} MB after the warm-up, then ${shown.map(megabytes).join(', ')} MB after each 500 more (${rounds.length} rounds, ${rounds.length * 500} rate shops in ${((Date.now() - started) / 60_000).toFixed(1)} minutes${rounds.length > 8 ? ': the first four and the last four' : ''}); RSS ${megabytes(rss)} MB`;
  t.diagnostic(detail);
  // 2,000 rate shops: a leak of 500 bytes each would be 1 MB. What a collection leaves varies by a few hundred KB.
  assert.ok(growth < 1_048_576, `the old generation grew ${megabytes(growth)} MB: ${detail}`);
  // Nor does it climb round after round by less than that.
  assert.ok(!rounds.every((r, i) => i === 0 || r > rounds[i - 1]! + 150_000), `the old generation grew every round: ${detail}`);
  // Generous: this process is also the test runner and TypeScript's loader. shipd alone settles near 150 MB.
  assert.ok(rss < 400 * 1_048_576, `RSS ${megabytes(rss)} MB after the load: ${detail}`);
});
