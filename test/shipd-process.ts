import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { after, before } from 'node:test';
import type { Kysely } from 'kysely';
import { createTestDatabase, type TestDatabase } from './harness.ts';
import { loadConfig } from '../src/config.ts';
import { openDatabase, type Database } from '../src/db/database.ts';
import type { DB } from '../src/db/schema.ts';

// A real `shipd serve` process, for tests that kill it with SIGKILL and start it again on the same database.

const bin = join(import.meta.dirname, '..', 'bin', 'shipd.js');

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

export interface Shipd {
  child: ChildProcess;
  url: string;
  stdout: () => string;
  closed: Promise<unknown>;
}

/** Starts `shipd serve` on the port with the database's environment plus `env`, and waits until it is ready. */
export async function startShipd(port: number, env: Record<string, string>): Promise<Shipd> {
  const child = spawn(process.execPath, [bin, 'serve'], {
    env: {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? '/tmp',
      PORT: String(port),
      HOST: '127.0.0.1',
      SHIPD_LOG_LEVEL: 'warn',
      SHIPD_SIM_FIRST_SCAN_MINUTES: '1',
      SHIPD_RATE_LIMIT_PER_SECOND: '100000',
      SHIPD_RATE_LIMIT_BURST: '100000',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const closed = new Promise((resolve) => child.once('close', resolve));
  let out = '';
  child.stdout!.on('data', (c: Buffer) => (out += c));
  child.stderr!.on('data', (c: Buffer) => (out += c));
  const url = `http://127.0.0.1:${port}`;
  // As long as the cluster of the reliability suite waits: a loaded machine has taken over 20 s to start one.
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`shipd exited: ${out}`);
    try {
      if ((await fetch(`${url}/readyz`)).status === 200) return { child, url, stdout: () => out, closed };
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  // Never leave a process behind listening on the port once the test has given up on it.
  child.kill('SIGKILL');
  await closed;
  throw new Error(`shipd was not ready within 60 s: ${out}`);
}

/** The test key a first start on an empty database prints. */
export function bootstrapKey(shipd: Shipd): string | undefined {
  return /(svc_test_[0-9A-Za-z]{32})/.exec(shipd.stdout())?.[1];
}

/**
 * A database of the suite's own for shipd processes to share, and a connection to it from outside them, so the test
 * can check what a killed process left behind. Call it in a suite (or at the top of a file): it adds the hooks.
 */
/**
 * Stops the file's shipd, if it still runs, when its tests end. Called before processDatabase, the hook runs first, so
 * the process is stopped before its database is dropped, whatever the test did.
 */
export function stopWhenDone(current: () => Shipd | undefined): void {
  after(async () => {
    const shipd = current();
    if (!shipd || shipd.child.exitCode !== null || shipd.child.signalCode !== null) return;
    shipd.child.kill('SIGTERM');
    await shipd.closed;
  });
}

export function processDatabase(): { env: () => Record<string, string>; db: () => Kysely<DB> } {
  let testDb: TestDatabase;
  let database: Database;
  before(async () => {
    testDb = await createTestDatabase();
    database = openDatabase(loadConfig(testDb.env));
  });
  after(async () => {
    await database.close();
    await testDb.drop();
  });
  return { env: () => testDb.env, db: () => database.db };
}
