import type { Kysely } from 'kysely';

/**
 * Shipments by order: the order's current label, its tracking, its purchase by Idempotency-Key, and whether a purchase
 * of it is running. Without it, those lookups read every label of the key (by the owner index) or every purchased
 * label (by the status index); since 012 keeps only pending rows in that one, the whole table.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.createIndex('shipments_order').on('shipments').columns(['order_id', 'id']).execute();
}
