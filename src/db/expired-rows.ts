import { setImmediate } from 'node:timers/promises';
import { sql, type Kysely } from 'kysely';
import type { DB } from './schema.ts';

/** Tables whose rows carry an indexed `expires_at` and are forgotten once it passes, with their primary keys. */
const primaryKeys = {
  rate_shops: ['rate_key'],
  idempotency_keys: ['owner_key_id', 'method', 'path', 'idem_key'],
} as const satisfies Partial<Record<keyof DB, readonly string[]>>;

/**
 * Deletes the rows of `table` that expired by `now`, `chunk` rows per statement with a turn of the event loop
 * between statements. One statement for all of them held SQLite's event loop (and on either database, one
 * transaction's worth of WAL) for as long as the whole delete took: 270 ms for 100,000 rate shops, and a busy hour
 * makes millions. Rows are picked by primary key, as many may share one expiry instant. Returns how many went.
 */
export async function deleteExpiredRows(db: Kysely<DB>, table: keyof typeof primaryKeys, now: string, chunk = 1_000): Promise<number> {
  // A row value over the primary key (SQLite and PostgreSQL both take one in IN), which Kysely's builder cannot
  // type for a table chosen at run time.
  const key = sql.join(primaryKeys[table].map((column) => sql.ref(column)));
  let removed = 0;
  for (;;) {
    const result = await sql`delete from ${sql.table(table)} where (${key}) in (
      select ${key} from ${sql.table(table)} where expires_at <= ${now} limit ${chunk})`.execute(db);
    const deleted = Number(result.numAffectedRows ?? 0);
    removed += deleted;
    if (deleted < chunk) return removed;
    await setImmediate();
  }
}
