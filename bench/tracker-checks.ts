// node --import tsx bench/tracker-checks.ts — the trackers' domain work alone, in this process, measured as CPU time
// (process.cpuUsage: this process's own, so other programs on the machine change it little, unlike wall-clock rates):
//   1. BENCH_TRACKERS (5,000) numbers followed through createTrackerBatch, 1,000 a call, as POST /trackers/batch
//      does: CPU per tracker made.
//   2. The clock (a clock of this bench's own, not the machine's) is moved past the carriers' pickup and then on in
//      steps of BENCH_STEP_SECONDS (5) of real time at SHIPD_SIM_TRACKING_SPEED=BENCH_SPEED (1,440); after each step
//      the worker's pass (pollTrackers) runs until nothing is due, as the trackers job does. Every check it makes
//      finds a scan (test mode checks when the next scan is due). CPU per check, over BENCH_STEPS (40) steps.
//   3. GET /trackers's domain half (listTrackers ?status=in_transit, limit 20, and the next page by its cursor),
//      BENCH_LISTS (500) times: CPU per page.
// No HTTP, no webhook deliveries (the key has no webhook, so events are written already fanned out): what is left
// is the database work and the JavaScript around it. BENCH_DATABASE_URL=postgres://… runs on that database (it must
// be an empty one; its CPU is the server's and is not counted here); else a fresh SQLite file in a temporary folder.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '../src/config.ts';
import { createServices, serviceContext } from '../src/services.ts';
import { createAccount } from '../src/domain/accounts/accounts.ts';
import { createApiKey } from '../src/domain/accounts/api-keys.ts';
import { createTrackerBatch, listTrackers, pollTrackers, trackerPollBatch } from '../src/domain/tracking/trackers.ts';
import { fedexTrackingNumber, upsTrackingNumber, uspsTrackingNumber } from '../src/carriers/tracking-numbers.ts';

const trackers = Number(process.env.BENCH_TRACKERS ?? 5_000);
const speed = Number(process.env.BENCH_SPEED ?? 1_440);
const stepSeconds = Number(process.env.BENCH_STEP_SECONDS ?? 5);
const steps = Number(process.env.BENCH_STEPS ?? 40);
const lists = Number(process.env.BENCH_LISTS ?? 500);

/** The same numbers as bench/trackers.ts makes. */
function benchNumber(i: number): { tracking_number: string; carrier: 'ups' | 'usps' | 'fedex' } {
  const serial = String(i).padStart(7, '0');
  if (i % 3 === 0) return { carrier: 'ups', tracking_number: upsTrackingNumber('BNCH01', '03', serial) };
  if (i % 3 === 1) return { carrier: 'usps', tracking_number: uspsTrackingNumber('001', '927000002', serial) };
  return { carrier: 'fedex', tracking_number: fedexTrackingNumber(`7${String(i).padStart(10, '0')}`) };
}

const cpuMs = (since: NodeJS.CpuUsage) => {
  const d = process.cpuUsage(since);
  return (d.user + d.system) / 1000;
};

const dir = mkdtempSync(join(tmpdir(), 'shipd-tracker-checks-'));
// Friday 2026-11-27 12:00 UTC: before the cut-off, so every parcel is picked up at 18:00 the same day.
let now = Date.parse('2026-11-27T12:00:00Z');
const clock = { now: () => new Date(now) };
const config = loadConfig({
  SHIPD_DATA_DIR: dir,
  ...(process.env.BENCH_DATABASE_URL && { DATABASE_URL: process.env.BENCH_DATABASE_URL }),
  SHIPD_SIM_TRACKING_SPEED: String(speed),
  SHIPD_SIM_FIRST_SCAN_MINUTES: '0',
  // No label is drawn here: no threads for it.
  SHIPD_RENDER_THREADS: '0',
});
const services = await createServices(config, clock);
const log = { warn: (o: object, m: string) => console.error(m, o) };
try {
  const db = services.database.db;
  const account = await createAccount(db, clock, 'bench');
  const { key } = await createApiKey({ db, kind: services.database.kind, clock }, account.id, 'test', 10);
  const ctx = { ...serviceContext(services, 'bench'), principal: { keyId: key.id, accountId: account.id, mode: 'test' as const, plan: 'api' as const } };

  let cpu = process.cpuUsage();
  let wall = performance.now();
  for (let first = 0; first < trackers; first += 1_000) {
    const items = Array.from({ length: Math.min(1_000, trackers - first) }, (_, k) => benchNumber(first + k));
    const made = await createTrackerBatch(ctx, { trackers: items });
    if (made.results.some((r) => !r.tracker)) throw new Error('a bench number was refused');
  }
  console.error(`made     ${trackers} trackers: ${(cpuMs(cpu) / trackers).toFixed(3)} ms CPU per tracker (${((performance.now() - wall) / 1000).toFixed(1)} s) ${services.database.kind}`);

  // To the pickup: simulated time runs `speed` times faster from the trackers' making, so 6 carrier hours are this.
  now += (6 * 3_600_000) / speed + 1_000;
  let checks = 0;
  let passes = 0;
  cpu = process.cpuUsage();
  wall = performance.now();
  for (let s = 0; s < steps; s++) {
    let n: number;
    do {
      n = await pollTrackers(ctx, log);
      checks += n;
      passes++;
    } while (n === trackerPollBatch);
    now += stepSeconds * 1_000;
  }
  const checkCpu = cpuMs(cpu);
  console.error(`checked  ${checks} checks in ${passes} passes: ${(checkCpu / checks).toFixed(3)} ms CPU per check (${((performance.now() - wall) / 1000).toFixed(1)} s)`);

  cpu = process.cpuUsage();
  wall = performance.now();
  let pages = 0;
  for (let i = 0; i < lists; i++) {
    const page = await listTrackers(ctx, { status: 'in_transit', limit: 20 });
    pages++;
    if (page.next_cursor) {
      await listTrackers(ctx, { status: 'in_transit', limit: 20, cursor: page.next_cursor });
      pages++;
    }
  }
  console.error(`listed   ${pages} pages: ${(cpuMs(cpu) / pages).toFixed(3)} ms CPU per page (${((performance.now() - wall) / 1000).toFixed(1)} s)`);
} finally {
  await services.close();
  rmSync(dir, { recursive: true, force: true });
}
