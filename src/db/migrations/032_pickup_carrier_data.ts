import type { Kysely } from 'kysely';

/**
 * What a carrier's booking answer gave that its cancel needs again (FedEx's Express location and operating company),
 * as a JSON object of strings; null where the carrier needs nothing more than the confirmation number. And the named
 * labels' services, kept so a retried booking asks the carrier exactly what the first did (FedEx picks its Ground or
 * Express driver by them).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('pickups').addColumn('carrier_data', 'text').execute();
  await db.schema.alterTable('pickups').addColumn('services', 'text').execute();
}
