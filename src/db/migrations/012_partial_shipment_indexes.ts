import type { Kysely } from 'kysely';
import { sql } from 'kysely';

/**
 * Three shipment indexes hold only the rows their queries look for. Every label was in each of them, and a purchase
 * rewrote an index page for each: the empty manifest id and tracking number of a pending purchase, and its status
 * and time as it moved from pending to purchased. Those pages were a tenth of what a flow wrote to the database.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('shipments_manifest').execute();
  await db.schema.createIndex('shipments_manifest').on('shipments').column('manifest_id').where(sql.ref('manifest_id'), 'is not', null).execute();
  await db.schema.dropIndex('shipments_tracking').execute();
  await db.schema.createIndex('shipments_tracking').on('shipments').column('tracking_number').where(sql.ref('tracking_number'), 'is not', null).execute();
  // The reconcile job's: purchases left pending. Its query names the status as a literal, as the planner needs to
  // see that it implies this index's condition.
  await db.schema.dropIndex('shipments_pending').execute();
  await db.schema.createIndex('shipments_pending').on('shipments').column('updated_at').where(sql.ref('status'), '=', 'pending').execute();
}
