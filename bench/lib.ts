import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { createServer } from 'node:net';
import { pathToFileURL } from 'node:url';
import autocannon from 'autocannon';
import pg from 'pg';

/** Whether the module of `url` is the script node was started with, rather than imported by bench/all.ts. */
export function isMain(url: string): boolean {
  return url === pathToFileURL(process.argv[1] ?? '').href;
}

/** The bench order: the same body wherever an order is made or stored. */
export const sampleOrder = {
  ship_from: { name: 'Warehouse', street1: '1100 Congress Ave', city: 'Austin', state: 'TX', zip: '78701' },
  ship_to: { name: 'Ada Lovelace', street1: '415 Mission St', city: 'San Francisco', state: 'CA', zip: '94105' },
  items: [{ sku: 'MUG-1', name: 'Mug', quantity: 2, unit_price: { amount: '12.50', currency: 'USD' } }],
  parcel: { weight: { value: 2, unit: 'lb' }, dimensions: { length: 10, width: 8, height: 4, unit: 'in' } },
};

export type DatabaseName = 'SQLite' | 'PostgreSQL';

export interface BenchDatabase {
  name: DatabaseName;
  /** The settings that point shipd at it. */
  env: Record<string, string>;
  drop(): Promise<void>;
}

/** One statement on the PostgreSQL server of `url`, over a connection of its own; its rows. */
export async function onServer(url: string, statement: string): Promise<Record<string, unknown>[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query(statement)).rows;
  } finally {
    await client.end();
  }
}

/**
 * A fresh, empty database in a temporary data dir: SQLite there, or, given a postgres:// URL, a database created on
 * that server and dropped by drop(), so runs never see each other's rows.
 */
