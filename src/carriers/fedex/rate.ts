import { currencyOf } from '../live/currency.ts';
import { failure, ok, type CarrierResult, type DomesticRateRequest, type ParcelSpec, type Quote, type RateRequest } from '../carrier.ts';
import type { ServiceInfo } from '../catalog.ts';
import { asArray, asCents, asNumber, asString, at } from '../live/lenient.ts';
import { deliveryDate } from '../sim/calendar.ts';
import { includedSurcharges } from '../surcharges.ts';
import { committedDays } from './commitments.ts';
import { fedexSurcharges } from './surcharges.ts';
import { fedexDate, fedexDeclaredValue, fedexDimensions, rateAddress } from './party.ts';
import { isResidential } from '../carrier.ts';
import { packageSpecialServices, shipmentSpecialServices } from './special-services.ts';

export const ratePath = '/rate/v1/rates/quotes';

/** Services FedEx backs with a money-back delivery commitment; Ground and Home Delivery give estimates only. */
const guaranteedServices = new Set(['FEDEX_EXPRESS_SAVER', 'FEDEX_2_DAY', 'FEDEX_2_DAY_AM', 'STANDARD_OVERNIGHT', 'PRIORITY_OVERNIGHT', 'FIRST_OVERNIGHT']);

/** FedEx's transit enum words (ONE_DAY … TWENTY_DAYS) as numbers; UNKNOWN and anything else is absent. */
const transitWords = [
  'ONE', 'TWO', 'THREE', 'FOUR', 'FIVE', 'SIX', 'SEVEN', 'EIGHT', 'NINE', 'TEN',
  'ELEVEN', 'TWELVE', 'THIRTEEN', 'FOURTEEN', 'FIFTEEN', 'SIXTEEN', 'SEVENTEEN', 'EIGHTEEN', 'NINETEEN', 'TWENTY',
];

export function transitDays(word: unknown): number | undefined {
  const n = asNumber(word);
  if (n !== undefined) return n;
  const m = /^([A-Z]+)_DAYS?$/.exec(asString(word)?.toUpperCase() ?? '');
  const i = m ? transitWords.indexOf(m[1]!) : -1;
  return i >= 0 ? i + 1 : undefined;
}

/**
 * One call for every service: no serviceType is FedEx's rate shop (carriers.md 4.3). A return's shipper is the
 * customer sending it back (request.from) and its recipient the merchant (request.to), as on the label. The delivery
 * options go as special services, so the quote prices them. Several boxes are one line item each, with its own
 * weight, size and declared value, and totalPackageCount, "the total number of packages in the shipment" (at most 100
 * in a rate request, beyond shipd's 20): FedEx prices the whole shipment in one answer.
 */
export function buildRateRequest(request: DomesticRateRequest, accountNumber: string) {
  return {
    accountNumber: { value: accountNumber },
    rateRequestControlParameters: { returnTransitTimes: true },
    requestedShipment: {
      shipper: { address: rateAddress(request.from, isResidential(request.from)) },
      recipient: { address: rateAddress(request.to, isResidential(request.to)) },
      pickupType: 'DROPOFF_AT_FEDEX_LOCATION',
      packagingType: 'YOUR_PACKAGING',
      rateRequestType: ['ACCOUNT', 'LIST'],
      shipDateStamp: fedexDate(request.shipDate),
      ...shipmentSpecialServices(request.options, request.isReturn, request.parcels.length),
      totalPackageCount: request.parcels.length,
      requestedPackageLineItems: request.parcels.map((parcel) => {
        const dimensions = fedexDimensions(parcel.dimensionsIn);
        return {
          weight: { units: 'LB', value: parcel.weightLb },
          ...(dimensions ? { dimensions } : {}),
          ...fedexDeclaredValue(parcel, 'declaredValue'),
          ...packageSpecialServices(request.options, 'rate'),
        };
      }),
    },
  };
}

/** Weekdays from the ship date to a delivery date, for answers that give the date but not the days. */
function weekdaysBetween(from: Date, toIso: string): number {
  const end = Date.parse(`${toIso}T00:00:00Z`);
  const d = new Date(Date.UTC(from.getUTCFullYear(), from.getUTCMonth(), from.getUTCDate()));
  let days = 0;
  while (d.getTime() < end) {
    d.setUTCDate(d.getUTCDate() + 1);
    if (d.getUTCDay() !== 0 && d.getUTCDay() !== 6) days++;
  }
  return days;
}

const isoDay = (v: unknown): string | undefined => {
  const s = asString(v);
  return s && /^\d{4}-\d{2}-\d{2}/.test(s) ? s.slice(0, 10) : undefined;
};

/** The shipment's billing weight as FedEx states it; else each box's weight rounded up to the pound, summed. */
function billableLb(detail: unknown, parcels: readonly ParcelSpec[]): number {
  const weight = at(detail, 'shipmentRateDetail', 'totalBillingWeight');
  const value = asNumber(at(weight, 'value'));
  if (value === undefined) return parcels.reduce((sum, p) => sum + Math.ceil(p.weightLb), 0);
  return asString(at(weight, 'units'))?.toUpperCase() === 'KG' ? Math.ceil(value * 2.20462) : value;
}

