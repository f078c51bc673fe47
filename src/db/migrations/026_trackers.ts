import { sql, type Kysely } from 'kysely';
import { siblingId } from '../../kernel/ids.ts';

/**
 * Trackers: a tracking number a key follows, whether shipd sold its label (`label`) or not (`external`). A label's
 * tracker has the label's own id after trk_ (a later box's, the id after it); its state is written by the shipments'
 * tracking worker in the transaction that records the label's progress, so only external trackers are in the due
 * index. A stopped tracker (deleted_at) is out of every index a request or a poll reads.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('trackers')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('owner_key_id', 'text', (c) => c.notNull().references('api_keys.id'))
    .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.id'))
    .addColumn('mode', 'text', (c) => c.notNull())
    .addColumn('carrier', 'text', (c) => c.notNull())
    .addColumn('tracking_number', 'text', (c) => c.notNull())
    .addColumn('origin', 'text', (c) => c.notNull())
    .addColumn('shipment_id', 'text')
    .addColumn('package', 'integer')
    .addColumn('order_id', 'text')
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('status_detail', 'text', (c) => c.notNull())
    .addColumn('events', 'text', (c) => c.notNull())
    .addColumn('estimated_delivery_date', 'text')
    .addColumn('signed_by', 'text')
    .addColumn('metadata', 'text', (c) => c.notNull())
    .addColumn('last_checked_at', 'text')
    .addColumn('next_check_at', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addColumn('deleted_at', 'text')
    .execute();
  // One key follows one number once: creating it again answers the tracker it has.
  await sql`create unique index trackers_number on trackers (owner_key_id, tracking_number, carrier) where deleted_at is null`.execute(db);
  await sql`create index trackers_owner on trackers (owner_key_id, id) where deleted_at is null`.execute(db);
  await sql`create index trackers_owner_status on trackers (owner_key_id, status, id) where deleted_at is null`.execute(db);
  await sql`create index trackers_shipment on trackers (shipment_id) where shipment_id is not null`.execute(db);
  // The trackers worker's queue: a tracker whose journey has ended, or that was stopped, has no next check and no entry.
  await sql`create index trackers_due on trackers (next_check_at) where next_check_at is not null and origin = 'external'`.execute(db);

  await backfillLabelTrackers(db);
}

/**
 * Labels bought before trackers: a tracker for each box, with the status last recorded and no scans yet (those are
 * written at the label's next change). One-box labels, nearly all, in one statement; a label's existing trackers stay.
 */
export async function backfillLabelTrackers(db: Kysely<unknown>): Promise<void> {
  await sql`
    insert into trackers (id, owner_key_id, account_id, mode, carrier, tracking_number, origin, shipment_id, package, order_id, status,
      status_detail, events, estimated_delivery_date, signed_by, metadata, last_checked_at, next_check_at, created_at, updated_at, deleted_at)
    select 'trk_' || substr(id, 5), owner_key_id, account_id, mode, carrier, tracking_number, 'label', id, null, order_id,
      coalesce(tracking_status, 'unknown'), '', '[]', null, null, '{}', null, tracking_next_check_at, created_at, updated_at, null
    from shipments
    where tracking_number is not null and packages is null and status in ('purchased', 'voided', 'void_pending')
    on conflict do nothing`.execute(db);
  const several = await sql<{
    id: string;
    owner_key_id: string;
    account_id: string;
    mode: string;
    status: string;
    carrier: string;
    order_id: string;
    tracking_status: string | null;
    tracking_next_check_at: string | null;
    packages: string;
    created_at: string;
    updated_at: string;
  }>`select id, owner_key_id, account_id, mode, status, carrier, order_id, tracking_status, tracking_next_check_at, packages, created_at, updated_at
     from shipments where tracking_number is not null and packages is not null and status in ('purchased', 'voided', 'void_pending')`.execute(db);
  for (const s of several.rows) {
    const boxes = JSON.parse(s.packages) as { tracking_number: string; tracking_status?: string; status?: string }[];
    for (const [i, box] of boxes.entries()) {
      const voided = s.status !== 'purchased' || box.status !== undefined;
      // A box not yet tracked on its own is where its shipment is, as GET /shipments shows it.
      const status = voided ? 'cancelled' : ((i === 0 ? s.tracking_status : (box.tracking_status ?? s.tracking_status)) ?? 'unknown');
      await sql`
        insert into trackers (id, owner_key_id, account_id, mode, carrier, tracking_number, origin, shipment_id, package, order_id, status,
          status_detail, events, estimated_delivery_date, signed_by, metadata, last_checked_at, next_check_at, created_at, updated_at, deleted_at)
        values (${siblingId('trk', s.id, i)}, ${s.owner_key_id}, ${s.account_id}, ${s.mode}, ${s.carrier}, ${box.tracking_number}, 'label', ${s.id},
          ${i === 0 ? null : i}, ${s.order_id}, ${status}, '', '[]', null, null, '{}', null, ${status === 'cancelled' ? null : s.tracking_next_check_at}, ${s.created_at}, ${s.updated_at}, null)
        on conflict do nothing`.execute(db);
    }
  }
}
