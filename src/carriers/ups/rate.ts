import { currencyOf } from '../live/currency.ts';
import { failure, ok, type CarrierResult, type DomesticRateRequest, type FoundLocation, type Quote, type RateRequest } from '../carrier.ts';
import { carrierCatalog } from '../catalog.ts';
import { asArray, asCents, asNumber, asString, at } from '../live/lenient.ts';
import { deliveryDate } from '../sim/calendar.ts';
import { includedSurcharges } from '../surcharges.ts';
import { upsSurcharges } from './surcharges.ts';
import { upsAccessPointHold } from './access-point.ts';
import { fitAddressLines, upsLines } from './address-lines.ts';
import { crossesUpsCountries, puertoRicoInvoiceTotal, upsPuertoRicoRefusal } from './puerto-rico.ts';
import { upsPackage, upsReturnOptionsRefusal, upsShipmentServiceOptions } from './service-options.ts';
import { apiVersion, isoDate, rateRequestHeader, printReturnLabel, servicesWithoutReturns, upsAddress, upsDate, upsName, type UpsCall } from './wire.ts';

export const upsServices = carrierCatalog.find((c) => c.id === 'ups')!.services;

/**
 * UPS's published transit commitments in business days, for a RatedShipment that carries neither time in transit
 * nor a guarantee. Ground's is its longest domestic commitment, so the estimate errs late rather than early. The
 * Worldwide services and Standard to Canada and Mexico have none published by country: without UPS's own figure
 * such a quote has no delivery estimate, as test mode's quotes abroad have none.
 */
const fallbackDays: Readonly<Record<string, number>> = { '01': 1, '13': 1, '14': 1, '02': 2, '12': 3, '03': 5 };

/**
 * One Shop-with-time-in-transit call rates every service; DeliveryTimeInformation is what makes UPS include the
 * arrival dates. A return is rated as UPS will bill it: the merchant (`to`) is the Shipper whose account pays,
 * the customer ships from `from`, and ShipmentServiceOptions.ReturnService says Print Return Label (Rating.yaml).
 * Between Puerto Rico and the rest of the US UPS sees two countries, so it needs InvoiceLineTotal (puerto-rico.ts).
 * Several boxes are one Package each ("Package … maximum: 200"): UPS rates them as one shipment, whose RatedShipment
 * totals every box. Rating's Package has no ReferenceNumber, so the boxes' references go with the ship request only.
 * `accessPoint`: the UPS Access Point the parcel is held at, rated as Rating.yaml's AlternateDeliveryAddress.
 */
export function buildRateRequest(r: DomesticRateRequest, accountNumber: string | undefined, accessPoint?: FoundLocation): CarrierResult<UpsCall> {
  const refused = upsPuertoRicoRefusal('ups', r) ?? upsReturnOptionsRefusal(r);
  if (refused) return refused;
  const lines = fitAddressLines({ origin: r.from, destination: r.to }, upsLines.shipping);
  if (!lines.ok) return lines;
  const shipper = r.isReturn ? r.to : r.from;
  const shipperLines = r.isReturn ? lines.value.destination : lines.value.origin;
  return ok({
    path: `/api/rating/${apiVersion}/Shoptimeintransit`,
    body: {
      RateRequest: {
        Request: rateRequestHeader,
        Shipment: {
          Shipper: { Name: upsName(shipper), ...(accountNumber ? { ShipperNumber: accountNumber } : {}), Address: upsAddress(shipper, shipperLines, false) },
          ShipFrom: { Name: upsName(r.from), Address: upsAddress(r.from, lines.value.origin, false) },
          ShipTo: { Name: upsName(r.to), Address: upsAddress(r.to, lines.value.destination, true) },
          ...(accessPoint ? upsAccessPointHold(accessPoint, r.to, 'rating') : {}),
          ...(accountNumber ? { PaymentDetails: { ShipmentCharge: [{ Type: '01', BillShipper: { AccountNumber: accountNumber } }] } } : {}),
          NumOfPieces: String(r.parcels.length),
          Package: r.parcels.map((parcel) => ({ PackagingType: { Code: '02' }, ...upsPackage(parcel, 'rating', r.options) })),
          ...upsShipmentServiceOptions(r.options, r.isReturn ? { ReturnService: printReturnLabel } : {}),
          // Account rates exist only for a shipper number; without one UPS answers published rates alone.
          ...(accountNumber ? { ShipmentRatingOptions: { NegotiatedRatesIndicator: '' } } : {}),
          DeliveryTimeInformation: { PackageBillType: '03', Pickup: { Date: upsDate(r.shipDate) } },
          ...(crossesUpsCountries(r) ? { InvoiceLineTotal: puertoRicoInvoiceTotal(r) } : {}),
        },
      },
    },
  });
}

