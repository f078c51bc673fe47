import { dirname } from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { createRequire } from 'node:module';
import type pg from 'pg';
import { CompiledQuery, Kysely, PostgresDialect, SqliteDialect, SqliteDriver, type DatabaseConnection, type SqliteDatabase, type SqliteDialectConfig } from 'kysely';
import type { Config } from '../config.ts';
import type { DB } from './schema.ts';
import { WalCheckpointer } from './wal-checkpointer.ts';
import { makePrivateDir, touchPrivateFile } from '../kernel/private-files.ts';

export type DatabaseKind = 'sqlite' | 'postgres';

export interface Database {
  kind: DatabaseKind;
  db: Kysely<DB>;
  /**
   * Runs work that may rightly take long (migrations: waiting for another process's, building an index) on a
   * database handle without the per-query deadline requests have.
   */
  unbounded<T>(work: (db: Kysely<DB>) => Promise<T>): Promise<T>;
  /** The SQLite file, for the read-only side connection that watches key changes. */
  sqliteFile?: string;
  postgresUrl?: string;
  close(): Promise<void>;
}

/**
 * The PostgreSQL driver, loaded when a process first opens PostgreSQL: on SQLite it is never needed, and loading it
 * cost a few MB of the process's memory.
 */
export function postgresDriver(): typeof pg {
  const driver = createRequire(import.meta.url)('pg') as typeof pg;
  // COUNT(*) and BIGINT come back from pg as strings; our counts fit in a double.
  driver.types.setTypeParser(driver.types.builtins.INT8, (v) => Number(v));
  return driver;
}

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

/**
 * A query with no answer by the deadline has its connection destroyed: it fails as "database unavailable" (503) and
 * the pool drops the client. A frozen or partitioned server keeps its sockets open, so without this neither the
 * pool nor TCP notices, and requests wait for as long as the server is gone.
 */
function armQueryDeadline(client: pg.PoolClient, ms: number): void {
  const query = client.query.bind(client) as (...args: unknown[]) => unknown;
  // The socket at the moment of the deadline: TLS replaces the plain one after the handshake.
  const connection = (client as unknown as { connection: { stream: { destroy(): void } } }).connection;
  (client as { query: unknown }).query = (...args: unknown[]) => {
    const pending = query(...args);
    if (!(pending instanceof Promise)) return pending;
    const timer = setTimeout(() => connection.stream.destroy(), ms);
    return pending.finally(() => clearTimeout(timer));
  };
}

function openPostgres(url: string, queryTimeoutMs: number | null): Kysely<DB> {
  const pool = new (postgresDriver().Pool)({
    connectionString: url,
    max: 10,
    connectionTimeoutMillis: 5_000,
    idleTimeoutMillis: 30_000,
  });
  // An idle client losing its connection (a database restart) must not crash the process.
  pool.on('error', () => {});
  // Nor may a checked-out one: the pool listens for errors only on the clients it holds, and a client in use
  // (mid-query, or between two statements of a transaction) emits its lost connection as an 'error' event.
  // Its queries fail instead, so the request answers 503, and the pool drops the client when it comes back.
  pool.on('connect', (client) => {
    client.on('error', () => {});
    if (queryTimeoutMs !== null) armQueryDeadline(client, queryTimeoutMs);
  });
  return new Kysely<DB>({ dialect: new PostgresDialect({ pool }) });
}

/**
 * SQLite transactions that take the write lock at BEGIN. A deferred one that reads first cannot take it later if
 * another process committed in between: SQLite fails it at once with "database is locked" (SQLITE_BUSY_SNAPSHOT),
 * busy_timeout or not. IMMEDIATE waits out the other writer instead (busy_timeout) and then reads the latest data.
 */
class ImmediateSqliteDialect extends SqliteDialect {
  constructor(private readonly settings: SqliteDialectConfig) {
    super(settings);
  }

  override createDriver(): SqliteDriver {
    return new (class extends SqliteDriver {
      override async beginTransaction(connection: DatabaseConnection): Promise<void> {
        await connection.executeQuery(CompiledQuery.raw('begin immediate'));
      }
    })(this.settings);
  }
}

/**
 * `checkpointThread`: a long-running server's SQLite WAL is copied into the database file on a thread of its own
 * once it gets busy (see WalCheckpointer); a short command checkpoints as SQLite does by itself. `immediate`: every
 * SQLite transaction takes the write lock at BEGIN (ImmediateSqliteDialect), for a command that writes beside a server.
 */
export function openDatabase(
  config: Pick<Config, 'database'> & Partial<Pick<Config, 'dbQueryTimeoutMs'>>,
  { checkpointThread = false, immediate = false } = {},
): Database {
  if (config.database.kind === 'postgres') {
    const url = config.database.url;
    const db = openPostgres(url, config.dbQueryTimeoutMs ?? null);
    const unbounded = async <T>(work: (db: Kysely<DB>) => Promise<T>): Promise<T> => {
      const own = openPostgres(url, null);
      try {
        return await work(own);
      } finally {
        await own.destroy();
      }
    };
    return { kind: 'postgres', db, unbounded, postgresUrl: url, close: () => db.destroy() };
  }
  const file = config.database.file;
  makePrivateDir(dirname(file));
  // SQLite would create the file 0644 under the usual umask, and gives its -wal and -shm files the database's mode.
  touchPrivateFile(file);
  const sqlite = new BetterSqlite3(file);
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('synchronous = NORMAL');
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma('busy_timeout = 5000');
  const settings = { database: withStatementCache(sqlite) };
  const db = new Kysely<DB>({ dialect: immediate ? new ImmediateSqliteDialect(settings) : new SqliteDialect(settings) });
  const checkpointer = checkpointThread ? new WalCheckpointer(file, sqlite) : undefined;
  const close = async () => {
    await checkpointer?.close();
    await db.destroy();
  };
  return { kind: 'sqlite', db, unbounded: (work) => work(db), sqliteFile: file, close };
}
