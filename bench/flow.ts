// npm run bench:flow — the order push flow end to end: create an order, shop its rates, buy the cheapest rate of
// UPS, USPS and FedEx in turn, download the PDF label. Flows per second are printed beside two baselines measured
// in the same run: the label renderer's own rate (PDF labels rendered per second in this process, half before the
// flows and half after, so that the machine's drift over the run weighs on both alike) and the database's raw rate
// (order rows inserted through Kysely, one per transaction, as many in flight as flows). Goal: at least 100 flows/s,
// and the flow at least 0.6 of the renderer's rate. On SQLite, or on PostgreSQL with
// BENCH_DATABASE_URL=postgres://… (a fresh database made on that server, dropped after). BENCH_CONCURRENCY flows in
// flight (16: with 8, the two cores idled a sixth of the time between round trips), after BENCH_WARMUP_SECONDS (10)
// of the same load.
import { availableParallelism } from 'node:os';
import { Connection } from './http-client.ts';
import { labelsPerSecond } from './label-renderer.ts';
import { describeThreads, idleCoreSeconds, isMain, megabytes, peakRssGoal, sampleOrder, startShipd, type Result, type ThreadMemory } from './lib.ts';
import { rawInsertsPerSecond } from './raw-insert.ts';

type Answer = { id: string; rates: { id: string; carrier: string }[]; label_url: string };

// Flows take the carriers in turn, as the renderer's own measure does, so both render the same mix of labels
// (a UPS label, with its MaxiCode, costs twice a USPS one).
const carriers = ['ups', 'usps', 'fedex'];

