import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import BetterSqlite3 from 'better-sqlite3';
import { WalCheckpointer } from './wal-checkpointer.ts';

function writer(t: { after(fn: () => void): void }): { file: string; db: BetterSqlite3.Database } {
  const dir = mkdtempSync(join(tmpdir(), 'shipd-wal-'));
  const file = join(dir, 'shipd.db');
  const db = new BetterSqlite3(file);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.exec('create table blobs (id integer primary key, data blob not null)');
  t.after(() => {
    db.close();
    rmSync(dir, { recursive: true, force: true });
  });
  return { file, db };
}

const autoCheckpoint = (db: BetterSqlite3.Database) => db.pragma('wal_autocheckpoint', { simple: true });

/** Writes `megabytes` in 2 KB commits, yielding to timers between batches as a server's event loop does. */
async function write(db: BetterSqlite3.Database, megabytes: number): Promise<void> {
  const insert = db.prepare('insert into blobs (data) values (?)');
  const row = Buffer.alloc(2048, 7);
  for (let i = 0; i < megabytes * 512; i++) {
    insert.run(row);
    if (i % 64 === 63) await sleep(1);
  }
}

async function until(what: string, check: () => boolean): Promise<void> {
  for (let i = 0; i < 500 && !check(); i++) await sleep(10);
  assert.ok(check(), what);
}

test('a busy WAL is copied into the database file by the thread, while the writer checkpoints only at the backstop', async (t) => {
  const { file, db } = writer(t);
  const checkpointer = new WalCheckpointer(file, db, { startAtBytes: 512 * 1024, lookEveryMs: 10, everyMs: 20, backstopPages: 50_000 });
  t.after(() => checkpointer.close());
  assert.equal(checkpointer.running, false, 'no thread before the WAL grows');
  await write(db, 0.05);
  assert.equal(checkpointer.running, false, 'no thread for a small WAL');
  assert.equal(autoCheckpoint(db), 1000);

  while (!checkpointer.running) await write(db, 0.25);
  assert.equal(autoCheckpoint(db), 50_000);
  const before = statSync(file).size;
  await write(db, 8);
  // 8 MB is 2,000 pages, far below the writer's backstop: only the thread can have put them in the file.
  await until('the rows reached the database file', () => statSync(file).size - before >= 8 * 1024 * 1024);
});

test('a thread that dies hands checkpoints back to the writer', async (t) => {
  const { db } = writer(t);
  const checkpointer = new WalCheckpointer(join(tmpdir(), 'shipd-wal-missing', 'none.db'), db, { backstopPages: 50_000 });
  t.after(() => checkpointer.close());
  checkpointer.start();
  assert.equal(autoCheckpoint(db), 50_000);
  await until('the thread is gone', () => !checkpointer.running);
  assert.equal(autoCheckpoint(db), 1000);
});

test('close() stops the thread and leaves the writer to make the last checkpoint', async (t) => {
  const { file, db } = writer(t);
  const checkpointer = new WalCheckpointer(file, db);
  checkpointer.start();
  assert.equal(checkpointer.running, true);
  await checkpointer.close();
  assert.equal(checkpointer.running, false);
  checkpointer.start();
  assert.equal(checkpointer.running, false, 'a closed checkpointer starts no thread');
});
