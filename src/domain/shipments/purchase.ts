import { carrierCatalog } from '../../carriers/catalog.ts';
import { sql } from 'kysely';
import type { CarrierId } from '../../config.ts';
import type { OrdersTable, ReturnCharge, ShipmentsTable } from '../../db/schema.ts';
import type { Carrier, PurchasedLabel, PurchaseRequest, Quote } from '../../carriers/carrier.ts';
import type { LabelFormat, LabelResolution, LabelSize } from '../../labels/label-data.ts';
import { carrierLabelSize, labelAskErrors, labelRefusal } from '../../carriers/label-options.ts';
import { boughtBoxes, isDomestic } from '../../carriers/carrier.ts';
import type { Shipment, ShipmentCreate } from '../../schemas/shipment.ts';
import { requirePaymentMethod } from '../billing/payment-methods.ts';
import { holdBudgetMs } from '../../payments/stripe.ts';
import { chargePostage } from '../billing/ledger.ts';
import { authorizeCardCharge, cardChargeCents, cardFor, heldAtPurchase, isCardBilled, openCardCharge, settleCardChargeNow } from '../billing/card-charges.ts';
import { carrierAccess, carrierForShipment, type CarrierAccess } from '../carrier-accounts/carrier-access.ts';
import { callCarrier } from '../carrier-accounts/carrier-call.ts';
import type { Context } from '../core/context.ts';
import { ApiError } from '../../kernel/errors.ts';
import { recordEvent } from '../webhooks/events.ts';
import { newId } from '../../kernel/ids.ts';
import { ownOrderRow, toOrder } from '../orders/orders.ts';
import { carrierBoxOf, checkInsuranceOnce, insuranceAsks, inputsFingerprint, orderInputs, quoteAll, rateRequest, rateSurcharges, usdCents, type ShipmentInputs } from '../rating/rating.ts';
import type { Surcharge } from '../../schemas/surcharge.ts';
import { fileBoughtLabel } from '../label-files/label-bytes.ts';
import { fileCustomsDocuments } from '../label-files/document-files.ts';
import { boxCustomsFormsFor, customsFormsFor } from '../../carriers/customs-forms.ts';
import { crossesCustomsBorder } from '../../carriers/customs-border.ts';
import { returnEnds } from '../rating/service-area.ts';
import { labelAskOf, ownerOf, recordBoxes, serviceName, toShipment, type PurchaseRecord, type StoredBox } from './shipments.ts';
import { fingerprint, idempotencyTtlMs } from '../core/idempotency.ts';
import { inTransaction } from '../core/transaction.ts';
import { shipDay, type ShipDay } from './ship-date.ts';
import type { ShipmentOptions } from '../../schemas/options.ts';
import { optionAsks } from '../../carriers/options.ts';
import { checkOptions, holdPartyErrors, storedOptions } from './delivery-options.ts';
import { failIfAny } from './shipment-inputs.ts';
import { failIfAllAboveLimit, insuredCents } from '../rating/insurance.ts';
import { money } from '../core/money.ts';
import { labelTrackers } from '../tracking/tracker-rows.ts';
import type { Insurance } from '../../schemas/insurance.ts';

/**
 * A pending purchase older than this was left by a crash (its request would have finished or failed by now),
 * and may be finished by the reconcile job or by the client's retry with the same Idempotency-Key.
 */
export function pendingStaleMs(ctx: Pick<Context, 'config'>): number {
  // With Stripe, the card's hold comes first, within its own bounded time.
  return ctx.config.carrierTimeoutMs + 5_000 + (ctx.config.stripe ? holdBudgetMs : 0);
}

/** What is about to be bought: the carrier's service and the quote it was chosen by. */
export interface PurchasePlan {
  carrier: CarrierId;
  service: string;
  quotedCents: number;
  rateId: string | null;
  zone: string | null;
  estimatedDeliveryDate: string | null;
  /** The day it ships: a rate's own, else the one asked for or today. */
  ship: ShipDay;
  /** The surcharges the quote included, as the rate showed them. */
  surcharges: Surcharge[];
  /** The delivery options it ships with: a rate's own, else the ones asked for. */
  options: ShipmentOptions;
  /**
   * The value the carrier insures the whole shipment for, in cents, shared among its boxes, its charge being in
   * quotedCents: a rate's own, else the one asked for; null for none, each box then insured at its own value, if any.
   */
  insuredCents: number | null;
}

/** A quote shipd can charge for: one whose price in US dollars is known (see usdCents). */
export const buyable = (q: Quote): boolean => usdCents(q) !== undefined;

