import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createServer } from 'node:net';
import autocannon from 'autocannon';

/** A port nothing listens on right now. */
function freePort(): Promise<number> {
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
  stop(): Promise<void>;
}

interface Started {
  /** The ready line's match. */
  match: RegExpExecArray;
  stdout: string;
  stop(): Promise<void>;
}

const root = join(import.meta.dirname, '..');

/** Starts a server process and waits for the line that says it is ready. */
export function startProcess(args: string[], env: Record<string, string>, ready: RegExp): Promise<Started> {
  return new Promise((resolve, reject) => {
    const child: ChildProcess = spawn(process.execPath, args, { cwd: root, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stderr!.on('data', (c: Buffer) => (stderr += c));
    child.stdout!.on('data', (c: Buffer) => {
      stdout += c;
      const match = ready.exec(stdout);
      if (match) child.stdout!.removeAllListeners('data').resume();
      if (match) {
        resolve({
          match,
          stdout,
          stop: () =>
            new Promise<void>((done) => {
              child.once('close', () => done());
              child.kill('SIGTERM');
            }),
        });
      }
    });
    child.once('close', (code) => reject(new Error(`${args.join(' ')} exited ${code}: ${stderr}`)));
  });
}

/**
 * A fresh shipd on SQLite in a temporary data dir, with rate limits out of the way and logs at warn (as the
 * bare route logs nothing); returns it and the test key it printed on first start.
 */
export async function startShipd(extraEnv: Record<string, string> = {}): Promise<Server & { key: string }> {
  const dataDir = mkdtempSync(join(tmpdir(), 'shipd-bench-'));
  const port = await freePort();
  const server = await startProcess(
    // BENCH_PROFILE_DIR=dir writes a CPU profile of the server there when it stops.
    [...(process.env.BENCH_PROFILE_DIR ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_PROFILE_DIR}`] : []), 'bin/shipd.js', 'serve'],
    {
      PORT: String(port),
      HOST: '127.0.0.1',
      SHIPD_DATA_DIR: dataDir,
      SHIPD_LOG_LEVEL: 'warn',
      SHIPD_RATE_LIMIT_PER_SECOND: '1000000',
      SHIPD_RATE_LIMIT_BURST: '1000000',
      ...extraEnv,
    },
    // Printed on first start whatever the log level.
    /^\s+(svc_test_[0-9A-Za-z]{32})$/m,
  );
  const url = `http://127.0.0.1:${port}`;
  await waitReady(url);
  return {
    url,
    key: server.match[1]!,
    stop: async () => {
      await server.stop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export async function load(url: string, options: { body: string; headers?: Record<string, string>; seconds?: number; connections?: number }): Promise<Measured> {
  const result = await autocannon({
    url,
    method: 'POST',
    body: options.body,
    headers: { 'content-type': 'application/json', ...options.headers },
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
