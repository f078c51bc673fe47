import { setImmediate } from 'node:timers/promises';
import type { CarrierId } from '../../config.ts';
import type { Kysely } from 'kysely';
import type { DB, OrdersTable, ShipmentsTable, TrackersTable } from '../../db/schema.ts';
import { detectCarrier } from '../../carriers/tracking-numbers.ts';
import { magicTracking } from '../../carriers/sim/magic-tracking.ts';
import type { TrackingResult } from '../../carriers/carrier.ts';
import type { Tracker, TrackingRequest } from '../../schemas/tracker.ts';
import { carrierForShipment } from '../carrier-accounts/carrier-access.ts';
import { callCarrier } from '../carrier-accounts/carrier-call.ts';
import type { Context } from '../core/context.ts';
import { ApiError } from '../../kernel/errors.ts';
import { recordEvent } from '../webhooks/events.ts';
import { ownOrderRow, toOrder } from '../orders/orders.ts';
import { activeBox, ownerOf, returnStatusOf, storedBoxes, toShipment, visibleStatuses, type StoredBox } from '../shipments/shipments.ts';
import { chargeUsedReturn } from '../shipments/returns.ts';
import { settleCardChargeNow } from '../billing/card-charges.ts';
import { inTransaction } from '../core/transaction.ts';
import { labelRef } from '../shipments/void.ts';
import { asOfScan, finalStatuses, labelTrackers, pollMs, proofDueAt, toEvents, toTracker } from './tracker-rows.ts';
import { followedTracker, refreshExternal } from './trackers.ts';

/** A job or a request: tracking reports to the shipment's owner whoever asks. */
export type TrackingContext = Omit<Context, 'principal'>;

/** Labels one tracking pass takes; a full batch means more may be due. */
export const trackingBatch = 200;
/** A label being asked about is not asked about again by another worker for this long. */
const claimLeaseMs = 60_000;

/**
 * The label's carrier cannot be asked at all (the own carrier account it was bought on was disconnected, or the
 * platform's credentials were removed): a minute's wait changes nothing, so the worker comes back to it at the live
 * poll interval instead of every minute.
 */
class CarrierNotConnected extends ApiError {}

/** How far a box has come, for the shipment's status: the least advanced box holds the shipment back. */
const progress: Partial<Record<TrackingResult['status'], number>> = { unknown: 0, pre_transit: 1, in_transit: 2, out_for_delivery: 3, available_for_pickup: 3, delivered: 4 };
/** A box that ends badly (or cannot be tracked) is what the shipment's owner needs to see, whatever the others do. */
const surfacing = new Set<TrackingResult['status']>(['failure', 'return_to_sender', 'error']);

/**
 * The shipment's journey from its boxes' (the box's own for one box): delivered once every box is; a box failed,
 * returned or untrackable surfaces at once; otherwise the least advanced box's status. The scans are all boxes',
 * in time order, and the delivery date the latest box's.
 */
function shipmentResult(results: TrackingResult[]): TrackingResult {
  if (results.length === 1) return results[0]!;
  const deciding =
    results.find((r) => surfacing.has(r.status)) ??
    results.reduce((least, r) => ((progress[r.status] ?? 0) < (progress[least.status] ?? 0) ? r : least));
  const dates = results.map((r) => r.estimatedDeliveryDate).filter((d): d is string => d !== null).sort();
  const next = results.map((r) => r.nextEventAt?.getTime()).filter((t): t is number => t !== undefined);
  return {
    status: deciding.status,
    statusDetail: deciding.statusDetail,
    estimatedDeliveryDate: dates.at(-1) ?? null,
    events: results.flatMap((r) => r.events).sort((a, b) => a.occurredAt.getTime() - b.occurredAt.getTime()),
    ...(next.length > 0 && { nextEventAt: new Date(Math.min(...next)) }),
  };
}

/** A box voided on its own: the carrier is no longer asked about it, and it holds the shipment's status back no more. */
const voidedBox: TrackingResult = { status: 'cancelled', statusDetail: 'The box was voided', estimatedDeliveryDate: null, events: [] };

/** The shipment's journey from its boxes' results: those of the boxes still to ship (see activeBox). */
const journeyOf = (row: ShipmentsTable, results: TrackingResult[]): TrackingResult => {
  const boxes = storedBoxes(row);
  return shipmentResult(results.filter((_, i) => activeBox(row, boxes[i]!)));
};

