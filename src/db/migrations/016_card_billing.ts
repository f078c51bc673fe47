import type { Kysely } from 'kysely';

/**
 * Live platform postage charged to a card through Stripe: the Stripe Customer that holds an account's cards, what
 * the dashboard shows of the saved card, and one authorization per label bought with it. A charge's row is written
 * before Stripe is asked anything, so a crash at any point leaves a record the settle job can finish.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('billing_customers')
    .addColumn('account_id', 'text', (c) => c.primaryKey().references('accounts.id'))
    .addColumn('customer_id', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();

  await db.schema.alterTable('payment_methods').addColumn('card', 'text').execute();

  await db.schema
    .createTable('card_charges')
    .addColumn('shipment_id', 'text', (c) => c.primaryKey())
    .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.id'))
    .addColumn('customer_id', 'text', (c) => c.notNull())
    .addColumn('payment_method', 'text', (c) => c.notNull())
    .addColumn('amount_cents', 'integer', (c) => c.notNull())
    .addColumn('payment_intent_id', 'text')
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('captured_cents', 'integer')
    .addColumn('refund_id', 'text')
    .addColumn('last_error', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('card_charges_status').on('card_charges').columns(['status', 'updated_at']).execute();
}