const fromQuote = (q: Quote, rateId: string | null, ship: ShipDay, options: ShipmentOptions, insuredCents: number | null): PurchasePlan => ({
  carrier: q.carrier,
  service: q.service,
  quotedCents: usdCents(q)!,
  rateId,
  zone: q.zone,
  estimatedDeliveryDate: q.estimatedDeliveryDate,
  ship,
  surcharges: rateSurcharges(q),
  options,
  insuredCents,
});

/**
 * The day a rate ships: the day its shop was asked for, else today (a rate shopped for no day in particular ships
 * the day it is bought, as before ship dates could be chosen). A ship_date sent with it must be that day.
 */
function rateShipDay(ctx: Context, inputs: ShipmentInputs, rateId: string, shopDay: string | null, asked: string | undefined): ShipDay {
  const now = ctx.clock.now();
  const ship = shipDay(inputs.from, now, shopDay ?? asked, shopDay === null ? '/ship_date' : '/rate_id');
  if (asked !== undefined && asked !== ship.day) {
    const detail = `rate ${rateId} is for ${ship.day}, not ${asked}; shop rates with this ship_date, or leave ship_date out`;
    throw new ApiError('rate_not_for_order', `Rate ${rateId} was quoted for shipping on ${ship.day}, not ${asked}; shop rates for ${asked} again`, [{ in: 'body', pointer: '/ship_date', detail }]);
  }
  return ship;
}

/**
 * The options a rate ships with: its shop's. Options sent with it must be the same (in any order of fields); left out,
 * the rate's own are used.
 */
function rateOptions(rateId: string, shopOptions: string | null, asked: ShipmentOptions | undefined): ShipmentOptions {
  if (asked !== undefined && storedOptions(asked) !== shopOptions) {
    const detail = `rate ${rateId} was quoted ${shopOptions === null ? 'without delivery options' : `for the options ${shopOptions}`}; shop rates with these options, or leave options out`;
    throw new ApiError('rate_not_for_order', `Rate ${rateId} was quoted for other delivery options; shop rates with these options again`, [{ in: 'body', pointer: '/options', detail }]);
  }
  return shopOptions === null ? {} : JSON.parse(shopOptions);
}

/**
 * The value a rate insures the parcel for: its shop's, which priced it. An `insurance` sent with it must be that
 * value, as a rate shopped without insurance has no charge for one in its price.
 */
function rateInsurance(rateId: string, shopCents: number | null, asked: number | undefined): number | null {
  if (asked === undefined || asked === shopCents) return shopCents;
  const quoted = shopCents === null ? 'no insurance' : `insurance of ${money(shopCents).amount} USD`;
  const detail = `rate ${rateId} was quoted with ${quoted}, not ${money(asked).amount} USD; shop rates with this insurance, or leave insurance out`;
  throw new ApiError('rate_not_for_order', `Rate ${rateId} was quoted with ${quoted}; shop rates with insurance of ${money(asked).amount} USD again`, [{ in: 'body', pointer: '/insurance', detail }]);
}

/** The rate the client chose, if it is theirs, unexpired, and was quoted for exactly what the order ships, on its day, with its options, so insured. */
async function planFromRate(ctx: Context, inputs: ShipmentInputs, rateId: string, askedDay: string | undefined, askedOptions: ShipmentOptions | undefined, askedInsurance: number | undefined): Promise<PurchasePlan> {
  const found = await ctx.rateStore.find(ctx.db, rateId);
  if (!found || found.shop.owner_key_id !== ctx.principal.keyId) throw new ApiError('not_found', `No rate ${rateId}`);
  const { rate, shop } = found;
  if (shop.expires_at <= ctx.clock.now().toISOString()) throw new ApiError('rate_expired', `Rate ${rateId} expired at ${shop.expires_at}; shop rates again`);
  if (shop.inputs_fingerprint !== inputsFingerprint(inputs)) {
    throw new ApiError('rate_not_for_order', `Rate ${rateId} was quoted for other addresses or another parcel than order ${inputs.orderId} has now; shop rates for the order again`);
  }
  const usd = rate.amount.currency === 'USD' ? rate.amount : rate.amount_usd;
  if (!usd) {
    const detail = `${rate.service_name} is priced in ${rate.amount.currency} and ${carrierCatalog.find((c) => c.id === rate.carrier)!.name} stated no US-dollar price for it; shipd charges postage in USD, so choose a rate in USD or with amount_usd`;
    throw new ApiError('not_supported_by_carrier', detail, [{ in: 'body', pointer: '/rate_id', detail }]);
  }
  const ship = rateShipDay(ctx, inputs, rateId, shop.ship_date, askedDay);
  const options = rateOptions(rateId, shop.options, askedOptions);
  const insured = rateInsurance(rateId, shop.insured_cents, askedInsurance);
  return {
    carrier: rate.carrier,
    service: rate.service,
    quotedCents: Math.round(Number(usd.amount) * 100),
    rateId,
    zone: rate.zone,
    estimatedDeliveryDate: rate.estimated_delivery_date,
    ship,
    surcharges: rate.surcharges,
    options,
    insuredCents: insured,
  };
}

