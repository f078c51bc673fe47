import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  // One row per rate shop, not per rate: a shop costs one row of one batched write (see db/batch-insert.ts).
  await db.schema
    .createTable('rate_shops')
    .addColumn('rate_key', 'text', (c) => c.primaryKey())
    .addColumn('id', 'text', (c) => c.notNull())
    .addColumn('owner_key_id', 'text', (c) => c.notNull())
    .addColumn('mode', 'text', (c) => c.notNull())
    .addColumn('order_id', 'text')
    .addColumn('inputs_fingerprint', 'text', (c) => c.notNull())
    .addColumn('rates', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('rate_shops_expiry').on('rate_shops').column('expires_at').execute();
}
