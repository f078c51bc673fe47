import { evenShares } from '../../kernel/shares.ts';
import { hash } from 'node:crypto';
import type { CarrierId } from '../../config.ts';
import { isDomestic, isResidential, type Carrier, type ParcelSpec, type Quote, type RateRequest } from '../../carriers/carrier.ts';
import { callCarriers } from '../carrier-accounts/carrier-call.ts';
import { serviceValueRefusal } from '../../carriers/carrier-limits.ts';
import { holdLocationRefusal, optionAsks, optionRefusal, servicesAbroadOf } from '../../carriers/options.ts';
import { domesticServices } from '../../carriers/catalog.ts';
import type { ShipmentOptions } from '../../schemas/options.ts';
import { checkOptions, holdPartyErrors, pinnedServiceErrors, storedOptions } from '../shipments/delivery-options.ts';
import type { Address, AnyAddress } from '../../schemas/address.ts';
import type { Customs } from '../../schemas/customs.ts';
import type { Parcel } from '../../schemas/order.ts';
import { rateErrorCodes, type Rate, type RateError, type RateShop, type RateShopRequest } from '../../schemas/rate.ts';
import type { Surcharge } from '../../schemas/surcharge.ts';
import type { Context } from '../core/context.ts';
import type { FieldError } from '../../kernel/errors.ts';
import { orderParcels, ownOrderRow } from '../orders/orders.ts';
import type { Kysely } from 'kysely';
import type { DB, OrdersTable } from '../../db/schema.ts';
import { maxRatesPerShop, newRateShopIds } from './rate-ids.ts';
import { encodeRates } from './rate-store.ts';
import { amountIn, money } from '../core/money.ts';
import { boxesGiven, dimensionsInInches, weightInLb } from '../orders/parcels.ts';
import { failIfAny, field, packageIdFor, resolveBoxes, resolveShipFrom, type Box } from '../shipments/shipment-inputs.ts';
import { countryOf, normalizedAddress } from '../addresses/address-rules.ts';
import { buildDeclaration } from '../customs/declaration.ts';
import { declarationErrors } from '../customs/checks.ts';
import { checkOrderCrossing, crossingErrors, failIfAnyWithCustoms } from '../customs/crossing.ts';
import { itemsValue } from './items-value.ts';
import { shipDay } from '../shipments/ship-date.ts';
import { servedEnds } from './service-area.ts';
import { boxInsuredCents, failIfAllAboveLimit, insuranceOf, insurancePointer, insuredCents, type InsuranceAsk } from './insurance.ts';
import type { ResolvedPackage } from '../packages/packages.ts';

export const rateLifetimeMs = 24 * 3_600_000;

export function parcelSpec(parcel: Parcel, pkg?: ResolvedPackage): ParcelSpec {
  const d = pkg ? pkg.preset.dimensions : parcel.dimensions;
  return { weightLb: weightInLb(parcel.weight), ...(d && { dimensionsIn: dimensionsInInches(d) }), ...(parcel.reference && { reference: parcel.reference }) };
}

const addressParts = (a: AnyAddress) => [a.name, a.company, a.street1, a.street2, a.city, a.state, a.zip, a.residential];

/**
 * What a rate was quoted for; a purchase with this rate must be for the same. The fields are listed in a fixed
 * order, so the same shipment gives the same print whatever order its JSON came in. A shipment abroad or with a
 * declaration adds both countries and the declaration (its checked form, in its fixed field order), as the price
 * and the documents depend on them; a domestic one without a declaration prints as it always did.
 */
export function quoteFingerprint(from: AnyAddress, to: AnyAddress, parcel: Parcel, packageId: string | null, customs: Customs | null = null, moreBoxes: Box[] = []): string {
  const parts: unknown[] = [...addressParts(from), ...addressParts(to), ...boxParts(parcel, packageId)];
  // Each further box of a shipment of several, in its order; a one-box shipment prints as it always did.
  for (const box of moreBoxes) parts.push(boxParts(box.parcel, box.pkg?.preset.id ?? null));
  if (customs !== null || countryOf(from) !== 'US' || countryOf(to) !== 'US') parts.push(countryOf(from), countryOf(to), customs && customsParts(customs));
  return hash('sha256', JSON.stringify(parts), 'hex');
}

/** What a box is priced by: its weight, its size, its package and the value it is insured at, if it is. */
function boxParts(parcel: Parcel, packageId: string | null): unknown[] {
  const d = parcel.dimensions;
  const parts: unknown[] = [parcel.weight.value, parcel.weight.unit, d?.length, d?.width, d?.height, d?.unit, packageId];
  // Only an insured box adds its value: the print of a box without insurance is as it always was.
  const insured = boxInsuredCents(parcel);
  if (insured !== undefined) parts.push({ insured });
  return parts;
}