/**
 * How a label is chosen without a rate id: `requested` takes the order's requested service, else the cheapest rate
 * of any carrier; `cheapest` takes the cheapest rate whatever the order requested.
 */
export type Selection = 'requested' | 'cheapest';

const requestedService = (order: OrdersTable, selection: Selection): { carrier: CarrierId; service: string } | null =>
  selection === 'requested' && order.requested_service ? JSON.parse(order.requested_service) : null;

/** The one carrier the order can go with, when its requested service or its carrier's box decides it. */
const onlyCarrier = (order: OrdersTable, inputs: ShipmentInputs, selection: Selection): CarrierId | undefined =>
  requestedService(order, selection)?.carrier ?? carrierBoxOf(inputs)?.carrier;

/** `only`: the order's one carrier (onlyCarrier), if it has one. */
async function planFromQuotes(
  ctx: Context,
  carriers: Record<CarrierId, Carrier>,
  inputs: ShipmentInputs,
  order: OrdersTable,
  selection: Selection,
  only: CarrierId | undefined,
  ship: ShipDay,
  label: LabelChoice,
  options: ShipmentOptions,
): Promise<PurchasePlan> {
  const requested = requestedService(order, selection);
  // Only carriers that print the label asked are quoted; the one carrier an order is held to is refused by purchase.
  const chosen = only ? [carriers[only]] : Object.values(carriers).filter((c) => labelRefusalFor(c, label, isDomestic(inputs)) === null);
  const { quotes, errors } = await quoteAll(ctx, chosen, rateRequest(inputs, ship.at, requested ? [requested.service] : undefined, options));
  const best = quotes.find(buyable);
  if (!best && errors.length > 0 && errors.every((e) => e.code === 'option_not_supported')) {
    const detail = errors.map((e) => `${e.carrier}: ${e.detail}`).join('; ');
    throw new ApiError('option_not_supported', `No carrier that could ship order ${order.id} offers the delivery options asked: ${detail}`, [{ in: 'body', pointer: '/options', detail }]);
  }
  if (!best) {
    failIfAllAboveLimit(quotes.length, errors, insuranceAsks(inputs));
    const why = errors.map((e) => `${e.carrier}: ${e.detail}`).join('; ');
    const what = requested ? `${serviceName(requested.carrier, requested.service)} (the order's requested service)` : 'any carrier';
    throw new ApiError('no_rate_available', `No rate from ${what} for order ${order.id}${why ? `: ${why}` : ''}`);
  }
  return fromQuote(best, null, ship, options, inputs.insuredCents ?? null);
}

function checkPurchasable(order: OrdersTable): void {
  if (order.status === 'shipped') throw new ApiError('order_already_shipped', `Order ${order.id} already has a label (${order.shipment_id}); void it first to buy another`);
  if (order.status !== 'incomplete') throw new ApiError('order_not_purchasable', `Order ${order.id} is ${order.status}; only incomplete orders can be bought a label`);
}

/** Buys the order's label: POST /shipments, and each order of a batch. */
export async function buyLabel(ctx: Context, input: ShipmentCreate, selection: Selection = 'requested'): Promise<Shipment> {
  const label = labelChoice(input);
  const insured = insuredCents(input.insurance);
  const earlier = ctx.idempotencyKey ? await purchaseByKey(ctx, input.order_id, false, ctx.idempotencyKey, input) : undefined;
  if (earlier) return resumePurchase(ctx, earlier);

  const order = await ownOrderRow(ctx.db, ctx, input.order_id, false);
  checkPurchasable(order);
  const inputs = await orderInputs(ctx.db, ctx, order);
  checkInsuranceOnce(inputs, insured);
  checkOptions(input.options, inputs.boxes.map((b) => b.parcel));
  failIfAny(holdPartyErrors(input.options, inputs.from, inputs.to, () => '/order_id'));
  const access = await carrierAccess(ctx, ctx.principal.accountId, ctx.principal.mode);
  const rest = { order, inputs, isReturn: false, format: input.label_format, label, metadata: input.metadata };
  if (input.rate_id) {
    const plan = await planFromRate(ctx, inputs, input.rate_id, input.ship_date, input.options, insured);
    return purchase(ctx, access.carriers, { ...rest, plan, ...(await paymentFor(ctx, access, plan.carrier)) });
  }
  // Payment is settled before any carrier is asked anything: without a good payment method, only the account's
  // own carrier accounts (billed by the carrier) may be quoted.
  const ship = shipDay(inputs.from, ctx.clock.now(), input.ship_date);
  const platform = await platformPayment(ctx);
  const only = onlyCarrier(order, inputs, selection);
  if (platform instanceof ApiError && (only ? !access.own.has(only) : access.own.size === 0)) throw platform;
  const candidates = platform instanceof ApiError ? pick(access.carriers, access.own) : access.carriers;
  const plan = await planFromQuotes(ctx, candidates, { ...inputs, ...(insured !== undefined && { insuredCents: insured }) }, order, selection, only, ship, label, input.options ?? {});
  return purchase(ctx, access.carriers, { ...rest, plan, ...(await paymentFor(ctx, access, plan.carrier)) });
}

