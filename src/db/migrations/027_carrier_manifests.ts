import { sql, type Kysely } from 'kysely';

/**
 * What the carrier was told of a manifest (`carrier_manifest`) and the forms it made of it (`carrier_forms`, a JSON
 * array of StoredCarrierForm). Manifests made before: test ones were simulated; live ones were drawn by shipd only,
 * and no carrier knows of them (`not_sent`).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('manifests').addColumn('carrier_manifest', 'text', (c) => c.notNull().defaultTo('simulated')).execute();
  await db.schema.alterTable('manifests').addColumn('carrier_forms', 'text', (c) => c.notNull().defaultTo('[]')).execute();
  await sql`update manifests set carrier_manifest = 'not_sent' where mode = 'live'`.execute(db);
}
