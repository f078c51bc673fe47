import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { InsertQueryNode, KyselyPlugin } from 'kysely';
import { createTestDatabase, type TestDatabase } from './harness.ts';
import { loadConfig } from '../src/config.ts';
import { openDatabase, type Database } from '../src/db/database.ts';
import { migrate } from '../src/db/migrate.ts';
import { BatchInserter } from '../src/db/batch-insert.ts';
import type { RateShopsTable } from '../src/db/schema.ts';

// Group commit (src/db/batch-insert.ts) on the suite's database: how many rows each INSERT carries.

let testDb: TestDatabase;
let database: Database;
before(async () => {
  testDb = await createTestDatabase();
  database = openDatabase(loadConfig(testDb.env));
  await migrate(database);
});
after(async () => {
  await database.close();
  await testDb.drop();
});

/** The database, with the number of rows of each INSERT it is sent. */
function counting(): { db: Database['db']; inserts: number[] } {
  const inserts: number[] = [];
  const plugin: KyselyPlugin = {
    transformQuery: ({ node }) => {
      if (node.kind === 'InsertQueryNode') inserts.push(((node as InsertQueryNode).values as unknown as { values: unknown[] }).values.length);
      return node;
    },
    transformResult: async ({ result }) => result,
  };
  return { db: database.db.withPlugin(plugin), inserts };
}

let serial = 0;
const row = (): RateShopsTable => {
  serial++;
  return {
    rate_key: `batch-test-${serial}`,
    id: `rs_batch_${serial}`,
    owner_key_id: 'key_batch_test',
    mode: 'test',
    order_id: null,
    inputs_fingerprint: 'f',
    ship_date: null,
    options: null,
    insured_cents: null,
    rates: '[]',
    created_at: '2026-11-28T00:00:00.000Z',
    expires_at: '2026-11-29T00:00:00.000Z',
  };
};

async function stored(rows: RateShopsTable[]): Promise<number> {
  const found = await database.db
    .selectFrom('rate_shops')
    .select('rate_key')
    .where(
      'rate_key',
      'in',
      rows.map((r) => r.rate_key),
    )
    .execute();
  return found.length;
}

describe('batched inserts', () => {
  test('the rows of one turn go in one INSERT, and each caller hears once its row is written', async () => {
    const { db, inserts } = counting();
    const inserter = new BatchInserter(db, 'rate_shops');
    const rows = Array.from({ length: 7 }, row);
    await Promise.all(rows.map((r) => inserter.insert(r)));
    assert.deepEqual(inserts, [7]);
    assert.equal(await stored(rows), 7);
  });

  test('a batch is split at maxRows', async () => {
    const { db, inserts } = counting();
    const inserter = new BatchInserter(db, 'rate_shops', 3);
    const rows = Array.from({ length: 7 }, row);
    await Promise.all(rows.map((r) => inserter.insert(r)));
    assert.deepEqual(inserts, [3, 3, 1]);
    assert.equal(await stored(rows), 7);
  });

  test('with sendAt, a batch that size is sent at once, before the turn ends', async () => {
    const { db, inserts } = counting();
    const inserter = new BatchInserter(db, 'rate_shops', 200, 3);
    const rows = Array.from({ length: 7 }, row);
    const written = rows.map((r) => inserter.insert(r));
    await Promise.resolve();
    assert.deepEqual(inserts, [3, 3], 'two batches of three are on their way within the turn');
    await Promise.all(written);
    assert.deepEqual(inserts, [3, 3, 1], 'the seventh row at the end of the turn');
    assert.equal(await stored(rows), 7);
  });

  test('a batch that fails fails each of its callers, and the next batch is written', async () => {
    const { db } = counting();
    const inserter = new BatchInserter(db, 'rate_shops', 200, 2);
    const [first] = [row()];
    await inserter.insert(first!);
    const again = inserter.insert({ ...first! });
    const other = inserter.insert(row());
    await assert.rejects(again);
    await assert.rejects(other, 'its batch mate fails with it');
    const later = row();
    await inserter.insert(later);
    assert.equal(await stored([later]), 1);
  });
});