const pick = (carriers: Record<CarrierId, Carrier>, ids: ReadonlySet<CarrierId>) =>
  Object.fromEntries(Object.entries(carriers).filter(([id]) => ids.has(id as CarrierId))) as Record<CarrierId, Carrier>;

/** The platform payment method, or the 402 that its absence or decline means, without throwing it yet. */
export async function platformPayment(ctx: Context): Promise<string | ApiError> {
  try {
    return await requirePaymentMethod(ctx, ctx.principal.accountId, ctx.principal.mode);
  } catch (err) {
    if (err instanceof ApiError) return err;
    throw err;
  }
}

/** How a label of this carrier is paid: by the carrier's bill for the account's own account, else platform postage (402 without a method). */
export async function paymentFor(ctx: Context, access: CarrierAccess, carrier: CarrierId): Promise<Pick<PurchaseInput, 'payment' | 'paymentMethod'>> {
  if (access.own.has(carrier)) return { payment: 'carrier_account', paymentMethod: null };
  return { payment: 'platform', paymentMethod: await requirePaymentMethod(ctx, ctx.principal.accountId, ctx.principal.mode) };
}

/** How the label is to be printed, as asked: checked for the rules of the ask itself (400) before anything else. */
export interface LabelChoice {
  format: LabelFormat;
  size: LabelSize;
  resolution: LabelResolution;
  /** The client's own; undefined where the order number stands in. */
  references?: string[];
}

export function labelChoice(input: { label_format?: LabelFormat; label_size?: LabelSize; label_resolution?: LabelResolution; references?: string[] }): LabelChoice {
  const errors = labelAskErrors({ format: input.label_format, size: input.label_size, resolution: input.label_resolution });
  if (errors.length > 0) throw new ApiError('validation_failed', errors.map((e) => `${e.pointer} ${e.detail}`).join('; '), errors.map((e) => ({ in: 'body', ...e })));
  return { format: input.label_format ?? 'pdf', size: input.label_size ?? '4x6', resolution: input.label_resolution ?? 203, ...(input.references && { references: input.references.map((r) => r.trim()) }) };
}

const labelRefusalFor = (carrier: Pick<Carrier, 'id' | 'name'>, label: LabelChoice, domestic: boolean) =>
  labelRefusal(carrier, { format: label.format, size: label.size, resolution: label.resolution, ...(label.references && { references: label.references }) }, !domestic);

export interface PurchaseInput {
  order: OrdersTable;
  inputs: ShipmentInputs;
  plan: PurchasePlan;
  payment: 'platform' | 'carrier_account';
  /** The account's method platform postage is charged to; null when the carrier bills the account itself. */
  paymentMethod: string | null;
  isReturn: boolean;
  /** A return's: when its postage is charged (on_create unless told). */
  returnCharge?: ReturnCharge;
  format: LabelFormat | undefined;
  label: LabelChoice;
  metadata: Record<string, string> | undefined;
}

/** What a purchase request asks for beyond its order. */
interface PurchaseAsk {
  rate_id?: string;
  ship_date?: string;
  insurance?: Insurance;
  label_format?: LabelFormat;
  label_size?: LabelSize;
  label_resolution?: LabelResolution;
  references?: string[];
  options?: ShipmentOptions;
  metadata?: Record<string, string>;
  charge?: ReturnCharge;
  carrier?: CarrierId;
  service?: string;
}

/**
 * The purchase this Idempotency-Key started for the order within the key's 7 days, if any. The HTTP layer forgets
 * a key whose request failed with a 5xx, so a retry reaches here even when its body differs: a purchase started
 * for another request is refused, not answered.
 */
