import { failure, ok, type CarrierResult, type Quote, type RateRequest } from '../carrier.ts';
import { carrierCatalog } from '../catalog.ts';
import { asArray, asCents, asNumber, asString, at } from '../live/lenient.ts';
import { deliveryDate } from '../sim/calendar.ts';
import { asFlag, datePart, splitZip, uspsDimensions, ymd } from './fields.ts';

export const ratePath = '/shipments/v3/options/search';

const services = carrierCatalog.find((c) => c.id === 'usps')!.services;

/**
 * Rate indicators of USPS's flat-rate containers (carriers.md 3.2 lists FE, FS, FB and PL; FA and FP are the legal
 * and padded envelopes): the search prices those alongside the parcel's own rate, and a parcel in its own box
 * cannot have them.
 */
const flatRateIndicators = new Set(['FE', 'FS', 'FB', 'PL', 'FA', 'FP']);

/**
 * One Shipping Options search for every outbound mail class with delivery commitments (carriers.md 3.2 option B),
 * priced twice: RETAIL for the list price and COMMERCIAL for what the account pays.
 */
export function buildRateRequest(r: RateRequest): Record<string, unknown> {
  return {
    originZIPCode: splitZip(r.from.zip).ZIPCode,
    destinationZIPCode: splitZip(r.to.zip).ZIPCode,
    destinationEntryFacilityType: 'NONE',
    packageDescription: {
      weight: r.parcel.weightLb,
      ...uspsDimensions(r.parcel),
      mailClass: 'ALL_OUTBOUND',
      mailingDate: ymd(r.shipDate),
    },
    pricingOptions: [{ priceType: 'RETAIL' }, { priceType: 'COMMERCIAL' }],
  };
}

interface Priced {
  cents: number;
  option: unknown;
  firstRate: unknown;
}

const daysInName = /(\d+)\s*-?\s*Day/i;

/** Business days from the ship date to a YYYY-MM-DD delivery date, as the simulators count them. */
function businessDaysUntil(shipDate: Date, date: string): number | undefined {
  for (let days = 0; days <= 30; days++) if (deliveryDate(shipDate, days) >= date) return days;
  return undefined;
}

function quoteFrom(code: string, prices: { retail?: Priced; commercial?: Priced }, r: RateRequest): Quote | undefined {
  const chosen = (prices.commercial ?? prices.retail)!;
  const commitment = at(chosen.option, 'commitment');
  const named = asString(at(commitment, 'name'))?.match(daysInName);
  const date = datePart(at(commitment, 'expectedDeliveryDate')) ?? datePart(at(commitment, 'scheduleDeliveryDate'));
  const days = named ? Number(named[1]) : date ? businessDaysUntil(r.shipDate, date) : undefined;
  // A quote promises a delivery day; an option USPS gives no commitment for cannot be quoted honestly.
  if (days === undefined) return undefined;
  const weight = asNumber(at(chosen.firstRate, 'weight')) ?? r.parcel.weightLb;
  const dimWeight = asNumber(at(chosen.firstRate, 'dimWeight')) ?? asNumber(at(chosen.firstRate, 'dimensionalWeight')) ?? 0;
  return {
    carrier: 'usps',
    service: code,
    serviceName: services.find((s) => s.code === code)!.name,
    amountCents: chosen.cents,
    listAmountCents: (prices.retail ?? chosen).cents,
    currency: 'USD',
    billableWeightLb: Math.max(weight, dimWeight),
    zone: asString(at(chosen.firstRate, 'zone')) ?? '',
    deliveryDays: days,
    estimatedDeliveryDate: date ?? deliveryDate(r.shipDate, days),
    guaranteed: asFlag(at(commitment, 'guaranteedDelivery')) ?? false,
  };
}

/**
 * `pricingOptions[].shippingOptions[].rateOptions[]`, any level of which may come as a single object. Per mail
 * class in our catalog (and in request.services), the cheapest non-flat-rate option of each price type.
 */
export function parseRates(json: unknown, r: RateRequest): CarrierResult<Quote[]> {
  const pricingOptions = asArray(at(json, 'pricingOptions'));
  if (pricingOptions.length === 0) return failure('carrier_error', 'USPS answered the rate search without pricingOptions');
  const wanted = services.map((s) => s.code).filter((c) => !r.services || r.services.includes(c));
  const found = new Map<string, { retail?: Priced; commercial?: Priced }>();
  for (const po of pricingOptions) {
    for (const so of asArray(at(po, 'shippingOptions'))) {
      const mailClass = asString(at(so, 'mailClass'));
      if (!mailClass || !wanted.includes(mailClass)) continue;
      for (const option of asArray(at(so, 'rateOptions'))) {
        const firstRate = asArray(at(option, 'rates'))[0];
        const indicator = asString(at(firstRate, 'rateIndicator'));
        if (indicator && flatRateIndicators.has(indicator)) continue;
        const cents = asCents(at(option, 'totalBasePrice')) ?? asCents(at(firstRate, 'price'));
        if (cents === undefined) continue;
        const priceType = asString(at(po, 'priceType')) ?? asString(at(firstRate, 'priceType'));
        const slot = priceType === 'RETAIL' ? 'retail' : 'commercial';
        const prices = found.get(mailClass) ?? {};
        if (!prices[slot] || cents < prices[slot].cents) prices[slot] = { cents, option, firstRate };
        found.set(mailClass, prices);
      }
    }
  }
  const quotes = wanted.flatMap((code) => {
    const prices = found.get(code);
    const quote = prices && quoteFrom(code, prices, r);
    return quote ? [quote] : [];
  });
  if (quotes.length === 0) return failure('service_unavailable', `USPS offered none of ${wanted.join(', ')} for this parcel and route`);
  return ok(quotes);
}
