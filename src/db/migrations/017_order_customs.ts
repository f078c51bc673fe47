import type { Kysely } from 'kysely';

/** An order's customs declaration (JSON, its items complete), for parcels that cross a customs border; null when none was given. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('orders').addColumn('customs', 'text').execute();
}