export async function purchaseByKey(ctx: Context, orderId: string, isReturn: boolean, key: string, ask: PurchaseAsk): Promise<ShipmentsTable | undefined> {
  const row = await ctx.db
    .selectFrom('shipments')
    .selectAll()
    .where('owner_key_id', '=', ctx.principal.keyId)
    .where('order_id', '=', orderId)
    .where('is_return', '=', isReturn ? 1 : 0)
    .where('idempotency_key', '=', key)
    .where('status', 'in', ['pending', 'purchased', 'voided', 'void_pending', 'abandoned'])
    .where('created_at', '>', new Date(ctx.clock.now().getTime() - idempotencyTtlMs).toISOString())
    .orderBy('id', 'desc')
    .executeTakeFirst();
  if (!row) return undefined;
  const record: PurchaseRecord = JSON.parse(row.purchase);
  const same =
    (ask.rate_id ?? null) === row.rate_id &&
    (ask.ship_date === undefined || ask.ship_date === row.ship_date) &&
    (ask.insurance === undefined || insuredCents(ask.insurance) === row.insured_cents) &&
    (ask.label_format ?? 'pdf') === row.label_format &&
    (ask.label_size ?? '4x6') === (record.labelSize ?? '4x6') &&
    (ask.label_resolution ?? 203) === (record.labelResolution ?? 203) &&
    fingerprint(ask.references?.map((r) => r.trim()) ?? null) === fingerprint(record.references ?? null) &&
    (ask.options === undefined || storedOptions(ask.options) === storedOptions(record.options)) &&
    fingerprint(ask.metadata ?? {}) === fingerprint(JSON.parse(row.metadata)) &&
    (ask.charge ?? 'on_create') === (row.return_charge ?? 'on_create') &&
    (ask.carrier === undefined || ask.carrier === row.carrier) &&
    (ask.service === undefined || ask.service === row.service);
  if (!same) throw new ApiError('idempotency_key_reused', `This Idempotency-Key already started the purchase ${row.id} with a different request; use a new key for a new request`);
  return row;
}

/** A retry of a purchase whose first request never answered: its label if it was bought, else finish buying it. */
export async function resumePurchase(ctx: Context, row: ShipmentsTable): Promise<Shipment> {
  // Its retries get the same failure: buying anew under the key could sell the second label the key is there to prevent.
  if (row.status === 'abandoned') throw new ApiError('carrier_error', `The purchase ${row.id} failed: ${row.last_error}`);
  if (row.status !== 'pending') return toShipment(ctx, row);
  if (Date.parse(row.updated_at) > ctx.clock.now().getTime() - pendingStaleMs(ctx)) {
    throw new ApiError('idempotency_key_in_use', `The purchase ${row.id} with this Idempotency-Key is still running; retry in a few seconds for its answer`);
  }
  return finishPending(ctx, row);
}

/**
 * Records the purchase, then buys from the carrier, then completes it: three steps, so that a crash at any point
 * leaves either nothing, or a pending record that the reconcile job finishes or undoes. The database, not this
 * code, refuses a second active label for the order.
 */
