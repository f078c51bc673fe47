import type { CarrierId } from '../../config.ts';
import type { ReturnCreate, Shipment } from '../../schemas/shipment.ts';
import { carrierAccess } from '../carrier-accounts/carrier-access.ts';
import type { Context } from '../core/context.ts';
import { ApiError } from '../../kernel/errors.ts';
import { ownOrderRow } from '../orders/orders.ts';
import { buyable, labelChoice, paymentFor, purchase, purchaseByKey, resumePurchase, type PurchasePlan } from './purchase.ts';
import { orderInputs, quoteAll, rateRequest, rateSurcharges, usdCents } from '../rating/rating.ts';
import { returnEnds } from '../rating/service-area.ts';
import { currentShipmentRow } from './shipments.ts';

/**
 * A return label for a shipped order: the same carrier, from the recipient back to the sender, in the outbound
 * service when the carrier offers it for the way back, else its cheapest. POST /shipments/{order_id}/return.
 */
export async function createReturnLabel(ctx: Context, orderId: string, input: ReturnCreate): Promise<Shipment> {
  const label = labelChoice(input);
  const earlier = ctx.idempotencyKey ? await purchaseByKey(ctx, orderId, true, ctx.idempotencyKey, input) : undefined;
  if (earlier) return resumePurchase(ctx, earlier);

  const order = await ownOrderRow(ctx.db, ctx, orderId, false);
  const outbound = order.status === 'shipped' || order.status === 'delivered' ? await currentShipmentRow(ctx.db, ctx, order.id, false) : undefined;
  if (!outbound || outbound.status !== 'purchased') throw new ApiError('order_not_shipped', `Order ${order.id} has no active label to return`);
  const access = await carrierAccess(ctx, ctx.principal.accountId, ctx.principal.mode);
  const payment = await paymentFor(ctx, access, outbound.carrier as CarrierId);
  const inputs = await orderInputs(ctx.db, ctx, order);
  const carriers = access.carriers;
  const carrier = carriers[outbound.carrier as CarrierId];
  const back = { ...inputs, ...returnEnds(inputs, order.id) };
  const now = ctx.clock.now();
  const { quotes, errors } = await quoteAll(ctx, [carrier], { ...rateRequest(back, now), isReturn: true });
  const charged = quotes.filter(buyable);
  const quote = charged.find((q) => q.service === outbound.service) ?? charged[0];
  if (!quote) throw new ApiError('no_rate_available', `${carrier.name} offers no return rate for order ${order.id}: ${errors.map((e) => e.detail).join('; ')}`);
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
  return purchase(ctx, carriers, { order, inputs, plan, ...payment, isReturn: true, format: input.label_format, label, metadata: input.metadata });
}
