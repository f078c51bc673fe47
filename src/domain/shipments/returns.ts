import type { Kysely } from 'kysely';
import type { CarrierId } from '../../config.ts';
import type { DB, ReturnChargeStatus, ShipmentsTable } from '../../db/schema.ts';
import type { ReturnCreate, Shipment } from '../../schemas/shipment.ts';
import { carrierAccess } from '../carrier-accounts/carrier-access.ts';
import type { Context } from '../core/context.ts';
import { ApiError } from '../../kernel/errors.ts';
import { chargePostage } from '../billing/ledger.ts';
import { isCardBilled, openCardCharge } from '../billing/card-charges.ts';
import { ownOrderRow } from '../orders/orders.ts';
import { buyable, labelChoice, paymentFor, purchase, purchaseByKey, resumePurchase, type PurchasePlan } from './purchase.ts';
import { orderInputs, quoteAll, rateRequest, rateSurcharges, usdCents, withoutBoxInsurance } from '../rating/rating.ts';
import { returnEnds } from '../rating/service-area.ts';
import { activeBox, boxShares, currentShipmentRow, serviceName, storedBoxes } from './shipments.ts';

/**
 * A return label for a shipped order, from the recipient back to the sender: with the carrier asked for, else the
 * outbound label's; in the service asked for, else the outbound service when that carrier offers it for the way
 * back, else its cheapest. Charged as it is made, or (`on_use`) only once the carrier first scans it.
 * POST /shipments/{order_id}/return.
 */
export async function createReturnLabel(ctx: Context, orderId: string, input: ReturnCreate): Promise<Shipment> {
  const label = labelChoice(input);
  const earlier = ctx.idempotencyKey ? await purchaseByKey(ctx, orderId, true, ctx.idempotencyKey, input) : undefined;
  if (earlier) return resumePurchase(ctx, earlier);

  const order = await ownOrderRow(ctx.db, ctx, orderId, false);
  const outbound = order.status === 'shipped' || order.status === 'delivered' ? await currentShipmentRow(ctx.db, ctx, order.id, false) : undefined;
  if (!outbound || outbound.status !== 'purchased') throw new ApiError('order_not_shipped', `Order ${order.id} has no active label to return`);
  const carrierId = input.carrier ?? (outbound.carrier as CarrierId);
  const access = await carrierAccess(ctx, ctx.principal.accountId, ctx.principal.mode);
  const payment = await paymentFor(ctx, access, carrierId);
  const inputs = withoutBoxInsurance(await orderInputs(ctx.db, ctx, order));
  const carriers = access.carriers;
  const carrier = carriers[carrierId];
  const back = { ...inputs, ...returnEnds(inputs, order.id) };
  const now = ctx.clock.now();
  const { quotes, errors } = await quoteAll(ctx, [carrier], { ...rateRequest(back, now), isReturn: true });
  const charged = quotes.filter(buyable);
  const quote = input.service !== undefined ? charged.find((q) => q.service === input.service) : (charged.find((q) => q.service === outbound.service) ?? charged[0]);
  if (!quote) {
    const why = errors.map((e) => e.detail).join('; ');
    if (input.service !== undefined) {
      const detail = `${carrier.name} offers no return rate in ${serviceName(carrierId, input.service)} for this order${why ? `: ${why}` : ''}; it offers ${charged.map((q) => q.service).join(', ') || 'none'}`;
      throw new ApiError('no_rate_available', detail, [{ in: 'body', pointer: '/service', detail }]);
    }
    throw new ApiError('no_rate_available', `${carrier.name} offers no return rate for order ${order.id}: ${why}`);
  }
  const plan: PurchasePlan = {
    carrier: quote.carrier,
    service: quote.service,
    quotedCents: usdCents(quote)!,
    rateId: null,
    zone: quote.zone,
    estimatedDeliveryDate: quote.estimatedDeliveryDate,
    surcharges: rateSurcharges(quote),
    // The customer sends it when they will, from wherever they are (abroad, perhaps): dated the day it is made, in UTC.
    ship: { day: now.toISOString().slice(0, 10), at: now },
    // A return comes back with none of the outbound label's delivery options: they are asked of a delivery to the customer.
    options: {},
    insuredCents: null,
  };
  const returnCharge = input.charge ?? 'on_create';
  return purchase(ctx, carriers, { order, inputs, plan, ...payment, isReturn: true, returnCharge, format: input.label_format, label, metadata: input.metadata });
}

/**
 * Charges a return paid on use, in the transaction that records its first scan (that transaction's guard lets one
 * tracking request or worker through; the ledger's and the card charge's keys would refuse a second anyway): the
 * postage the label was bought at, to the ledger, and for a live card, a card charge opened now for the caller to
 * settle once committed. Answers the return's charge_status, also written: `pending` when there is a card charge to
 * settle, `paid` when the ledger's entry is the whole of it (test mode), null when nothing is charged.
 */
export async function chargeUsedReturn(trx: Kysely<DB>, row: ShipmentsTable, at: string): Promise<ReturnChargeStatus | null> {
  if (row.payment !== 'platform') return null;
  // Boxes voided before the first scan are not charged for.
  const boxes = storedBoxes(row);
  const cents = boxShares(row, boxes).reduce((sum, share, i) => sum + (activeBox(row, boxes[i]!) ? share : 0), 0);
  if (cents <= 0) return null;
  await chargePostage(trx, { accountId: row.account_id, mode: row.mode, ownerKeyId: row.owner_key_id, shipmentId: row.id, cents, paymentMethod: row.payment_method!, at });
  const status = isCardBilled(row) ? 'pending' : 'paid';
  await trx.updateTable('shipments').set({ charge_status: status }).where('id', '=', row.id).execute();
  if (status === 'paid') return status;
  // The card saved now, which may have replaced the one saved when the label was made. The account had a Stripe
  // customer then (the purchase checked), and keeps it.
  const card = await trx
    .selectFrom('billing_customers')
    .leftJoin('payment_methods', (j) => j.onRef('payment_methods.account_id', '=', 'billing_customers.account_id').on('payment_methods.mode', '=', 'live'))
    .select(['billing_customers.customer_id', 'payment_methods.payment_method'])
    .where('billing_customers.account_id', '=', row.account_id)
    .executeTakeFirstOrThrow();
  await openCardCharge(trx, row, { customer: card.customer_id, paymentMethod: card.payment_method ?? row.payment_method! }, { cents, at });
  return status;
}