/** A declaration's fields in a fixed order, whatever order its JSON came in. */
function customsParts(c: Customs): unknown[] {
  const items = c.items.map((i) => [i.description, i.quantity, i.unit_value.amount, i.unit_value.currency, i.weight.value, i.weight.unit, i.hs_tariff_number, i.origin_country, i.sku]);
  return [c.contents_type, c.contents_explanation, c.non_delivery, c.incoterm, c.eel_pfc, c.aes_itn, c.invoice_number, c.signer, c.certify, items];
}

export interface ShipmentInputs {
  orderId: string | null;
  from: Address;
  /** Any country, from the US (servedEnds). */
  to: AnyAddress;
  /** Every box, 1 to 20, each in its package if it has one. */
  boxes: Box[];
  /** How the request or the order gives the boxes, for pointers at one of them: the one `parcel`, or `parcels`. */
  boxesAs: 'parcel' | 'parcels';
  /** The customs declaration, checked; null when the parcel crosses no customs border and none was given. */
  customs: Customs | null;
  /** What the order's line items are worth, when they state one currency; an order only. */
  goodsValue?: { amount: string; currency: string };
  /**
   * The value to insure the whole shipment for, in cents (the request's `insurance`), shared among the boxes; undefined
   * for none, the boxes then being insured each at its own `insurance`, if any.
   */
  insuredCents?: number;
}

/**
 * What an order ships: its addresses, its parcel in its package if it names one, and its customs declaration. An
 * order that crosses a customs border without a declaration, or to a recipient abroad without a phone, is refused
 * before any carrier is asked; then one to a country shipd does not serve yet.
 */
export async function orderInputs(db: Kysely<DB>, ctx: Context, row: OrdersTable): Promise<ShipmentInputs> {
  const errors: FieldError[] = [];
  if (row.parcel === null) failIfAny([field('/order_id', 'the order has no parcel; add one with PATCH /orders/{id}')]);
  const boxes = await resolveBoxes(db, ctx, orderParcels(row), row.package_id, errors, () => '/order_id');
  failIfAny(errors.map((e) => ({ ...e, pointer: '/order_id' })));
  const from: AnyAddress = JSON.parse(row.ship_from);
  const to: AnyAddress = JSON.parse(row.ship_to);
  const customs: Customs | null = row.customs === null ? null : JSON.parse(row.customs);
  const goodsValue = itemsValue(JSON.parse(row.items));
  checkOrderCrossing(row.id, from, to, customs, goodsValue);
  return { orderId: row.id, ...servedEnds(from, to, row.id), boxes, boxesAs: boxes.length === 1 ? 'parcel' : 'parcels', customs, ...(goodsValue && { goodsValue }) };
}

export function inputsFingerprint(inputs: ShipmentInputs): string {
  const [first, ...more] = inputs.boxes;
  return quoteFingerprint(inputs.from, inputs.to, first!.parcel, first!.pkg?.preset.id ?? null, inputs.customs, more);
}

/** The carrier's own box the shipment is in, when its boxes are (resolveBoxes keeps them all in one or none). */
export const carrierBoxOf = (inputs: Pick<ShipmentInputs, 'boxes'>) => inputs.boxes[0]!.pkg?.box;

/**
 * Each box's share of the value insured, in cents: the whole for one box; split evenly among several, the first
 * taking the odd cents, as carriers insure each package for its own declared value.
 */
export function insuredShares(cents: number | undefined, boxes: number): (number | undefined)[] {
  return cents === undefined ? Array.from({ length: boxes }, () => undefined) : evenShares(cents, boxes);
}

/** Each box's insured value, in cents: its share of the shipment's, else its own; undefined for a box not insured. */
export function boxesInsured(inputs: Pick<ShipmentInputs, 'boxes' | 'insuredCents'>): (number | undefined)[] {
  if (inputs.insuredCents !== undefined) return insuredShares(inputs.insuredCents, inputs.boxes.length);
  return inputs.boxes.map((b) => boxInsuredCents(b.parcel));
}

/** Where box `index` of the inputs is, in the request or the order that gives it. */
const boxAt = (inputs: Pick<ShipmentInputs, 'boxesAs'>, index: number) => (inputs.boxesAs === 'parcel' ? '/parcel' : `/parcels/${index}`);

