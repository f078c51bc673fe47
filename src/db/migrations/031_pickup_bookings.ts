import type { Kysely } from 'kysely';

/**
 * Live pickups: a pickup is recorded `pending` before the carrier is asked (so a crash leaves a row the reconcile job
 * finds by its reference, never a second booking), with what the driver collects, the price the carrier quoted and
 * the Idempotency-Key that started it. What a priced pickup is charged and refunded is its own ledger: the postage
 * ledger's rows belong to shipments.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('pickups').addColumn('parcels', 'text').execute();
  await db.schema.alterTable('pickups').addColumn('tracking_numbers', 'text').execute();
  await db.schema.alterTable('pickups').addColumn('price_cents', 'integer').execute();
  await db.schema.alterTable('pickups').addColumn('payment', 'text').execute();
  await db.schema.alterTable('pickups').addColumn('payment_method', 'text').execute();
  await db.schema.alterTable('pickups').addColumn('idempotency_key', 'text').execute();
  await db.schema.alterTable('pickups').addColumn('last_error', 'text').execute();
  await db.schema.alterTable('pickups').addColumn('updated_at', 'text').execute();
  await db.schema.createIndex('pickups_status').on('pickups').columns(['status', 'updated_at']).execute();
  await db.schema.createIndex('pickups_idempotency').on('pickups').columns(['owner_key_id', 'idempotency_key']).execute();

  await db.schema
    .createTable('pickup_ledger')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.id'))
    .addColumn('mode', 'text', (c) => c.notNull())
    .addColumn('owner_key_id', 'text', (c) => c.notNull())
    .addColumn('pickup_id', 'text', (c) => c.notNull().references('pickups.id'))
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('amount_cents', 'integer', (c) => c.notNull())
    .addColumn('payment_method', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addUniqueConstraint('pickup_ledger_once', ['pickup_id', 'kind'])
    .execute();
}
