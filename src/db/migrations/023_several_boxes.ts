import type { Kysely } from 'kysely';

/**
 * Several boxes in one shipment. An order keeps every box in `parcels` (JSON array) when it has more than one;
 * `parcel` stays its first box, so one-box orders read as before. A shipment keeps its boxes in `packages` (JSON:
 * each box's tracking number, void id, weight, size, reference and last tracking status) and the carrier's master
 * tracking number; both are null for the one-box labels bought before, whose one box is the label itself.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('orders').addColumn('parcels', 'text').execute();
  await db.schema.alterTable('shipments').addColumn('packages', 'text').execute();
  await db.schema.alterTable('shipments').addColumn('master_tracking_number', 'text').execute();
}
