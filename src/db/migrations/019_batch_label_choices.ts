import type { Kysely } from 'kysely';

/**
 * A batch buys every label as POST /shipments would with the same choices: the day the parcels ship (null: the day
 * each label is bought) and the paper, for every label of the batch. Batches made before keep 4×6 at 203 dpi.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('batches').addColumn('ship_date', 'text').execute();
  await db.schema.alterTable('batches').addColumn('label_size', 'text', (c) => c.notNull().defaultTo('4x6')).execute();
  await db.schema.alterTable('batches').addColumn('label_resolution', 'integer', (c) => c.notNull().defaultTo(203)).execute();
}
