import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { sql } from 'kysely';
import { loadConfig } from '../src/config.ts';
import { openDatabase } from '../src/db/database.ts';
import { migrations } from '../src/db/migrations/index.ts';
import { createTestDatabase, databaseUnderTest, runCli, type TestDatabase } from './harness.ts';

let db: TestDatabase;
before(async () => {
  db = await createTestDatabase();
});
after(() => db.drop());

test(`four "shipd migrate" processes started at once on one fresh ${databaseUnderTest} database all succeed, and each migration runs once`, async () => {
  const runs = await Promise.all(Array.from({ length: 4 }, () => runCli(['migrate'], db.env)));
  for (const run of runs) assert.equal(run.code, 0, `shipd migrate failed: ${run.stderr}`);
  const applied = runs.flatMap((r) => /^applied (.*)$/m.exec(r.stdout)?.[1]?.split(', ') ?? []);
  assert.deepEqual(applied.sort(), Object.keys(migrations), 'between them, the processes applied every migration exactly once');

  // They also raced to generate the secret into the fresh data dir: one file, whole, and no leftovers.
  const dataDir = db.env.SHIPD_DATA_DIR!;
  assert.deepEqual(readdirSync(dataDir).filter((f) => f.startsWith('secret')), ['secret']);
  assert.match(readFileSync(join(dataDir, 'secret'), 'utf8'), /^[\w-]{43}\n$/);

  const database = openDatabase(loadConfig(db.env));
  try {
    const { rows } = await sql<{ name: string }>`select name from kysely_migration order by name`.execute(database.db);
    assert.deepEqual(rows.map((r) => r.name), Object.keys(migrations));
  } finally {
    await database.close();
  }
});
