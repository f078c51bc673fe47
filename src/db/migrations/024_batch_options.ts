import type { Kysely } from 'kysely';

/**
 * A batch buys every label with the same delivery options, as POST /shipments takes them (null: none); stored in
 * storedOptions' fixed field order. Batches made before asked for none.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('batches').addColumn('options', 'text').execute();
}
