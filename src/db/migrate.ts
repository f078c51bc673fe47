import { Migrator, sql } from 'kysely';
import type { Database } from './database.ts';
import { migrations } from './migrations/index.ts';

// Any 64-bit number, the same in every shipd process: the advisory lock that serializes start-ups.
const migrationLockId = 7_401_552_019;

/**
 * Brings the schema up to date. On PostgreSQL several processes may start at once, so the whole run
 * holds an advisory lock; SQLite's single writer already serializes it.
 */
export async function migrate(database: Database): Promise<string[]> {
  const run = async (db: Database['db']) => {
    const migrator = new Migrator({ db, provider: { getMigrations: async () => migrations } });
    const { error, results } = await migrator.migrateToLatest();
    if (error) throw error instanceof Error ? error : new Error(String(error));
    return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
  };
  if (database.kind === 'sqlite') return run(database.db);
  return database.db.connection().execute(async (conn) => {
    await sql`select pg_advisory_lock(${migrationLockId})`.execute(conn);
    try {
      return await run(conn);
    } finally {
      await sql`select pg_advisory_unlock(${migrationLockId})`.execute(conn);
    }
  });
}
