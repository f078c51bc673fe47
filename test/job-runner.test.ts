import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { openDatabase, type Database } from '../src/db/database.ts';
import { enqueue } from '../src/db/job-queue.ts';
import { JobRunner, type JobHandler } from '../src/jobs/runner.ts';
import { createJobRunner } from '../src/jobs/index.ts';
import { createLogger } from '../src/http/logger.ts';
import { startServer, TestClock, type TestServer } from './harness.ts';
import { storedIdempotencyKey } from './fixtures.ts';

const silent = createLogger('silent');
let server: TestServer;
const extra: Database[] = [];

before(async () => {
  server = await startServer();
});
after(async () => {
  for (const d of extra) await d.close();
  await server.close();
});

/** Another connection (pool, on PostgreSQL) to the same database, as another process would have. */
function otherProcess(): Database {
  const d = openDatabase(server.config);
  extra.push(d);
  return d;
}

const jobs = () => server.services.database.db.selectFrom('jobs').selectAll();

describe('the job runner', () => {
  test('three runners on their own connections run each of 300 jobs exactly once', async () => {
    const ran: string[] = [];
    const handler: JobHandler = async (payload) => {
      await new Promise((r) => setTimeout(r, Math.random() * 3));
      ran.push((payload as { n: string }).n);
    };
    const now = server.clock.now();
    for (let i = 0; i < 300; i++) await enqueue(server.services.database.db, { name: 'count', payload: { n: `job-${i}` } }, now);
    const runners = [0, 1, 2].map(() => new JobRunner(otherProcess(), { count: handler }, [], server.clock, silent, { concurrency: 8 }));
    await Promise.all(runners.map((r) => r.drain()));
    assert.equal(ran.length, 300, 'every job ran once, none twice');
    assert.equal(new Set(ran).size, 300);
    assert.equal((await jobs().where('name', '=', 'count').execute()).length, 0, 'done jobs are removed');
  });

  test('a failing job is retried with backoff, not before, and a hopeless one ends failed', async () => {
    const clock = new TestClock();
    let attempts = 0;
    const flaky: JobHandler = async () => {
      attempts++;
      if (attempts <= 2) throw new Error(`attempt ${attempts} failed`);
    };
    const hopeless: JobHandler = async () => {
      throw new Error('never works');
    };
    const runner = new JobRunner(server.services.database, { flaky, hopeless }, [], clock, silent);
    const id = await enqueue(server.services.database.db, { name: 'flaky' }, clock.now());
    const lost = await enqueue(server.services.database.db, { name: 'hopeless', maxAttempts: 2 }, clock.now());
    await runner.drain();
    let row = await jobs().where('id', '=', id).executeTakeFirstOrThrow();
    assert.equal(row.status, 'pending');
    assert.equal(row.attempts, 1);
    assert.equal(row.last_error, 'attempt 1 failed');
    assert.ok(row.run_at > clock.now().toISOString(), 'the retry waits');
    await runner.drain();
    assert.equal(attempts, 1, 'not run again before its time');
    clock.advance(2_000);
    await runner.drain();
    row = await jobs().where('id', '=', id).executeTakeFirstOrThrow();
    assert.equal(row.attempts, 2);
    clock.advance(5_000);
    await runner.drain();
    assert.equal(attempts, 3);
    assert.equal(await jobs().where('id', '=', id).executeTakeFirst(), undefined, 'succeeded and removed');
    clock.advance(10_000);
    await runner.drain();
    const failed = await jobs().where('id', '=', lost).executeTakeFirstOrThrow();
    assert.equal(failed.status, 'failed');
    assert.equal(failed.attempts, 2);
    assert.equal(failed.last_error, 'never works');
  });

  test('a job whose runner died runs again once its lease is over, exactly once', async () => {
    const clock = new TestClock();
    const id = await enqueue(server.services.database.db, { name: 'lease' }, clock.now());
    const crashed = new JobRunner(otherProcess(), { lease: () => new Promise(() => {}) }, [], clock, silent, { leaseMs: 1_000 });
    assert.equal(await crashed.tick(), 1, 'the first runner took it and never finished');
    let runs = 0;
    const survivor = new JobRunner(otherProcess(), { lease: async () => void runs++ }, [], clock, silent, { leaseMs: 1_000 });
    await survivor.drain();
    assert.equal(runs, 0, 'not while the lease holds');
    clock.advance(1_001);
    await survivor.drain();
    await survivor.drain();
    assert.equal(runs, 1);
    assert.equal(await jobs().where('id', '=', id).executeTakeFirst(), undefined);
  });

  test('a unique key makes a second enqueue a no-op', async () => {
    const now = server.clock.now();
    await enqueue(server.services.database.db, { name: 'once', uniqueKey: 'only-one' }, now);
    await enqueue(server.services.database.db, { name: 'once', uniqueKey: 'only-one' }, now);
    assert.equal((await jobs().where('unique_key', '=', 'only-one').execute()).length, 1);
  });
});

describe('the idempotency cleanup schedule', () => {
  test('forgets keys older than 7 days, keeps the rest, and comes back in an hour', async () => {
    const db = server.services.database.db;
    const now = server.clock.now();
    const row = (key: string, expires: Date) => storedIdempotencyKey('key_x', key, expires, now);
    await db.insertInto('idempotency_keys').values([row('old', new Date(now.getTime() - 1_000)), row('fresh', new Date(now.getTime() + 60_000))]).execute();
    const runner = createJobRunner(server.services, silent);
    await runner.installSchedules();
    await runner.installSchedules();
    await runner.drain();
    const left = (await db.selectFrom('idempotency_keys').select('idem_key').where('owner_key_id', '=', 'key_x').execute()).map((r) => r.idem_key);
    assert.deepEqual(left, ['fresh']);
    const schedules = await jobs().where('unique_key', '=', 'schedule:idempotency.cleanup').execute();
    assert.equal(schedules.length, 1);
    assert.equal(schedules[0]!.status, 'pending');
    const due = Date.parse(schedules[0]!.run_at) - server.clock.now().getTime();
    assert.ok(due > 59 * 60_000 && due <= 60 * 60_000, `due in ${due} ms`);
  });
});

describe('the rate cleanup schedule', () => {
  test('forgets rate shops once their rates expire, and keeps the rest', async () => {
    const key = (await server.key(await server.account())).secret;
    const body = {
      ship_from: { street1: '1100 Congress Ave', city: 'Austin', state: 'TX', zip: '78701' },
      ship_to: { street1: '415 Mission St', city: 'San Francisco', state: 'CA', zip: '94105' },
      parcel: { weight: { value: 1, unit: 'lb' } },
    };
    const old = (await server.request('POST', '/rates', { key, body })).body;
    server.clock.advance(23 * 3_600_000);
    const recent = (await server.request('POST', '/rates', { key, body })).body;
    server.clock.advance(2 * 3_600_000);
    const runner = createJobRunner(server.services, silent);
    await runner.installSchedules();
    // The schedule may have run earlier in this file; make it due now.
    await server.services.database.db.updateTable('jobs').set({ run_at: server.clock.now().toISOString() }).where('unique_key', '=', 'schedule:rates.cleanup').execute();
    await runner.drain();
    const left = (await server.services.database.db.selectFrom('rate_shops').select('id').where('id', 'in', [old.id, recent.id]).execute()).map((r) => r.id);
    assert.deepEqual(left, [recent.id]);
    assert.equal(await server.services.rateStore.find(server.services.database.db, old.rates[0].id), undefined);
    assert.ok(await server.services.rateStore.find(server.services.database.db, recent.rates[0].id));
  });
});