/** An amount with the currency UPS stated beside it: a figure is never read without its own CurrencyCode. */
interface Charge {
  cents: number;
  currency: string;
}

function chargeAt(charge: unknown): Charge | undefined {
  const cents = asCents(at(charge, 'MonetaryValue'));
  return cents === undefined ? undefined : { cents, currency: currencyOf(at(charge, 'CurrencyCode')) };
}

/** A quote, null for a service outside our catalog or not sold as a return, or what was wrong with the entry. */
function quoteFor(rated: unknown, r: RateRequest): Quote | null | { problem: string } {
  const code = asString(at(rated, 'Service', 'Code'));
  const service = upsServices.find((s) => s.code === code);
  if (!service || (r.isReturn && servicesWithoutReturns.has(service.code))) return null;
  const list = chargeAt(at(rated, 'TotalCharges'));
  if (list === undefined) return { problem: `service ${code} has no TotalCharges.MonetaryValue` };
  const negotiated = chargeAt(at(rated, 'NegotiatedRateCharges', 'TotalCharge'));
  // Quote.currency is the currency of both amounts; two currencies in one entry cannot be one quote.
  if (negotiated && negotiated.currency !== list.currency) {
    return { problem: `service ${code} has its account rate in ${negotiated.currency} and its published rate in ${list.currency}` };
  }
  const summary = at(rated, 'TimeInTransit', 'ServiceSummary');
  const arrival = isoDate(at(summary, 'EstimatedArrival', 'Arrival', 'Date'));
  const days =
    asNumber(at(summary, 'EstimatedArrival', 'BusinessDaysInTransit')) ??
    asNumber(at(rated, 'GuaranteedDelivery', 'BusinessDaysInTransit')) ??
    fallbackDays[service.code] ??
    null;
  const guaranteedTag = at(summary, 'GuaranteedIndicator');
  const amountCents = (negotiated ?? list).cents;
  return {
    carrier: 'ups',
    service: service.code,
    // Shop answers leave Service.Description empty, so the name comes from our catalog.
    serviceName: service.name,
    amountCents,
    listAmountCents: list.cents,
    currency: list.currency,
    billableWeightLb: asNumber(at(rated, 'BillingWeight', 'Weight')) ?? r.parcels.reduce((sum, p) => sum + p.weightLb, 0),
    zone: asString(at(rated, 'Zone')) ?? '',
    deliveryDays: days,
    estimatedDeliveryDate: arrival ?? isoDate(at(rated, 'GuaranteedDelivery', 'ScheduledDeliveryDate')) ?? (days === null ? null : deliveryDate(r.shipDate, days)),
    guaranteed: guaranteedTag !== undefined || at(rated, 'GuaranteedDelivery') !== undefined,
    surcharges: includedSurcharges(amountCents, upsSurcharges(rated, negotiated !== undefined, list.currency)),
  };
}

/**
 * Of two entries for one service, the dearer one: a label bought for that service code is billed at one of them
 * and shipd cannot choose which, so quoting the dearer never promises less than UPS will charge. On equal prices
 * the first entry stays.
 */
const keeps = (kept: Quote, other: Quote): boolean => kept.amountCents >= other.amountCents;

/** RatedShipment may be one object on older versions; services outside our catalog are dropped; one quote per service. */
export function parseRateResponse(json: unknown, r: RateRequest): CarrierResult<Quote[]> {
  const response = at(json, 'RateResponse');
  if (response === undefined || typeof response !== 'object') return failure('carrier_error', 'UPS rate answer has no RateResponse');
  const quotes = new Map<string, Quote>();
  for (const rated of asArray(at(response, 'RatedShipment'))) {
    const q = quoteFor(rated, r);
    if (q === null) continue;
    if ('problem' in q) return failure('carrier_error', `UPS rate answer: ${q.problem}`);
    if (r.services && !r.services.includes(q.service)) continue;
    const earlier = quotes.get(q.service);
    if (!earlier || !keeps(earlier, q)) quotes.set(q.service, q);
  }
  if (quotes.size === 0) return failure('service_unavailable', 'UPS offers none of the requested services for this shipment');
  return ok([...quotes.values()]);
}
