import { PostgresAdapter, sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  const postgres = db.getExecutor().adapter instanceof PostgresAdapter;

  // A purchase is recorded (status `pending`) before the carrier is called, and completed after; a crash in
  // between leaves a pending row for the reconcile job, never an unrecorded label.
  await db.schema
    .createTable('shipments')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('owner_key_id', 'text', (c) => c.notNull().references('api_keys.id'))
    .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.id'))
    .addColumn('mode', 'text', (c) => c.notNull())
    .addColumn('order_id', 'text', (c) => c.notNull().references('orders.id'))
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('is_return', 'integer', (c) => c.notNull())
    .addColumn('carrier', 'text', (c) => c.notNull())
    .addColumn('service', 'text', (c) => c.notNull())
    .addColumn('rate_id', 'text')
    .addColumn('quoted_cents', 'integer', (c) => c.notNull())
    .addColumn('postage_cents', 'integer')
    .addColumn('payment', 'text', (c) => c.notNull())
    .addColumn('payment_method', 'text')
    .addColumn('label_format', 'text', (c) => c.notNull())
    .addColumn('tracking_number', 'text')
    .addColumn('carrier_shipment_id', 'text')
    .addColumn('purchase', 'text', (c) => c.notNull())
    .addColumn('idempotency_key', 'text')
    .addColumn('metadata', 'text', (c) => c.notNull())
    .addColumn('last_error', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addColumn('voided_at', 'text')
    .execute();
  // The rule that an order never has two active labels (one outbound, one return) lives here, not in code:
  // a second purchase cannot be inserted while the first is pending or bought, whatever races.
  await sql`create unique index shipments_one_active on shipments (order_id, is_return) where status in ('pending', 'purchased')`.execute(db);
  await db.schema.createIndex('shipments_owner').on('shipments').columns(['owner_key_id', 'id']).execute();
  await db.schema.createIndex('shipments_pending').on('shipments').columns(['status', 'updated_at']).execute();
  await db.schema.createIndex('shipments_tracking').on('shipments').columns(['tracking_number']).execute();

  // Postage charged and refunded: at most one charge and one refund per shipment, so a replay cannot charge twice.
  await db.schema
    .createTable('postage_ledger')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.id'))
    .addColumn('mode', 'text', (c) => c.notNull())
    .addColumn('owner_key_id', 'text', (c) => c.notNull())
    .addColumn('shipment_id', 'text', (c) => c.notNull().references('shipments.id'))
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('amount_cents', 'integer', (c) => c.notNull())
    .addColumn('payment_method', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addUniqueConstraint('postage_ledger_once', ['shipment_id', 'kind'])
    .execute();
  await db.schema.createIndex('postage_ledger_account').on('postage_ledger').columns(['account_id', 'mode', 'created_at']).execute();

  // Label files on PostgreSQL, where any instance must be able to serve any label; SQLite keeps them on disk.
  await db.schema
    .createTable('label_files')
    .addColumn('shipment_id', 'text', (c) => c.notNull())
    .addColumn('format', 'text', (c) => c.notNull())
    .addColumn('content', postgres ? 'bytea' : 'blob', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('label_files_pk', ['shipment_id', 'format'])
    .execute();
}