export async function benchFlow(seconds: number, databaseUrl: string | undefined, concurrency = 16, warmupSeconds = 10): Promise<Result> {
  const renderedBefore = await labelsPerSecond('pdf', seconds / 2);
  const shipd = await startShipd(databaseUrl);
  const api = '/api/integrations/v1';
  const authorization = `authorization: Bearer ${shipd.key}\r\n`;
  const { hostname, port } = new URL(shipd.url);
  // One connection per flow in flight, each flow's four requests on it in turn.
  const connections = Array.from({ length: concurrency }, () => new Connection(hostname, Number(port)));

  async function call(connection: Connection, path: string, body: unknown): Promise<Answer> {
    const res = await connection.request('POST', path, authorization, JSON.stringify(body));
    if (res.status >= 300) throw new Error(`POST ${path} answered ${res.status}: ${res.body.toString()}`);
    return JSON.parse(res.body.toString()) as Answer;
  }

  /** One whole flow, and the bytes of the label it ends with. */
  async function flow(connection: Connection, n: number): Promise<number> {
    const created = await call(connection, `${api}/orders`, { ...sampleOrder, order_number: `bench-${n}` });
    const shop = await call(connection, `${api}/rates`, { order_id: created.id });
    const cheapest = shop.rates.find((r) => r.carrier === carriers[Math.abs(n) % carriers.length])!;
    const shipment = await call(connection, `${api}/shipments`, { order_id: created.id, rate_id: cheapest.id });
    // The label link is fetched as a printer would: without the API key.
    const label = new URL(shipment.label_url);
    const res = await connection.request('GET', `${label.pathname}${label.search}`, '');
    if (res.status !== 200 || res.body.subarray(0, 5).toString() !== '%PDF-') throw new Error(`the label answered ${res.status}`);
    return res.body.length;
  }

  /** Flows back to back on every connection until `until` (a performance.now() time); their latencies. */
  async function run(until: number, first: number): Promise<number[]> {
    const latencies: number[] = [];
    let n = first;
    await Promise.all(
      connections.map(async (connection) => {
        while (performance.now() < until) {
          const t = performance.now();
          await flow(connection, n++);
          latencies.push(performance.now() - t);
        }
      }),
    );
    return latencies;
  }

  let latencies: number[] = [];
  let flowsPerSecond: number;
  let peakRssBytes: number | undefined;
  let threads: ThreadMemory[] = [];
  let serverCpuMsPerFlow: number | undefined;
  let mainCpuMsPerFlow: number | undefined;
  let clientCpuMsPerFlow = 0;
  let idleShare = 0;
  try {
    // A server runs all day: the flow is measured once V8 has compiled its hot code, which on two cores shared
    // with the load takes several seconds and otherwise costs the first seconds' flows a third more CPU.
    await run(performance.now() + warmupSeconds * 1000, -1_000_000);
    const serverCpuBefore = shipd.cpuSeconds();
    const mainCpuBefore = shipd.cpuSeconds('main');
    const clientCpuBefore = process.cpuUsage();
    const idleBefore = idleCoreSeconds();
    const begin = performance.now();
    const end = begin + seconds * 1000;
    latencies = await run(end, 0);
    const elapsedSeconds = (performance.now() - begin) / 1000;
    flowsPerSecond = latencies.length / elapsedSeconds;
    idleShare = (idleCoreSeconds() - idleBefore) / (elapsedSeconds * availableParallelism());
    const serverCpu = shipd.cpuSeconds();
    const mainCpu = shipd.cpuSeconds('main');
    if (mainCpu !== undefined && mainCpuBefore !== undefined) mainCpuMsPerFlow = ((mainCpu - mainCpuBefore) * 1000) / latencies.length;
    const clientCpu = process.cpuUsage(clientCpuBefore);
    if (serverCpu !== undefined && serverCpuBefore !== undefined) serverCpuMsPerFlow = ((serverCpu - serverCpuBefore) * 1000) / latencies.length;
    clientCpuMsPerFlow = (clientCpu.user + clientCpu.system) / 1000 / latencies.length;
    peakRssBytes = shipd.peakRss();
    threads = shipd.threads();
  } finally {
    for (const c of connections) c.close();
    await shipd.stop();
  }

  const renderedAfter = await labelsPerSecond('pdf', seconds / 2);
  const rendered = (renderedBefore + renderedAfter) / 2;
  const inserts = await rawInsertsPerSecond(databaseUrl, seconds, concurrency);
  latencies.sort((a, b) => a - b);
  const p = (q: number) => latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))]!;
  const ratio = flowsPerSecond / rendered;
  console.error(`order → rates → buy → PDF label, ${shipd.database}, ${concurrency} flows in flight, ${seconds} s`);
  console.error(`flows            ${flowsPerSecond.toFixed(0).padStart(6)} /s   p50 ${p(0.5).toFixed(0)} ms   p99 ${p(0.99).toFixed(0)} ms   (${latencies.length} flows)   shipd peak RSS ${megabytes(peakRssBytes)}`);
  console.error(`memory           V8 heaps at their peaks: ${describeThreads(threads)}`);
  console.error(`CPU per flow     shipd ${serverCpuMsPerFlow?.toFixed(2) ?? '—'} ms (its event loop's thread ${mainCpuMsPerFlow?.toFixed(2) ?? '—'} ms), load generator ${clientCpuMsPerFlow.toFixed(2)} ms   (a label render alone: ${(1000 / rendered).toFixed(2)} ms)`);
  console.error(`label renderer   ${rendered.toFixed(0).padStart(6)} PDF labels/s in one process   (${renderedBefore.toFixed(0)} before the flows, ${renderedAfter.toFixed(0)} after)`);
  console.error(`raw inserts      ${inserts.toFixed(0).padStart(6)} order rows/s on ${shipd.database} through Kysely, one per transaction, ${concurrency} in flight   (flows ÷ inserts ${(flowsPerSecond / inserts).toFixed(3)})`);
  // The load generator shares the server's cores, so the cores over everything a flow costs bounds the rate.
  if (serverCpuMsPerFlow !== undefined) {
    const cores = availableParallelism();
    const ceiling = (cores * 1000) / (serverCpuMsPerFlow + clientCpuMsPerFlow);
    const budget = (cores * 1000) / (0.6 * rendered);
    console.error(`CPU ceiling      ${cores} cores ÷ ${(serverCpuMsPerFlow + clientCpuMsPerFlow).toFixed(2)} ms per flow = at most ${ceiling.toFixed(0)} flows/s; 0.6 of the renderer needs ≤ ${budget.toFixed(2)} ms per flow; the cores idled ${(100 * idleShare).toFixed(1)} % of the time`);
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
    threads,
    goals: [{ text: 'flows ≥ 100/s', met: flowsPerSecond >= 100 }, ...peakRssGoal(peakRssBytes)],
    ok: true,
  };
}

if (isMain(import.meta.url)) {
  await benchFlow(Number(process.env.BENCH_SECONDS ?? 10), process.env.BENCH_DATABASE_URL, Number(process.env.BENCH_CONCURRENCY ?? 16), Number(process.env.BENCH_WARMUP_SECONDS ?? 10));
}
