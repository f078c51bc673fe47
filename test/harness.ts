import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { request as httpRequest } from 'node:http';
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { Writable } from 'node:stream';
import pg from 'pg';
import type { FastifyInstance } from 'fastify';
import { loadConfig, type Config } from '../src/config.ts';
import { createServices, type Services } from '../src/services.ts';
import { buildApp } from '../src/app.ts';
import { createLogger } from '../src/http/logger.ts';
import { createAccount, type Plan } from '../src/domain/accounts/accounts.ts';
import { createApiKey } from '../src/domain/accounts/api-keys.ts';
import type { Mode } from '../src/kernel/mode.ts';
import type { Clock } from '../src/kernel/clock.ts';
import { apiBase } from '../src/http/routes.ts';
import type { AnyOperation } from '../src/operations/operation.ts';

/** Paths served outside the API base; every other path given to request() is below it. */
const rootPaths = /^\/(api\/|healthz|readyz|metrics|openapi\.json|problems\/)/;

export const databaseUnderTest = process.env.TEST_DATABASE_URL ? 'postgres' : 'sqlite';

/** A clock tests can move; starts at the real time. */
export class TestClock implements Clock {
  private offset = 0;
  now(): Date {
    return new Date(Date.now() + this.offset);
  }
  advance(ms: number): void {
    this.offset += ms;
  }
}

export interface TestDatabase {
  /** Environment that points shipd (in-process or a CLI child) at this database. */
  env: Record<string, string>;
  drop(): Promise<void>;
}

/** A database of its own for one test file: a temp SQLite file, or a fresh PostgreSQL database. */
export async function createTestDatabase(): Promise<TestDatabase> {
  const dataDir = mkdtempSync(join(tmpdir(), 'shipd-test-'));
  const base = process.env.TEST_DATABASE_URL;
  if (!base) {
    return { env: { SHIPD_DATA_DIR: dataDir }, drop: async () => rmSync(dataDir, { recursive: true, force: true }) };
  }
  const name = `shipd_t_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: base });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(base);
  url.pathname = '/' + name;
  return {
    env: { SHIPD_DATA_DIR: dataDir, DATABASE_URL: url.toString() },
    drop: async () => {
      const c = new pg.Client({ connectionString: base });
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await c.end();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export interface Response {
  status: number;
  headers: Headers;
  text: string;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- tests read whatever JSON came back
  body: any;
}

export interface RawResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
}

export interface TestServer {
  url: string;
  /** The API base, e.g. http://127.0.0.1:1234/api/integrations/v1 */
  api: string;
  app: FastifyInstance;
  services: Services;
  config: Config;
  clock: TestClock;
  db: TestDatabase;
  /** Every log line the server wrote. */
  logs: string[];
  request(method: string, path: string, options?: { key?: string; headers?: Record<string, string>; body?: unknown }): Promise<Response>;
  /** A request exactly as given, for malformed ones fetch would refuse to send. */
  raw(method: string, path: string, options?: { headers?: Record<string, string>; body?: string | Buffer }): Promise<RawResponse>;
  account(name?: string, plan?: Plan): Promise<string>;
  key(accountId: string, mode?: Mode): Promise<{ id: string; secret: string }>;
  /** Runs the shipd CLI as a child process against the same database. */
  cli(args: string[], env?: Record<string, string>): Promise<{ code: number; stdout: string; stderr: string }>;
  close(): Promise<void>;
}

export async function startServer(
  options: {
    env?: Record<string, string>;
    operations?: AnyOperation[];
    idempotencyWaitMs?: number;
    /** Another server's database, to run a second instance beside it; that server drops it. */
    database?: TestDatabase;
  } = {},
): Promise<TestServer> {
  const db = options.database ?? (await createTestDatabase());
  // Tests move their clock a minute or two to see a label scanned; 15 minutes, the default, is for people. And all of a
  // file's requests come from one address, hundreds of them without a key (every dashboard route, label files) and
  // dozens of sign-ins a minute: the limits per address are for people and scripts out there, and have tests of their
  // own (test/address-rate-limit.test.ts, test/dashboard/sign-in.test.ts).
  const env = {
    PORT: '0',
    HOST: '127.0.0.1',
    SHIPD_LOG_LEVEL: 'info',
    SHIPD_SIM_FIRST_SCAN_MINUTES: '1',
    SHIPD_ADDRESS_RATE_LIMIT_BURST: '100000',
    SHIPD_SIGNIN_ATTEMPTS_PER_MINUTE: '10000',
    ...db.env,
    ...options.env,
  };
  const config = loadConfig(env);
  const clock = new TestClock();
  const services = await createServices(config, clock);
  const logs: string[] = [];
  const sink = new Writable({
    write(chunk, _encoding, done) {
      logs.push(String(chunk));
      done();
    },
  });
  const app = await buildApp(services, createLogger(config.logLevel, sink), { operations: options.operations, idempotencyWaitMs: options.idempotencyWaitMs });
  await app.listen({ port: config.port, host: '127.0.0.1' });
  const address = app.server.address();
  if (!address || typeof address === 'string') throw new Error('no address');
  const url = `http://127.0.0.1:${address.port}`;
  const admin = { db: services.database.db, kind: services.database.kind, clock };

  const server: TestServer = {
    url,
    api: url + apiBase,
    app,
    services,
    config,
    clock,
    db,
    logs,
    async request(method, path, opts = {}) {
      const headers: Record<string, string> = { ...opts.headers };
      if (opts.key) headers.authorization = `Bearer ${opts.key}`;
      let body: string | undefined;
      if (opts.body !== undefined) {
        body = JSON.stringify(opts.body);
        headers['content-type'] ??= 'application/json';
      }
      const res = await fetch(rootPaths.test(path) ? url + path : url + apiBase + path, {
        method,
        headers,
        body,
      });
      const text = await res.text();
      let parsed: unknown;
      try {
        parsed = text ? JSON.parse(text) : undefined;
      } catch {
        parsed = undefined;
      }
      return { status: res.status, headers: res.headers, text, body: parsed };
    },
    raw(method, path, opts = {}) {
      return new Promise((resolve, reject) => {
        const req = httpRequest(url + path, { method, headers: opts.headers }, (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text: Buffer.concat(chunks).toString() }));
        });
        req.on('error', reject);
        if (opts.body !== undefined) req.write(opts.body);
        req.end();
      });
    },
    async account(name = `acct-${randomBytes(4).toString('hex')}`, plan: Plan = 'api') {
      return (await createAccount(services.database.db, clock, name, plan)).id;
    },
    async key(accountId, mode = 'test') {
      const created = await createApiKey(admin, accountId, mode, config.maxKeysPerAccount);
      return { id: created.key.id, secret: created.secret };
    },
    cli(args, extraEnv = {}) {
      return runCli(args, { ...db.env, ...extraEnv });
    },
    async close() {
      await app.close();
      await services.close();
      if (!options.database) await db.drop();
    },
  };
  return server;
}

