// npm run bench:webhooks — webhook delivery end to end: a real shipd (its worker running, loopback http allowed)
// delivers order.created to a receiver in this process, which answers 204 at once, notes when each delivery
// arrived and its webhook-id, and verifies a sample of signatures with the standardwebhooks library. Three ways
// to make events, each printed on its own:
//   http   orders POSTed by autocannon as fast as its BENCH_CONNECTIONS (50) connections are answered, to
//          `shipd serve`, where the API and the worker share one thread;
//   paced  orders POSTed to `shipd serve` at a steady BENCH_ORDER_RATE (1,200/s), so the API is not saturated;
//   bulk   events written to the outbox with recordEvent at a steady BENCH_RATE (2,000/s), in transactions of
//          up to BENCH_BATCH (100), by a shipd (API and worker, as `serve` starts them) in a child process of
//          this script: the delivery side alone.
// Each runs BENCH_WARMUP_SECONDS (3) of the same load, waits for it to be delivered, then BENCH_SECONDS (10)
// measured. Goal: at least 1,000 deliveries/s on SQLite, and event-to-first-attempt latency (arrival at the
// receiver minus the event's created_at, the body's `timestamp`) p50 under 50 ms; every event exactly once.
// BENCH_MODE=http,paced,bulk picks modes; DATABASE_URL=postgres://… runs on PostgreSQL (a fresh database made on
// that server, dropped after); BENCH_PROFILE_DIR writes the server's CPU profile; BENCH_TIMELINE=1 prints
// arrivals and latency per half second.
import { fork } from 'node:child_process';
import { createServer } from 'node:http';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import autocannon from 'autocannon';
import pg from 'pg';
import { Pool } from 'undici';
import { Webhook } from 'standardwebhooks';
import { startShipd } from './lib.ts';

const seconds = Number(process.env.BENCH_SECONDS ?? 10);
const warmupSeconds = Number(process.env.BENCH_WARMUP_SECONDS ?? 3);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 50);
const rate = Number(process.env.BENCH_RATE ?? 2000);
/** Orders per second in paced mode. */
const orderRate = Number(process.env.BENCH_ORDER_RATE ?? 1200);
/** Most events in one outbox transaction in bulk mode. */
const batch = Number(process.env.BENCH_BATCH ?? 100);
const modes = (process.env.BENCH_MODE ?? 'http,paced,bulk').split(',').map((m) => m.trim());
/** Every how many deliveries the receiver checks the signature (and the first few always). */
const verifyEvery = 20;

const order = {
  ship_from: { name: 'Warehouse', street1: '1100 Congress Ave', city: 'Austin', state: 'TX', zip: '78701' },
  ship_to: { name: 'Ada Lovelace', street1: '415 Mission St', city: 'San Francisco', state: 'CA', zip: '94105' },
  items: [{ sku: 'MUG-1', name: 'Mug', quantity: 2, unit_price: { amount: '12.50', currency: 'USD' } }],
  parcel: { weight: { value: 2, unit: 'lb' }, dimensions: { length: 10, width: 8, height: 4, unit: 'in' } },
};

type FromChild = { ready: { url: string; key: string } } | { inserted: number };
type ToChild = { start: { rate: number; seconds: number; batch: number; template: Record<string, unknown> } } | { stop: true };

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

// ————————————————————————————————————————————————————— the two ways to make events

interface Shipd {
  url: string;
  key: string;
  stop(): Promise<void>;
}

interface Made {
  /** Events the load made, by its own count (2xx answers, or rows inserted). */
  events: number;
  /** Date.now() when the load started and ended. */
  start: number;
  end: number;
  note: string;
}