/** What the shipment is asked to be insured at: the request's `insurance` for the whole, else each insured box's own. */
export function insuranceAsks(inputs: ShipmentInputs): InsuranceAsk[] {
  if (inputs.insuredCents !== undefined) return [{ cents: inputs.insuredCents, field: insurancePointer }];
  return inputs.boxes.flatMap((b, i) => {
    const cents = boxInsuredCents(b.parcel);
    return cents === undefined ? [] : [{ cents, field: `${boxAt(inputs, i)}/insurance/amount`, ...(inputs.orderId !== null && { orderId: inputs.orderId }) }];
  });
}

/**
 * The request's `insurance` insures the whole shipment, split among its boxes; a box's own insures that box. Both at
 * once would leave it unclear which value each box is insured at, so it is a 400 before any carrier is asked: at each
 * insured box where the request gives the boxes, else at the request's `insurance` (the order's boxes are its own).
 */
export function checkInsuranceOnce(inputs: ShipmentInputs, shipmentCents: number | undefined): void {
  if (shipmentCents === undefined) return;
  const insured = inputs.boxes.flatMap((b, i) => (b.parcel.insurance === undefined ? [] : [boxAt(inputs, i)]));
  if (insured.length === 0) return;
  if (inputs.orderId === null) {
    failIfAny(insured.map((at) => field(`${at}/insurance`, "give insurance for the whole shipment (the request's insurance, split evenly among the boxes) or for each box (its own insurance), not both")));
  }
  const own = insured.map((at) => `${at.slice(1)}/insurance`).join(', ');
  failIfAny([
    field(
      '/insurance',
      `order ${inputs.orderId} insures its boxes one by one (${own}); leave insurance out to insure each box as the order says, or remove the boxes' insurance with PATCH /orders/${inputs.orderId} to insure the shipment as a whole`,
    ),
  ]);
}

/** The inputs with no box insured: a return label comes back without the outbound boxes' insurance, as without the shipment's. */
export const withoutBoxInsurance = (inputs: ShipmentInputs): ShipmentInputs => ({
  ...inputs,
  boxes: inputs.boxes.map((b) => ({ ...b, parcel: withoutInsurance(b.parcel) })),
});

function withoutInsurance(parcel: Parcel): Parcel {
  const { insurance: _insurance, ...rest } = parcel;
  return rest;
}

/** The carrier-neutral request for these inputs, shipping at `shipDate` (ShipDay.at), with these delivery options. */
export function rateRequest(inputs: ShipmentInputs, shipDate: Date, services?: string[], options?: ShipmentOptions): RateRequest {
  const box = carrierBoxOf(inputs);
  const insured = boxesInsured(inputs);
  return {
    from: inputs.from,
    to: inputs.to,
    parcels: inputs.boxes.map((b, i) => ({ ...parcelSpec(b.parcel, b.pkg), ...(insured[i] !== undefined && { insuredCents: insured[i] }) })),
    shipDate,
    services,
    ...(options && optionAsks(options).length > 0 && { options }),
    ...(inputs.customs && { customs: inputs.customs }),
    ...(inputs.goodsValue && { goodsValue: inputs.goodsValue }),
    ...(box && { carrierBox: { id: box.id, ...(box.flatRate && { flatRate: box.flatRate }) } }),
  };
}

/** What a quote costs in US dollars, the currency shipd charges postage in; undefined where the carrier stated none. */
export function usdCents(q: Pick<Quote, 'amountCents' | 'currency' | 'usdAmountCents'>): number | undefined {
  return q.currency === 'USD' ? q.amountCents : q.usdAmountCents;
}

/**
 * Why none of the carrier's services asked for does every delivery option asked, or null when one does: such a
 * carrier is not asked at all.
 */
function optionsRefusal(carrier: Carrier, request: RateRequest): string | null {
  const asks = optionAsks(request.options);
  if (asks.length === 0) return null;
  const elsewhere = holdLocationRefusal(carrier, request.options);
  if (elsewhere && !elsewhere.ok) return elsewhere.error.detail;
  const abroad = !isDomestic(request);
  const going = abroad ? servicesAbroadOf(carrier.id) : domesticServices(carrier.id);
  const services = going.filter((s) => !request.services || request.services.includes(s.code));
  if (services.length === 0) return null;
  const refusals = services.map((s) => optionRefusal(carrier, s, asks, isResidential(request.to), abroad));
  if (refusals.some((r) => r === null)) return null;
  return [...new Set(refusals.map((r) => r!.detail))].join('; ');
}

