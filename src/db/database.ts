import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import pg from 'pg';
import { Kysely, PostgresDialect, SqliteDialect, type SqliteDatabase } from 'kysely';
import type { Config } from '../config.ts';
import type { DB } from './schema.ts';

export type DatabaseKind = 'sqlite' | 'postgres';

export interface Database {
  kind: DatabaseKind;
  db: Kysely<DB>;
  /** The SQLite file, for the read-only side connection that watches key changes. */
  sqliteFile?: string;
  postgresUrl?: string;
  close(): Promise<void>;
}

// COUNT(*) and BIGINT come back from pg as strings; our counts fit in a double.
pg.types.setTypeParser(pg.types.builtins.INT8, (v) => Number(v));

/**
 * Kysely prepares every query anew, and compiling the SQL was a tenth of a request's time. The same few
 * hundred statements run all day, so each is compiled once. Reusing one is safe: better-sqlite3 runs a
 * statement to completion synchronously, and nothing here iterates one lazily.
 */
function withStatementCache(sqlite: BetterSqlite3.Database, max = 1_000): SqliteDatabase {
  const statements = new Map<string, BetterSqlite3.Statement>();
  return {
    close: () => sqlite.close(),
    prepare(sql: string) {
      let statement = statements.get(sql);
      if (!statement) {
        if (statements.size >= max) statements.clear();
        statement = sqlite.prepare(sql);
        statements.set(sql, statement);
      }
      return statement;
    },
  };
}

export function openDatabase(config: Pick<Config, 'database'>): Database {
  if (config.database.kind === 'postgres') {
    const pool = new pg.Pool({
      connectionString: config.database.url,
      max: 10,
      connectionTimeoutMillis: 5_000,
      idleTimeoutMillis: 30_000,
    });
    // An idle client losing its connection (a database restart) must not crash the process.
    pool.on('error', () => {});
    // Nor may a checked-out one: the pool listens for errors only on the clients it holds, and a client in use
    // (mid-query, or between two statements of a transaction) emits its lost connection as an 'error' event.
    // Its queries fail instead, so the request answers 503, and the pool drops the client when it comes back.
    pool.on('connect', (client) => client.on('error', () => {}));
    const db = new Kysely<DB>({ dialect: new PostgresDialect({ pool }) });
    return { kind: 'postgres', db, postgresUrl: config.database.url, close: () => db.destroy() };
  }
  const file = config.database.file;
  mkdirSync(dirname(file), { recursive: true });
  const sqlite = new BetterSqlite3(file);
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('synchronous = NORMAL');
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma('busy_timeout = 5000');
  const db = new Kysely<DB>({ dialect: new SqliteDialect({ database: withStatementCache(sqlite) }) });
  return { kind: 'sqlite', db, sqliteFile: file, close: () => db.destroy() };
}
