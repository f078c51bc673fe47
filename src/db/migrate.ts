import { Migrator, sql } from 'kysely';
import type { Database } from './database.ts';
import { migrations } from './migrations/index.ts';

// Any 64-bit number, the same in every shipd process: the advisory lock that serializes start-ups.
const migrationLockId = 7_401_552_019;

/**
 * Brings the schema up to date. Several processes may start at once, and each must find the schema
 * either untouched or complete, so the whole run, from reading which migrations ran to recording the
 * last, holds one lock: an advisory lock on PostgreSQL; on SQLite the write lock of one transaction,
 * since Kysely's migrator takes none there and two processes would both create the same tables.
 */
export async function migrate(database: Database): Promise<string[]> {
  const run = async (db: Database['db']) => {
    const migrator = new Migrator({ db, provider: { getMigrations: async () => migrations } });
    const { error, results } = await migrator.migrateToLatest();
    if (error) throw error instanceof Error ? error : new Error(String(error));
    return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
  };
  if (database.kind === 'sqlite') {
    return database.db.connection().execute(async (conn) => {
      // IMMEDIATE takes the write lock at once, waiting out another process's run (busy_timeout); a
      // deferred transaction would read first and then fail to upgrade once the other one had written.
      await sql`begin immediate`.execute(conn);
      try {
        const applied = await run(conn);
        await sql`commit`.execute(conn);
        return applied;
      } catch (err) {
        await sql`rollback`.execute(conn);
        throw err;
      }
    });
  }
  // Waiting for another process's migrations, and a migration itself, may outlast a request's query deadline.
  return database.unbounded((db) =>
    db.connection().execute(async (conn) => {
      await sql`select pg_advisory_lock(${migrationLockId})`.execute(conn);
      try {
        return await run(conn);
      } finally {
        await sql`select pg_advisory_unlock(${migrationLockId})`.execute(conn);
      }
    }),
  );
}
