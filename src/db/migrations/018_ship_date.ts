import { sql, type Kysely } from 'kysely';

/**
 * The day a label is for (YYYY-MM-DD, in its ship-from location's time zone): the manifest of that day lists it, so
 * a label bought today for Monday goes on Monday's form. Labels bought before it are for the (UTC) day they were
 * bought, as their labels print. A rate shop keeps the day it was asked for, so buying one of its rates ships then;
 * null where none was asked (today, whenever it is bought).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('shipments').addColumn('ship_date', 'text', (c) => c.notNull().defaultTo('')).execute();
  await sql`update shipments set ship_date = substr(created_at, 1, 10)`.execute(db);
  // A manifest's labels: a key's unmanifested labels of one carrier and day.
  await db.schema
    .createIndex('shipments_unmanifested_day')
    .on('shipments')
    .columns(['owner_key_id', 'carrier', 'ship_date'])
    .where(sql.ref('manifest_id'), 'is', null)
    .execute();
  await db.schema.alterTable('rate_shops').addColumn('ship_date', 'text').execute();
}