/** A fresh database on the PostgreSQL server of DATABASE_URL, or nothing for SQLite. */
async function freshDatabase(): Promise<{ env: Record<string, string>; drop(): Promise<void> }> {
  const url = process.env.DATABASE_URL;
  if (!url?.startsWith('postgres')) return { env: {}, drop: async () => {} };
  const name = `shipd_bench_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const fresh = new URL(url);
  fresh.pathname = `/${name}`;
  return {
    env: { DATABASE_URL: fresh.href },
    drop: async () => {
      const again = new pg.Client({ connectionString: url });
      await again.connect();
      await again.query(`drop database if exists ${name} with (force)`);
      await again.end();
    },
  };
}

/** shipd in a child process running this file: the API, the worker, and the bulk event writer. */
async function startChild(env: Record<string, string>): Promise<Shipd & { send(m: ToChild): void; next(): Promise<FromChild> }> {
  const dataDir = mkdtempSync(join(tmpdir(), 'shipd-bench-'));
  const profile = process.env.BENCH_PROFILE_DIR ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_PROFILE_DIR}`] : [];
  const child = fork(import.meta.filename, [], {
    execArgv: ['--import', 'tsx', ...profile],
    env: {
      ...process.env,
      BENCH_WEBHOOKS_CHILD: '1',
      HOST: '127.0.0.1',
      SHIPD_DATA_DIR: dataDir,
      SHIPD_LOG_LEVEL: 'warn',
      SHIPD_RATE_LIMIT_PER_SECOND: '1000000',
      SHIPD_RATE_LIMIT_BURST: '1000000',
      SHIPD_WEBHOOKS_ALLOW_INSECURE: 'true',
      ...env,
    },
  });
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
    send: (m) => child.send(m),
    next,
    stop: async () => {
      child.send({ stop: true } satisfies ToChild);
      await exited;
      rmSync(dataDir, { recursive: true, force: true });
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

async function run(mode: string): Promise<boolean> {
  const database = await freshDatabase();
  const receiver = await startReceiver();
  let shipd: Shipd;
  let child: Awaited<ReturnType<typeof startChild>> | undefined;
  if (mode === 'bulk') shipd = child = await startChild(database.env);
  else shipd = await startShipd({ SHIPD_WEBHOOKS_ALLOW_INSECURE: 'true', ...database.env });

  // Everything started is stopped whatever happens, so a failed run leaves no server behind.
  const measured = async () => {
    const webhook = await call(shipd, 'POST', '/webhooks', { url: receiver.url, events: ['order.created'] });
    receiver.secret = String(webhook.secret);
    // One order first: it checks the path end to end and is the template of the bulk events.
    const sample = await call(shipd, 'POST', '/orders', order);
    await drained(receiver, 1);
    if (receiver.ids.length === 0) throw new Error('the first order was never delivered');

    const drive = async (secs: number): Promise<Made> => {
      if (!child) return mode === 'paced' ? drivePaced(shipd, secs) : driveHttp(shipd, secs);
      const start = Date.now();
      child.send({ start: { rate, seconds: secs, batch, template: sample } });
      const done = await child.next();
      const end = Date.now();
      return { events: 'inserted' in done ? done.inserted : 0, start, end, note: `recordEvent at a steady ${rate}/s, in transactions of up to ${batch} every 10 ms` };
    };
    // A fresh process compiles its hot paths under the first seconds of load and falls behind meanwhile: the same
    // load warms it up, and is delivered, before the measured run.
    let expected = 1;
    if (warmupSeconds > 0) {
      expected += (await drive(warmupSeconds)).events;
      await drained(receiver, expected);
    }
    const measuredFrom = receiver.ids.length;
    const made = await drive(seconds);
    const atEnd = receiver.ids.length;
    expected += made.events;
    await drained(receiver, expected);
    const drainedAt = receiver.arrivals.at(-1) ?? made.end;
    // A little longer, for any second delivery of an event already received.
    await new Promise((r) => setTimeout(r, 500));
    return { made, measuredFrom, atEnd, expected, drainedAt, created: await eventIds(shipd) };
  };
  let result: Awaited<ReturnType<typeof measured>>;
  try {
    result = await measured();
  } finally {
    await shipd.stop();
    await receiver.close();
    await database.drop();
  }
  const { made, measuredFrom, atEnd, expected, drainedAt, created } = result;

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
  const label = {
    http: 'http: orders POSTed over HTTP, closed loop',
    paced: `paced: orders POSTed over HTTP at a steady ${orderRate}/s`,
    bulk: `bulk: events written with recordEvent at a steady ${rate}/s`,
  }[mode];
  const p50 = quantile(latency, 0.5);
  console.error(`${label}, ${process.env.DATABASE_URL?.startsWith('postgres') ? 'PostgreSQL' : 'SQLite'}, ${seconds} s after a ${warmupSeconds} s warm-up`);
  console.error(`  load               ${made.note}`);
  console.error(`  events created     ${(made.events / loadSeconds).toFixed(0).padStart(6)} /s   (${created.length} events in all, warm-up included)`);
  console.error(`  deliveries         ${deliveriesPerSecond.toFixed(0).padStart(6)} /s   received while the load ran`);
  console.error(`  backlog            ${expected - new Set(receiver.ids.slice(0, atEnd)).size} events undelivered when the load ended, all delivered ${Math.max(0, (drainedAt - made.end) / 1000).toFixed(1)} s later`);
  console.error(`  latency            p50 ${p50.toFixed(0)} ms   p99 ${quantile(latency, 0.99).toFixed(0)} ms   max ${quantile(latency, 1).toFixed(0)} ms   (created_at → first arrival, events of the measured run)`);
  console.error(`  exactly once       ${seen.size} of ${created.length} events delivered, ${missing} missing, ${duplicates} duplicates, ${unknown} unknown ids`);
  console.error(`  signatures         ${receiver.verified} verified with standardwebhooks, ${receiver.badSignatures} failed`);
  const ok = missing === 0 && duplicates === 0 && unknown === 0 && receiver.badSignatures === 0 && receiver.verified > 0;
  console.error(`  goal ≥ 1,000 deliveries/s, p50 < 50 ms: ${Math.round(deliveriesPerSecond) >= 1000 && p50 < 50 ? 'met' : 'not met'}${ok ? '' : '   DELIVERY CHECK FAILED'}`);
  return ok;
}

async function runBench(): Promise<void> {
  let ok = true;
  for (const mode of modes) {
    if (!['http', 'paced', 'bulk'].includes(mode)) throw new Error(`BENCH_MODE: unknown mode ${mode}`);
    ok = (await run(mode)) && ok;
  }
  if (!ok) process.exit(1);
}

// ————————————————————————————————————————————————————— the child: shipd serve plus the bulk writer

async function runChild(): Promise<void> {
  const [{ loadConfig }, { createServices }, { bootstrapEmptyDatabase }, { buildApp }, { createLogger }, { createJobRunner }, { recordEvent }, { newId }] = await Promise.all([
    import('../src/config.ts'),
    import('../src/services.ts'),
    import('../src/domain/bootstrap.ts'),
    import('../src/app.ts'),
    import('../src/http/logger.ts'),
    import('../src/jobs/index.ts'),
    import('../src/domain/events.ts'),
    import('../src/domain/ids.ts'),
  ]);
  const send = (m: FromChild) => process.send!(m);
  const config = loadConfig(process.env);
  const logger = createLogger(config.logLevel);
  const services = await createServices(config);
  const { db, kind } = services.database;
  const secret = await bootstrapEmptyDatabase({ db, kind, clock: services.clock });
  if (!secret) throw new Error('the bench database was not empty');
  const app = await buildApp(services, logger);
  await app.listen({ port: 0, host: '127.0.0.1' });
  const runner = createJobRunner(services, logger.child({ component: 'worker' }));
  runner.start();
  const address = app.server.address();
  if (!address || typeof address === 'string') throw new Error('no address');
  const key = await db.selectFrom('api_keys').select(['id', 'account_id', 'mode']).executeTakeFirstOrThrow();
  const principal = { keyId: key.id, accountId: key.account_id, mode: key.mode };

  async function insert(start: Extract<ToChild, { start: unknown }>['start']): Promise<number> {
    const began = performance.now();
    let made = 0;
    for (;;) {
      const elapsed = (performance.now() - began) / 1000;
      if (elapsed >= start.seconds) return made;
      const due = Math.min(start.batch, Math.floor(elapsed * start.rate) - made);
      if (due > 0) {
        const at = new Date().toISOString();
        await db.transaction().execute(async (trx) => {
          for (let i = 0; i < due; i++) await recordEvent(trx, { principal }, 'order.created', { ...start.template, id: newId('ord') }, at);
        });
        made += due;
      }
      await new Promise((r) => setTimeout(r, 10));
    }
  }

  // Orphaned (the bench died): go too.
  process.on('disconnect', () => process.exit(1));
  process.on('message', (m: ToChild) => {
    if ('start' in m) {
      void insert(m.start).then((inserted) => send({ inserted }));
      return;
    }
    void (async () => {
      await app.close();
      await runner.stop();
      await services.close();
      process.exit(0);
    })();
  });
  send({ ready: { url: `http://127.0.0.1:${address.port}`, key: secret } });
}

// Last, once every constant above is initialised.
if (process.env.BENCH_WEBHOOKS_CHILD === '1') {
  await runChild();
} else {
  await runBench();
}