export async function freshDatabase(url: string | undefined): Promise<BenchDatabase> {
  if (url && !/^postgres(ql)?:\/\//.test(url)) throw new Error('BENCH_DATABASE_URL must be a postgres:// URL (leave it unset for SQLite)');
  const name = `shipd_bench_${randomBytes(6).toString('hex')}`;
  if (url) await onServer(url, `CREATE DATABASE ${name}`);
  const dataDir = mkdtempSync(join(tmpdir(), 'shipd-bench-'));
  const removeDir = () => rmSync(dataDir, { recursive: true, force: true });
  // Empty means SQLite to shipd, and a DATABASE_URL in the caller's environment must not reach it.
  if (!url) return { name: 'SQLite', env: { SHIPD_DATA_DIR: dataDir, DATABASE_URL: '' }, drop: async () => removeDir() };
  const fresh = new URL(url);
  fresh.pathname = `/${name}`;
  return {
    name: 'PostgreSQL',
    env: { SHIPD_DATA_DIR: dataDir, DATABASE_URL: fresh.href },
    drop: async () => {
      removeDir();
      await onServer(url, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    },
  };
}

/**
 * The peak resident set of a live process, in bytes. The kernel keeps the high-water mark (VmHWM) itself, so one
 * read before the process stops is its peak over the whole run: no sampling to miss a spike. Undefined without /proc.
 */
export function peakRss(pid: number | undefined): number | undefined {
  return statusBytes(pid, 'VmHWM');
}

/**
 * CPU seconds a live process has used so far (user + system), from /proc/<pid>/stat; undefined without /proc.
 * Read twice around a measurement, it says how much of the two cores the server took. With `thread`, of that one
 * thread only (the main thread's id is the pid).
 */
export function cpuSeconds(pid: number | undefined, thread?: number): number | undefined {
  try {
    // Fields after the command name (which may hold spaces, hence from the last ')'); utime and stime are 12th and 13th.
    const fields = readFileSync(thread === undefined ? `/proc/${pid}/stat` : `/proc/${pid}/task/${thread}/stat`, 'utf8').split(') ').pop()!.split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return undefined;
  }
}

/**
 * The machine's cores' idle time so far, in core-seconds. Read twice around a measurement, it says whether the load
 * kept the cores busy: time they idle is throughput the benchmark left unmeasured.
 */
export function idleCoreSeconds(): number {
  return cpus().reduce((sum, cpu) => sum + cpu.times.idle, 0) / 1000;
}

/** The kernel's figure of a live process's /proc/<pid>/status line (VmHWM, VmRSS), in bytes; undefined without /proc. */
function statusBytes(pid: number | undefined, field: string): number | undefined {
  try {
    const kb = new RegExp(`^${field}:\\s+(\\d+) kB$`, 'm').exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
    return kb === undefined ? undefined : Number(kb) * 1024;
  } catch {
    return undefined;
  }
}

/** The resident set of a live process now, in bytes (VmRSS); undefined without /proc. */
export function rssNow(pid: number | undefined): number | undefined {
  return statusBytes(pid, 'VmRSS');
}

/** One thread's V8 heap in the measured process, as bench/memory-probe.mjs wrote it. */
export interface ThreadMemory {
  name: string;
  heapNowBytes: number;
  heapPeakBytes: number;
  externalPeakBytes: number;
}

/** What the probe wrote for process `pid` in `dir`: the main thread first, then the workers by name. */
export function threadMemory(dir: string, pid: number | undefined): ThreadMemory[] {
  const threads: ThreadMemory[] = [];
  for (const file of readdirSync(dir)) {
    if (!file.startsWith(`${pid}-`)) continue;
    try {
      const t = JSON.parse(readFileSync(join(dir, file), 'utf8')) as { name: string; now: { heapTotal: number }; peak: { heapTotal: number; external: number } };
      threads.push({ name: t.name, heapNowBytes: t.now.heapTotal, heapPeakBytes: t.peak.heapTotal, externalPeakBytes: t.peak.external });
    } catch {
      // written as we read it: the next read has it
    }
  }
  return threads.sort((a, b) => (a.name === 'main' ? -1 : b.name === 'main' ? 1 : a.name.localeCompare(b.name)));
}

/** Threads of one name together: "shipd-label-render ×2 (38 MB, 41 MB)". */
export function describeThreads(threads: ThreadMemory[] | undefined, figure: 'heapNowBytes' | 'heapPeakBytes' = 'heapPeakBytes'): string {
  if (!threads?.length) return '—';
  const byName = new Map<string, number[]>();
  for (const t of threads) byName.set(t.name, [...(byName.get(t.name) ?? []), t[figure]]);
  return [...byName]
    .map(([name, values]) => `${name}${values.length > 1 ? ` ×${values.length}` : ''} ${values.map((v) => (v / 1_048_576).toFixed(0)).join('/')} MB`)
    .join(', ');
}

/** The memory goals of issue 31: the process's peak under any load, and its resident set idle after a start. */
export const peakRssGoalBytes = 250 * 1_048_576;
export const idleRssGoalBytes = 120 * 1_048_576;

/** One goal of a benchmark, and whether this run met it. */
export interface Goal {
  text: string;
  met: boolean;
}

/** The peak RSS goal, for any benchmark that measured a peak. */
export function peakRssGoal(bytes: number | undefined): Goal[] {
  return bytes === undefined ? [] : [{ text: `peak RSS ≤ ${megabytes(peakRssGoalBytes)}`, met: bytes <= peakRssGoalBytes }];
}

/** One benchmark's figure and what it is compared with, as bench/all.ts tabulates them. */
export interface Result {
  benchmark: string;
  database: DatabaseName;
  value: number;
  unit: string;
  /** Measured in the same run; the ratio is value ÷ baseline value. */
  baselines: { name: string; value: number; unit: string }[];
  /** In ms, where the benchmark has a latency that means something. */
  p99Ms?: number;
  /** Of the shipd process under test, in bytes. */
  peakRssBytes?: number;
  /** The V8 heap of each of its threads at their peaks (the process's RSS is theirs, native memory and code). */
  threads?: ThreadMemory[];
  /** What the benchmark set out to reach; all.ts marks a row that missed any. */
  goals?: Goal[];
  /** False when the run failed its own checks (errors under load, a webhook lost or sent twice). */
  ok: boolean;
}

export function megabytes(bytes: number | undefined): string {
  return bytes === undefined ? '—' : `${(bytes / 1_048_576).toFixed(0)} MB`;
}

/** A port nothing listens on right now. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      probe.close(() => resolve(port));
    });
  });
}

async function waitReady(url: string): Promise<void> {
  for (let i = 0; i < 200; i++) {
    try {
      if ((await fetch(`${url}/readyz`)).status === 200) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`${url} never became ready`);
}

export interface Measured {
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  non2xx: number;
  errors: number;
}

export interface Server {
  url: string;
  /** The peak RSS so far of the server's process (see peakRss): read it before stop(). */
  peakRss(): number | undefined;
  /** Its resident set now. */
  rss(): number | undefined;
  /** Each of its threads' V8 heap, now and at its peak (bench/memory-probe.mjs). */
  threads(): ThreadMemory[];
  /** CPU seconds the server's process has used so far (see cpuSeconds), all threads or the main (event loop) thread. */
  cpuSeconds(thread?: 'main'): number | undefined;
  stop(): Promise<void>;
}

interface Started {
  /** The ready line's match. */
  match: RegExpExecArray;
  stdout: string;
  pid: number | undefined;
  stop(): Promise<void>;
}

const root = join(import.meta.dirname, '..');

/**
 * Remakes dist/ if the sources changed since it was built: bin/shipd.js would otherwise run the TypeScript sources
 * under a loader, slower and heavier than the build `npm start` runs.
 */
export function buildIfStale(): void {
  const built = spawnSync(process.execPath, [join(root, 'scripts/build.js'), '--if-stale'], { cwd: root, stdio: 'inherit' });
  if (built.status !== 0) throw new Error('the build failed');
}

/** Starts a server process and waits for the line that says it is ready (with `ready` null, only for it to start). */
export function startProcess(args: string[], env: Record<string, string>, ready: RegExp | null): Promise<Started> {
  return new Promise((resolve, reject) => {
    const child: ChildProcess = spawn(process.execPath, args, { cwd: root, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stderr!.on('data', (c: Buffer) => (stderr += c));
    const started = (match: RegExpExecArray) => {
      child.stdout!.removeAllListeners('data').resume();
      resolve({
        match,
        stdout,
        pid: child.pid,
        stop: () =>
          new Promise<void>((done) => {
            if (child.exitCode !== null || child.signalCode !== null) return done();
            child.once('close', () => done());
            child.kill('SIGTERM');
          }),
      });
    };
    if (!ready) return child.once('spawn', () => started(Object.assign([''], { index: 0, input: '' }) as RegExpExecArray));
    child.stdout!.on('data', (c: Buffer) => {
      stdout += c;
      const match = ready.exec(stdout);
      if (match) started(match);
    });
    child.once('close', (code) => reject(new Error(`${args.join(' ')} exited ${code}: ${stderr}`)));
  });
}

const memoryProbe = join(import.meta.dirname, 'memory-probe.mjs');

/**
 * The environment and node options of `npm start` (package.json), so that the benchmarks run shipd as it is started
 * in production: `[NAME=value ...] node [--options] bin/shipd.js serve`.
 */
export function startCommand(): { env: Record<string, string>; options: string[] } {
  const start = (JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { scripts: { start: string } }).scripts.start;
  const parts = /^((?:[A-Z_]+=\S+ )*)node((?: --\S+)*) bin\/shipd\.js serve$/.exec(start);
  if (!parts) throw new Error(`package.json's start script is not "[NAME=value ...] node [--options] bin/shipd.js serve": ${start}`);
  const env = Object.fromEntries(parts[1]!.split(' ').filter(Boolean).map((pair) => [pair.slice(0, pair.indexOf('=')), pair.slice(pair.indexOf('=') + 1)]));
  return { env, options: parts[2]!.split(' ').filter(Boolean) };
}

/**
 * shipd on a database (a fresh one unless given one: see freshDatabase, SQLite unless given a postgres:// URL), with
 * rate limits out of the way and otherwise its default settings: info-level request logs and the node options of
 * `npm start`, as production runs.
 * Every thread of it runs bench/memory-probe.mjs. On a fresh database it waits for the test key printed on first
 * start and returns it (key is '' on an existing one). stop() stops it and, unless `keep`, drops its database.
 */
export async function startShipd(
  databaseUrl: string | undefined,
  extraEnv: Record<string, string> = {},
  existing?: { database: BenchDatabase; keep?: boolean },
): Promise<Server & { key: string; database: DatabaseName; pid: number | undefined }> {
  buildIfStale();
  const database = existing?.database ?? (await freshDatabase(databaseUrl));
  const drop = existing?.keep ? async () => {} : () => database.drop();
  const port = await freePort();
  const memoryDir = mkdtempSync(join(tmpdir(), 'shipd-bench-memory-'));
  let server: Started;
  try {
    server = await startProcess(
      // BENCH_PROFILE_DIR=dir writes a CPU profile of the server there when it stops.
      [...startCommand().options, '--require', memoryProbe, ...(process.env.BENCH_PROFILE_DIR ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_PROFILE_DIR}`] : []), 'bin/shipd.js', 'serve'],
      {
        ...startCommand().env,
        PORT: String(port),
        HOST: '127.0.0.1',
        SHIPD_RATE_LIMIT_PER_SECOND: '1000000',
        SHIPD_RATE_LIMIT_BURST: '1000000',
        BENCH_MEMORY_DIR: memoryDir,
        ...database.env,
        ...extraEnv,
      },
      // Printed on first start whatever the log level.
      existing ? null : /^\s+(svc_test_[0-9A-Za-z]{32})$/m,
    );
  } catch (err) {
    await drop();
    throw err;
  }
  const url = `http://127.0.0.1:${port}`;
  const stop = async () => {
    await server.stop();
    rmSync(memoryDir, { recursive: true, force: true });
    await drop();
  };
  try {
    await waitReady(url);
  } catch (err) {
    await stop();
    throw err;
  }
  return {
    url,
    key: server.match[1] ?? '',
    database: database.name,
    pid: server.pid,
    peakRss: () => peakRss(server.pid),
    rss: () => rssNow(server.pid),
    threads: () => threadMemory(memoryDir, server.pid),
    cpuSeconds: (thread) => cpuSeconds(server.pid, thread && server.pid),
    stop,
  };
}

/** autocannon's load: a POST of `body`, or a GET without one. */
export async function load(url: string, options: { body?: string; headers?: Record<string, string>; seconds?: number; connections?: number }): Promise<Measured> {
  const result = await autocannon({
    url,
    method: options.body === undefined ? 'GET' : 'POST',
    ...(options.body !== undefined && { body: options.body }),
    headers: { ...(options.body !== undefined && { 'content-type': 'application/json' }), ...options.headers },
    connections: options.connections ?? 50,
    duration: options.seconds ?? 10,
  });
  return {
    requestsPerSecond: result.requests.average,
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    non2xx: result.non2xx,
    errors: result.errors + result.timeouts,
  };
}

export function row(name: string, m: Measured): string {
  return `${name.padEnd(34)} ${m.requestsPerSecond.toFixed(0).padStart(8)} req/s   p50 ${String(m.p50Ms).padStart(4)} ms   p99 ${String(m.p99Ms).padStart(4)} ms   non-2xx ${m.non2xx}   errors ${m.errors}`;
}
