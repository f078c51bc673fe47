// npm run bench:rates — POST /rates throughput and p99, beside a bare Fastify route that validates the same body
// with the same schema, and an authenticated GET /carriers beside a bare GET route answering the same list, each
// pair measured in the same run, shipd at its default settings (info-level request logs). Goals (issue 31): at
// least 0.35 of the bare route's requests per second and p99 under 25 ms for POST /rates at 50 connections, at least
// 0.5 of the bare GET for GET /carriers, and the process's peak RSS within 250 MB. On SQLite, or on PostgreSQL with
// BENCH_DATABASE_URL=postgres://… (a fresh database made on that server, dropped after).
import { describeThreads, isMain, load, megabytes, peakRssGoal, row, startProcess, startShipd, type Result } from './lib.ts';

const body = JSON.stringify({
  ship_from: { street1: '1100 Congress Ave', city: 'Austin', state: 'TX', zip: '78701' },
  ship_to: { name: 'Ada Lovelace', street1: '415 Mission St', city: 'San Francisco', state: 'CA', zip: '94105' },
  parcel: { weight: { value: 2, unit: 'lb' }, dimensions: { length: 10, width: 8, height: 4, unit: 'in' } },
});

export const ratesGoal = { ratio: 0.35, p99Ms: 25 };
export const carriersGoal = { ratio: 0.5 };

export async function benchRates(seconds: number, databaseUrl: string | undefined): Promise<Result[]> {
  const shipd = await startShipd(databaseUrl);
  try {
    const api = `${shipd.url}/api/integrations/v1`;
    const headers = { authorization: `Bearer ${shipd.key}` };
    const check = await fetch(`${api}/rates`, { method: 'POST', body, headers: { 'content-type': 'application/json', ...headers } });
    const sample = (await check.json()) as { rates: unknown[] };
    if (check.status !== 200 || sample.rates.length === 0) throw new Error(`POST /rates answered ${check.status}`);
    const listed = await fetch(`${api}/carriers`, { headers });
    if (listed.status !== 200) throw new Error(`GET /carriers answered ${listed.status}`);
    const carriers = await listed.text();

    const bare = await startProcess(['--import', 'tsx', 'bench/bare-server.ts'], { PORT: '0', BARE_ANSWER: JSON.stringify(sample), BARE_CARRIERS: carriers }, /listening (\d+)/);
    const bareUrl = `http://127.0.0.1:${bare.match[1]}`;
    // Each figure right after its baseline, so that the machine's drift weighs on both alike.
    const baseline = await load(`${bareUrl}/rates`, { body, seconds });
    const rates = await load(`${api}/rates`, { body, seconds, headers });
    const bareGet = await load(`${bareUrl}/carriers`, { seconds });
    const get = await load(`${api}/carriers`, { seconds, headers });
    await bare.stop();
    const peakRssBytes = shipd.peakRss();
    const threads = shipd.threads();

    const ratio = rates.requestsPerSecond / baseline.requestsPerSecond;
    const getRatio = get.requestsPerSecond / bareGet.requestsPerSecond;
    const ok = rates.non2xx === 0 && rates.errors === 0 && get.non2xx === 0 && get.errors === 0;
    console.error(`POST /rates: ${sample.rates.length} rates from 3 simulated carriers per request, ${shipd.database}, 50 connections, ${seconds} s each`);
    console.error(row('bare Fastify, same body and schema', baseline));
    console.error(row('shipd POST /rates', rates));
    console.error(`ratio ${ratio.toFixed(2)} (goal ≥ ${ratesGoal.ratio})   p99 ${rates.p99Ms} ms (goal < ${ratesGoal.p99Ms} ms)`);
    console.error(row('bare Fastify GET, same answer', bareGet));
    console.error(row('shipd GET /carriers', get));
    console.error(`ratio ${getRatio.toFixed(2)} (goal ≥ ${carriersGoal.ratio})`);
    console.error(`shipd peak RSS ${megabytes(peakRssBytes)}; V8 heaps at their peaks: ${describeThreads(threads)}`);
    if (!ok) console.error('shipd answered errors under load');
    return [
      {
        benchmark: 'rates: POST /rates',
        database: shipd.database,
        value: rates.requestsPerSecond,
        unit: 'req/s',
        baselines: [{ name: 'bare Fastify route, same body and schema', value: baseline.requestsPerSecond, unit: 'req/s' }],
        p99Ms: rates.p99Ms,
        peakRssBytes,
        threads,
        goals: [
          { text: `ratio ≥ ${ratesGoal.ratio}`, met: ratio >= ratesGoal.ratio },
          { text: `p99 < ${ratesGoal.p99Ms} ms`, met: rates.p99Ms < ratesGoal.p99Ms },
          ...peakRssGoal(peakRssBytes),
        ],
        ok,
      },
      {
        benchmark: 'carriers: GET /carriers',
        database: shipd.database,
        value: get.requestsPerSecond,
        unit: 'req/s',
        baselines: [{ name: 'bare Fastify GET route, same answer', value: bareGet.requestsPerSecond, unit: 'req/s' }],
        p99Ms: get.p99Ms,
        goals: [{ text: `ratio ≥ ${carriersGoal.ratio}`, met: getRatio >= carriersGoal.ratio }],
        ok,
      },
    ];
  } finally {
    await shipd.stop();
  }
}

if (isMain(import.meta.url)) {
  const results = await benchRates(Number(process.env.BENCH_SECONDS ?? 10), process.env.BENCH_DATABASE_URL);
  if (results.some((r) => !r.ok)) process.exit(1);
}
