import type { Kysely } from 'kysely';
import type { DB, OrdersTable, ShipmentsTable, StoredCarrierForm } from '../../db/schema.ts';
import { carrierForShipment } from '../carrier-accounts/carrier-access.ts';
import type { Carrier, CarrierFailure, CarrierResult, LabelRef, VoidOutcome } from '../../carriers/carrier.ts';
import { holdLocation } from '../../carriers/options.ts';
import type { Shipment } from '../../schemas/shipment.ts';
import { refundBoxPostage, refundPostage } from '../billing/ledger.ts';
import { isCardBilled, markBoxRefundDue, markRefundDue, settleCardChargeNow } from '../billing/card-charges.ts';
import { callCarrier } from '../carrier-accounts/carrier-call.ts';
import type { Context } from '../core/context.ts';
import { ApiError } from '../../kernel/errors.ts';
import { recordEvent } from '../webhooks/events.ts';
import { hasPrefix } from '../../kernel/ids.ts';
import { ownOrderRow, toOrder } from '../orders/orders.ts';
import { activeBox, boxWeights, currentShipmentRow, storedBoxes, toShipment, visibleShipmentRow, type PurchaseRecord, type StoredBox } from './shipments.ts';
import { inTransaction } from '../core/transaction.ts';
import { cancelLabelTrackers } from '../tracking/tracker-rows.ts';

/** What the carrier needs to know of a bought label to void or track it. */
export function labelRef(row: ShipmentsTable): LabelRef {
  const record: PurchaseRecord = JSON.parse(row.purchase);
  const heldAt = holdLocation(record.options);
  return {
    trackingNumber: row.tracking_number!,
    carrierShipmentId: row.carrier_shipment_id!,
    ...(row.packages !== null && {
      boxes: storedBoxes(row).map((b) => ({ trackingNumber: b.tracking_number, carrierShipmentId: b.carrier_shipment_id ?? row.carrier_shipment_id! })),
    }),
    service: row.service,
    purchasedAt: new Date(row.created_at),
    ...(record.estimatedDeliveryDate !== null && { estimatedDeliveryDate: record.estimatedDeliveryDate }),
    from: record.from,
    to: record.to,
    ...(heldAt && { heldAt: { carrier: heldAt.carrier, id: heldAt.id } }),
  };
}

/** The label to void: an ord_ id means the order's outbound label, a shp_ id that very label (a return, say). */
async function labelToVoid(ctx: Context, id: string): Promise<ShipmentsTable> {
  if (hasPrefix(id, 'shp')) {
    const row = await visibleShipmentRow(ctx, id);
    if (!row) throw new ApiError('not_found', `No shipment ${id}`);
    return row;
  }
  const order = await ownOrderRow(ctx.db, ctx, id, false);
  const row = await currentShipmentRow(ctx.db, ctx, order.id, false);
  if (!row) throw new ApiError('order_not_shipped', `Order ${order.id} has no label to void`);
  return row;
}

/**
 * The label as a void of what is left of it tells the carrier: without the boxes voided on their own before, which
 * the carrier no longer has to void.
 */
function remainingRef(row: ShipmentsTable): LabelRef {
  const ref = labelRef(row);
  if (!ref.boxes) return ref;
  const boxes = storedBoxes(row);
  const left = ref.boxes.filter((_, i) => activeBox(row, boxes[i]!));
  return { ...ref, boxes: left, ...(left.length < boxes.length && { boxesVoidedBefore: boxes.length - left.length }) };
}

/** What a carrier's refusal to void means to the client. */
function voidRefusal(carrierName: string, error: CarrierFailure, what: string): ApiError {
  if (error.code === 'label_in_transit') return new ApiError('label_in_transit', error.detail);
  if (error.code === 'carrier_timeout') return new ApiError('carrier_timeout', `${error.detail}; the ${what} is still active, try again`);
  return new ApiError('carrier_error', `${carrierName} did not void the ${what}: ${error.detail}`);
}

/**
 * The status a void leaves, or the problem it answers. A label (or box) the carrier says is void already while shipd
 * still holds it bought is one whose void was cut off between the carrier's answer and its transaction (a crash, a
 * lost answer): the retry records it, rather than leaving the label charged and its order shipped for good.
 */
