import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { randomInt } from 'node:crypto';
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { sql } from 'kysely';
import { createTestDatabase, databaseUnderTest, type TestDatabase } from '../harness.ts';
import { loadConfig } from '../../src/config.ts';
import { openDatabase } from '../../src/db/database.ts';
import { isDatabaseUnavailable } from '../../src/db/unavailable.ts';
import {
  eventTypesByOrder,
  flowEventTypes,
  inParallel,
  ledgerMismatches,
  orderPush,
  ordersWithTwoLabels,
  settledEvents,
  until,
  withCluster,
  Client,
  type Exchange,
  type Flow,
  type Json,
} from './cluster.ts';

// The database goes away for 10 s under load and comes back. shipd must answer fast with a 503 problem meanwhile,
// not hang, and recover on its own: new flows, the webhook worker and /readyz, without a restart. The outage is of
// a PostgreSQL cluster of this test's own, never the shared one the other tests use.

const postgresOnly = databaseUnderTest === 'postgres' ? false : 'PostgreSQL outages: set TEST_DATABASE_URL to run this';
const execFileAsync = promisify(execFile);
const outageMs = 10_000;
/** "Fast": what a request may take while the database is away. */
const fastMs = 2_000;

/** The directory of the newest PostgreSQL installed the Debian way, else whatever is on PATH. */
function pgProgram(name: string): string {
  let dirs: string[] = [];
  try {
    dirs = readdirSync('/usr/lib/postgresql')
      .sort((a, b) => Number(b) - Number(a))
      .map((v) => `/usr/lib/postgresql/${v}/bin`);
  } catch {
    // not a Debian layout
  }
  return dirs.map((d) => join(d, name)).find((p) => existsSync(p)) ?? name;
}

const runningAsRoot = process.getuid?.() === 0;

/** PostgreSQL refuses to run as root: as root, its programs run as the postgres OS user. */
async function postgresRun(program: string, args: string[]): Promise<void> {
  const [command, argv] = runningAsRoot ? ['runuser', ['-u', 'postgres', '--', pgProgram(program), ...args]] : [pgProgram(program), args];
  await execFileAsync(command, argv, { timeout: 60_000 });
}

interface PrivatePostgres {
  url: string;
  /** Where shipd keeps its own files for this database. */
  dataDir: string;
  start(): Promise<void>;
  /** Immediate shutdown: backends die mid-query and connections drop, as in a crash of the database server. */
  stop(): Promise<void>;
  destroy(): Promise<void>;
}

