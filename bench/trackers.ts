// npm run bench:trackers — following BENCH_TRACKERS (100,000) numbers bought elsewhere, in test mode, on one shipd
// (`shipd serve`: the API and its workers in one process, info logs, default settings but for the two below).
//   1. A webhook endpoint for tracking.updated at a receiver in this process; then the trackers are made as a client
//      makes them, through POST /trackers/batch, 1,000 numbers a call (UPS, USPS and FedEx in turn),
//      BENCH_CREATE_CONCURRENCY (4) calls in flight. The rate they are made at is printed, and shipd's CPU per tracker
//      made (its process's alone: on PostgreSQL the server's is not in it).
//   2. For BENCH_SECONDS (180) after that, the worker follows them while authenticated GET
//      /trackers?status=in_transit and its next cursor pages (limit 20, four pages a walk) are asked at a steady
//      BENCH_LIST_RATE (50/s). Measured over that window: the checks the worker made (each tracking.updated carries
//      the tracker's last_checked_at, so one check per distinct pair of tracker and last_checked_at; in test mode a
//      tracker is checked when its next scan is due, so every check finds one), the shipd process's CPU per check
//      (all its threads, and its event loop's alone), GET /trackers p50/p99, and peak RSS (VmHWM).
//   3. Lag: every scan that fell due from the first tracker's making to the window's end is known here, from the
//      same simulated journey shipd tells (the number and the tracker's created_at decide it); its lag is its
//      tracking.updated's arrival at the receiver minus its occurred_at. Deliveries are awaited up to
//      BENCH_GRACE_SECONDS (60) after the window; a scan still not delivered counts as lagging longer than that.
//      Every scan must come exactly once.
// Simulated journeys span days of carrier time, and shipd runs them SHIPD_SIM_TRACKING_SPEED times faster than
// real time (a documented test-mode setting; BENCH_SPEED, 144 here: a carrier day per 10 real minutes), with
// SHIPD_SIM_FIRST_SCAN_MINUTES=0 (documented too; its default of 15 would hold every parcel at the label until
// after the window). Each parcel is picked up at its shipper's afternoon pickup (14:00-18:00 at its origin, one of
// four US zones, decided by its number), which at speed 144 comes 0-31 minutes after it is followed, depending on the
// hour and weekday: the window starts at the first pickup if that comes after the trackers are made (the wait is
// printed), and a pickup more than BENCH_MAX_WAIT_SECONDS (420; 1800 covers a weekend at 144) away stops the bench,
// asking for a higher BENCH_SPEED or a longer wait. The day's pickups spread over five carrier hours (19:00 to 24:00
// UTC in winter; about two real minutes at 144), and in-transit scans follow at about 2.3 × BENCH_SPEED per second: at 144, the scans of
// 100,000 trackers stand for about 14 million parcels' at real time.
// Goal: p99 lag < 60 s and GET /trackers p99 < 25 ms while the worker runs. BENCH_DATABASE_URL=postgres://… runs on
// PostgreSQL (a fresh database made on that server, dropped after); BENCH_PROFILE_DIR writes shipd's CPU profile.
import { availableParallelism } from 'node:os';
import { createServer } from 'node:http';
import { Pool } from 'undici';
import { externalParcel } from '../src/carriers/sim/external-tracking.ts';
import { simulatedJourney } from '../src/carriers/sim/tracking-timeline.ts';
import { fedexTrackingNumber, upsTrackingNumber, uspsTrackingNumber } from '../src/carriers/tracking-numbers.ts';
import { describeThreads, idleCoreSeconds, isMain, megabytes, peakRssGoal, startShipd, type Result } from './lib.ts';

export interface TrackersOptions {
  trackers: number;
  seconds: number;
  graceSeconds: number;
  speed: number;
  maxWaitSeconds: number;
  createConcurrency: number;
  listRate: number;
  databaseUrl: string | undefined;
}

const batchSize = 1000;
const carriers = ['ups', 'usps', 'fedex'] as const;

/** The i-th bench number, valid in its carrier's format with its check digit; the carrier is sent with it. */
function benchNumber(i: number): { tracking_number: string; carrier: (typeof carriers)[number] } {
  const carrier = carriers[i % carriers.length]!;
  const serial = String(i).padStart(7, '0');
  if (carrier === 'ups') return { carrier, tracking_number: upsTrackingNumber('BNCH01', '03', serial) };
  if (carrier === 'usps') return { carrier, tracking_number: uspsTrackingNumber('001', '927000002', serial) };
  return { carrier, tracking_number: fedexTrackingNumber(`7${String(i).padStart(10, '0')}`) };
}