/**
 * The rate API's ratedShipmentDetails[].rateType (RateQuotes-Resource.json RatedShipmentDetail: ACCOUNT, ACTUAL,
 * CURRENT, CUSTOM, LIST, INCENTIVE, PREFERRED, PREFERRED_INCENTIVE, PREFERRED_CURRENCY; its reply has no
 * actualRateType, which only the ship reply carries): the account's price is the ACCOUNT entry, else the ACTUAL one,
 * else the LIST price the account would pay without a discount. PREFERRED* entries are the same price converted to
 * a preferred currency and INCENTIVE a one-time discount: neither is the price of the label.
 */
const accountRateTypes = ['ACCOUNT', 'ACTUAL', 'LIST'];

/** The currency of a rated detail: the document puts it in shipmentRateDetail; answers also carry it beside the charges. */
const detailCurrency = (detail: unknown) => at(detail, 'shipmentRateDetail', 'currency') ?? at(detail, 'currency');

/** The rateTypes of the entries a PREFERRED request adds: the account's rates restated in the preferred currency. */
const preferredRateTypes = ['PREFERRED', 'PREFERRED_CURRENCY'];

/**
 * The account's price in US dollars, as FedEx states it: its preferred-currency entry in USD, else the account
 * entry's own exchange rate into USD (shipmentRateDetail.currencyExchangeRate, `rate` converting fromCurrency units
 * into intoCurrency units). Undefined where FedEx states neither: a price is never converted at a rate of our own.
 */
function usdCents(details: unknown[], account: unknown, currency: string): number | undefined {
  const preferred = details.find((d) => preferredRateTypes.includes(asString(at(d, 'rateType'))?.toUpperCase() ?? '') && currencyOf(detailCurrency(d)) === 'USD');
  const stated = asCents(at(preferred, 'totalNetCharge'));
  if (stated !== undefined) return stated;
  const exchange = at(account, 'shipmentRateDetail', 'currencyExchangeRate');
  const rate = asNumber(at(exchange, 'rate'));
  if (currencyOf(at(exchange, 'fromCurrency')) !== currency || currencyOf(at(exchange, 'intoCurrency')) !== 'USD' || !rate || rate <= 0) return undefined;
  return Math.round(asCents(at(account, 'totalNetCharge'))! * rate);
}

/**
 * output.rateReplyDetails[] as quotes for our catalog's services, filtered by request.services. The account price
 * is what the caller pays and the list price the retail one; a service with only one of them uses it for both.
 * A priced service without transit data is given the days FedEx commits to for it (commitments.ts). Each rated
 * detail is the whole shipment's (its totalNetCharge and surcharges sum every box), so several boxes need no adding up.
 */
export function parseRateResponse(json: unknown, request: RateRequest, catalog: readonly ServiceInfo[]): CarrierResult<Quote[]> {
  const replies = at(json, 'output', 'rateReplyDetails');
  if (replies === undefined) return failure('carrier_error', 'FedEx answered the rate request without output.rateReplyDetails');
  const quotes: Quote[] = [];
  for (const reply of asArray(replies)) {
    const code = asString(at(reply, 'serviceType'));
    const service = catalog.find((s) => s.code === code);
    if (!service || (request.services && !request.services.includes(service.code))) continue;
    const details = asArray(at(reply, 'ratedShipmentDetails'));
    const priced = (type: string) => details.find((d) => asString(at(d, 'rateType'))?.toUpperCase() === type && asCents(at(d, 'totalNetCharge')) !== undefined);
    const account = accountRateTypes.map(priced).find((d) => d !== undefined);
    if (!account) continue;
    const list = priced('LIST') ?? account;
    const currency = currencyOf(detailCurrency(account));
    // A list price in another currency than the account's is no list price of this quote.
    const listCents = currencyOf(detailCurrency(list)) === currency ? asCents(at(list, 'totalNetCharge'))! : asCents(at(account, 'totalNetCharge'))!;
    const usd = currency === 'USD' ? undefined : usdCents(details, account, currency);
    const zone = asString(at(account, 'shipmentRateDetail', 'rateZone')) ?? asString(at(list, 'shipmentRateDetail', 'rateZone'));
    const commitDate = isoDay(at(reply, 'commit', 'dateDetail', 'dayFormat')) ?? isoDay(at(reply, 'operationalDetail', 'deliveryDate'));
    const days =
      transitDays(at(reply, 'commit', 'transitDays', 'minimumTransitTime')) ??
      transitDays(at(reply, 'operationalDetail', 'transitTime')) ??
      transitDays(at(reply, 'commit', 'daysInTransit')) ??
      (commitDate ? weekdaysBetween(request.shipDate, commitDate) : undefined) ??
      committedDays(service.code, zone);
    if (days === undefined) continue;
    const amountCents = asCents(at(account, 'totalNetCharge'))!;
    quotes.push({
      carrier: 'fedex',
      service: service.code,
      serviceName: service.name,
      amountCents,
      listAmountCents: listCents,
      currency,
      ...(usd !== undefined && { usdAmountCents: usd }),
      billableWeightLb: billableLb(account, request.parcels),
      zone: zone ?? '',
      deliveryDays: days,
      estimatedDeliveryDate: commitDate ?? deliveryDate(request.shipDate, days),
      guaranteed: guaranteedServices.has(service.code),
      surcharges: includedSurcharges(amountCents, fedexSurcharges(account)),
    });
  }
  if (quotes.length === 0) return failure('service_unavailable', 'FedEx offers none of the requested services for this parcel and destination');
  return ok(quotes);
}