export async function purchase(ctx: Context, carriers: Record<CarrierId, Carrier>, p: PurchaseInput): Promise<Shipment> {
  const now = ctx.clock.now();
  const at = now.toISOString();
  const ends = p.isReturn ? returnEnds(p.inputs, p.order.id) : p.inputs;
  const carrier = carriers[p.plan.carrier];
  const refused = labelRefusalFor(carrier, p.label, isDomestic(ends));
  if (refused) throw new ApiError('not_supported_by_carrier', refused.detail, [{ in: 'body', ...refused }]);
  const parcels = rateRequest({ ...p.inputs, ...(p.plan.insuredCents !== null && { insuredCents: p.plan.insuredCents }) }, now).parcels;
  const parcel = parcels[0]!;
  const insured = parcels.filter((b) => b.insuredCents !== undefined);
  const drawsForms = ctx.principal.mode === 'test' && crossesCustomsBorder(ends.from, ends.to);
  const boxForms = boxCustomsFormsFor(p.plan.carrier, p.plan.service, p.inputs.customs, parcels);
  const record: PurchaseRecord = {
    from: ends.from,
    to: ends.to,
    parcel,
    ...(parcels.length > 1 && { parcels }),
    shipDate: p.plan.ship.at.toISOString(),
    zone: p.plan.zone,
    estimatedDeliveryDate: p.plan.estimatedDeliveryDate,
    surcharges: p.plan.surcharges,
    reference: p.order.order_number,
    ...(p.label.references && { references: p.label.references }),
    labelSize: p.label.size,
    labelResolution: p.label.resolution,
    ...(optionAsks(p.plan.options).length > 0 && { options: p.plan.options }),
    customs: p.inputs.customs,
    ...(p.inputs.goodsValue && { goodsValue: p.inputs.goodsValue }),
    // Test mode draws the customs documents a parcel crossing a customs border needs (a declaration kept on a domestic
    // order needs none): the shipment's, or where the carrier prints a form on each box's label, each box's own; a
    // live carrier's own forms come with its label.
    ...(drawsForms && boxForms ? { documents: [], boxDocuments: boxForms.map((f) => f.type) } : { documents: drawsForms ? customsFormsFor(p.plan.carrier, p.plan.service, p.inputs.customs, parcel) : [] }),
  };
  const row: ShipmentsTable = {
    id: newId('shp', now.getTime()),
    owner_key_id: ctx.principal.keyId,
    account_id: ctx.principal.accountId,
    mode: ctx.principal.mode,
    order_id: p.order.id,
    status: 'pending',
    is_return: p.isReturn ? 1 : 0,
    carrier: p.plan.carrier,
    service: p.plan.service,
    rate_id: p.plan.rateId,
    quoted_cents: p.plan.quotedCents,
    postage_cents: null,
    payment: p.payment,
    payment_method: p.paymentMethod,
    label_format: p.format ?? 'pdf',
    tracking_number: null,
    carrier_shipment_id: null,
    purchase: JSON.stringify(record),
    idempotency_key: ctx.idempotencyKey ?? null,
    metadata: JSON.stringify(p.metadata ?? {}),
    last_error: null,
    created_at: at,
    updated_at: at,
    voided_at: null,
    tracking_status: null,
    tracking_events: null,
    tracking_next_check_at: null,
    manifest_id: null,
    ship_date: p.plan.ship.day,
    // The whole shipment's: the shipment's value, or the sum of its boxes' own (each kept in the record's boxes).
    insured_cents: insured.length === 0 ? null : insured.reduce((sum, b) => sum + b.insuredCents!, 0),
    return_charge: p.isReturn ? (p.returnCharge ?? 'on_create') : null,
    charge_status: null,
    packages: null,
    master_tracking_number: null,
  };
  // A return paid on use needs the card on file too, though it is charged only once scanned.
  const card = isCardBilled(row) ? await cardFor(ctx.db, row.account_id, p.paymentMethod!) : null;
  await inTransaction(ctx.db, async (trx) => {
    const order = await ownOrderRow(trx, ctx, p.order.id, true);
    if (!p.isReturn) checkPurchasable(order);
    if (order.updated_at !== p.order.updated_at) {
      throw new ApiError('rate_not_for_order', `Order ${order.id} changed while its label was being chosen; try again`);
    }
    const inserted = await trx.insertInto('shipments').values(row).onConflict((oc) => oc.doNothing()).executeTakeFirst();
    if (Number(inserted.numInsertedOrUpdatedRows ?? 0) !== 1) {
      throw p.isReturn
        ? new ApiError('order_already_shipped', `Order ${order.id} already has an active return label; void it first`)
        : new ApiError('order_already_shipped', `Order ${order.id} already has an active label, or one is being bought right now`);
    }
    if (card && heldAtPurchase(row)) await openCardCharge(trx, row, card);
  });
  await holdPostage(ctx, row);
  return buyAndComplete(ctx, carrier, row);
}

/**
 * Live platform postage is held on the card before the carrier is asked: a card that will not pay buys nothing. A
 * return paid on use holds nothing yet (its card is charged at its first scan).
 */
async function holdPostage(ctx: Context, row: ShipmentsTable): Promise<void> {
  if (!heldAtPurchase(row)) return;
  const problem = await authorizeCardCharge(ctx, row);
  if (!problem) return;
  await failPurchase(ctx, row, problem.detail);
  throw problem;
}

async function failPurchase(ctx: Context, row: ShipmentsTable, detail: string, status: 'failed' | 'abandoned' = 'failed'): Promise<void> {
  await ctx.db
    .updateTable('shipments')
    .set({ status, last_error: detail, updated_at: ctx.clock.now().toISOString() })
    .where('id', '=', row.id)
    .where('status', '=', 'pending')
    .execute();
  // A hold on the card for a purchase that bought nothing is let go of now.
  if (heldAtPurchase(row)) await settleCardChargeNow(ctx, row.id);
}