/**
 * Records what the carrier says now, in the caller's transaction: one tracking.updated event per scan not reported
 * before, each carrying the tracker as that scan left it, and the order `delivered` when its outbound label is. A
 * return label whose return_status moves on is reported with shipment.updated, and one paid on use is charged at
 * its first scan. The scan count guards the update, so a request and the worker that see the same scans report
 * (and charge) them once between them. The label's trackers are written with it, the time of the check only when
 * the worker made it (`byWorker`). True when a card charge was opened, for the caller to settle once committed.
 */
async function recordProgress(ctx: TrackingContext, trx: Kysely<DB>, row: ShipmentsTable, results: TrackingResult[], byWorker: boolean): Promise<boolean> {
  const now = ctx.clock.now();
  const at = now.toISOString();
  const result = journeyOf(row, results);
  const boxes = storedBoxes(row);
  const several = row.packages !== null;
  const seen = row.tracking_events ?? 0;
  // A shipment is asked about until every box's journey has ended, not only the one its status shows.
  const nextCheck = results.every((r) => finalStatuses.has(r.status))
    ? null
    : new Date(Math.max(now.getTime() + 1_000, result.nextEventAt?.getTime() ?? now.getTime() + pollMs[row.mode])).toISOString();
  const checked = byWorker ? { last_checked_at: at } : {};
  const boxMoved = several && results.some((r, i) => r.status !== boxes[i]!.tracking_status);
  const changed = result.events.length > seen || result.status !== row.tracking_status || boxMoved;
  const shipment = trx.updateTable('shipments').where('id', '=', row.id).where('status', '=', 'purchased');
  if (!changed) {
    await shipment.set({ tracking_next_check_at: nextCheck }).execute();
    // A box voided on its own keeps no next check.
    await trx.updateTable('trackers').set({ next_check_at: nextCheck, ...checked }).where('shipment_id', '=', row.id).where('status', '!=', 'cancelled').execute();
    return false;
  }
  const delivers = result.status === 'delivered' && row.is_return === 0;
  // Orders before shipments, as in purchases and voids, so PostgreSQL never deadlocks them against each other.
  let order: OrdersTable | undefined;
  if (delivers) {
    let q = trx.selectFrom('orders').selectAll().where('id', '=', row.order_id);
    if (ctx.dbKind === 'postgres') q = q.forUpdate();
    order = await q.executeTakeFirst();
  }
  const updated = await shipment
    .set({
      tracking_status: result.status,
      tracking_events: result.events.length,
      tracking_next_check_at: nextCheck,
      ...(several && {
        packages: JSON.stringify(boxes.map((b, i): StoredBox => ({ ...b, tracking_status: results[i]!.status, tracking_events: results[i]!.events.length }))),
      }),
    })
    .where((eb) => (seen === 0 ? eb.or([eb('tracking_events', '=', 0), eb('tracking_events', 'is', null)]) : eb('tracking_events', '=', seen)))
    // The boxes are written whole: a box voided since they were read is not written back as still shipping.
    .$if(several, (q) => q.where('packages', '=', row.packages!))
    .executeTakeFirst();
  if (Number(updated.numUpdatedRows) !== 1) return false;
  const owner = ownerOf(row);
  const trackers = await labelTrackers(trx, row, at);
  /** Writes a tracker's journey as the carrier now tells it, and answers it; its updated_at moves only if it moved. */
  const write = async (tracker: TrackersTable, r: TrackingResult): Promise<Tracker> => {
    const events = JSON.stringify(toEvents(r.events));
    const moved = events !== tracker.events || r.status !== tracker.status;
    const next = {
      status: r.status,
      status_detail: r.statusDetail,
      events,
      estimated_delivery_date: r.estimatedDeliveryDate,
      signed_by: r.signedBy ?? tracker.signed_by,
      proof_due_at: proofDueAt(tracker, r, at),
      next_check_at: nextCheck,
      ...checked,
      ...(moved && { updated_at: at }),
    };
    await trx.updateTable('trackers').set(next).where('id', '=', tracker.id).execute();
    return toTracker({ ...tracker, ...next }, ctx);
  };
  const own = trackers.find((t) => t.package === null);
  if (!own) throw new Error(`The label ${row.id} has no tracker of its own: another label of its key has the number ${row.tracking_number}`);
  const whole = await write(own, result);
  if (several) {
    // Each box's scans are reported as that box's tracker (the first box's as the shipment's tracker with package 0,
    // its number being the shipment's); the shipment's own tracker when its status moves.
    for (const [b, r] of results.entries()) {
      const box = boxes[b]!;
      // A box voided on its own was cancelled with its tracker, and is asked about no more.
      if (!activeBox(row, box)) continue;
      const boxRow = b === 0 ? undefined : trackers.find((t) => t.package === b);
      const view: Tracker = boxRow
        ? await write(boxRow, r)
        : {
            ...whole,
            package: b,
            tracking_number: box.tracking_number,
            status: r.status,
            status_detail: r.statusDetail,
            estimated_delivery_date: r.estimatedDeliveryDate,
            signed_by: r.signedBy ?? null,
            events: toEvents(r.events),
          };
      const boxSeen = box.tracking_events ?? 0;
      for (let i = boxSeen; i < r.events.length; i++) await recordEvent(trx, owner, 'tracking.updated', asOfScan(view, i + 1), at);
      if (r.events.length <= boxSeen && r.status !== box.tracking_status) await recordEvent(trx, owner, 'tracking.updated', view, at);
    }
    if (result.status !== row.tracking_status) await recordEvent(trx, owner, 'tracking.updated', whole, at);
  } else {
    for (let i = seen; i < result.events.length; i++) await recordEvent(trx, owner, 'tracking.updated', asOfScan(whole, i + 1), at);
    if (result.events.length <= seen) await recordEvent(trx, owner, 'tracking.updated', whole, at);
  }
  if (order && order.status === 'shipped' && order.shipment_id === row.id) {
    await trx.updateTable('orders').set({ status: 'delivered', updated_at: at }).where('id', '=', order.id).execute();
    await recordEvent(trx, owner, 'order.updated', toOrder({ ...order, status: 'delivered', updated_at: at }), at);
  }
  const moved: ShipmentsTable = { ...row, tracking_status: result.status, tracking_events: result.events.length };
  const was = returnStatusOf(row);
  if (was === returnStatusOf(moved)) return false;
  const scanned = was === 'unused' && row.return_charge === 'on_use';
  if (scanned) moved.charge_status = await chargeUsedReturn(trx, row, at);
  await recordEvent(trx, owner, 'shipment.updated', toShipment(ctx, moved), at);
  return scanned && moved.charge_status === 'pending';
}

