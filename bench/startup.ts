// npm run bench:startup — how long shipd takes to start, run as a user runs it (bin/shipd.js): `shipd --help`;
// `shipd accounts list`, a command that opens the database; and `shipd serve` from its spawn to the first 200 from
// /readyz, on an existing database (SQLite, or PostgreSQL when BENCH_DATABASE_URL is a postgres:// URL). Each runs
// BENCH_RUNS (10) times after one untimed run, which for serve is the first start that creates the database.
// Prints the median and the slowest run, wall-clock, and the CPU seconds the process used.
import { spawn, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import { cpuSeconds, freePort, freshDatabase } from './lib.ts';

const runs = Number(process.env.BENCH_RUNS ?? 10);
const bin = join(import.meta.dirname, '..', 'bin', 'shipd.js');

interface Timing {
  wallSeconds: number;
  cpuSeconds: number;
}

/** CPU seconds used by this process's children that have ended and been waited for (cutime + cstime). */
function endedChildrenCpuSeconds(): number {
  const fields = readFileSync('/proc/self/stat', 'utf8').split(') ').pop()!.split(' ');
  return (Number(fields[13]) + Number(fields[14])) / 100;
}

function command(args: string[], env: Record<string, string>): Timing {
  const cpuBefore = endedChildrenCpuSeconds();
  const start = performance.now();
  const run = spawnSync(process.execPath, [bin, ...args], { env: { ...process.env, ...env }, encoding: 'utf8' });
  const wallSeconds = (performance.now() - start) / 1000;
  if (run.status !== 0) throw new Error(`shipd ${args.join(' ')} exited ${run.status}: ${run.stderr}`);
  return { wallSeconds, cpuSeconds: endedChildrenCpuSeconds() - cpuBefore };
}

async function serveUntilReady(env: Record<string, string>): Promise<Timing> {
  const port = await freePort();
  const start = performance.now();
  const child = spawn(process.execPath, [bin, 'serve'], {
    env: { ...process.env, ...env, PORT: String(port), HOST: '127.0.0.1', SHIPD_LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (c: Buffer) => (stderr += c));
  const closed = new Promise((resolve) => child.once('close', resolve));
  try {
    while (performance.now() - start < 60_000) {
      if (child.exitCode !== null) throw new Error(`shipd serve exited ${child.exitCode}: ${stderr}`);
      try {
        if ((await fetch(`http://127.0.0.1:${port}/readyz`)).status === 200) {
          return { wallSeconds: (performance.now() - start) / 1000, cpuSeconds: cpuSeconds(child.pid) ?? NaN };
        }
      } catch {
        // not listening yet
      }
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    throw new Error(`shipd serve was not ready in 60 s: ${stderr}`);
  } finally {
    child.kill('SIGTERM');
    await closed;
  }
}

async function timed(name: string, once: () => Timing | Promise<Timing>): Promise<void> {
  await once();
  const timings: Timing[] = [];
  for (let i = 0; i < runs; i++) timings.push(await once());
  const median = (values: number[]) => values.sort((a, b) => a - b)[Math.floor((values.length - 1) / 2)]!;
  const wall = timings.map((t) => t.wallSeconds);
  console.error(
    `${name.padEnd(36)} median ${median(wall).toFixed(2)} s   slowest ${Math.max(...wall).toFixed(2)} s   CPU median ${median(timings.map((t) => t.cpuSeconds)).toFixed(2)} s`,
  );
}

const database = await freshDatabase(process.env.BENCH_DATABASE_URL);
try {
  console.error(
    `${os.cpus().length} × ${os.cpus()[0]?.model}, Node ${process.version}, ${new Date().toISOString().slice(0, 10)}; ${runs} runs each; ` +
      `1-minute load average ${os.loadavg()[0]!.toFixed(2)}`,
  );
  await timed('shipd --help', () => command(['--help'], database.env));
  // serve first: its untimed run creates the database that the others find.
  await timed(`shipd serve → /readyz 200 (${database.name})`, () => serveUntilReady(database.env));
  await timed('shipd accounts list', () => command(['accounts', 'list'], database.env));
  console.error(`1-minute load average at the end ${os.loadavg()[0]!.toFixed(2)}`);
} finally {
  await database.drop();
}
