import { sql, type Kysely } from 'kysely';

/**
 * A live manifest is recorded `pending` before its carrier is asked, so a crash before its answer is recorded
 * leaves a row the worker can finish. `locked_until`: until when the request asking the carrier (or the worker
 * finishing it) holds it; `idempotency_key`: the POST's Idempotency-Key, so its retry finds it; `carrier_error`:
 * why the carrier part failed, for a manifest whose carrier refused when asked again (`failed`). The dashboard
 * lists an account's manifests and pickups of a mode, newest first.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('manifests').addColumn('idempotency_key', 'text').execute();
  await db.schema.alterTable('manifests').addColumn('locked_until', 'text').execute();
  await db.schema.alterTable('manifests').addColumn('carrier_error', 'text').execute();
  // Left pending by a crash before this migration: free to be finished at once.
  await sql`update manifests set locked_until = created_at where carrier_manifest = 'pending'`.execute(db);
  await db.schema.createIndex('manifests_pending').on('manifests').column('locked_until').where(sql.ref('carrier_manifest'), '=', 'pending').execute();
  await db.schema.createIndex('manifests_by_key').on('manifests').columns(['owner_key_id', 'idempotency_key']).where(sql.ref('idempotency_key'), 'is not', null).execute();
  await db.schema.createIndex('manifests_by_account').on('manifests').columns(['account_id', 'mode', 'id']).execute();
  await db.schema.createIndex('pickups_by_account').on('pickups').columns(['account_id', 'mode', 'id']).execute();
}
