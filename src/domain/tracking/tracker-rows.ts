import type { Kysely } from 'kysely';
import type { CarrierId } from '../../config.ts';
import type { DB, ShipmentsTable, TrackersTable } from '../../db/schema.ts';
import type { TrackingEvent, TrackingResult } from '../../carriers/carrier.ts';
import type { Tracker } from '../../schemas/tracker.ts';
import { siblingId } from '../../kernel/ids.ts';
import { apiBase } from '../../kernel/paths.ts';
import type { Context } from '../core/context.ts';
import type { ProofFormat } from '../label-files/label-store.ts';
import { signLabelToken } from '../label-files/label-tokens.ts';
import { storedBoxes } from '../shipments/shipments.ts';
import { subscribeLater } from './carrier-subscriptions.ts';

/** Statuses after which a parcel's tracking never changes again. */
export const finalStatuses = new Set(['delivered', 'return_to_sender', 'failure', 'cancelled']);
/** How often a parcel is asked about when its carrier cannot say when it will next change. */
export const pollMs = { test: 30_000, live: 3_600_000 } as const;

export function toEvents(events: TrackingEvent[]): Tracker['events'] {
  return events.map((e) => ({
    occurred_at: e.occurredAt.toISOString(),
    utc_offset: e.utcOffset ?? null,
    time_zone: e.timeZone ?? null,
    status: e.status,
    description: e.description,
    location: e.location,
  }));
}

/** Stored events, those written before scans had a clock given one that says so (null), so every answer has one shape. */
const storedEvents = (json: string): Tracker['events'] =>
  (JSON.parse(json) as Partial<Tracker['events'][number]>[]).map((e) => ({
    occurred_at: e.occurred_at!,
    utc_offset: e.utc_offset ?? null,
    time_zone: e.time_zone ?? null,
    status: e.status!,
    description: e.description!,
    location: e.location ?? null,
  }));

/** A proof of delivery on file: `{trk_id}.pod{n}.{format}` in the label store, n from 1 in list order. */
export interface StoredProof {
  type: 'signature' | 'document';
  content_type: string;
  format: ProofFormat;
}

/** Where a tracker's nth proof (from 1) is kept in the label store, and the name its link serves it under. */
export const proofKey = (trackerId: string, n: number) => `${trackerId}.pod${n}`;

/** The proofs on file, each with a link signed as label_url is (the tracker's id signs it), good for 7 days. */
function proofLinks(links: Pick<Context, 'config' | 'clock'>, row: Pick<TrackersTable, 'id' | 'proof_of_delivery'>): Tracker['proof_of_delivery'] {
  const stored = JSON.parse(row.proof_of_delivery ?? '[]') as StoredProof[];
  if (stored.length === 0) return [];
  const token = signLabelToken(links.config.secret, row.id, links.clock.now());
  return stored.map((p, i) => ({ type: p.type, content_type: p.content_type, url: `${links.config.publicUrl}${apiBase}/labels/${proofKey(row.id, i + 1)}.${p.format}?token=${token}` }));
}

/**
 * When the proofs worker is to ask the carrier for a tracker's proofs of delivery: as it is first recorded delivered,
 * unless the carrier's answer said it holds none (FedEx's availableImages); else it keeps what it had.
 */
export function proofDueAt(row: Pick<TrackersTable, 'status' | 'proof_due_at' | 'proof_of_delivery'>, result: Pick<TrackingResult, 'status' | 'proofOfDelivery'>, at: string): string | null {
  if (result.status !== 'delivered' || row.status === 'delivered' || row.proof_of_delivery !== null) return row.proof_due_at;
  return result.proofOfDelivery === undefined || result.proofOfDelivery.length > 0 ? at : null;
}

export function toTracker(row: TrackersTable, links: Pick<Context, 'config' | 'clock'>): Tracker {
  return {
    id: row.id,
    object: 'tracker',
    tracking_number: row.tracking_number,
    ...(row.package !== null && { package: row.package }),
    carrier: row.carrier as CarrierId,
    origin: row.origin,
    order_id: row.order_id,
    shipment_id: row.shipment_id,
    status: row.status as Tracker['status'],
    status_detail: row.status_detail,
    estimated_delivery_date: row.estimated_delivery_date,
    signed_by: row.signed_by,
    proof_of_delivery: proofLinks(links, row),
    events: storedEvents(row.events),
    metadata: JSON.parse(row.metadata),
    last_checked_at: row.last_checked_at,
    next_check_at: row.next_check_at,
    created_at: row.created_at,
    updated_at: row.updated_at,
    ...(row.deleted_at !== null && { deleted: true as const }),
  };
}