/** Every carrier's quotes for the request, cheapest first, and the carriers that could not quote. */
export async function quoteAll(ctx: Context, chosen: Carrier[], request: RateRequest): Promise<{ quotes: Quote[]; errors: RateError[] }> {
  const errors: RateError[] = [];
  // A carrier that cannot do the options asked on any service is not asked; it is named in the errors.
  const asked = chosen.filter((c) => {
    const refused = optionsRefusal(c, request);
    if (refused) errors.push({ carrier: c.id, code: 'option_not_supported', detail: refused });
    return refused === null;
  });
  const answers = await callCarriers(asked, ctx.config.carrierTimeoutMs, (c, signal) => c.rate(request, signal));
  const quotes: Quote[] = [];
  const asks = optionAsks(request.options);
  const home = asks.length > 0 && isResidential(request.to);
  answers.forEach((answer, i) => {
    const carrier = asked[i]!;
    if (answer.ok) {
      const refusals: string[] = [];
      let byOption = false;
      for (const q of answer.value) {
        // A service that does not take the declared value, or an option asked, is not offered, whether the carrier
        // priced it or not.
        const optionRefused = asks.length > 0 ? (optionRefusal(carrier, { code: q.service, name: q.serviceName }, asks, home, !isDomestic(request))?.detail ?? null) : null;
        const refused = serviceValueRefusal(carrier, q.service, q.serviceName, request.customs) ?? optionRefused;
        if (optionRefused && refused === optionRefused) byOption = true;
        if (refused) refusals.push(refused);
        // One form of zone for every carrier: USPS writes "07" and UPS "008" where the others write "7".
        else quotes.push({ ...q, zone: q.zone.replace(/^0+(?=\d)/, '') });
      }
      if (refusals.length > 0 && refusals.length === answer.value.length) {
        errors.push({ carrier: carrier.id, code: byOption ? 'option_not_supported' : 'not_serviced', detail: refusals.join('; ') });
      }
    } else {
      const code = (rateErrorCodes as readonly string[]).includes(answer.error.code) ? (answer.error.code as RateError['code']) : 'carrier_error';
      errors.push({ carrier: carrier.id, code, detail: answer.error.detail });
    }
  });
  // Compared in US dollars; a quote the carrier stated no USD price for sorts last. A quote without a transit time
  // sorts after those with one at the same price.
  quotes.sort((a, b) => (usdCents(a) ?? Infinity) - (usdCents(b) ?? Infinity) || (a.deliveryDays ?? Infinity) - (b.deliveryDays ?? Infinity));
  return { quotes, errors };
}

async function resolveInputs(ctx: Context, input: RateShopRequest): Promise<ShipmentInputs> {
  const errors: FieldError[] = [];
  if (input.order_id) {
    for (const name of ['ship_from', 'ship_from_id', 'ship_to', 'parcel', 'parcels', 'package_id', 'customs'] as const) {
      if (input[name] !== undefined) errors.push(field(`/${name}`, 'give order_id or the shipment itself, not both'));
    }
    failIfAny(errors);
    return orderInputs(ctx.db, ctx, await ownOrderRow(ctx.db, ctx, input.order_id, false));
  }
  if (!input.ship_to) errors.push(field('/ship_to', 'is required without order_id'));
  if (!input.parcel && !input.parcels) errors.push(field('/parcel', "is required without order_id (or parcels): at least its weight, as package_id or the account's default package gives only the size"));
  const to = input.ship_to ? normalizedAddress(input.ship_to, '/ship_to', errors) : undefined;
  const given = boxesGiven(input, errors) ?? [];
  const packageId = given.length === 1 ? await packageIdFor(ctx.db, ctx, input.package_id, given[0]) : input.package_id;
  const boxes = await resolveBoxes(ctx.db, ctx, given, packageId, errors, (i) => (input.parcels ? `/parcels/${i}` : '/parcel'));
  const from = await resolveShipFrom(ctx.db, ctx, input, errors);
  const customs = input.customs ? (buildDeclaration(input.customs, undefined, '/customs', errors) ?? null) : null;
  if (customs && to) errors.push(...declarationErrors(customs, { to, parcel: given[0], parcels: given }, '/customs'));
  if (from.address && to) errors.push(...crossingErrors(from.address, to, input.customs !== undefined, { customs: '/customs', to: '/ship_to' }));
  failIfAnyWithCustoms(errors, '/customs');
  return { orderId: null, ...servedEnds(from.address!, to!, null), boxes, boxesAs: input.parcels ? 'parcels' : 'parcel', customs };
}

