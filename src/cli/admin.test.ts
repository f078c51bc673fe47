import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { loadConfig } from '../config.ts';
import { migrate } from '../db/migrate.ts';
import { createAccount } from '../domain/accounts/accounts.ts';
import { createApiKey, rollApiKey } from '../domain/accounts/api-keys.ts';
import { systemClock } from '../kernel/clock.ts';
import { openAdminDatabase } from './admin.ts';

test('shipd keys roll is not "database is locked" when the server writes between its read and its write (SQLite)', async () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'shipd-admin-'));
  const database = openAdminDatabase(loadConfig({ SHIPD_DATA_DIR: dataDir }));
  // The server: another connection to the file, which commits a write the moment the roll has read its key.
  const server = new BetterSqlite3(join(dataDir, 'shipd.db'), { timeout: 0 });
  try {
    await migrate(database);
    const admin = { db: database.db, kind: database.kind, clock: systemClock };
    const account = await createAccount(database.db, systemClock, 'locking', 'api');
    const { key } = await createApiKey(admin, account.id, 'test', 50);
    let serverWrote: boolean | undefined;
    const clock = {
      now: () => {
        try {
          server.prepare('UPDATE accounts SET name = name WHERE id = ?').run(account.id);
          serverWrote = true;
        } catch (err) {
          // The roll holds the write lock from its BEGIN: the server waits its turn (busy_timeout) instead.
          assert.equal((err as { code?: string }).code, 'SQLITE_BUSY');
          serverWrote = false;
        }
        return new Date();
      },
    };
    const rolled = await rollApiKey({ ...admin, clock }, key.id, 0);
    assert.equal(serverWrote, false, 'the roll took the write lock before reading');
    assert.match(rolled.secret, /^svc_test_/);
    server.prepare('UPDATE accounts SET name = name WHERE id = ?').run(account.id);
  } finally {
    server.close();
    await database.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
});