/** A throw-away PostgreSQL cluster (initdb in a temp dir) on a port of its own. */
async function privatePostgres(): Promise<PrivatePostgres> {
  const base = mkdtempSync(join(tmpdir(), 'shipd-outage-'));
  const data = join(base, 'data');
  const stop = () => postgresRun('pg_ctl', ['stop', '-w', '-m', 'immediate', '-D', data]);
  const destroy = async () => {
    await stop().catch(() => {});
    rmSync(base, { recursive: true, force: true });
  };
  try {
    if (runningAsRoot) {
      const id = async (flag: string) => Number((await execFileAsync('id', [flag, 'postgres'])).stdout.trim());
      chownSync(base, await id('-u'), await id('-g'));
    }
    await postgresRun('initdb', ['-D', data, '-U', 'postgres', '-A', 'trust', '-E', 'UTF8', '--locale=C', '--no-sync', '--no-instructions']);
    let port = 0;
    // fsync is off: the outage is a killed server, not a lost machine, so the OS still holds every write.
    const start = () =>
      postgresRun('pg_ctl', ['start', '-w', '-t', '60', '-D', data, '-l', join(base, 'server.log'), '-o', `-p ${port} -k ${base} -c listen_addresses=127.0.0.1 -c fsync=off`]);
    // A port someone else holds fails the start; another random one will not, almost surely.
    for (let attempt = 1; ; attempt++) {
      port = 20_000 + randomInt(40_000);
      try {
        await start();
        break;
      } catch (err) {
        if (attempt === 5) throw err;
      }
    }
    return { url: `postgres://postgres@127.0.0.1:${port}/postgres`, dataDir: join(base, 'shipd'), start, stop, destroy };
  } catch (err) {
    await destroy();
    throw err;
  }
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Order push flows, `inFlight` at a time, until told to stop. */
function keepFlowing(run: (n: number) => Promise<Flow>, inFlight: number) {
  let next = 0;
  let stopping = false;
  const failures: unknown[] = [];
  const succeeded: Flow[] = [];
  const loops = Array.from({ length: inFlight }, async () => {
    while (!stopping) {
      try {
        succeeded.push(await run(next++));
      } catch (err) {
        failures.push(err);
      }
    }
  });
  return {
    succeeded,
    failures,
    stop: async () => {
      stopping = true;
      await Promise.all(loops);
    },
  };
}

test('a 10 s database outage under load: fast 503 problems meanwhile, then recovery without restarting shipd', { skip: postgresOnly, timeout: 240_000 }, async (t) => {
  const started = Date.now();
  const postgres = await privatePostgres();
  const database: TestDatabase = { env: { SHIPD_DATA_DIR: postgres.dataDir, DATABASE_URL: postgres.url }, drop: postgres.destroy };
  // A request cut off by the outage holds its Idempotency-Key for twice the carrier time-out plus 10 s.
  const options = { apis: 1, workers: 0, accounts: ['solo'], database, env: { SHIPD_CARRIER_TIMEOUT_MS: '1000' } };
  await withCluster(options, async (cluster, tenants) => {
    const tn = tenants[0]!;
    /** What must end before the cluster stops, even when an assertion fails half-way: the load and the prober. */
    const cleanups: (() => Promise<void>)[] = [];
    try {
      const api = cluster.apis[0]!;
      const { client } = tn;
      t.diagnostic(`private PostgreSQL and shipd ready in ${Date.now() - started} ms`);

      // The load's client is a careful one: a 503 is retried, the same request with the same Idempotency-Key, so the
      // flows the outage catches finish once the database is back.
      const careful = new Client(cluster, client.key, 60_000);
      const exchanges: Exchange[] = (careful.exchanges = []);
      const load = keepFlowing((n) => orderPush(cluster, careful, 'outage', n), 6);
      cleanups.push(load.stop);
      await until(async () => load.succeeded.length, (n) => n >= 30, 60_000);
      assert.equal(careful.retries, 0, 'before the outage every request succeeds');

      const stopping = Date.now();
      await postgres.stop();
      const down = Date.now();
      // Health as a load balancer sees it, twice a second, for the whole outage and the recovery.
      const health = new Client(cluster, client.key);
      const probes: Exchange[] = (health.exchanges = []);
      let probing = true;
      const prober = (async () => {
        while (probing) {
          for (const path of ['/readyz', '/healthz']) await health.send('GET', path, { to: api }).catch(() => undefined);
          await sleep(500);
        }
      })();
      cleanups.push(async () => {
        probing = false;
        await prober;
      });
      await sleep(outageMs - (down - stopping));
      const restarting = Date.now();
      await postgres.start();
      const up = Date.now();
      t.diagnostic(`database stopped in ${down - stopping} ms, away ${restarting - down} ms, back in ${up - restarting} ms`);

      const ready = await until(
        async () => probes.filter((p) => p.path === '/readyz' && p.startedAt > up && p.status === 200).length,
        (n) => n > 0,
        30_000,
      );
      assert.ok(ready > 0, 'readyz says ready again');
      const readyAt = Date.now();
      t.diagnostic(`ready again ${readyAt - up} ms after the database came back`);
      await load.stop();

      // The outage proper: sent after the server was gone, answered before it was started again.
      const within = (e: Exchange) => e.startedAt >= down && e.startedAt + e.ms <= restarting;
      const during = [...exchanges, ...probes.filter((e) => e.path === '/readyz')].filter(within);
      assert.ok(during.length > 20, `requests kept coming during the outage (${during.length})`);
      for (const e of during) {
        assert.equal(e.status, 503, `${e.method} ${e.path} during the outage: ${JSON.stringify(e)}`);
        assert.match(String(e.contentType), /^application\/problem\+json/);
        assert.equal(e.code, 'service_unavailable');
      }
      for (const e of probes.filter((e) => e.path === '/healthz' && within(e))) assert.equal(e.status, 200, 'the process itself stays healthy');
      const around = [...exchanges, ...probes].filter((e) => e.startedAt + e.ms >= stopping && e.startedAt <= up);
      assert.deepEqual(around.filter((e) => e.ms > fastMs), [], `every request around the outage answered within ${fastMs} ms`);
      t.diagnostic(`${during.length} requests during the outage, all 503 problems; slowest around it ${Math.round(Math.max(...around.map((e) => e.ms)))} ms`);

      assert.deepEqual(load.failures, [], 'every flow the outage caught finished once the database was back');

      // Recovery, with no restart of shipd: new flows succeed the first time.
      const fresh = await inParallel(30, 6, (n) => orderPush(cluster, client, 'after', n));
      assert.equal(client.retries, 0);
      t.diagnostic(`${load.succeeded.length} flows before, through and after the outage (${careful.retries} requests retried), ${fresh.length} after`);

      const db = cluster.db();
      await until(
        () => db.selectFrom('shipments').select('id').where('status', '=', 'pending').execute(),
        (rows) => rows.length === 0,
        30_000,
      );
      assert.deepEqual(await ordersWithTwoLabels(db), [], 'no order has two active labels');
      assert.deepEqual(await ledgerMismatches(db), [], 'the ledger balances');

      // The worker resumed: the new flows' events are written (the last by the tracking job), and every event in the
      // log, from before, during and after the outage, reaches the receiver.
      const complete = (list: Json[]) => fresh.every((f) => eventTypesByOrder(list).get(f.orderId)?.length === flowEventTypes.length);
      const log = await until(() => client.all('/events'), complete, 90_000);
      const byOrder = eventTypesByOrder(log);
      for (const f of fresh) assert.deepEqual(byOrder.get(f.orderId), flowEventTypes, `${f.orderId}: its events, after the outage`);
      await settledEvents(tn, log.length, 90_000);
      t.diagnostic(`whole test ${Date.now() - started} ms`);
    } finally {
      for (const cleanup of cleanups) await cleanup().catch((err: unknown) => t.diagnostic(`clean-up: ${String(err)}`));
    }
  });
});

test('a connection lost between two statements of a transaction fails that transaction as unavailable, and takes nothing else down', { skip: postgresOnly }, async () => {
  const testDb = await createTestDatabase();
  const database = openDatabase(loadConfig(testDb.env));
  try {
    const outcome = await database.db
      .transaction()
      .execute(async (trx) => {
        const { rows } = await sql<{ pid: number }>`select pg_backend_pid() as pid`.execute(trx);
        // Killed from another connection while this one sits idle in its transaction, as a database restart would.
        await sql`select pg_terminate_backend(${rows[0]!.pid})`.execute(database.db);
        await sleep(200);
        await sql`select 1`.execute(trx);
      })
      .then(
        () => 'committed',
        (err: unknown) => err,
      );
    assert.ok(isDatabaseUnavailable(outcome), `the transaction failed as "database unavailable" (503): ${String(outcome)}`);
    // The dead connection went back to the pool and was dropped there: the next query gets a live one.
    for (let i = 0; i < 12; i++) await sql`select 1`.execute(database.db);
  } finally {
    await database.close();
    await testDb.drop();
  }
});
