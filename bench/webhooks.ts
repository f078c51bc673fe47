// npm run bench:webhooks — webhook delivery end to end: a real shipd (its worker running, loopback http allowed)
// delivers order.created to a receiver in this process, which answers 204 at once, notes when each delivery
// arrived and its webhook-id, and verifies a sample of signatures with the standardwebhooks library. Four ways
// to make events, each printed on its own:
//   http   orders POSTed by autocannon as fast as its BENCH_CONNECTIONS (50) connections are answered, to
//          `shipd serve`, where the API and the worker share one thread;
//   paced  orders POSTed to `shipd serve` at a steady BENCH_ORDER_RATE (1,200/s), so the API is not saturated;
//   bulk   events written to the outbox with recordEvent at a steady BENCH_RATE (2,000/s), in transactions of
//          up to BENCH_BATCH (100), by a shipd (API and worker, as `serve` starts them, from the build) in a
//          child process of this script (bench/webhooks-child.mjs): the delivery side alone;
//   drain  the same child writes BENCH_BACKLOG (20,000) events with its worker stopped, then starts it: deliveries
//          per second until the last arrives are the delivery side's capacity, with nothing else running. Beside
//          it, a baseline: shipd's own attempt code in a loop with no database (bench/bare-sender.ts), sending to
//          a receiver like this one.
// Each runs BENCH_WARMUP_SECONDS (3) of the same load (drain: a fifth of the backlog), waits for it to be
// delivered, then BENCH_SECONDS (10) measured. Goal: at least 1,000 deliveries/s on SQLite, and event-to-first-attempt
// latency (arrival at the receiver minus the event's created_at, the body's `timestamp`) p50 under 50 ms; every
// event exactly once. BENCH_MODE=http,paced,bulk,drain picks modes (the first three by default);
// BENCH_DATABASE_URL=postgres://… runs on PostgreSQL (a fresh database made on that server, dropped after);
// BENCH_PROFILE_DIR writes the server's CPU profile; BENCH_TIMELINE=1 prints arrivals and latency per half second.
import { execFile, fork } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import autocannon from 'autocannon';
import { Pool } from 'undici';
import { Webhook } from 'standardwebhooks';
import { buildIfStale, describeThreads, freshDatabase, isMain, megabytes, peakRss, peakRssGoal, sampleOrder as order, startCommand, startShipd, threadMemory, type BenchDatabase, type DatabaseName, type Result, type ThreadMemory } from './lib.ts';

const connections = Number(process.env.BENCH_CONNECTIONS ?? 50);
const rate = Number(process.env.BENCH_RATE ?? 2000);
/** Orders per second in paced mode. */
const orderRate = Number(process.env.BENCH_ORDER_RATE ?? 1200);
/** Most events in one outbox transaction in bulk mode. */
const batch = Number(process.env.BENCH_BATCH ?? 100);
/** Events written before the worker starts in drain mode. */
const backlog = Number(process.env.BENCH_BACKLOG ?? 20_000);
/** Every how many deliveries the receiver checks the signature (and the first few always). */
const verifyEvery = 20;

type FromChild = { ready: { url: string; key: string } } | { inserted: number };
type ToChild =
  | { start: { rate: number; seconds: number; batch: number; template: Record<string, unknown> } }
  | { backlog: { count: number; batch: number; template: Record<string, unknown> } }
  | { deliver: true }
  | { stop: true };

// ————————————————————————————————————————————————————— the receiver

interface Receiver {
  url: string;
  secret: string;
  /** Every delivery in arrival order: its webhook-id, Date.now() on arrival, and arrival − created_at. */
  ids: string[];
  arrivals: number[];
  latencies: number[];
  verified: number;
  badSignatures: number;
  close(): Promise<void>;
}