/** What the label's carrier says now about each of its boxes, in the order of the shipment's packages. */
async function askCarrier(ctx: TrackingContext, row: ShipmentsTable): Promise<TrackingResult[]> {
  const carrier = await carrierForShipment(ctx, row);
  const label = labelRef(row);
  const results: TrackingResult[] = [];
  for (const box of storedBoxes(row)) {
    if (!activeBox(row, box)) {
      results.push(voidedBox);
      continue;
    }
    const answer = await callCarrier(carrier, ctx.config.carrierTimeoutMs, (signal) => carrier.track({ ...label, trackingNumber: box.tracking_number }, signal));
    if (!answer.ok) {
      if (answer.error.code === 'carrier_timeout') throw new ApiError('carrier_timeout', answer.error.detail);
      if (answer.error.code === 'credentials_missing') throw new CarrierNotConnected('carrier_error', `${carrier.name} cannot be asked: ${answer.error.detail}`);
      throw new ApiError('carrier_error', `${carrier.name} did not answer the tracking request for ${box.tracking_number}: ${answer.error.detail}`);
    }
    results.push(answer.value);
  }
  return results;
}

/**
 * Asks the carrier about a label's boxes now, records any progress, and answers the shipment's tracker, or with
 * `box` (an index in its packages, 1 and up) that box's. A voided label's is answered as its void left it.
 */
export async function refreshTracking(ctx: TrackingContext, row: ShipmentsTable, box?: number): Promise<Tracker> {
  if (row.status === 'purchased') {
    const results = await askCarrier(ctx, row);
    if (await inTransaction(ctx.db, (trx) => recordProgress(ctx, trx, row, results, false))) await settleCardChargeNow(ctx, row.id);
  }
  const trackers = await inTransaction(ctx.db, (trx) => labelTrackers(trx, row, ctx.clock.now().toISOString()));
  const tracker = trackers.find((t) => t.package === (box ?? null));
  if (!tracker) throw new Error(`The label ${row.id} has no tracker for ${box === undefined ? 'itself' : `box ${box}`}`);
  return toTracker(tracker, ctx);
}