function voidedStatus(carrierName: string, outcome: CarrierResult<VoidOutcome>, what: string): 'voided' | 'void_pending' {
  if (!outcome.ok && outcome.error.code !== 'already_voided') throw voidRefusal(carrierName, outcome.error, what);
  return !outcome.ok || outcome.value === 'refunded' ? 'voided' : 'void_pending';
}

/**
 * Voids a label the carrier has not yet scanned, or with `box` (an index in its packages) that box alone:
 * POST /shipments/{order_id}/void. A whole void refunds the postage and puts the order back to `incomplete` so
 * another label can be bought; a box's void refunds its share and the order stays shipped, unless it was the last box
 * left, which voids the label as a whole void does.
 */
export async function voidLabel(ctx: Context, id: string, box?: number): Promise<Shipment> {
  const row = await labelToVoid(ctx, id);
  if (row.status !== 'purchased') throw new ApiError('shipment_already_voided', `The label ${row.id} was already voided at ${row.voided_at}`);
  const boxes = storedBoxes(row);
  if (box !== undefined && box >= boxes.length) {
    const detail = `the label ${row.id} has ${boxes.length} box(es), numbered 0 to ${boxes.length - 1} as in its packages`;
    throw new ApiError('validation_failed', `No box ${box} in the label ${row.id}`, [{ in: 'body', pointer: '/package', detail }]);
  }
  if (box !== undefined && !activeBox(row, boxes[box]!)) {
    throw new ApiError('shipment_already_voided', `Box ${box} (${boxes[box]!.tracking_number}) of the label ${row.id} was already voided at ${boxes[box]!.voided_at}`);
  }
  if (await handedOver(ctx.db, row)) {
    throw new ApiError('label_manifested', `The label ${row.id} is on manifest ${row.manifest_id}: it was handed over to the carrier and can no longer be voided`);
  }
  const carrier = await carrierForShipment(ctx, row);
  // The last box still to ship takes the label with it.
  if (box !== undefined && boxes.filter((b) => activeBox(row, b)).length > 1) return voidOneBox(ctx, carrier, row, box);
  const outcome = await callCarrier(carrier, ctx.config.carrierTimeoutMs, (signal) => carrier.void(remainingRef(row), signal));
  if (!outcome.ok && outcome.error.voided?.length) return recordPartialVoid(ctx, carrier.name, row, outcome.error);
  const status = voidedStatus(carrier.name, outcome, 'label');
  const at = ctx.clock.now().toISOString();
  const voided = await inTransaction(ctx.db, async (trx) => {
    // Orders before shipments, as in a purchase's completion, so the two never wait on each other.
    const order = await ownOrderRow(trx, ctx, row.order_id, true);
    return recordVoid(trx, ctx, order, row, status, at);
  });
  // The card gets its money back now, or from the settle job if Stripe does not answer.
  if (isCardBilled(row)) await settleCardChargeNow(ctx, row.id);
  return voided;
}

/** Records the label voided, in the caller's transaction, which holds its order: refunded, and its order open again. */
async function recordVoid(trx: Kysely<DB>, ctx: Context, order: OrdersTable, row: ShipmentsTable, status: 'voided' | 'void_pending', at: string): Promise<Shipment> {
  const changed = await trx
    .updateTable('shipments')
    .set({ status, voided_at: at, updated_at: at, tracking_status: 'cancelled', tracking_next_check_at: null })
    .where('id', '=', row.id)
    .where('status', '=', 'purchased')
    // A manifest may have taken the label since it was read.
    .$if(row.mode === 'test', (q) => q.where('manifest_id', 'is', null))
    .executeTakeFirst();
  if (Number(changed.numUpdatedRows) !== 1) {
    const now = await trx.selectFrom('shipments').select(['status', 'manifest_id']).where('id', '=', row.id).executeTakeFirstOrThrow();
    if (now.status === 'purchased') throw new ApiError('label_manifested', `The label ${row.id} was put on manifest ${now.manifest_id} while it was being voided; it can no longer be voided`);
    throw new ApiError('shipment_already_voided', `The label ${row.id} was voided by another request`);
  }
  // Refunded on void whatever the carrier's review: the label is void and the order open again, so charging the
  // account on until a review that no carrier API reports would bill a second label beside it.
  await refundPostage(trx, row.id, at);
  await markRefundDue(trx, row.id, at);
  await cancelLabelTrackers(trx, row.id, at);
  const shipment = toShipment(ctx, { ...row, status, voided_at: at, updated_at: at });
  await recordEvent(trx, ctx, 'shipment.voided', shipment, at);
  if (row.is_return === 0) {
    const reopened: OrdersTable = { ...order, status: 'incomplete', shipment_id: null, updated_at: at };
    await trx.updateTable('orders').set({ status: 'incomplete', shipment_id: null, updated_at: at }).where('id', '=', order.id).execute();
    await recordEvent(trx, ctx, 'order.updated', toOrder(reopened), at);
  }
  return shipment;
}

