import { sql, type Kysely } from 'kysely';

/**
 * The dashboard lists an account's trackers of one mode, of all its keys, newest first: without this index each
 * page would read every tracker of the table. Stopped trackers are out of it, as they are out of the list.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`create index trackers_account on trackers (account_id, mode, id) where deleted_at is null`.execute(db);
}
