import { failure, ok, type CarrierResult, type DomesticRateRequest, type Quote, type RateRequest } from '../carrier.ts';
import { domesticServices } from '../catalog.ts';
import { asArray, asCents, asNumber, asString, at } from '../live/lenient.ts';
import { deliveryDate } from '../sim/calendar.ts';
import { asFlag, datePart, processingCategory, rateIndicator, splitZip, uspsDimensions, ymd } from './fields.ts';
import { returnClassOf, serviceOfReturnClass } from './mail-classes.ts';
import { includedSurcharges } from '../surcharges.ts';
import { uspsFees } from './surcharges.ts';
import { allCodes, extraServiceSurcharges, extrasToPrice, noExtras, pricesEvery, uspsExtras } from './extra-services.ts';

export const ratePath = '/shipments/v3/options/search';

const services = domesticServices('usps');

/**
 * One Shipping Options search (carriers.md 3.2 option B) for the first parcel of `r`: for every outbound mail class
 * (`ALL_OUTBOUND`), or every return class (`ALL_RETURNS`) when `returns`, or for `service`'s class alone, priced
 * twice: RETAIL for the list price and COMMERCIAL for what the account pays. The parcel goes with the same size the
 * label will send (fields.ts uspsDimensions), insured as the label will be, and, for a `service`, with the extra
 * services its options are on that service (extra-services.ts): codes differ between classes (921 and Priority Mail
 * Express's 981), so a search with options names its class.
 */
export function buildRateRequest(r: DomesticRateRequest, returns = r.isReturn === true, service?: string): Record<string, unknown> {
  const parcel = r.parcels[0]!;
  const extras = (service !== undefined && uspsExtras(service, r.options)) || noExtras;
  const mailClass = service === undefined ? (returns ? 'ALL_RETURNS' : 'ALL_OUTBOUND') : returns ? (returnClassOf(service) ?? service) : service;
  return {
    originZIPCode: splitZip(r.from.zip).ZIPCode,
    destinationZIPCode: splitZip(r.to.zip).ZIPCode,
    destinationEntryFacilityType: 'NONE',
    packageDescription: {
      weight: parcel.weightLb,
      ...uspsDimensions(parcel),
      mailClass,
      mailingDate: ymd(r.shipDate),
      ...extrasToPrice(parcel, extras),
    },
    pricingOptions: [{ priceType: 'RETAIL' }, { priceType: 'COMMERCIAL' }],
  };
}

interface Priced {
  cents: number;
  option: unknown;
  firstRate: unknown;
  /** The extra service codes asked of it. */
  codes: number[];
}

const daysInName = /(\d+)\s*-?\s*Day/i;

/** Business days from the ship date to a YYYY-MM-DD delivery date, as the simulators count them. */
function businessDaysUntil(shipDate: Date, date: string): number | undefined {
  for (let days = 0; days <= 30; days++) if (deliveryDate(shipDate, days) >= date) return days;
  return undefined;
}

/**
 * What an option costs: the base postage of each of its rates with their fees (a nonstandard length fee, for
 * one) and the extra services asked (insurance, a signature…), or USPS's own total when it is higher (`totalPrice`
 * when extra services were asked, else `totalBasePrice`, "the price of the rate, fees, and pound postage";
 * shipping-options.yaml 3.1.29 RateOptions).
 */
function optionCents(option: unknown, codes: readonly number[]): number | undefined {
  const rates = asArray(at(option, 'rates'));
  const extras = extraServiceSurcharges(option, codes).map((s) => s.amountCents);
  const parts = [...rates.flatMap((rate) => [asCents(at(rate, 'price')), ...asArray(at(rate, 'fees')).map((f) => asCents(at(f, 'price')) ?? 0)]), ...extras];
  const summed = rates.length > 0 && parts.every((p) => p !== undefined) ? (parts as number[]).reduce((a, b) => a + b, 0) : undefined;
  const stated = asCents(at(option, 'totalPrice')) ?? asCents(at(option, 'totalBasePrice'));
  const known = [summed, stated].filter((c): c is number => c !== undefined);
  return known.length > 0 ? Math.max(...known) : undefined;
}

/**
 * Whether every rate of the option is what the label will buy: rate indicator SP and the parcel's processing
 * category (ship.ts sends both). Flat-rate boxes and envelopes, APO/FPO boxes, cubic tiers and the rest are other
 * products at other prices, which a parcel in its own box is not sold at.
 */
function buyable(option: unknown, category: string): boolean {
  const rates = asArray(at(option, 'rates'));
  return (
    rates.length > 0 &&
    rates.every((rate) => {
      const stated = asString(at(rate, 'processingCategory'));
      return asString(at(rate, 'rateIndicator')) === rateIndicator && (stated === undefined || stated === category);
    })
  );
}

function commitmentOf(option: unknown, r: RateRequest): { days: number; date: string | undefined; guaranteed: boolean } | undefined {
  const commitment = at(option, 'commitment');
  const named = asString(at(commitment, 'name'))?.match(daysInName);
  const date = datePart(at(commitment, 'expectedDeliveryDate')) ?? datePart(at(commitment, 'scheduleDeliveryDate'));
  const days = named ? Number(named[1]) : date ? businessDaysUntil(r.shipDate, date) : undefined;
  return days === undefined ? undefined : { days, date, guaranteed: asFlag(at(commitment, 'guaranteedDelivery')) ?? false };
}