const shipdBin = join(import.meta.dirname, '..', 'bin', 'shipd.js');

export function runCli(args: string[], env: Record<string, string>): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [shipdBin, ...args], {
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/tmp', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c));
    child.stderr.on('data', (c: Buffer) => (stderr += c));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code: code ?? -1, stdout, stderr }));
  });
}

/** Asserts the shape every error answer shares and returns the problem. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- tests read whatever JSON came back
export function problem(res: Response | RawResponse, status: number, code: string): any {
  const contentType = res.headers instanceof Headers ? res.headers.get('content-type') : res.headers['content-type'];
  const body = JSON.parse(res.text);
  const context = `${res.status} ${res.text}`;
  if (res.status !== status) throw new Error(`expected ${status}, got ${context}`);
  if (!String(contentType).startsWith('application/problem+json')) throw new Error(`content-type ${contentType}: ${context}`);
  if (body.code !== code) throw new Error(`expected code ${code}, got ${context}`);
  for (const field of ['type', 'title', 'status', 'detail', 'code', 'request_id']) {
    if (body[field] === undefined) throw new Error(`problem lacks ${field}: ${context}`);
  }
  if (body.status !== status) throw new Error(`problem status ${body.status} differs from HTTP ${status}`);
  if (!String(body.type).endsWith(`/problems/${code}`)) throw new Error(`problem type ${body.type}`);
  return body;
}

/** Runs `count` tasks, at most `concurrency` at a time; the first failure fails the whole. */
export async function inParallel<T>(count: number, concurrency: number, task: (n: number) => Promise<T>): Promise<T[]> {
  const results: T[] = [];
  let next = 0;
  let failed = false;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < count && !failed) {
        const n = next++;
        try {
          results[n] = await task(n);
        } catch (err) {
          failed = true;
          throw err;
        }
      }
    }),
  );
  return results;
}