interface Delivery {
  at: number;
  webhookId: string;
  trackerId: string;
  lastCheckedAt: string;
  scanAt: string;
}

function quantile(sorted: number[], q: number): number {
  return sorted.length === 0 ? NaN : sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
}

async function startReceiver() {
  const deliveries: Delivery[] = [];
  let malformed = 0;
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const at = Date.now();
      res.writeHead(204).end();
      try {
        const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { type: string; data: { id: string; last_checked_at: string; events: { occurred_at: string }[] } };
        const scan = body.data.events.at(-1);
        if (body.type !== 'tracking.updated' || !scan) throw new Error('not a scan');
        deliveries.push({ at, webhookId: String(req.headers['webhook-id']), trackerId: body.data.id, lastCheckedAt: body.data.last_checked_at, scanAt: scan.occurred_at });
      } catch {
        malformed++;
      }
    });
  });
  server.keepAliveTimeout = 30_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (!address || typeof address === 'string') throw new Error('the receiver has no address');
  return {
    url: `http://127.0.0.1:${address.port}/hooks`,
    deliveries,
    malformed: () => malformed,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export async function benchTrackers(o: TrackersOptions): Promise<Result> {
  const receiver = await startReceiver();
  const shipd = await startShipd(o.databaseUrl, {
    SHIPD_LOG_LEVEL: 'info',
    SHIPD_WEBHOOKS_ALLOW_INSECURE: 'true',
    SHIPD_SIM_TRACKING_SPEED: String(o.speed),
    SHIPD_SIM_FIRST_SCAN_MINUTES: '0',
  });
  const api = new Pool(shipd.url, { connections: 16 });
  const auth = { authorization: `Bearer ${shipd.key}`, 'content-type': 'application/json' };
  async function call<T>(method: 'GET' | 'POST', path: string, body?: unknown): Promise<{ status: number; json: T }> {
    const res = await api.request({ path: `/api/integrations/v1${path}`, method, headers: auth, ...(body !== undefined && { body: JSON.stringify(body) }) });
    return { status: res.statusCode, json: (await res.body.json()) as T };
  }

  try {
    const hook = await call('POST', '/webhooks', { url: receiver.url, events: ['tracking.updated'] });
    if (hook.status !== 201) throw new Error(`POST /webhooks answered ${hook.status}: ${JSON.stringify(hook.json)}`);

    // 1. The trackers, made as a client makes them.
    type Made = { id: string; tracking_number: string; created_at: string; events: unknown[] };
    const answered: (Made | undefined)[] = Array.from({ length: o.trackers }, () => undefined);
    const createStart = performance.now();
    const createCpuBefore = shipd.cpuSeconds();
    let nextBatch = 0;
    // A client importing numbers keeps a few batches in flight, each its own transaction.
    await Promise.all(
      Array.from({ length: o.createConcurrency }, async () => {
        for (let first = nextBatch; first < o.trackers; first = nextBatch) {
          nextBatch += batchSize;
          const items = Array.from({ length: Math.min(batchSize, o.trackers - first) }, (_, k) => benchNumber(first + k));
          const res = await call<{ results: { tracker: Made | null; error: unknown }[] }>('POST', '/trackers/batch', { trackers: items });
          if (res.status !== 200) throw new Error(`POST /trackers/batch answered ${res.status}: ${JSON.stringify(res.json).slice(0, 500)}`);
          for (const [k, r] of res.json.results.entries()) {
            if (!r.tracker) throw new Error(`a bench number was refused: ${JSON.stringify(r.error)}`);
            answered[first + k] = r.tracker;
          }
        }
      }),
    );
    const createSeconds = (performance.now() - createStart) / 1000;
    const createCpu = shipd.cpuSeconds();
    const createCpuMs = createCpuBefore !== undefined && createCpu !== undefined ? ((createCpu - createCpuBefore) * 1000) / o.trackers : undefined;
    const made = answered.filter((t) => t !== undefined);
    if (made.length !== o.trackers) throw new Error(`${o.trackers - made.length} trackers went missing from the answers`);
    console.error(
      `made ${made.length.toLocaleString('en-US')} trackers through POST /trackers/batch (${o.createConcurrency} calls in flight) in ${createSeconds.toFixed(1)} s: ${(made.length / createSeconds).toFixed(0)} trackers/s ${shipd.database}, shipd CPU ${createCpuMs?.toFixed(3) ?? '—'} ms per tracker`,
    );

    // 2. The window, from the first pickup if it comes later. Every tracker's journey is known here, as shipd
    // simulates it (the number and the tracker's created_at decide it): its scans, after it was made.
    const journeys = made.map((t, i) =>
      simulatedJourney(externalParcel(benchNumber(i).tracking_number, new Date(t.created_at)), o.speed, 0)
        .map((e) => e.occurredAt)
        .filter((at) => at.getTime() > Date.parse(t.created_at)),
    );
    const firstPickup = journeys.reduce((first, scans) => Math.min(first, scans[0]?.getTime() ?? Infinity), Infinity);
    const wait = firstPickup - Date.now();
    if (wait > o.maxWaitSeconds * 1000) {
      throw new Error(`the first pickup is ${(wait / 1000).toFixed(0)} s away at SHIPD_SIM_TRACKING_SPEED=${o.speed}; set a higher BENCH_SPEED or BENCH_MAX_WAIT_SECONDS`);
    }
    if (wait > 0) {
      console.error(`waiting ${(wait / 1000).toFixed(0)} s for the first pickup`);
      await new Promise((r) => setTimeout(r, wait));
    }
    const cpuBefore = shipd.cpuSeconds();
    const mainCpuBefore = shipd.cpuSeconds('main');
    const idleBefore = idleCoreSeconds();
    const t0 = Date.now();
    const t1 = t0 + o.seconds * 1000;
    const listLatencies: number[] = [];
    let listFailed = 0;
    let walks = 0;
    const pending = new Set<Promise<void>>();
    /** One walk: the first page of in-transit trackers and three more by their cursors, each request timed alone. */
    async function walk(): Promise<void> {
      let cursor: string | null = null;
      for (let page = 0; page < 4; page++) {
        const t = performance.now();
        const res: { status: number; json: { next_cursor: string | null } } = await call<{ next_cursor: string | null }>('GET', `/trackers?status=in_transit&limit=20${cursor ? `&cursor=${cursor}` : ''}`);
        if (res.status !== 200) {
          listFailed++;
          return;
        }
        listLatencies.push(performance.now() - t);
        cursor = res.json.next_cursor;
        if (!cursor) return;
      }
    }
    // Paced: a walk every 4 / listRate seconds, whatever the answers' pace, so the API is asked at a steady rate.
    const began = performance.now();
    while (Date.now() < t1) {
      const due = Math.floor((((performance.now() - began) / 1000) * o.listRate) / 4) - walks;
      for (let k = 0; k < due; k++) {
        walks++;
        const p = walk()
          .catch(() => {
            listFailed++;
          })
          .finally(() => pending.delete(p));
        pending.add(p);
      }
      await new Promise((r) => setTimeout(r, 5));
    }
    await Promise.all(pending);
    const windowSeconds = (Date.now() - t0) / 1000;
    const cpuAfter = shipd.cpuSeconds();
    const mainCpuAfter = shipd.cpuSeconds('main');
    const idleShare = (idleCoreSeconds() - idleBefore) / (windowSeconds * availableParallelism());
    const rssInWindow = shipd.peakRss();

    // 3. The scans due since the first tracker was made, from the journeys shipd simulates; then their deliveries.
    const due = new Map<string, number>();
    for (const [i, t] of made.entries()) {
      for (const at of journeys[i]!) if (at.getTime() < t1) due.set(`${t.id}|${at.toISOString()}`, at.getTime());
    }
    const waitUntil = t1 + o.graceSeconds * 1000;
    const delivered = () => receiver.deliveries.reduce((n, d) => n + (due.has(`${d.trackerId}|${d.scanAt}`) ? 1 : 0), 0);
    while (Date.now() < waitUntil && delivered() < due.size) await new Promise((r) => setTimeout(r, 1000));
    const peakRssBytes = shipd.peakRss();
    const threads = shipd.threads();

    const lags = new Map<string, number>();
    const firstIds = new Map<string, string>();
    let duplicates = 0;
    let redelivered = 0;
    const checks = new Set<string>();
    for (const d of receiver.deliveries) {
      const key = `${d.trackerId}|${d.scanAt}`;
      const dueAt = due.get(key);
      const checkedAt = Date.parse(d.lastCheckedAt);
      if (checkedAt >= t0 && checkedAt < t0 + windowSeconds * 1000) checks.add(`${d.trackerId}|${d.lastCheckedAt}`);
      if (dueAt === undefined) continue;
      // The same webhook-id again is a resend (its first attempt timed out); another is the scan recorded twice.
      if (!lags.has(key)) {
        lags.set(key, d.at - dueAt);
        firstIds.set(key, d.webhookId);
      } else if (firstIds.get(key) === d.webhookId) redelivered++;
      else duplicates++;
    }
    const lagList = [...due.keys()].map((k) => lags.get(k) ?? Infinity).sort((a, b) => a - b);
    const missing = lagList.filter((l) => l === Infinity).length;
    listLatencies.sort((a, b) => a - b);
    const checksPerSecond = checks.size / windowSeconds;
    const cpuMsPerCheck = cpuBefore !== undefined && cpuAfter !== undefined ? ((cpuAfter - cpuBefore) * 1000) / checks.size : undefined;
    const mainCpuMsPerCheck = mainCpuBefore !== undefined && mainCpuAfter !== undefined ? ((mainCpuAfter - mainCpuBefore) * 1000) / checks.size : undefined;
    const dueInWindow = [...due.values()].filter((at) => at >= t0).length;
    const lagP50 = quantile(lagList, 0.5);
    const lagP99 = quantile(lagList, 0.99);
    const listP99 = quantile(listLatencies, 0.99);
    const lagText = (ms: number) => (ms === Infinity ? `> ${o.graceSeconds} s after the window (not delivered)` : `${(ms / 1000).toFixed(2)} s`);
    const lagOk = lagP99 < 60_000;
    const listOk = listP99 < 25;
    const ok = duplicates === 0 && listFailed === 0 && receiver.malformed() === 0;

    console.error(`${o.trackers.toLocaleString('en-US')} trackers, ${shipd.database}, SHIPD_SIM_TRACKING_SPEED=${o.speed}, ${windowSeconds.toFixed(0)} s window`);
    console.error(
      `checks       ${checksPerSecond.toFixed(0).padStart(6)} /s   (${checks.size} checks)   shipd CPU ${cpuMsPerCheck?.toFixed(2) ?? '—'} ms per check (its event loop's thread ${mainCpuMsPerCheck?.toFixed(2) ?? '—'} ms)   the cores idled ${(100 * idleShare).toFixed(1)} %`,
    );
    console.error(
      `scans due    ${(dueInWindow / windowSeconds).toFixed(0).padStart(6)} /s in the window   (${due.size} since the first tracker was made; ${missing} of them not delivered ${o.graceSeconds} s after the window; ${duplicates} recorded twice, ${redelivered} resent under the same webhook-id)`,
    );
    console.error(`lag          p50 ${lagText(lagP50)}   p99 ${lagText(lagP99)}   (scan's occurred_at → tracking.updated at the receiver)${lagOk ? '' : '   GOAL FAILED (p99 < 60 s)'}`);
    console.error(
      `GET /trackers ${(listLatencies.length / windowSeconds).toFixed(0).padStart(5)} req/s   p50 ${quantile(listLatencies, 0.5).toFixed(1)} ms   p99 ${listP99.toFixed(1)} ms   failed ${listFailed}${listOk ? '' : '   GOAL FAILED (p99 < 25 ms)'}`,
    );
    console.error(`peak RSS     ${megabytes(peakRssBytes)} (shipd, whole run; ${megabytes(rssInWindow)} by the window's end)`);
    console.error(`memory       V8 heaps at their peaks: ${describeThreads(threads)}`);
    return {
      benchmark: `trackers: ${o.trackers.toLocaleString('en-US')} followed, tracking.updated lag${lagOk && listOk ? '' : ' (goal FAILED)'}`,
      database: shipd.database,
      value: checksPerSecond,
      unit: 'checks/s',
      baselines: [{ name: 'scans due in the window', value: dueInWindow / windowSeconds, unit: 'scans/s' }],
      p99Ms: lagP99,
      peakRssBytes,
      threads,
      goals: [{ text: 'lag p99 < 60 s', met: lagOk }, { text: 'GET /trackers p99 < 25 ms', met: listOk }, ...peakRssGoal(peakRssBytes)],
      ok,
    };
  } finally {
    await api.close();
    await shipd.stop();
    await receiver.close();
  }
}

if (isMain(import.meta.url)) {
  const result = await benchTrackers({
    trackers: Number(process.env.BENCH_TRACKERS ?? 100_000),
    seconds: Number(process.env.BENCH_SECONDS ?? 180),
    graceSeconds: Number(process.env.BENCH_GRACE_SECONDS ?? 60),
    speed: Number(process.env.BENCH_SPEED ?? 144),
    maxWaitSeconds: Number(process.env.BENCH_MAX_WAIT_SECONDS ?? 420),
    createConcurrency: Number(process.env.BENCH_CREATE_CONCURRENCY ?? 4),
    listRate: Number(process.env.BENCH_LIST_RATE ?? 50),
    databaseUrl: process.env.BENCH_DATABASE_URL,
  });
  if (!result.ok) process.exit(1);
}
