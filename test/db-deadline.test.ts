import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { createConnection, createServer, type Server, type Socket } from 'node:net';
import { sql } from 'kysely';
import { createTestDatabase, databaseUnderTest, problem, startServer, type TestDatabase } from './harness.ts';
import { orderBody } from './fixtures.ts';
import { loadConfig } from '../src/config.ts';
import { openDatabase } from '../src/db/database.ts';
import { isDatabaseUnavailable } from '../src/db/unavailable.ts';

// A PostgreSQL server that stops answering without closing its connections (frozen, or cut off by a partition)
// must cost a request the query deadline, not hang it for as long as the server is gone.

const postgresOnly = databaseUnderTest === 'postgres' ? false : 'a frozen PostgreSQL server: set TEST_DATABASE_URL to run this';

let testDb: TestDatabase;
before(async () => {
  testDb = await createTestDatabase();
});
after(() => testDb.drop());

/** A TCP relay to the database that can be frozen: connections stay open, nothing goes through. */
async function freezableRelay(target: URL): Promise<{ url: string; freeze(): void; thaw(): void; close(): Promise<void> }> {
  const sockets = new Set<Socket>();
  let frozen = false;
  const server: Server = createServer((client) => {
    const upstream = createConnection(Number(target.port || 5432), target.hostname);
    for (const [from, to] of [
      [client, upstream],
      [upstream, client],
    ] as const) {
      sockets.add(from);
      from.on('data', (chunk) => to.write(chunk));
      from.on('error', () => to.destroy());
      from.on('close', () => {
        sockets.delete(from);
        to.destroy();
      });
      if (frozen) from.pause();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const url = new URL(target);
  url.hostname = '127.0.0.1';
  url.port = String(typeof address === 'object' && address ? address.port : 0);
  return {
    url: url.toString(),
    freeze: () => {
      frozen = true;
      for (const s of sockets) s.pause();
    },
    thaw: () => {
      frozen = false;
      for (const s of sockets) s.resume();
    },
    close: async () => {
      for (const s of sockets) s.destroy();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

test('a query past the deadline fails as "database unavailable", and the pool goes on with a fresh connection', { skip: postgresOnly }, async () => {
  const database = openDatabase({ ...loadConfig(testDb.env), dbQueryTimeoutMs: 300 });
  try {
    const started = Date.now();
    const outcome = await sql`select pg_sleep(5)`.execute(database.db).then(
      () => 'answered',
      (err: unknown) => err,
    );
    assert.ok(Date.now() - started < 2_000, `gave up after ${Date.now() - started} ms`);
    assert.ok(isDatabaseUnavailable(outcome), String(outcome));
    const inTransaction = await database.db
      .transaction()
      .execute(async (trx) => sql`select pg_sleep(5)`.execute(trx))
      .then(
        () => 'committed',
        (err: unknown) => err,
      );
    assert.ok(isDatabaseUnavailable(inTransaction), String(inTransaction));
    for (let i = 0; i < 12; i++) assert.deepEqual((await sql<{ one: number }>`select 1 as one`.execute(database.db)).rows, [{ one: 1 }]);
  } finally {
    await database.close();
  }
});

test('a frozen database server: requests answer 503 problems within the deadline, and shipd recovers when it thaws', { skip: postgresOnly, timeout: 60_000 }, async () => {
  const relay = await freezableRelay(new URL(testDb.env.DATABASE_URL!));
  const server = await startServer({ env: { DATABASE_URL: relay.url, SHIPD_DB_QUERY_TIMEOUT_MS: '500' } });
  try {
    const key = (await server.key(await server.account())).secret;
    assert.equal((await server.request('POST', '/orders', { key, body: orderBody() })).status, 201);
    relay.freeze();
    for (let i = 0; i < 3; i++) {
      const started = Date.now();
      const res = await server.request('POST', '/orders', { key, body: orderBody({ order_number: `frozen-${i}` }) });
      const ms = Date.now() - started;
      problem(res, 503, 'service_unavailable');
      // A query on an open connection gives up at the deadline; a request that needs a new connection (its open
      // one busy with a query that is itself giving up) at the pool's 5 s connect time-out.
      assert.ok(ms < 6_000, `answered in ${ms} ms`);
    }
    relay.thaw();
    const deadline = Date.now() + 15_000;
    let status = 0;
    while (status !== 201 && Date.now() < deadline) {
      status = (await server.request('POST', '/orders', { key, body: orderBody({ order_number: 'thawed' }) })).status;
      if (status !== 201) await new Promise((r) => setTimeout(r, 200));
    }
    assert.equal(status, 201, 'orders are taken again once the server answers');
    assert.equal((await server.request('GET', '/readyz')).status, 200);
  } finally {
    relay.thaw();
    await server.close();
    await relay.close();
  }
});
