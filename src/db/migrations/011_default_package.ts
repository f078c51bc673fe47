import type { Kysely } from 'kysely';
import { sql } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  // The box an order or rate request uses when it names no package and gives no dimensions.
  await db.schema.alterTable('packages').addColumn('is_default', 'integer', (c) => c.notNull().defaultTo(0)).execute();
  // At most one per account, whatever two concurrent "make default" requests do.
  await db.schema
    .createIndex('packages_one_default')
    .on('packages')
    .column('account_id')
    .unique()
    .where(sql.ref('is_default'), '=', 1)
    .execute();
}
