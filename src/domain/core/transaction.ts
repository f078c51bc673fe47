import type { Kysely, Transaction } from 'kysely';
import type { DB } from '../../db/schema.ts';

/** Runs fn in the caller's transaction if there is one, else in a new one. */
export async function inTransaction<T>(db: Kysely<DB>, fn: (trx: Kysely<DB>) => Promise<T>): Promise<T> {
  if (db.isTransaction) return fn(db);
  return db.transaction().execute((trx: Transaction<DB>) => fn(trx));
}
