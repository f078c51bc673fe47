import type { Kysely } from 'kysely';

/**
 * The value a label is insured or declared at with its carrier, in cents of US dollars; null for none (every label
 * bought before). A rate shop keeps the value it was asked for, so buying one of its rates insures the same.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('shipments').addColumn('insured_cents', 'integer').execute();
  await db.schema.alterTable('rate_shops').addColumn('insured_cents', 'integer').execute();
}