/** The label an order's tracking is about: its current outbound label, or the last one if it was voided. */
async function orderShipment(ctx: Context, orderId: string): Promise<ShipmentsTable> {
  const order = await ownOrderRow(ctx.db, ctx, orderId, false);
  const row = await ctx.db
    .selectFrom('shipments')
    .selectAll()
    .where('order_id', '=', order.id)
    .where('is_return', '=', 0)
    .where('status', 'in', visibleStatuses)
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirst();
  if (!row) throw new ApiError('order_not_shipped', `Order ${order.id} has no label to track`);
  return row;
}

/** The label whose later box (not the first, whose number is the label's) has this number, and the box's index. */
async function laterBox(ctx: Context, number: string, carrier: CarrierId | undefined): Promise<{ row: ShipmentsTable; index: number } | undefined> {
  // The number is letters and digits only (an underscore at most matches more, and the parse below sorts that out).
  let q = ctx.db
    .selectFrom('shipments')
    .selectAll()
    .where('packages', 'like', `%"tracking_number":"${number}"%`)
    .where('owner_key_id', '=', ctx.principal.keyId)
    .where('status', 'in', visibleStatuses);
  if (carrier) q = q.where('carrier', '=', carrier);
  for (const row of await q.orderBy('id', 'desc').execute()) {
    const index = storedBoxes(row).findIndex((b) => b.tracking_number === number);
    if (index > 0) return { row, index };
  }
  return undefined;
}

/** A magic test number no tracker of the key follows, answered as it stands now and kept nowhere. */
function magicTracker(number: string, carrier: CarrierId, result: TrackingResult): Tracker {
  const events = toEvents(result.events);
  return {
    id: `trk_${number.toLowerCase()}`,
    object: 'tracker',
    tracking_number: number,
    carrier,
    origin: 'external',
    order_id: null,
    shipment_id: null,
    status: result.status,
    status_detail: result.statusDetail,
    estimated_delivery_date: result.estimatedDeliveryDate,
    signed_by: result.signedBy ?? null,
    // Kept nowhere, so nothing is on file to link to.
    proof_of_delivery: [],
    events,
    metadata: {},
    last_checked_at: null,
    next_check_at: null,
    created_at: events[0]!.occurred_at,
    updated_at: events.at(-1)!.occurred_at,
  };
}

/** POST /tracking: by order, or by a tracking number of a label the key bought, of a tracker it has, or a magic test number. */
export async function track(ctx: Context, input: TrackingRequest): Promise<Tracker> {
  if ((input.order_id === undefined) === (input.tracking_number === undefined)) {
    throw new ApiError('validation_failed', 'Send either order_id or tracking_number', [
      { in: 'body', pointer: input.order_id === undefined ? '' : '/tracking_number', detail: 'exactly one of order_id and tracking_number is required' },
    ]);
  }
  if (input.order_id !== undefined) {
    if (input.carrier !== undefined) {
      throw new ApiError('validation_failed', 'carrier goes with tracking_number only', [{ in: 'body', pointer: '/carrier', detail: 'only with tracking_number' }]);
    }
    return refreshTracking(ctx, await orderShipment(ctx, input.order_id));
  }
  const number = input.tracking_number!.replace(/[\s-]/g, '').toUpperCase();
  let q = ctx.db
    .selectFrom('shipments')
    .selectAll()
    .where('tracking_number', '=', number)
    .where('owner_key_id', '=', ctx.principal.keyId)
    .where('status', 'in', visibleStatuses);
  if (input.carrier) q = q.where('carrier', '=', input.carrier);
  const row = await q.orderBy('id', 'desc').limit(1).executeTakeFirst();
  if (row) return refreshTracking(ctx, row);
  const box = await laterBox(ctx, number, input.carrier);
  if (box) return refreshTracking(ctx, box.row, box.index);
  const followed = await followedTracker(ctx, number, input.carrier);
  if (followed) return refreshExternal(ctx, followed);
  if (ctx.principal.mode === 'test') {
    const magic = magicTracking(number, ctx.clock.now());
    if (magic) return magicTracker(number, input.carrier ?? 'usps', magic);
  }
  const looksLike = detectCarrier(number);
  const hint = looksLike.length > 0 ? ` (it has the form of a ${looksLike.map((c) => c.toUpperCase()).join(' or ')} number)` : '';
  throw new ApiError('not_found', `No label of this key has the tracking number ${number}${input.carrier ? ` with ${input.carrier.toUpperCase()}` : ''}${hint}`);
}

