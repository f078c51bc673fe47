import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('pickups')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('owner_key_id', 'text', (c) => c.notNull().references('api_keys.id'))
    .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.id'))
    .addColumn('mode', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('carrier', 'text', (c) => c.notNull())
    .addColumn('confirmation_number', 'text', (c) => c.notNull())
    .addColumn('ship_from_id', 'text')
    .addColumn('address', 'text', (c) => c.notNull())
    .addColumn('date', 'text', (c) => c.notNull())
    .addColumn('window_start', 'text', (c) => c.notNull())
    .addColumn('window_end', 'text', (c) => c.notNull())
    .addColumn('shipment_ids', 'text', (c) => c.notNull())
    .addColumn('instructions', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('cancelled_at', 'text')
    .execute();
  await db.schema.createIndex('pickups_owner').on('pickups').columns(['owner_key_id', 'id']).execute();
}