/**
 * Voids box `index` of a label that keeps others to ship, where the carrier voids boxes one by one: the carrier first,
 * then the box, its refund (owed to the card too, where it paid) and a shipment.updated event in one transaction, as a
 * whole void does. Should the others have been voided meanwhile, it was the last box after all, and the label is
 * voided as a whole.
 */
async function voidOneBox(ctx: Context, carrier: Carrier, row: ShipmentsTable, index: number): Promise<Shipment> {
  if (!carrier.voidBox) {
    const why = carrier.wholeShipmentVoids ?? `shipd's ${carrier.name} adapter voids no single box`;
    const detail = `${carrier.name} voids whole shipments only: ${why}. Void the label without \`package\` to void every box`;
    throw new ApiError('not_supported_by_carrier', `${carrier.name} does not void one box of a shipment: ${detail}`, [{ in: 'body', pointer: '/package', detail }]);
  }
  const ref = labelRef(row);
  const outcome = await callCarrier(carrier, ctx.config.carrierTimeoutMs, (signal) => carrier.voidBox!(ref, ref.boxes![index]!, signal));
  const status = voidedStatus(carrier.name, outcome, `box ${ref.boxes![index]!.trackingNumber}`);
  const at = ctx.clock.now().toISOString();
  const voided = await inTransaction(ctx.db, async (trx) => {
    const order = await ownOrderRow(trx, ctx, row.order_id, true);
    const now = await lockedBoughtRow(trx, ctx, row.id);
    const boxes = storedBoxes(now);
    if (!activeBox(now, boxes[index]!)) throw new ApiError('shipment_already_voided', `Box ${index} of the label ${row.id} was voided by another request`);
    if (boxes.every((b, i) => i === index || !activeBox(now, b))) return recordVoid(trx, ctx, order, now, status, at);
    return recordBoxVoids(trx, ctx, now, new Map([[index, status]]), at);
  });
  // Now, or from the settle job if Stripe does not answer; this also settles a last box's void of the whole label.
  if (isCardBilled(row)) await settleCardChargeNow(ctx, row.id);
  return voided;
}

/**
 * Whether the label's manifest handed it over, so it can no longer be voided: in test mode any manifest (the
 * simulator refuses, as most carriers do); with a live key one the carrier is making or made a form of that lists
 * the label (a USPS SCAN form, a FedEx Ground close), or one whose carrier part failed after a crash, whose forms
 * may list it without shipd knowing. A live label on a manifest the carrier was not told of (UPS, FedEx Express) is
 * the carrier's to void or refuse.
 */
async function handedOver(db: Kysely<DB>, row: ShipmentsTable): Promise<boolean> {
  if (row.manifest_id === null) return false;
  if (row.mode === 'test') return true;
  const manifest = await db.selectFrom('manifests').select(['carrier_manifest', 'carrier_forms']).where('id', '=', row.manifest_id).executeTakeFirst();
  if (!manifest || manifest.carrier_manifest === 'pending' || manifest.carrier_manifest === 'failed') return true;
  return manifest.carrier_manifest === 'submitted' && (JSON.parse(manifest.carrier_forms) as StoredCarrierForm[]).some((f) => f.shipment_ids.includes(row.id));
}

/**
 * The label re-read and, on Postgres, held until committed, for a void of some of its boxes: another box's void, the
 * tracking worker and a manifest all write this row.
 */
async function lockedBoughtRow(trx: Kysely<DB>, ctx: Context, id: string): Promise<ShipmentsTable> {
  let query = trx.selectFrom('shipments').selectAll().where('id', '=', id);
  if (ctx.dbKind === 'postgres') query = query.forUpdate();
  const now = await query.executeTakeFirstOrThrow();
  if (now.status !== 'purchased') throw new ApiError('shipment_already_voided', `The label ${id} was voided by another request`);
  if (await handedOver(trx, now)) {
    throw new ApiError('label_manifested', `The label ${id} was put on manifest ${now.manifest_id} while its box was being voided; it can no longer be voided`);
  }
  return now;
}

