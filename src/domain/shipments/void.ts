import type { OrdersTable, ShipmentsTable } from '../../db/schema.ts';
import { carrierForShipment } from '../carrier-accounts/carrier-access.ts';
import type { LabelRef } from '../../carriers/carrier.ts';
import type { Shipment } from '../../schemas/shipment.ts';
import { refundPostage } from '../billing/ledger.ts';
import { isCardBilled, markRefundDue, settleCardChargeNow } from '../billing/card-charges.ts';
import { callCarrier } from '../carrier-accounts/carrier-call.ts';
import type { Context } from '../core/context.ts';
import { ApiError } from '../../kernel/errors.ts';
import { recordEvent } from '../webhooks/events.ts';
import { hasPrefix } from '../../kernel/ids.ts';
import { ownOrderRow, toOrder } from '../orders/orders.ts';
import { currentShipmentRow, storedBoxes, toShipment, visibleShipmentRow, type PurchaseRecord } from './shipments.ts';
import { inTransaction } from '../core/transaction.ts';

/** What the carrier needs to know of a bought label to void or track it. */
export function labelRef(row: ShipmentsTable): LabelRef {
  const record: PurchaseRecord = JSON.parse(row.purchase);
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
 * Voids a label the carrier has not yet scanned: refunds its postage, and puts its order back to `incomplete`
 * so another label can be bought. POST /shipments/{order_id}/void.
 */
export async function voidLabel(ctx: Context, id: string): Promise<Shipment> {
  const row = await labelToVoid(ctx, id);
  if (row.status !== 'purchased') throw new ApiError('shipment_already_voided', `The label ${row.id} was already voided at ${row.voided_at}`);
  // A live carrier decides for itself what it still voids after the end of day; the simulator refuses, as most do.
  if (row.manifest_id !== null && row.mode === 'test') {
    throw new ApiError('label_manifested', `The label ${row.id} is on manifest ${row.manifest_id}: it was handed over to the carrier and can no longer be voided`);
  }
  const carrier = await carrierForShipment(ctx, row);
  const outcome = await callCarrier(carrier, ctx.config.carrierTimeoutMs, (signal) => carrier.void(labelRef(row), signal));
  // A label the carrier voided while shipd still holds it bought is one whose void was cut off between the carrier's
  // answer and the transaction below (a crash, a lost answer): the retry records it, rather than leaving the label
  // charged and its order shipped for good.
  const carrierVoided = !outcome.ok && outcome.error.code === 'already_voided';
  if (!outcome.ok && !carrierVoided) {
    if (outcome.error.code === 'label_in_transit') throw new ApiError('label_in_transit', outcome.error.detail);
    if (outcome.error.code === 'carrier_timeout') throw new ApiError('carrier_timeout', `${outcome.error.detail}; the label is still active, try again`);
    throw new ApiError('carrier_error', `${carrier.name} did not void the label: ${outcome.error.detail}`);
  }
  const at = ctx.clock.now().toISOString();
  const status = carrierVoided || (outcome.ok && outcome.value === 'refunded') ? 'voided' : 'void_pending';
  const voided = await inTransaction(ctx.db, async (trx) => {
    // Orders before shipments, as in a purchase's completion, so the two never wait on each other.
    const order = await ownOrderRow(trx, ctx, row.order_id, true);
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
    const shipment = toShipment(ctx, { ...row, status, voided_at: at, updated_at: at });
    await recordEvent(trx, ctx, 'shipment.voided', shipment, at);
    if (row.is_return === 0) {
      const reopened: OrdersTable = { ...order, status: 'incomplete', shipment_id: null, updated_at: at };
      await trx.updateTable('orders').set({ status: 'incomplete', shipment_id: null, updated_at: at }).where('id', '=', order.id).execute();
      await recordEvent(trx, ctx, 'order.updated', toOrder(reopened), at);
    }
    return shipment;
  });
  // The card gets its money back now, or from the settle job if Stripe does not answer.
  if (isCardBilled(row)) await settleCardChargeNow(ctx, row.id);
  return voided;
}
