import { sql, type Kysely } from 'kysely';
import type { DB } from '../../db/schema.ts';

/**
 * Makes the account's writes of one kind take turns inside trx: what follows runs alone for this account until trx
 * ends. A no-op update of the account's row locks it on PostgreSQL and starts the write on SQLite, so it needs no
 * dialect switch. Changes that rewrite several of an account's rows (the default location or box) would otherwise
 * deadlock against each other on PostgreSQL, or find a row gone that a concurrent delete took away.
 */
export async function takeAccountTurn(trx: Kysely<DB>, accountId: string): Promise<void> {
  await trx.updateTable('accounts').set({ id: sql<string>`id` }).where('id', '=', accountId).execute();
}