async function startReceiver(): Promise<Receiver> {
  const receiver: Receiver = { url: '', secret: '', ids: [], arrivals: [], latencies: [], verified: 0, badSignatures: 0, close: async () => {} };
  let verifier: Webhook | undefined;
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const at = Date.now();
      res.writeHead(204).end();
      const body = Buffer.concat(chunks).toString('utf8');
      const id = String(req.headers['webhook-id']);
      // The body is {"type":…,"timestamp":…,"data":…}: the timestamp is near the start, no need to parse it all.
      const timestamp = /"timestamp":"([^"]+)"/.exec(body.slice(0, 200))?.[1];
      const n = receiver.ids.length;
      receiver.ids.push(id);
      receiver.arrivals.push(at);
      receiver.latencies.push(timestamp ? at - Date.parse(timestamp) : NaN);
      if (n < 10 || n % verifyEvery === 0) {
        verifier ??= new Webhook(receiver.secret);
        try {
          const event = verifier.verify(body, {
            'webhook-id': id,
            'webhook-timestamp': String(req.headers['webhook-timestamp']),
            'webhook-signature': String(req.headers['webhook-signature']),
          }) as { type?: string; timestamp?: string };
          if (event.type !== 'order.created' || event.timestamp !== timestamp) throw new Error('unexpected body');
          receiver.verified++;
        } catch {
          receiver.badSignatures++;
        }
      }
    });
  });
  server.keepAliveTimeout = 30_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (!address || typeof address === 'string') throw new Error('the receiver has no address');
  receiver.url = `http://127.0.0.1:${address.port}/hooks`;
  receiver.close = () =>
    new Promise((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return receiver;
}

// ————————————————————————————————————————————————————— the ways to make events

interface Shipd {
  url: string;
  key: string;
  database: DatabaseName;
  peakRss(): number | undefined;
  threads(): ThreadMemory[];
  stop(): Promise<void>;
}

interface Made {
  /** Events the load made, by its own count (2xx answers, or rows inserted). */
  events: number;
  /** Date.now() when the load started and ended (drain: when the worker started and the last event arrived). */
  start: number;
  end: number;
  note: string;
}

/** shipd in a child process running this file: the API, the worker, and the bulk event writer. */
async function startChild(database: BenchDatabase): Promise<Shipd & { send(m: ToChild): void; next(): Promise<FromChild> }> {
  const profile = process.env.BENCH_PROFILE_DIR ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_PROFILE_DIR}`] : [];
  const memoryDir = mkdtempSync(join(tmpdir(), 'shipd-bench-memory-'));
  // shipd's build, as `npm start` runs it, with no TypeScript loader in the process whose memory is measured.
  buildIfStale();
  const child = fork(join(import.meta.dirname, 'webhooks-child.mjs'), [], {
    // Its request log is read and dropped, as startShipd does with a server's.
    stdio: ['ignore', 'pipe', 'inherit', 'ipc'],
    execArgv: [...startCommand().options, '--require', join(import.meta.dirname, 'memory-probe.mjs'), ...profile],
    env: {
      ...process.env,
      ...startCommand().env,
      BENCH_MEMORY_DIR: memoryDir,
      HOST: '127.0.0.1',
      SHIPD_RATE_LIMIT_PER_SECOND: '1000000',
      SHIPD_RATE_LIMIT_BURST: '1000000',
      SHIPD_WEBHOOKS_ALLOW_INSECURE: 'true',
      ...database.env,
    },
  });
  child.stdout!.resume();
  const inbox: FromChild[] = [];
  const waiting: ((m: FromChild) => void)[] = [];
  child.on('message', (m: FromChild) => {
    const w = waiting.shift();
    if (w) w(m);
    else inbox.push(m);
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const next = () =>
    new Promise<FromChild>((resolve, reject) => {
      const m = inbox.shift();
      if (m) return resolve(m);
      waiting.push(resolve);
      void exited.then(() => reject(new Error('the bulk shipd exited')));
    });
  const ready = await next();
  if (!('ready' in ready)) throw new Error('the bulk shipd did not start');
  return {
    ...ready.ready,
    database: database.name,
    peakRss: () => peakRss(child.pid),
    threads: () => threadMemory(memoryDir, child.pid),
    send: (m) => child.send(m),
    next,
    stop: async () => {
      child.send({ stop: true } satisfies ToChild);
      await exited;
      rmSync(memoryDir, { recursive: true, force: true });
    },
  };
}

/** Orders POSTed by autocannon's connections as fast as they are answered: the API takes all it can. */
async function driveHttp(shipd: Shipd, seconds: number): Promise<Made> {
  const start = Date.now();
  const result = await autocannon({
    url: `${shipd.url}/api/integrations/v1/orders`,
    method: 'POST',
    body: JSON.stringify(order),
    headers: { 'content-type': 'application/json', authorization: `Bearer ${shipd.key}` },
    connections,
    duration: seconds,
  });
  const end = Date.now();
  const failed = result.non2xx + result.errors + result.timeouts;
  return {
    events: result['2xx'],
    start,
    end,
    note: `POST /orders as fast as ${connections} connections go: ${result.requests.average.toFixed(0)} req/s, p50 ${result.latency.p50} ms, p99 ${result.latency.p99} ms${failed ? `, ${failed} failed` : ''}`,
  };
}

/**
 * Orders POSTed at an even rate, whatever the answers' pace (autocannon's own rate limit sends each second's
 * requests in one burst at its start, which would measure the bursts).
 */
async function drivePaced(shipd: Shipd, seconds: number): Promise<Made> {
  const pool = new Pool(shipd.url, { connections });
  const body = JSON.stringify(order);
  const headers = { 'content-type': 'application/json', authorization: `Bearer ${shipd.key}` };
  const latencies: number[] = [];
  const pending = new Set<Promise<void>>();
  let sent = 0;
  let created = 0;
  let failed = 0;
  const start = Date.now();
  const began = performance.now();
  for (;;) {
    const elapsed = performance.now() - began;
    if (elapsed >= seconds * 1000) break;
    for (let due = Math.floor((elapsed / 1000) * orderRate) - sent; due > 0; due--) {
      sent++;
      const t = performance.now();
      const p = pool
        .request({ path: '/api/integrations/v1/orders', method: 'POST', headers, body })
        .then(async (res) => {
          await res.body.dump();
          if (res.statusCode === 201) created++;
          else failed++;
          latencies.push(performance.now() - t);
        })
        .catch(() => {
          failed++;
        })
        .finally(() => pending.delete(p));
      pending.add(p);
    }
    await new Promise((r) => setTimeout(r, 2));
  }
  const end = Date.now();
  await Promise.all(pending);
  await pool.close();
  latencies.sort((a, b) => a - b);
  return {
    events: created,
    start,
    end,
    note: `POST /orders at a steady ${orderRate}/s over up to ${connections} connections: p50 ${quantile(latencies, 0.5).toFixed(0)} ms, p99 ${quantile(latencies, 0.99).toFixed(0)} ms${failed ? `, ${failed} failed` : ''}`,
  };
}

// ————————————————————————————————————————————————————— one run

const api = (shipd: Shipd) => `${shipd.url}/api/integrations/v1`;

async function call(shipd: Shipd, method: string, path: string, body?: unknown): Promise<Record<string, unknown>> {
  const res = await fetch(`${api(shipd)}${path}`, {
    method,
    headers: { authorization: `Bearer ${shipd.key}`, 'content-type': 'application/json' },
    ...(body !== undefined && { body: JSON.stringify(body) }),
  });
  if (res.status >= 300) throw new Error(`${method} ${path} answered ${res.status}: ${await res.text()}`);
  return (await res.json()) as Record<string, unknown>;
}

/** Every order.created event of the key, through the API. */
async function eventIds(shipd: Shipd): Promise<string[]> {
  const ids: string[] = [];
  let cursor: string | null = null;
  do {
    const page = (await call(shipd, 'GET', `/events?type=order.created&limit=100${cursor ? `&cursor=${cursor}` : ''}`)) as { data: { id: string }[]; next_cursor: string | null };
    for (const e of page.data) ids.push(e.id);
    cursor = page.next_cursor;
  } while (cursor);
  return ids;
}

function quantile(sorted: number[], q: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? NaN;
}

/** Waits until `expected` distinct events have arrived, or nothing has for 10 s. */
async function drained(receiver: Receiver, expected: number): Promise<void> {
  let last = receiver.ids.length;
  let lastChange = Date.now();
  const seen = new Set<string>();
  let counted = 0;
  for (;;) {
    for (; counted < receiver.ids.length; counted++) seen.add(receiver.ids[counted]!);
    if (seen.size >= expected || Date.now() - lastChange > 10_000) return;
    await new Promise((r) => setTimeout(r, 20));
    if (receiver.ids.length !== last) [last, lastChange] = [receiver.ids.length, Date.now()];
  }
}

interface Options {
  seconds: number;
  warmupSeconds: number;
  /** A postgres:// URL, or undefined for SQLite. */
  databaseUrl: string | undefined;
}

/** Each mode's heading, and its name in bench/all.ts's table. */
const modeNames: Record<string, { title: string; short: string }> = {
  http: { title: 'http: orders POSTed over HTTP, closed loop', short: 'webhooks http: orders over HTTP, closed loop' },
  paced: { title: `paced: orders POSTed over HTTP at a steady ${orderRate}/s`, short: `webhooks paced: ${orderRate.toLocaleString('en-US')} orders/s over HTTP` },
  bulk: { title: `bulk: events written with recordEvent at a steady ${rate}/s`, short: `webhooks bulk: ${rate.toLocaleString('en-US')} outbox events/s` },
  drain: { title: `drain: ${backlog} events in the outbox, delivered once the worker starts`, short: `webhooks drain: ${backlog.toLocaleString('en-US')} queued events` },
};

const root = join(import.meta.dirname, '..');

/** bench/bare-sender.ts to a receiver of its own: deliveries per second with no outbox behind them. */
async function bareDeliveries(seconds: number, secret: string, data: string): Promise<{ perSecond: number; ok: boolean }> {
  const receiver = await startReceiver();
  receiver.secret = secret;
  try {
    const { stdout } = await promisify(execFile)(process.execPath, ['--import', 'tsx', 'bench/bare-sender.ts'], {
      cwd: root,
      env: { ...process.env, BARE_URL: receiver.url, BARE_SECRET: secret, BARE_DATA: data, BARE_SECONDS: String(seconds) },
    });
    const [, delivered, failed, ms] = /delivered (\d+) failed (\d+) in (\d+)/.exec(stdout) ?? [];
    return { perSecond: Number(delivered) / (Number(ms) / 1000), ok: failed === '0' && receiver.verified > 0 && receiver.badSignatures === 0 };
  } finally {
    await receiver.close();
  }
}

async function run(mode: string, { seconds, warmupSeconds, databaseUrl }: Options): Promise<Result> {
  const database = mode === 'bulk' || mode === 'drain' ? await freshDatabase(databaseUrl) : undefined;
  const receiver = await startReceiver();
  let shipd: Shipd | undefined;
  let child: Awaited<ReturnType<typeof startChild>> | undefined;

  const measured = async (shipd: Shipd) => {
    const webhook = await call(shipd, 'POST', '/webhooks', { url: receiver.url, events: ['order.created'] });
    receiver.secret = String(webhook.secret);
    // One order first: it checks the path end to end and is the template of the bulk events.
    const sample = await call(shipd, 'POST', '/orders', order);
    await drained(receiver, 1);
    if (receiver.ids.length === 0) throw new Error('the first order was never delivered');

    let expected = 1;
    const drive = async (part: 'warm-up' | 'measured'): Promise<Made> => {
      const secs = part === 'warm-up' ? warmupSeconds : seconds;
      if (!child) return mode === 'paced' ? drivePaced(shipd, secs) : driveHttp(shipd, secs);
      if (mode === 'drain') {
        const count = part === 'warm-up' ? Math.round(backlog / 5) : backlog;
        const writing = Date.now();
        child.send({ backlog: { count, batch, template: sample } });
        const written = await child.next();
        const events = 'inserted' in written ? written.inserted : 0;
        const start = Date.now();
        child.send({ deliver: true });
        await drained(receiver, expected + events);
        const note = `${events} events written to the outbox in transactions of ${batch} in ${((start - writing) / 1000).toFixed(1)} s, the worker stopped`;
        return { events, start, end: receiver.arrivals.at(-1) ?? start, note };
      }
      const start = Date.now();
      child.send({ start: { rate, seconds: secs, batch, template: sample } });
      const done = await child.next();
      const end = Date.now();
      return { events: 'inserted' in done ? done.inserted : 0, start, end, note: `recordEvent at a steady ${rate}/s, in transactions of up to ${batch} every 10 ms` };
    };
    // A fresh process compiles its hot paths under the first seconds of load and falls behind meanwhile: the same
    // load warms it up, and is delivered, before the measured run.
    if (warmupSeconds > 0) {
      expected += (await drive('warm-up')).events;
      await drained(receiver, expected);
    }
    const measuredFrom = receiver.ids.length;
    const made = await drive('measured');
    const atEnd = receiver.ids.length;
    expected += made.events;
    await drained(receiver, expected);
    const drainedAt = receiver.arrivals.at(-1) ?? made.end;
    // A little longer, for any second delivery of an event already received.
    await new Promise((r) => setTimeout(r, 500));
    return { made, measuredFrom, atEnd, expected, drainedAt, created: await eventIds(shipd), sample: JSON.stringify(sample) };
  };
  // Everything started is stopped whatever happens, so a failed run leaves no server or database behind.
  let result: Awaited<ReturnType<typeof measured>>;
  let peakRssBytes: number | undefined;
  let threads: ThreadMemory[] = [];
  try {
    if (database) shipd = child = await startChild(database);
    else shipd = await startShipd(databaseUrl, { SHIPD_WEBHOOKS_ALLOW_INSECURE: 'true' });
    result = await measured(shipd);
    peakRssBytes = shipd.peakRss();
    threads = shipd.threads();
  } finally {
    await shipd?.stop();
    await receiver.close();
    await database?.drop();
  }
  const databaseName = shipd.database;
  const { made, measuredFrom, atEnd, expected, drainedAt, created } = result;
  // With the server stopped, so the two do not share the cores.
  const bare = mode === 'drain' ? await bareDeliveries(seconds, receiver.secret, result.sample) : undefined;

  // First arrival of each event; duplicates are later arrivals of an id already seen.
  const latency: number[] = [];
  const seen = new Set<string>();
  let duplicates = 0;
  for (let i = 0; i < receiver.ids.length; i++) {
    const id = receiver.ids[i]!;
    if (seen.has(id)) {
      duplicates++;
      continue;
    }
    seen.add(id);
    // Latency of the events the measured run made.
    if (i >= measuredFrom && receiver.arrivals[i]! - receiver.latencies[i]! >= made.start) latency.push(receiver.latencies[i]!);
  }
  const createdSet = new Set(created);
  const missing = created.filter((id) => !seen.has(id)).length;
  const unknown = [...seen].filter((id) => !createdSet.has(id)).length;
  const loadSeconds = (made.end - made.start) / 1000;
  const deliveriesPerSecond = (atEnd - measuredFrom) / loadSeconds;
  latency.sort((a, b) => a - b);

  if (process.env.BENCH_TIMELINE) {
    for (let t = made.start, i = measuredFrom; t < drainedAt; t += 500) {
      const window: number[] = [];
      for (; i < receiver.arrivals.length && receiver.arrivals[i]! < t + 500; i++) window.push(receiver.latencies[i]!);
      window.sort((a, b) => a - b);
      console.error(`    t+${((t - made.start) / 1000).toFixed(1)} s  ${String(window.length).padStart(5)} arrived   latency p50 ${quantile(window, 0.5)} ms  p99 ${quantile(window, 0.99)} ms`);
    }
  }
  const { title, short } = modeNames[mode]!;
  const p50 = quantile(latency, 0.5);
  const warmup = mode === 'drain' ? `a ${Math.round(backlog / 5)}-event warm-up` : `${seconds} s after a ${warmupSeconds} s warm-up`;
  console.error(`${title}, ${databaseName}, ${warmupSeconds > 0 ? warmup : 'no warm-up'}`);
  console.error(`  load               ${made.note}`);
  if (bare) {
    console.error(`  deliveries         ${deliveriesPerSecond.toFixed(0).padStart(6)} /s   from the worker's start to the last arrival, ${loadSeconds.toFixed(1)} s`);
    console.error(`  bare attempts      ${bare.perSecond.toFixed(0).padStart(6)} /s   shipd's attempt code in a loop, no database, ${seconds} s   (ratio ${(deliveriesPerSecond / bare.perSecond).toFixed(2)})`);
  } else {
    console.error(`  events created     ${(made.events / loadSeconds).toFixed(0).padStart(6)} /s   (${created.length} events in all, warm-up included)`);
    console.error(`  deliveries         ${deliveriesPerSecond.toFixed(0).padStart(6)} /s   received while the load ran`);
    console.error(`  backlog            ${expected - new Set(receiver.ids.slice(0, atEnd)).size} events undelivered when the load ended, all delivered ${Math.max(0, (drainedAt - made.end) / 1000).toFixed(1)} s later`);
    console.error(`  latency            p50 ${p50.toFixed(0)} ms   p99 ${quantile(latency, 0.99).toFixed(0)} ms   max ${quantile(latency, 1).toFixed(0)} ms   (created_at → first arrival, events of the measured run)`);
  }
  console.error(`  exactly once       ${seen.size} of ${created.length} events delivered, ${missing} missing, ${duplicates} duplicates, ${unknown} unknown ids`);
  console.error(`  signatures         ${receiver.verified} verified with standardwebhooks, ${receiver.badSignatures} failed${bare && !bare.ok ? '; the bare attempts failed or were not verified' : ''}`);
  console.error(`  shipd peak RSS     ${megabytes(peakRssBytes)}; V8 heaps at their peaks: ${describeThreads(threads)}`);
  const ok = missing === 0 && duplicates === 0 && unknown === 0 && receiver.badSignatures === 0 && receiver.verified > 0 && (bare?.ok ?? true);
  // A backlog's latency is how long it queued, so drain mode is judged on its rate alone.
  const met = Math.round(deliveriesPerSecond) >= 1000 && (bare !== undefined || p50 < 50);
  console.error(`  goal ≥ 1,000 deliveries/s${bare ? '' : ', p50 < 50 ms'}: ${met ? 'met' : 'not met'}${ok ? '' : '   DELIVERY CHECK FAILED'}`);
  return {
    benchmark: short,
    database: databaseName,
    value: deliveriesPerSecond,
    unit: 'deliveries/s',
    baselines: bare
      ? [{ name: "shipd's attempt code, no database", value: bare.perSecond, unit: 'deliveries/s' }]
      : [{ name: 'events created (the load)', value: made.events / loadSeconds, unit: 'events/s' }],
    ...(!bare && { p99Ms: quantile(latency, 0.99) }),
    peakRssBytes,
    threads,
    goals: [{ text: 'deliveries ≥ 1,000/s', met: Math.round(deliveriesPerSecond) >= 1000 }, ...(!bare ? [{ text: 'p50 < 50 ms', met: p50 < 50 }] : []), ...peakRssGoal(peakRssBytes)],
    ok,
  };
}

export async function benchWebhooks(modes: string[], options: Options): Promise<Result[]> {
  for (const mode of modes) if (!(mode in modeNames)) throw new Error(`BENCH_MODE: unknown mode ${mode}`);
  const results: Result[] = [];
  for (const mode of modes) results.push(await run(mode, options));
  return results;
}

if (isMain(import.meta.url)) {
  const results = await benchWebhooks(
    (process.env.BENCH_MODE ?? 'http,paced,bulk').split(',').map((m) => m.trim()),
    { seconds: Number(process.env.BENCH_SECONDS ?? 10), warmupSeconds: Number(process.env.BENCH_WARMUP_SECONDS ?? 3), databaseUrl: process.env.BENCH_DATABASE_URL },
  );
  if (results.some((r) => !r.ok)) process.exit(1);
}
