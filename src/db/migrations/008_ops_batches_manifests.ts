import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  // A batch buys many orders' labels in the worker. Its counts move with its items in one transaction each, so
  // progress never disagrees with the per-order results.
  await db.schema
    .createTable('batches')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('owner_key_id', 'text', (c) => c.notNull().references('api_keys.id'))
    .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.id'))
    .addColumn('mode', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('selection', 'text', (c) => c.notNull())
    .addColumn('label_format', 'text', (c) => c.notNull())
    .addColumn('total', 'integer', (c) => c.notNull())
    .addColumn('purchased', 'integer', (c) => c.notNull())
    .addColumn('failed', 'integer', (c) => c.notNull())
    .addColumn('document_format', 'text')
    .addColumn('metadata', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addColumn('completed_at', 'text')
    .execute();
  await db.schema.createIndex('batches_owner').on('batches').columns(['owner_key_id', 'id']).execute();

  await db.schema
    .createTable('batch_items')
    .addColumn('batch_id', 'text', (c) => c.notNull().references('batches.id'))
    .addColumn('position', 'integer', (c) => c.notNull())
    .addColumn('order_id', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('shipment_id', 'text')
    .addColumn('error', 'text')
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('batch_items_pk', ['batch_id', 'position'])
    .execute();
  await sql`create index batch_items_pending on batch_items (batch_id, position) where status = 'pending'`.execute(db);

  // An end-of-day form: once a label is on one, it has been handed over and is no longer voided in test mode.
  await db.schema
    .createTable('manifests')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('owner_key_id', 'text', (c) => c.notNull().references('api_keys.id'))
    .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.id'))
    .addColumn('mode', 'text', (c) => c.notNull())
    .addColumn('carrier', 'text', (c) => c.notNull())
    .addColumn('ship_date', 'text', (c) => c.notNull())
    .addColumn('shipment_count', 'integer', (c) => c.notNull())
    .addColumn('total_weight_oz', 'integer', (c) => c.notNull())
    .addColumn('total_postage_cents', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('manifests_owner').on('manifests').columns(['owner_key_id', 'id']).execute();
  await db.schema.alterTable('shipments').addColumn('manifest_id', 'text').execute();
  await db.schema.createIndex('shipments_manifest').on('shipments').columns(['manifest_id']).execute();
}
