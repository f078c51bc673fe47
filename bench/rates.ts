// npm run bench:rates — POST /rates throughput and p99, beside a bare Fastify route that validates the same body
// with the same schema, measured in the same run. Goal: at least 0.3 of the bare route's requests per second, and
// p99 under 25 ms, at 50 connections. On SQLite, or on PostgreSQL with BENCH_DATABASE_URL=postgres://… (a fresh
// database made on that server, dropped after).
import { isMain, load, megabytes, row, startProcess, startShipd, type Result } from './lib.ts';

const body = JSON.stringify({
  ship_from: { street1: '1100 Congress Ave', city: 'Austin', state: 'TX', zip: '78701' },
  ship_to: { name: 'Ada Lovelace', street1: '415 Mission St', city: 'San Francisco', state: 'CA', zip: '94105' },
  parcel: { weight: { value: 2, unit: 'lb' }, dimensions: { length: 10, width: 8, height: 4, unit: 'in' } },
});

export async function benchRates(seconds: number, databaseUrl: string | undefined): Promise<Result> {
  const shipd = await startShipd(databaseUrl);
  try {
    const check = await fetch(`${shipd.url}/api/integrations/v1/rates`, { method: 'POST', body, headers: { 'content-type': 'application/json', authorization: `Bearer ${shipd.key}` } });
    const sample = (await check.json()) as { rates: unknown[] };
    if (check.status !== 200 || sample.rates.length === 0) throw new Error(`POST /rates answered ${check.status}`);

    const bare = await startProcess(['--import', 'tsx', 'bench/bare-server.ts'], { PORT: '0', BARE_ANSWER: JSON.stringify(sample) }, /listening (\d+)/);
    const baseline = await load(`http://127.0.0.1:${bare.match[1]}/rates`, { body, seconds });
    await bare.stop();

    const rates = await load(`${shipd.url}/api/integrations/v1/rates`, { body, seconds, headers: { authorization: `Bearer ${shipd.key}` } });
    const peakRssBytes = shipd.peakRss();

    const ratio = rates.requestsPerSecond / baseline.requestsPerSecond;
    const ok = rates.non2xx === 0 && rates.errors === 0;
    console.error(`POST /rates: ${sample.rates.length} rates from 3 simulated carriers per request, ${shipd.database}, 50 connections, ${seconds} s each`);
    console.error(row('bare Fastify, same body and schema', baseline));
    console.error(row('shipd POST /rates', rates));
    console.error(`ratio ${ratio.toFixed(2)} (goal ≥ 0.30)   p99 ${rates.p99Ms} ms (goal < 25 ms)   shipd peak RSS ${megabytes(peakRssBytes)}`);
    if (!ok) console.error('shipd answered errors under load');
    return {
      benchmark: 'rates: POST /rates',
      database: shipd.database,
      value: rates.requestsPerSecond,
      unit: 'req/s',
      baselines: [{ name: 'bare Fastify route, same body and schema', value: baseline.requestsPerSecond, unit: 'req/s' }],
      p99Ms: rates.p99Ms,
      peakRssBytes,
      ok,
    };
  } finally {
    await shipd.stop();
  }
}

if (isMain(import.meta.url)) {
  const result = await benchRates(Number(process.env.BENCH_SECONDS ?? 10), process.env.BENCH_DATABASE_URL);
  if (!result.ok) process.exit(1);
}
