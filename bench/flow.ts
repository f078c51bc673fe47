// npm run bench:flow — the order push flow end to end: create an order, shop its rates, buy the cheapest rate of
// UPS, USPS and FedEx in turn, download the PDF label. Flows per second are printed beside two baselines measured
// in the same run: the label renderer's own rate (PDF labels rendered per second in this process) and the
// database's raw rate (order rows inserted through Kysely, one per transaction, as many in flight as flows). Goal:
// at least 100 flows/s, and the flow at least 0.6 of the renderer's rate. On SQLite, or on PostgreSQL with
// BENCH_DATABASE_URL=postgres://… (a fresh database made on that server, dropped after).
import { availableParallelism } from 'node:os';
import { Pool } from 'undici';
import { labelsPerSecond } from './label-renderer.ts';
import { isMain, megabytes, sampleOrder, startShipd, type Result } from './lib.ts';
import { rawInsertsPerSecond } from './raw-insert.ts';

type Answer = { id: string; rates: { id: string; carrier: string }[]; label_url: string };

// Flows take the carriers in turn, as the renderer's own measure does, so both render the same mix of labels
// (a UPS label, with its MaxiCode, costs twice a USPS one).
const carriers = ['ups', 'usps', 'fedex'];

export async function benchFlow(seconds: number, databaseUrl: string | undefined, concurrency = 8): Promise<Result> {
  const shipd = await startShipd(databaseUrl);
  const api = '/api/integrations/v1';
  const headers = { authorization: `Bearer ${shipd.key}`, 'content-type': 'application/json' };
  // undici's own pool, as autocannon does for the other benchmarks: the load generator shares the server's two
  // cores, and fetch() costs it three times the CPU per request (measured: 0.8 against 0.25 ms).
  const pool = new Pool(shipd.url, { connections: concurrency });

  async function call(method: 'GET' | 'POST', path: string, body?: unknown): Promise<Answer> {
    const res = await pool.request({ method, path, headers, ...(body !== undefined && { body: JSON.stringify(body) }) });
    if (res.statusCode >= 300) throw new Error(`${method} ${path} answered ${res.statusCode}: ${await res.body.text()}`);
    return res.body.json() as Promise<Answer>;
  }

  /** One whole flow, and the bytes of the label it ends with. */
  async function flow(n: number): Promise<number> {
    const created = await call('POST', `${api}/orders`, { ...sampleOrder, order_number: `bench-${n}` });
    const shop = await call('POST', `${api}/rates`, { order_id: created.id });
    const cheapest = shop.rates.find((r) => r.carrier === carriers[Math.abs(n) % carriers.length])!;
    const shipment = await call('POST', `${api}/shipments`, { order_id: created.id, rate_id: cheapest.id });
    // The label link is fetched as a printer would: without the API key.
    const label = new URL(shipment.label_url);
    const res = await pool.request({ method: 'GET', path: `${label.pathname}${label.search}` });
    const pdf = Buffer.from(await res.body.arrayBuffer());
    if (res.statusCode !== 200 || pdf.subarray(0, 5).toString() !== '%PDF-') throw new Error(`the label answered ${res.statusCode}`);
    return pdf.length;
  }

  let started = 0;
  const latencies: number[] = [];
  let flowsPerSecond: number;
  let peakRssBytes: number | undefined;
  let serverCpuMsPerFlow: number | undefined;
  let mainCpuMsPerFlow: number | undefined;
  let clientCpuMsPerFlow = 0;
  try {
    for (let i = 0; i < 20; i++) await flow(-i);
    const serverCpuBefore = shipd.cpuSeconds();
    const mainCpuBefore = shipd.cpuSeconds('main');
    const clientCpuBefore = process.cpuUsage();
    const begin = performance.now();
    const end = begin + seconds * 1000;
    await Promise.all(
      Array.from({ length: concurrency }, async () => {
        while (performance.now() < end) {
          const t = performance.now();
          await flow(started++);
          latencies.push(performance.now() - t);
        }
      }),
    );
    flowsPerSecond = latencies.length / ((performance.now() - begin) / 1000);
    const serverCpu = shipd.cpuSeconds();
    const mainCpu = shipd.cpuSeconds('main');
    if (mainCpu !== undefined && mainCpuBefore !== undefined) mainCpuMsPerFlow = ((mainCpu - mainCpuBefore) * 1000) / latencies.length;
    const clientCpu = process.cpuUsage(clientCpuBefore);
    if (serverCpu !== undefined && serverCpuBefore !== undefined) serverCpuMsPerFlow = ((serverCpu - serverCpuBefore) * 1000) / latencies.length;
    clientCpuMsPerFlow = (clientCpu.user + clientCpu.system) / 1000 / latencies.length;
    peakRssBytes = shipd.peakRss();
  } finally {
    await pool.close();
    await shipd.stop();
  }

  const rendered = await labelsPerSecond('pdf', seconds);
  const inserts = await rawInsertsPerSecond(databaseUrl, seconds, concurrency);
  latencies.sort((a, b) => a - b);
  const p = (q: number) => latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))]!;
  const ratio = flowsPerSecond / rendered;
  console.error(`order → rates → buy → PDF label, ${shipd.database}, ${concurrency} flows in flight, ${seconds} s`);
  console.error(`flows            ${flowsPerSecond.toFixed(0).padStart(6)} /s   p50 ${p(0.5).toFixed(0)} ms   p99 ${p(0.99).toFixed(0)} ms   (${latencies.length} flows)   shipd peak RSS ${megabytes(peakRssBytes)}`);
  console.error(`CPU per flow     shipd ${serverCpuMsPerFlow?.toFixed(2) ?? '—'} ms (its event loop's thread ${mainCpuMsPerFlow?.toFixed(2) ?? '—'} ms), load generator ${clientCpuMsPerFlow.toFixed(2)} ms   (a label render alone: ${(1000 / rendered).toFixed(2)} ms)`);
  console.error(`label renderer   ${rendered.toFixed(0).padStart(6)} PDF labels/s in one process`);
  console.error(`raw inserts      ${inserts.toFixed(0).padStart(6)} order rows/s on ${shipd.database} through Kysely, one per transaction, ${concurrency} in flight   (flows ÷ inserts ${(flowsPerSecond / inserts).toFixed(3)})`);
  // The load generator shares the server's cores, so the cores over everything a flow costs bounds the rate.
  if (serverCpuMsPerFlow !== undefined) {
    const cores = availableParallelism();
    const ceiling = (cores * 1000) / (serverCpuMsPerFlow + clientCpuMsPerFlow);
    const budget = (cores * 1000) / (0.6 * rendered);
    console.error(`CPU ceiling      ${cores} cores ÷ ${(serverCpuMsPerFlow + clientCpuMsPerFlow).toFixed(2)} ms per flow = at most ${ceiling.toFixed(0)} flows/s; 0.6 of the renderer needs ≤ ${budget.toFixed(2)} ms per flow`);
  }
  console.error(`ratio ${ratio.toFixed(2)} (goal ≥ 0.60)   flows ${flowsPerSecond.toFixed(0)}/s (goal ≥ 100)`);
  return {
    benchmark: 'flow: order → rates → buy → label',
    database: shipd.database,
    value: flowsPerSecond,
    unit: 'flows/s',
    baselines: [
      { name: 'PDF label renderer alone', value: rendered, unit: 'labels/s' },
      { name: `raw order INSERTs, 1 per transaction, ${concurrency} in flight`, value: inserts, unit: 'rows/s' },
    ],
    p99Ms: p(0.99),
    peakRssBytes,
    ok: true,
  };
}

if (isMain(import.meta.url)) {
  await benchFlow(Number(process.env.BENCH_SECONDS ?? 10), process.env.BENCH_DATABASE_URL, Number(process.env.BENCH_CONCURRENCY ?? 8));
}