/**
 * Records the progress of a group of labels in one transaction: one commit, and the pages the labels share written
 * once, instead of a transaction each. If the group fails, each label is tried alone, so one cannot hold up the rest;
 * that includes the rare PostgreSQL deadlock of a group that holds one label's row while it waits for another's order.
 */
async function recordAll(ctx: TrackingContext, log: { warn(o: object, m: string): void }, answers: Answer[]): Promise<void> {
  const cardCharges: string[] = [];
  try {
    await inTransaction(ctx.db, async (trx) => {
      for (const { row, results } of answers) if (await recordProgress(ctx, trx, row, results, true)) cardCharges.push(row.id);
    });
  } catch {
    cardCharges.length = 0;
    for (const { row, results } of answers) {
      await inTransaction(ctx.db, (trx) => recordProgress(ctx, trx, row, results, true))
        .then((opened) => opened && cardCharges.push(row.id))
        .catch((err: unknown) => log.warn({ err, shipment_id: row.id }, 'could not record tracking'));
    }
  }
  // Cards are charged for returns first scanned just now; what Stripe does not take now, the settle job takes later.
  for (const id of cardCharges) await settleCardChargeNow(ctx, id);
}

interface Answer {
  row: ShipmentsTable;
  results: TrackingResult[];
}

/** Labels whose progress the tracking worker records in one transaction. */
const recordGroup = 20;

/**
 * The tracking worker's pass: takes the labels whose next check is due (holding each for a minute, so other
 * workers skip it), asks their carriers, and records their progress in groups. Returns how many it asked about.
 */
export async function pollTracking(ctx: TrackingContext, log: { warn(o: object, m: string): void }, limit = trackingBatch): Promise<number> {
  const now = ctx.clock.now();
  const at = now.toISOString();
  let due = ctx.db.selectFrom('shipments').select('id').where('tracking_next_check_at', '<=', at).orderBy('tracking_next_check_at').limit(limit);
  if (ctx.dbKind === 'postgres') due = due.forUpdate().skipLocked();
  const rows = await ctx.db
    .updateTable('shipments')
    .set({ tracking_next_check_at: new Date(now.getTime() + claimLeaseMs).toISOString() })
    .where('id', 'in', due)
    .returningAll()
    .execute();
  const workers = 8;
  let next = 0;
  let answers: Answer[] = [];
  // Groups are recorded one after another while the lanes go on asking.
  let recording = Promise.resolve();
  const record = () => {
    const group = answers;
    answers = [];
    recording = recording.then(() => recordAll(ctx, log, group));
  };
  await Promise.all(
    Array.from({ length: Math.min(workers, rows.length) }, async () => {
      while (next < rows.length) {
        const row = rows[next++]!;
        // On SQLite every await below settles at once, so a whole pass would run as one task: 200 labels held every
        // request up for about 80 ms. With a turn of the event loop before each label, requests wait for one label
        // per worker at most.
        await setImmediate();
        if (row.status !== 'purchased') continue;
        try {
          answers.push({ row, results: await askCarrier(ctx, row) });
          if (answers.length >= recordGroup) record();
        } catch (err) {
          // The claim's lease brings the label back in a minute, unless its carrier cannot be asked at all (and if
          // this update fails, the lease still holds).
          if (err instanceof CarrierNotConnected) {
            const later = new Date(now.getTime() + pollMs.live).toISOString();
            await ctx.db
              .updateTable('shipments')
              .set({ tracking_next_check_at: later })
              .where('id', '=', row.id)
              .where('status', '=', 'purchased')
              .execute()
              .catch(() => undefined);
          }
          log.warn({ err, shipment_id: row.id }, 'could not refresh tracking');
        }
      }
    }),
  );
  if (answers.length > 0) record();
  await recording;
  return rows.length;
}