function purchaseRequest(row: ShipmentsTable): PurchaseRequest {
  const record: PurchaseRecord = JSON.parse(row.purchase);
  const label = labelAskOf(record, row.label_format);
  return {
    from: record.from,
    to: record.to,
    parcels: recordBoxes(record),
    shipDate: new Date(record.shipDate),
    service: row.service,
    quotedCents: row.quoted_cents,
    labelFormat: row.label_format,
    isReturn: row.is_return === 1,
    // A letter sheet the carrier does not print is its 4×6 label, put on the sheet when filed (fileBoughtLabel).
    labelSize: carrierLabelSize(row.carrier as CarrierId, row.label_format, label.size) ?? label.size,
    labelResolution: label.resolution ?? 203,
    references: label.references,
    ...(record.options && { options: record.options }),
    ...(record.reference !== null && { reference: record.reference }),
    ...(record.customs && { customs: record.customs }),
    ...(record.goodsValue && { goodsValue: record.goodsValue }),
    // The shipment id, the same on every try: a retried purchase gets the first label back.
    idempotencyKey: row.id,
  };
}

async function buyAndComplete(ctx: Context, carrier: Carrier, row: ShipmentsTable): Promise<Shipment> {
  const bought = await callCarrier(carrier, ctx.config.carrierTimeoutMs, (signal) => carrier.purchase(purchaseRequest(row), signal));
  if (!bought.ok) {
    if (bought.error.code === 'carrier_timeout') {
      // The carrier may have sold the label without our hearing of it: the reconcile job decides it (finishPending).
      const then = carrier.idempotentPurchase(purchaseRequest(row)) ? 'finished or undone' : 'given up (the carrier cannot be asked again safely)';
      throw new ApiError('carrier_timeout', `${bought.error.detail}. The purchase ${row.id} will be ${then} shortly; GET /shipments/${row.order_id} shows the outcome`);
    }
    await failPurchase(ctx, row, bought.error.detail);
    // An option the carrier refuses at the label (an Access Point UPS no longer lists, say) is the request's to change.
    if (bought.error.code === 'option_not_supported') {
      throw new ApiError('option_not_supported', `${carrier.name} did not sell the label: ${bought.error.detail}`, [{ in: 'body', pointer: '/options', detail: bought.error.detail }]);
    }
    throw new ApiError('carrier_error', `${carrier.name} did not sell the label: ${bought.error.detail}`);
  }
  return complete(ctx, row, bought.value);
}