function quoteFrom(code: string, prices: { retail?: Priced; commercial?: Priced }, r: RateRequest, commitments: Map<string, unknown>): Quote | undefined {
  const chosen = (prices.commercial ?? prices.retail)!;
  const promised = commitmentOf(chosen.option, r) ?? commitmentOf(commitments.get(code), r);
  // A quote promises a delivery day; an option USPS gives no commitment for cannot be quoted honestly.
  if (!promised) return undefined;
  const weight = asNumber(at(chosen.firstRate, 'weight')) ?? r.parcels[0]!.weightLb;
  const dimWeight = asNumber(at(chosen.firstRate, 'dimWeight')) ?? asNumber(at(chosen.firstRate, 'dimensionalWeight')) ?? 0;
  return {
    carrier: 'usps',
    service: code,
    serviceName: services.find((s) => s.code === code)!.name,
    amountCents: chosen.cents,
    listAmountCents: (prices.retail ?? chosen).cents,
    // USPS states no currency; its prices are in US dollars, the only currency of its domestic price lists.
    currency: 'USD',
    billableWeightLb: Math.max(weight, dimWeight),
    zone: asString(at(chosen.firstRate, 'zone')) ?? '',
    deliveryDays: promised.days,
    estimatedDeliveryDate: promised.date ?? deliveryDate(r.shipDate, promised.days),
    guaranteed: promised.guaranteed,
    surcharges: includedSurcharges(chosen.cents, [...uspsFees(chosen.option), ...extraServiceSurcharges(chosen.option, chosen.codes)]),
  };
}

/** `pricingOptions[].shippingOptions[]`, any level of which may come as a single object. */
function shippingOptions(json: unknown): { priceType: string | undefined; mailClass: string; options: unknown[] }[] {
  return asArray(at(json, 'pricingOptions')).flatMap((po) =>
    asArray(at(po, 'shippingOptions')).flatMap((so) => {
      const mailClass = asString(at(so, 'mailClass'));
      return mailClass ? [{ priceType: asString(at(po, 'priceType')), mailClass, options: asArray(at(so, 'rateOptions')) }] : [];
    }),
  );
}

/**
 * USPS gives return classes no delivery commitment ("return delivery will vary based upon when the return item is
 * entered into the mailstream", shipping-options.yaml 3.1.29); a return quote takes the commitment USPS gives the
 * same class outbound on the same route, from an `ALL_OUTBOUND` search of it.
 */
export function parseCommitments(json: unknown): Map<string, unknown> {
  const found = new Map<string, unknown>();
  for (const { mailClass, options } of shippingOptions(json)) {
    const promised = options.find((o) => at(o, 'commitment') !== undefined);
    if (promised && !found.has(mailClass)) found.set(mailClass, promised);
  }
  return found;
}

/**
 * Per mail class in our catalog (and in request.services) that does the options asked, the cheapest buyable option
 * of each price type that prices every extra service they are on it, for the first parcel of `r`. A return search
 * answers in return classes, quoted under the outbound code they return.
 */
export function parseRates(json: unknown, r: RateRequest, commitments: Map<string, unknown> = new Map()): CarrierResult<Quote[]> {
  if (asArray(at(json, 'pricingOptions')).length === 0) return failure('carrier_error', 'USPS answered the rate search without pricingOptions');
  const wanted = services.map((s) => s.code).filter((c) => (!r.services || r.services.includes(c)) && uspsExtras(c, r.options) !== undefined);
  const found = new Map<string, { retail?: Priced; commercial?: Priced }>();
  for (const { priceType, mailClass, options } of shippingOptions(json)) {
    const code = r.isReturn ? serviceOfReturnClass(mailClass) : mailClass;
    if (!code || !wanted.includes(code)) continue;
    const extras = uspsExtras(code, r.options)!;
    const category = processingCategory(r.parcels[0]!, extras.nonstandard);
    const codes = allCodes(r.parcels[0]!, extras);
    for (const option of options) {
      if (!buyable(option, category) || !pricesEvery(option, extras.codes)) continue;
      const cents = optionCents(option, codes);
      if (cents === undefined) continue;
      const firstRate = asArray(at(option, 'rates'))[0];
      const slot = (priceType ?? asString(at(firstRate, 'priceType'))) === 'RETAIL' ? 'retail' : 'commercial';
      const prices = found.get(code) ?? {};
      if (!prices[slot] || cents < prices[slot].cents) prices[slot] = { cents, option, firstRate, codes };
      found.set(code, prices);
    }
  }
  const quotes = wanted.flatMap((code) => {
    const prices = found.get(code);
    const quote = prices && quoteFrom(code, prices, r, commitments);
    return quote ? [quote] : [];
  });
  if (quotes.length === 0) return failure('service_unavailable', `USPS offered none of ${wanted.join(', ')} ${r.isReturn ? 'as a return ' : ''}for this parcel and route`);
  return ok(quotes);
}
