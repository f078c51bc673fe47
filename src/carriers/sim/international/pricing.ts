import { failure, ok, type CarrierErrorCode, type CarrierResult, type ParcelSpec } from '../../carrier.ts';
import { billableWeightLb, nearestInch } from '../billable-weight.ts';
import type { IntlPrice, IntlPriceList, IntlRequest, IntlService, IntlSurcharge, IntlSurchargeType, SizeCharge } from './types.ts';

type Refusal = { code: CarrierErrorCode; detail: string };

/**
 * Prices an international parcel from a U.S. origin with each service of a carrier's published list that serves the
 * destination: transport from the zone's table at the billable weight, the list's surcharges, and fuel on transport
 * and the fuel-bearing surcharges. The account pays its own published price where the list has one (USPS
 * commercial), else the list price less `accountDiscount`; surcharges at list, fuel on what it pays. A service the
 * list cannot price for this destination or parcel is left out; when none is left, the answer says why for each.
 */
export function priceInternational(list: IntlPriceList, request: IntlRequest, accountDiscount: number): CarrierResult<IntlPrice[]> {
  const prices: IntlPrice[] = [];
  const refusals: Refusal[] = [];
  for (const service of list.services) {
    if (request.services && !request.services.includes(service.code)) continue;
    const priced = priceService(list, service, request, accountDiscount);
    if ('refused' in priced) refusals.push(priced.refused);
    else prices.push(priced.price);
  }
  if (prices.length > 0) return ok(prices);
  if (refusals.length === 0) {
    return failure('service_unavailable', `${carrierName(list)} test mode has no published table for ${request.services?.join(', ') ?? 'any international service'}: see the ${list.source}`);
  }
  // One code for the answer: not served only when no service serves the destination; else what stopped those that do.
  const code = refusals.find((r) => r.code === 'parcel_too_large')?.code ?? refusals.find((r) => r.code !== 'not_serviced')?.code ?? 'not_serviced';
  return failure(code, refusals.map((r) => r.detail).join('; '));
}

function priceService(list: IntlPriceList, service: IntlService, request: IntlRequest, discount: number): { price: IntlPrice } | { refused: Refusal } {
  const name = `${carrierName(list)} ${service.name}`;
  const where = list.zone(service.code, request.to);
  if ('refused' in where) return { refused: { code: 'not_serviced', detail: `${name}: ${where.refused}` } };
  const { zone } = where;
  const { parcel } = request;
  const maxLb = Math.min(service.maxWeightLb, list.countryMaxWeightLb?.(service.code, request.to) ?? Infinity);
  if (parcel.weightLb > maxLb) {
    return { refused: { code: 'parcel_too_large', detail: `${name} takes parcels of at most ${maxLb} lb to ${request.to.country}` } };
  }
  const size = sizeCharge(list, parcel);
  const weight = Math.max(service.dimensional ? billableWeightLb(parcel, list.dim) : parcel.weightLb, size?.minBillableLb ?? 0);
  const transport = transportCents(service, zone, weight);
  if (!transport) {
    return { refused: { code: 'service_unavailable', detail: `${name}: the ${list.source} has no price for ${weight} lb to ${zoneWord(list)} ${zone}` } };
  }
  const account = transport.account ?? Math.round(transport.list * (1 - discount));

  const charges: { type: IntlSurchargeType; cents: number }[] = [];
  if (service.residentialCents && request.to.residential && (list.residential?.(service.code, request.to) ?? true)) {
    charges.push({ type: 'residential', cents: service.residentialCents });
  }
  if (size) charges.push({ type: size.type, cents: size.cents });
  charges.push(...(list.destinationCharges?.(service.code, request.to, parcel.weightLb) ?? []));

  const fuelBase = charges.filter((c) => list.fuelBearing.includes(c.type)).reduce((sum, c) => sum + c.cents, 0);
  const surcharges: IntlSurcharge[] = charges.map((c) => ({ type: c.type, amountCents: c.cents, listAmountCents: c.cents }));
  if (service.fuel > 0) {
    surcharges.push({
      type: 'fuel',
      amountCents: Math.round((account + fuelBase) * service.fuel),
      listAmountCents: Math.round((transport.list + fuelBase) * service.fuel),
    });
  }
  const sum = (pick: (s: IntlSurcharge) => number) => surcharges.reduce((total, s) => total + pick(s), 0);
  return {
    price: {
      service: service.code,
      serviceName: service.name,
      zone,
      billableWeightLb: transport.atLb,
      amountCents: account + sum((s) => s.amountCents),
      listAmountCents: transport.list + sum((s) => s.listAmountCents),
      surcharges,
    },
  };
}

/** The published cell for this weight: the first step not below it, or the per-pound price beyond the last step. */
function transportCents(service: IntlService, zone: string, weightLb: number): { list: number; account?: number; atLb: number } | undefined {
  const row = service.list[zone];
  if (!row) return undefined;
  const i = service.upToLb.findIndex((step) => weightLb <= step + 1e-9);
  if (i >= 0) {
    const list = row[i];
    return list === undefined ? undefined : { list, account: service.account?.[zone]?.[i], atLb: service.upToLb[i]! };
  }
  const perPound = service.perPoundAbove?.[zone];
  if (perPound === undefined) return undefined;
  const lb = Math.ceil(weightLb - 1e-9);
  return { list: perPound * lb, atLb: lb };
}

/** Oversize, else the higher of the additional handling charges that apply; the weight it makes the package bill at. */
function sizeCharge(list: IntlPriceList, parcel: ParcelSpec): { type: IntlSurchargeType; cents: number; minBillableLb: number } | undefined {
  const d = parcel.dimensionsIn;
  const [longest, second, third] = d ? ([d.length, d.width, d.height].map(nearestInch).sort((a, b) => b - a) as [number, number, number]) : [0, 0, 0];
  const measures = { longest, second, lengthPlusGirth: longest + 2 * (second + third), cubic: longest * second * third, weight: parcel.weightLb };
  const bySize = (c: SizeCharge) =>
    over(measures.longest, c.longestIn) || over(measures.second, c.secondLongestIn) || over(measures.lengthPlusGirth, c.lengthPlusGirthIn) || over(measures.cubic, c.cubicIn);
  const drawn = (c: SizeCharge) => bySize(c) || over(measures.weight, c.actualWeightLb);
  if (list.oversize && drawn(list.oversize)) {
    return { type: 'oversize', cents: list.oversize.cents, minBillableLb: bySize(list.oversize) ? (list.oversize.sizeMinBillableLb ?? 0) : 0 };
  }
  const ah = list.additionalHandling;
  if (!ah) return undefined;
  const applying = [ah.size, ah.weight].filter(drawn);
  if (applying.length === 0) return undefined;
  return {
    type: 'additional_handling',
    cents: Math.max(...applying.map((c) => c.cents)),
    minBillableLb: Math.max(...applying.map((c) => (bySize(c) ? (c.sizeMinBillableLb ?? 0) : 0))),
  };
}

const over = (value: number, limit: number | undefined) => limit !== undefined && value > limit;

const carrierName = (list: IntlPriceList) => ({ ups: 'UPS', usps: 'USPS', fedex: 'FedEx' })[list.carrier];

const zoneWord = (list: IntlPriceList) => (list.carrier === 'usps' ? 'price group' : 'zone');
