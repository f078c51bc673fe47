import { sql, type Kysely } from 'kysely';

/**
 * Proofs of delivery: a tracker's files the carrier gave at delivery (`proof_of_delivery`, a JSON array of
 * StoredProof; null until asked, `[]` when the carrier had none), kept in the label store. A tracker that was
 * delivered and whose carrier may hold a proof is due (`proof_due_at`) for the proofs worker, which asks the carrier
 * off the tracking path: only such trackers are in the due index, so a tracker past it costs nothing.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('trackers').addColumn('proof_of_delivery', 'text').execute();
  await db.schema.alterTable('trackers').addColumn('proof_due_at', 'text').execute();
  await db.schema.alterTable('trackers').addColumn('proof_attempts', 'integer', (c) => c.notNull().defaultTo(0)).execute();
  await sql`create index trackers_proof_due on trackers (proof_due_at) where proof_due_at is not null`.execute(db);
}
