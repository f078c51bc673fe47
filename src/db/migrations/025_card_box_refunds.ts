import type { Kysely } from 'kysely';

/**
 * A box voided on its own from a label paid by card: its share of the postage is owed back to the card as a partial
 * refund, one row per box (its index in the shipment's packages), written in the box void's transaction before Stripe
 * is asked, so the settle job finishes what a crash or Stripe out of reach left `due`.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('card_box_refunds')
    .addColumn('shipment_id', 'text', (c) => c.notNull().references('card_charges.shipment_id'))
    .addColumn('box', 'integer', (c) => c.notNull())
    .addColumn('amount_cents', 'integer', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('refund_id', 'text')
    .addColumn('last_error', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('card_box_refunds_pk', ['shipment_id', 'box'])
    .execute();
  await db.schema.createIndex('card_box_refunds_status').on('card_box_refunds').columns(['status', 'updated_at']).execute();
}
