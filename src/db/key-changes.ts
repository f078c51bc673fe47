import BetterSqlite3 from 'better-sqlite3';
import type pg from 'pg';
import { sql, type Kysely, type Transaction } from 'kysely';
import { postgresDriver, type Database } from './database.ts';
import type { DB } from './schema.ts';

const channel = 'shipd_api_keys';

/**
 * Tells a process's key cache when any process changed a key. `version()` changes after every key change;
 * null means this watcher cannot vouch for the cache right now (its PostgreSQL listener is down), so the
 * cache must not be trusted.
 */
export interface KeyChangeWatcher {
  version(): number | null;
  close(): Promise<void>;
}

/** Call inside the transaction that changes a key, so every process's cache forgets at commit. */
export async function announceKeyChange(trx: Transaction<DB> | Kysely<DB>, kind: Database['kind']): Promise<void> {
  await trx
    .updateTable('key_revision')
    .set((eb) => ({ revision: eb('revision', '+', 1) }))
    .where('id', '=', 1)
    .execute();
  if (kind === 'postgres') await sql`select pg_notify(${channel}, '')`.execute(trx);
}

/** How stale a SQLite watcher's answer may be: a change in another process is seen within this. */
export const sqliteRecheckMs = 10;

/**
 * SQLite: read the revision row on a read-only side connection, an in-process read with no round trip. Under
 * a busy writer each read pays for the growing WAL, so it is read at most once in sqliteRecheckMs: once a
 * millisecond cost a busy API several per cent of its time, for a revocation seen 9 ms sooner.
 */
function sqliteWatcher(file: string): KeyChangeWatcher {
  const conn = new BetterSqlite3(file, { readonly: true, fileMustExist: true });
  const stmt = conn.prepare<[], { revision: number }>('select revision from key_revision where id = 1');
  let last: number | null = null;
  let readAt = -Infinity;
  return {
    version: () => {
      const now = performance.now();
      if (now - readAt >= sqliteRecheckMs) {
        last = stmt.get()?.revision ?? null;
        readAt = now;
      }
      return last;
    },
    close: async () => {
      conn.close();
    },
  };
}

/** PostgreSQL: LISTEN on a dedicated connection; every notification or reconnect moves the version. */
function postgresWatcher(url: string): KeyChangeWatcher {
  let version = 0;
  let listening = false;
  let closed = false;
  let client: pg.Client | undefined;
  let retry: NodeJS.Timeout | undefined;

  const connect = async () => {
    const c = new (postgresDriver().Client)({ connectionString: url, connectionTimeoutMillis: 5_000 });
    client = c;
    const lost = () => {
      if (client !== c) return;
      listening = false;
      client = undefined;
      c.end().catch(() => {});
      if (!closed) retry = setTimeout(() => void connect(), 1_000);
    };
    c.on('error', lost);
    c.on('end', lost);
    c.on('notification', () => {
      version++;
    });
    try {
      await c.connect();
      await c.query(`LISTEN ${channel}`);
      // Changes made while we were not listening are unknown: start from an empty cache.
      version++;
      listening = true;
    } catch {
      lost();
    }
  };
  void connect();

  return {
    version: () => (listening ? version : null),
    close: async () => {
      closed = true;
      clearTimeout(retry);
      const c = client;
      client = undefined;
      listening = false;
      await c?.end().catch(() => {});
    },
  };
}

export function watchKeyChanges(database: Database): KeyChangeWatcher {
  if (database.kind === 'sqlite') return sqliteWatcher(database.sqliteFile!);
  return postgresWatcher(database.postgresUrl!);
}
