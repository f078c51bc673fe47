import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('packages')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.id'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('dimensions', 'text', (c) => c.notNull())
    .addColumn('max_weight', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('packages_account').on('packages').columns(['account_id', 'created_at']).execute();
  await db.schema.alterTable('orders').addColumn('package_id', 'text').execute();
}
