import type { Kysely } from 'kysely';

/**
 * What a carrier's booking answer gave that its cancel needs again (FedEx's Express location and operating company),
 * as a JSON object of strings; null where the carrier needs nothing more than the confirmation number.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('pickups').addColumn('carrier_data', 'text').execute();
}
