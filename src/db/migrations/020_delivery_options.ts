import type { Kysely } from 'kysely';

/**
 * The delivery options a rate shop was asked for (JSON of ShipmentOptions), so buying one of its rates ships with
 * them and a purchase asking other options is refused; null where none were asked. A shipment keeps its options in
 * its purchase record, beside the rest of what was bought.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('rate_shops').addColumn('options', 'text').execute();
}