/**
 * Records boxes of a label voided while others ship on, in the caller's transaction, which holds the label's row:
 * each box's share refunded (owed to the card too, where it paid), its tracker stopped, and one shipment.updated.
 */
async function recordBoxVoids(trx: Kysely<DB>, ctx: Context, row: ShipmentsTable, voided: ReadonlyMap<number, 'voided' | 'void_pending'>, at: string): Promise<Shipment> {
  const boxes = storedBoxes(row);
  for (const [index, status] of voided) boxes[index] = { ...boxes[index]!, status, voided_at: at, tracking_status: 'cancelled' };
  const packages = JSON.stringify(boxes);
  await trx.updateTable('shipments').set({ packages, updated_at: at }).where('id', '=', row.id).execute();
  for (const index of voided.keys()) {
    // The first box's number is the shipment's tracker's, which goes on with the boxes left.
    await cancelLabelTrackers(trx, row.id, at, index);
    const refunded = await refundBoxPostage(trx, row.id, index, boxWeights(boxes), at);
    // The card gets back what the ledger does, as a partial refund of its charge.
    if (isCardBilled(row)) await markBoxRefundDue(trx, row.id, index, refunded, at);
  }
  const shipment = toShipment(ctx, { ...row, packages, updated_at: at });
  await recordEvent(trx, ctx, 'shipment.updated', shipment, at);
  return shipment;
}

/**
 * A void the carrier did for some of the label's boxes only (CarrierFailure.voided): those boxes are void at the
 * carrier, so they are recorded voided and refunded their share at once, as voidOneBox records one, before the
 * failure is answered; otherwise a box scanned before the client tries again would keep their refunds from it for
 * good. Should no box be left to ship, the label is voided as a whole void does, and that is the answer.
 */
async function recordPartialVoid(ctx: Context, carrierName: string, row: ShipmentsTable, error: CarrierFailure): Promise<Shipment> {
  const outcomes = new Map((error.voided ?? []).map((d) => [d.trackingNumber.toUpperCase(), d.outcome]));
  const at = ctx.clock.now().toISOString();
  type Recorded = { whole: Shipment } | { boxes: StoredBox[]; voided: number[]; left: number[] };
  const recorded = await inTransaction(ctx.db, async (trx): Promise<Recorded> => {
    const order = await ownOrderRow(trx, ctx, row.order_id, true);
    const now = await lockedBoughtRow(trx, ctx, row.id);
    const boxes = storedBoxes(now);
    const voided = new Map<number, 'voided' | 'void_pending'>();
    for (const [i, b] of boxes.entries()) {
      const outcome = outcomes.get(b.tracking_number.toUpperCase());
      if (outcome && activeBox(now, b)) voided.set(i, outcome === 'refunded' ? 'voided' : 'void_pending');
    }
    const left = boxes.flatMap((b, i) => (activeBox(now, b) && !voided.has(i) ? [i] : []));
    if (left.length === 0) return { whole: await recordVoid(trx, ctx, order, now, [...voided.values()].includes('void_pending') ? 'void_pending' : 'voided', at) };
    if (voided.size === 0) return { boxes, voided: [], left };
    await recordBoxVoids(trx, ctx, now, voided, at);
    return { boxes, voided: [...voided.keys()], left };
  });
  if ('whole' in recorded || recorded.voided.length > 0) {
    // Now, or from the settle job if Stripe does not answer.
    if (isCardBilled(row)) await settleCardChargeNow(ctx, row.id);
  }
  if ('whole' in recorded) return recorded.whole;
  const named = (indexes: number[]) => indexes.map((i) => `box ${i + 1} (${recorded.boxes[i]!.tracking_number})`).join(', ');
  const shares = recorded.voided.length === 1 ? 'its share' : 'their shares';
  const told = recorded.voided.length > 0 ? `; ${named(recorded.voided)} voided and refunded ${shares}; ${named(recorded.left)} still to ship` : '';
  throw voidRefusal(carrierName, { ...error, detail: `${error.detail}${told}` }, 'label');
}