/** The tracker as its first `seen` scans left it: each tracking.updated event shows the parcel as that scan did. */
export function asOfScan(tracker: Tracker, seen: number): Tracker {
  if (seen >= tracker.events.length) return tracker;
  const events = tracker.events.slice(0, seen);
  const last = events.at(-1);
  return { ...tracker, events, status: last?.status ?? 'unknown', status_detail: last?.description ?? '' };
}

/** Who a tracker's events belong to: the key that made it, whoever asked. */
export const trackerOwner = (row: Pick<TrackersTable, 'owner_key_id' | 'account_id' | 'mode'>) => ({
  principal: { keyId: row.owner_key_id, accountId: row.account_id, mode: row.mode },
});

/**
 * The id of a label's tracker: the label's own id after trk_ for the shipment's (its first box's number), the ids
 * after it for each later box, so each is found from the shipment alone and lists beside it.
 */
export const labelTrackerId = (shipmentId: string, box = 0): string => siblingId('trk', shipmentId, box);

/**
 * A label's trackers, the shipment's own first and then each later box's, made where missing: at the purchase (in its
 * transaction), or for a label completed by a server of a version without trackers. A number the key was already
 * following as an external tracker becomes the label's, keeping its id.
 */
export async function labelTrackers(trx: Kysely<DB>, row: ShipmentsTable, at: string): Promise<TrackersTable[]> {
  const boxes = storedBoxes(row);
  const byBox = (rows: TrackersTable[]) => rows.sort((a, b) => (a.package ?? 0) - (b.package ?? 0));
  const rows = await trx.selectFrom('trackers').selectAll().where('shipment_id', '=', row.id).execute();
  if (rows.length >= boxes.length) return byBox(rows);
  const have = new Set(rows.map((r) => r.package ?? 0));
  let taken = false;
  for (const [i, box] of boxes.entries()) {
    if (have.has(i)) continue;
    const voided = box.status !== undefined || row.status !== 'purchased';
    const state = {
      origin: 'label' as const,
      shipment_id: row.id,
      package: i === 0 ? null : i,
      order_id: row.order_id,
      // A box not yet tracked on its own is where its shipment is, as GET /shipments shows it.
      status: voided ? 'cancelled' : ((i === 0 ? row.tracking_status : (box.tracking_status ?? row.tracking_status)) ?? 'unknown'),
      next_check_at: voided ? null : row.tracking_next_check_at,
      updated_at: at,
    };
    const made: TrackersTable = {
      ...state,
      id: labelTrackerId(row.id, i),
      owner_key_id: row.owner_key_id,
      account_id: row.account_id,
      mode: row.mode,
      carrier: row.carrier,
      tracking_number: box.tracking_number,
      status_detail: '',
      events: '[]',
      estimated_delivery_date: null,
      signed_by: null,
      metadata: '{}',
      last_checked_at: null,
      created_at: at,
      deleted_at: null,
      proof_of_delivery: null,
      proof_due_at: null,
      proof_attempts: 0,
    };
    const inserted = await trx.insertInto('trackers').values(made).onConflict((oc) => oc.doNothing()).executeTakeFirst();
    if (Number(inserted.numInsertedOrUpdatedRows ?? 0) === 1) {
      rows.push(made);
      // A live label's number is subscribed with its carrier too: a push makes the label due for its next check.
      if (row.mode === 'live' && !voided) await subscribeLater(trx, row.carrier, box.tracking_number, at);
    } else {
      taken = true;
      await trx
        .updateTable('trackers')
        .set(state)
        .where('owner_key_id', '=', row.owner_key_id)
        .where('carrier', '=', row.carrier)
        .where('tracking_number', '=', box.tracking_number)
        .where('deleted_at', 'is', null)
        .where('shipment_id', 'is', null)
        .execute();
    }
  }
  // Rows made meanwhile by another writer, or taken over from external trackers, are read back as they now are.
  return byBox(taken ? await trx.selectFrom('trackers').selectAll().where('shipment_id', '=', row.id).execute() : rows);
}

/** A voided label's trackers (or one box's, voided on its own), in the void's transaction: cancelled and no longer checked. */
export async function cancelLabelTrackers(trx: Kysely<DB>, shipmentId: string, at: string, box?: number): Promise<void> {
  await trx
    .updateTable('trackers')
    .set({ status: 'cancelled', status_detail: box === undefined ? 'The label was voided' : 'The box was voided', next_check_at: null, updated_at: at })
    .where('shipment_id', '=', shipmentId)
    .$if(box !== undefined, (q) => q.where('package', '=', box!))
    .execute();
}
