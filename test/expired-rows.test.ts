import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, type TestServer } from './harness.ts';
import { IdempotencyStore } from '../src/domain/core/idempotency.ts';
import { storedIdempotencyKey } from './fixtures.ts';

let server: TestServer;
before(async () => {
  server = await startServer();
});
after(() => server.close());

/** Turns of the event loop while `work` runs. */
async function turnsDuring<T>(work: Promise<T>): Promise<{ result: T; turns: number }> {
  let turns = 0;
  let done = false;
  const count = () => {
    if (done) return;
    turns++;
    setImmediate(count);
  };
  setImmediate(count);
  const result = await work.finally(() => (done = true));
  return { result, turns };
}

test('expired rate shops go a chunk at a time, letting requests in between; live ones stay', async () => {
  const db = server.services.database.db;
  const now = server.clock.now();
  // All expired at the same instant, as a burst of rate shops can be: the chunks must still split them.
  const past = new Date(now.getTime() - 60_000).toISOString();
  const future = new Date(now.getTime() + 60_000).toISOString();
  const shop = (n: number, expires: string) => ({
    rate_key: `rk_expiry_${n}`,
    id: `rate_expiry_${n}`,
    owner_key_id: 'key_expiry',
    mode: 'test' as const,
    order_id: null,
    inputs_fingerprint: 'f',
    rates: '[]',
    created_at: past,
    expires_at: expires,
  });
  for (let i = 0; i < 2_500; i += 500) await db.insertInto('rate_shops').values(Array.from({ length: 500 }, (_, j) => shop(i + j, past))).execute();
  await db.insertInto('rate_shops').values(Array.from({ length: 10 }, (_, j) => shop(10_000 + j, future))).execute();

  const { result, turns } = await turnsDuring(server.services.rateStore.deleteExpired(now));
  assert.equal(result, 2_500);
  // One DELETE for all of them let no turn in at all.
  assert.ok(turns >= 2, `${turns} turns of the event loop while 2,500 rows went in chunks of 1,000`);
  const left = await db.selectFrom('rate_shops').select('rate_key').where('owner_key_id', '=', 'key_expiry').execute();
  assert.deepEqual(left.map((r) => r.rate_key).sort(), Array.from({ length: 10 }, (_, j) => `rk_expiry_${10_000 + j}`).sort());
});

test('expired idempotency keys go by their whole key: a live key on the same path stays', async () => {
  const db = server.services.database.db;
  const now = server.clock.now();
  const row = (owner: string, idemKey: string, expires: Date) => storedIdempotencyKey(owner, idemKey, expires, now);
  const past = new Date(now.getTime() - 1_000);
  const future = new Date(now.getTime() + 1_000);
  const rows = Array.from({ length: 1_200 }, (_, i) => row(`key_idem_${i % 3}`, `k${i}`, past));
  for (let i = 0; i < rows.length; i += 400) await db.insertInto('idempotency_keys').values(rows.slice(i, i + 400)).execute();
  await db.insertInto('idempotency_keys').values([row('key_idem_0', 'live', future), row('key_idem_1', 'k0', future)]).execute();

  assert.equal(await new IdempotencyStore(db, server.clock).deleteExpired(), 1_200);
  const left = await db.selectFrom('idempotency_keys').select(['owner_key_id', 'idem_key']).where('owner_key_id', 'like', 'key_idem_%').orderBy('owner_key_id').execute();
  assert.deepEqual(left, [
    { owner_key_id: 'key_idem_0', idem_key: 'live' },
    { owner_key_id: 'key_idem_1', idem_key: 'k0' },
  ]);
});
