// npm run bench:rates — POST /rates throughput and p99 on SQLite, beside a bare Fastify route that validates
// the same body with the same schema, measured in the same run. Goal: at least 0.3 of the bare route's
// requests per second, and p99 under 25 ms, at 50 connections.
import { load, row, startProcess, startShipd } from './lib.ts';

const seconds = Number(process.env.BENCH_SECONDS ?? 10);
const body = JSON.stringify({
  ship_from: { street1: '1100 Congress Ave', city: 'Austin', state: 'TX', zip: '78701' },
  ship_to: { name: 'Ada Lovelace', street1: '415 Mission St', city: 'San Francisco', state: 'CA', zip: '94105' },
  parcel: { weight: { value: 2, unit: 'lb' }, dimensions: { length: 10, width: 8, height: 4, unit: 'in' } },
});

const shipd = await startShipd();
const check = await fetch(`${shipd.url}/api/integrations/v1/rates`, { method: 'POST', body, headers: { 'content-type': 'application/json', authorization: `Bearer ${shipd.key}` } });
const sample = (await check.json()) as { rates: unknown[] };
if (check.status !== 200 || sample.rates.length === 0) throw new Error(`POST /rates answered ${check.status}`);

const bare = await startProcess(['--import', 'tsx', 'bench/bare-server.ts'], { PORT: '0', BARE_ANSWER: JSON.stringify(sample) }, /listening (\d+)/);
const baseline = await load(`http://127.0.0.1:${bare.match[1]}/rates`, { body, seconds });
await bare.stop();

const rates = await load(`${shipd.url}/api/integrations/v1/rates`, { body, seconds, headers: { authorization: `Bearer ${shipd.key}` } });
await shipd.stop();

const ratio = rates.requestsPerSecond / baseline.requestsPerSecond;
console.error(`POST /rates: ${sample.rates.length} rates from 3 simulated carriers per request, SQLite, 50 connections, ${seconds} s each`);
console.error(row('bare Fastify, same body and schema', baseline));
console.error(row('shipd POST /rates', rates));
console.error(`ratio ${ratio.toFixed(2)} (goal ≥ 0.30)   p99 ${rates.p99Ms} ms (goal < 25 ms)`);
if (rates.non2xx > 0 || rates.errors > 0) {
  console.error('shipd answered errors under load');
  process.exit(1);
}