/**
 * Shops the carriers in parallel and stores every quote, in one row of one batched write, so any of them can be
 * bought by id for 24 hours. A carrier that fails or runs out of time becomes an entry in `errors`; it never fails the call.
 */
export async function shopRates(ctx: Context, carriers: Record<CarrierId, Carrier>, input: RateShopRequest): Promise<RateShop> {
  const insured = insuredCents(input.insurance);
  const inputs: ShipmentInputs = { ...(await resolveInputs(ctx, input)), ...(insured !== undefined && { insuredCents: insured }) };
  checkInsuranceOnce(inputs, insured);
  checkOptions(input.options, inputs.boxes.map((b) => b.parcel));
  // The sender comes from the request's ship_from, else from a location (ship_from_id or the account's default).
  failIfAny(holdPartyErrors(input.options, inputs.from, inputs.to, (side, f) => (inputs.orderId ? '/order_id' : side === 'ship_to' || input.ship_from ? `/${side}/${f}` : '/ship_from_id')));
  const box = carrierBoxOf(inputs);
  if (box && input.carriers && !input.carriers.includes(box.carrier)) {
    failIfAny([field('/carriers', `${inputs.boxes[0]!.pkg!.preset.name} ships only with ${box.carrier}`)]);
  }
  // A carrier's own box ships only with that carrier.
  let chosen = (box ? [box.carrier] : (input.carriers ?? (Object.keys(carriers) as CarrierId[]))).map((id) => carriers[id]);
  if (input.services) {
    const wanted = input.services;
    const known = new Set(chosen.flatMap((c) => c.services.map((s) => s.code)));
    failIfAny(wanted.flatMap((s, i) => (known.has(s) ? [] : [field(`/services/${i}`, `"${s}" is not a service of ${chosen.map((c) => c.name).join(', ')}`)])));
    // A carrier none of whose services was asked for is not asked, nor reported as offering none.
    chosen = chosen.filter((c) => c.services.some((s) => wanted.includes(s.code)));
    failIfAny(pinnedServiceErrors(chosen, wanted, input.options, isResidential(inputs.to), !isDomestic(inputs)));
  }
  const now = ctx.clock.now();
  const ship = shipDay(inputs.from, now, input.ship_date);
  const options = input.options ?? {};
  const { quotes, errors } = await quoteAll(ctx, chosen, rateRequest(inputs, ship.at, input.services, options));
  failIfAllAboveLimit(quotes.length, errors, insuranceAsks(inputs));
  const createdAt = now.toISOString();
  const expiresAt = new Date(now.getTime() + rateLifetimeMs).toISOString();
  const print = inputsFingerprint(inputs);
  const ids = newRateShopIds(now.getTime());
  const kept = quotes.slice(0, maxRatesPerShop);
  const numbered: Rate[] = kept.map((q, i) => ({
    id: ids.rateId(i),
    object: 'rate',
    carrier: q.carrier,
    service: q.service,
    service_name: q.serviceName,
    amount: amountIn(q.amountCents, q.currency),
    list_amount: amountIn(q.listAmountCents, q.currency),
    ...(q.usdAmountCents !== undefined && { amount_usd: money(q.usdAmountCents) }),
    surcharges: rateSurcharges(q),
    billable_weight: { value: q.billableWeightLb, unit: 'lb' },
    zone: q.zone,
    delivery_days: q.deliveryDays,
    estimated_delivery_date: q.estimatedDeliveryDate,
    guaranteed: q.guaranteed,
    expires_at: expiresAt,
  }));

  if (numbered.length > 0) {
    await ctx.rateStore.save({
      rate_key: ids.rateKey,
      id: ids.shopId,
      owner_key_id: ctx.principal.keyId,
      mode: ctx.principal.mode,
      order_id: inputs.orderId,
      inputs_fingerprint: print,
      ship_date: input.ship_date ?? null,
      options: storedOptions(options),
      insured_cents: insured ?? null,
      rates: encodeRates(kept),
      created_at: createdAt,
      expires_at: expiresAt,
    });
  }
  return { id: ids.shopId, object: 'rate_shop', order_id: inputs.orderId, insurance: insuranceOf(insured), ship_date: ship.day, options, rates: numbered, errors, created_at: createdAt };
}

/** A quote's surcharges as rates and shipments show them, in the quote's currency. */
export const rateSurcharges = (q: Pick<Quote, 'surcharges' | 'currency'>): Surcharge[] => q.surcharges.map((s) => ({ type: s.type, amount: amountIn(s.amountCents, q.currency) }));