/** Stores the label, charges the postage, ships the order and reports it, all or nothing. */
async function complete(ctx: Context, row: ShipmentsTable, label: PurchasedLabel): Promise<Shipment> {
  const at = ctx.clock.now().toISOString();
  const labelFormat = await fileBoughtLabel(ctx, row, label, at);
  const withDocuments = await fileCustomsDocuments(ctx, row, label, at);
  const shipment = await inTransaction(ctx.db, async (trx) => {
    // Orders before shipments, in every transaction that changes both: PostgreSQL would otherwise deadlock a
    // completion against a rival purchase that holds the order and waits on this shipment's unique-index entry.
    let orderQuery = trx.selectFrom('orders').selectAll().where('id', '=', row.order_id);
    if (ctx.dbKind === 'postgres') orderQuery = orderQuery.forUpdate();
    const order = await orderQuery.executeTakeFirstOrThrow();
    // shipd's money is USD: a label billed in another currency is recorded at the USD price the client accepted,
    // and the carrier's own figure is kept beside it rather than relabelled as dollars.
    const foreign = label.currency !== 'USD';
    const postageCents = foreign ? row.quoted_cents : label.postageCents;
    const boxes = boughtBoxes(label);
    const bought = {
      status: 'purchased',
      tracking_number: label.trackingNumber,
      carrier_shipment_id: label.carrierShipmentId,
      packages:
        boxes.length > 1
          ? JSON.stringify(
              boxes.map((b): StoredBox => ({
                tracking_number: b.trackingNumber,
                ...(b.carrierShipmentId && { carrier_shipment_id: b.carrierShipmentId }),
                // Kept only where it is in dollars, the currency shipd refunds in.
                ...(b.postageCents !== undefined && !foreign && { postage_cents: b.postageCents }),
              })),
            )
          : null,
      master_tracking_number: label.masterTrackingNumber ?? null,
      postage_cents: postageCents,
      label_format: labelFormat,
      ...(withDocuments !== undefined && { purchase: withDocuments }),
      ...(foreign && { last_error: `The carrier billed ${(label.postageCents / 100).toFixed(2)} ${label.currency}; the quoted USD price is recorded` }),
      updated_at: at,
      // The tracking worker follows the label from now on.
      tracking_status: 'pre_transit',
      tracking_events: 0,
      tracking_next_check_at: at,
    } as const;
    const done: ShipmentsTable = { ...row, ...bought };
    const updated = await trx
      .updateTable('shipments')
      .set(bought)
      .where('id', '=', row.id)
      .where('status', '=', 'pending')
      .executeTakeFirst();
    if (Number(updated.numUpdatedRows) !== 1) {
      // Someone else (the reconcile job, or a retry) finished it first; theirs is the answer.
      const now = await trx.selectFrom('shipments').selectAll().where('id', '=', row.id).executeTakeFirstOrThrow();
      if (now.status === 'failed' || now.status === 'abandoned') throw new ApiError('carrier_error', `The purchase ${row.id} failed: ${now.last_error ?? 'the carrier refused it'}`);
      return toShipment(ctx, now);
    }
    // A return paid on use is charged by the tracking worker, when the carrier first scans it (chargeUsedReturn).
    if (row.payment === 'platform' && postageCents > 0 && row.return_charge !== 'on_use') {
      await chargePostage(trx, {
        accountId: row.account_id,
        mode: row.mode,
        ownerKeyId: row.owner_key_id,
        shipmentId: row.id,
        cents: isCardBilled(row) ? await cardChargeCents(trx, row.id, postageCents) : postageCents,
        paymentMethod: row.payment_method!,
        at,
      });
    }
    // Its tracker is listed with the key's others from the moment the label exists.
    await labelTrackers(trx, done, at);
    const shipment = toShipment(ctx, done);
    if (row.is_return === 0) {
      const shipped: OrdersTable = { ...order, status: 'shipped', shipment_id: row.id, updated_at: at };
      await trx.updateTable('orders').set({ status: 'shipped', shipment_id: row.id, updated_at: at }).where('id', '=', row.order_id).execute();
      await recordEvent(trx, ownerOf(row), 'shipment.created', shipment, at);
      await recordEvent(trx, ownerOf(row), 'order.updated', toOrder(shipped), at);
    } else {
      await recordEvent(trx, ownerOf(row), 'shipment.created', shipment, at);
    }
    await ctx.answer?.(trx, shipment);
    return shipment;
  });
  // The label is stored: its hold is captured now, or by the settle job if Stripe does not answer.
  if (heldAtPurchase(row)) await settleCardChargeNow(ctx, row.id);
  return shipment;
}

/**
 * Finishes a purchase a crash or a time-out left pending: asks the carrier again with the same idempotency key
 * (getting the label it may already have sold) and completes it; if the carrier refuses, the purchase is marked
 * failed and the order is free again. A carrier that does not honour the key is never asked again, as asking
 * could sell a second label: the purchase is abandoned (the order free again) and says where to look.
 */
export async function finishPending(ctx: Context, row: ShipmentsTable): Promise<Shipment> {
  const carrier = await carrierForShipment(ctx, row);
  if (carrier.idempotentPurchase(purchaseRequest(row))) {
    await holdPostage(ctx, row);
    return buyAndComplete(ctx, carrier, row);
  }
  const detail = `${carrier.name} did not answer the purchase, and asking it again could sell a second label. If it sold one, it was not charged here and shipd cannot void it: look in the ${carrier.name} account's shipping history for a label bought at ${row.created_at} for order ${row.order_id}, and void it there`;
  await failPurchase(ctx, row, detail, 'abandoned');
  throw new ApiError('carrier_error', `The purchase ${row.id} failed: ${detail}`);
}

/** The reconcile job: every purchase left pending past its time, finished or marked failed. */
export async function reconcilePending(ctx: Omit<Context, 'principal'>, log: { info(o: object, m: string): void; error(o: object, m: string): void }): Promise<number> {
  const before = new Date(ctx.clock.now().getTime() - pendingStaleMs(ctx)).toISOString();
  // The status as a literal: only then can the planner see that the query keeps to the partial index of pending rows.
  const rows = await ctx.db
    .selectFrom('shipments')
    .selectAll()
    .where('status', '=', sql.lit('pending'))
    .where('updated_at', '<=', before)
    .orderBy('updated_at')
    .limit(100)
    .execute();
  for (const row of rows) {
    const owner = { ...ctx, ...ownerOf(row) } as Context;
    try {
      const shipment = await finishPending(owner, row);
      log.info({ shipment: shipment.id, tracking: shipment.tracking_number }, 'finished a purchase left pending');
    } catch (err) {
      log.error({ shipment: row.id, err }, 'could not finish a purchase left pending');
    }
  }
  return rows.length;
}

