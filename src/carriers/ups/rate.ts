import { currencyOf } from '../live/currency.ts';
import { failure, ok, type CarrierResult, type Quote, type RateRequest } from '../carrier.ts';
import { carrierCatalog } from '../catalog.ts';
import { asArray, asCents, asNumber, asString, at } from '../live/lenient.ts';
import { deliveryDate } from '../sim/calendar.ts';
import { apiVersion, isoDate, upsAddress, upsDate, upsName, upsPackageMeasures, type UpsCall } from './wire.ts';

export const upsServices = carrierCatalog.find((c) => c.id === 'ups')!.services;

/**
 * UPS's published transit commitments in business days, for a RatedShipment that carries neither time in transit
 * nor a guarantee. Ground's is its longest domestic commitment, so the estimate errs late rather than early.
 */
const fallbackDays: Readonly<Record<string, number>> = { '01': 1, '13': 1, '14': 1, '02': 2, '12': 3, '03': 5 };

/**
 * One Shop-with-time-in-transit call rates every service (carriers.md 2.3); DeliveryTimeInformation is what
 * makes UPS include the arrival dates.
 */
export function buildRateRequest(r: RateRequest, accountNumber: string | undefined): UpsCall {
  return {
    path: `/api/rating/${apiVersion}/Shoptimeintransit`,
    body: {
      RateRequest: {
        Request: { TransactionReference: { CustomerContext: 'shipd rate' } },
        Shipment: {
          Shipper: { Name: upsName(r.from), ...(accountNumber ? { ShipperNumber: accountNumber } : {}), Address: upsAddress(r.from, false) },
          ShipFrom: { Name: upsName(r.from), Address: upsAddress(r.from, false) },
          ShipTo: { Name: upsName(r.to), Address: upsAddress(r.to, true) },
          ...(accountNumber ? { PaymentDetails: { ShipmentCharge: [{ Type: '01', BillShipper: { AccountNumber: accountNumber } }] } } : {}),
          NumOfPieces: '1',
          Package: [{ PackagingType: { Code: '02' }, ...upsPackageMeasures(r.parcel) }],
          // Account rates exist only for a shipper number; without one UPS answers published rates alone.
          ...(accountNumber ? { ShipmentRatingOptions: { NegotiatedRatesIndicator: '' } } : {}),
          DeliveryTimeInformation: { PackageBillType: '03', Pickup: { Date: upsDate(r.shipDate) } },
        },
      },
    },
  };
}

/** A quote, null for a service outside our catalog, or what was wrong with the entry. */
function quoteFor(rated: unknown, r: RateRequest): Quote | null | { problem: string } {
  const code = asString(at(rated, 'Service', 'Code'));
  const service = upsServices.find((s) => s.code === code);
  if (!service) return null;
  const listCents = asCents(at(rated, 'TotalCharges', 'MonetaryValue'));
  if (listCents === undefined) return { problem: `service ${code} has no TotalCharges.MonetaryValue` };
  const negotiated = asCents(at(rated, 'NegotiatedRateCharges', 'TotalCharge', 'MonetaryValue'));
  const summary = at(rated, 'TimeInTransit', 'ServiceSummary');
  const arrival = isoDate(at(summary, 'EstimatedArrival', 'Arrival', 'Date'));
  const days =
    asNumber(at(summary, 'EstimatedArrival', 'BusinessDaysInTransit')) ??
    asNumber(at(rated, 'GuaranteedDelivery', 'BusinessDaysInTransit')) ??
    fallbackDays[service.code]!;
  const guaranteedTag = at(summary, 'GuaranteedIndicator');
  return {
    carrier: 'ups',
    service: service.code,
    // Shop answers leave Service.Description empty (carriers.md 2.3), so the name comes from our catalog.
    serviceName: service.name,
    amountCents: negotiated ?? listCents,
    listAmountCents: listCents,
    currency: currencyOf(at(rated, 'TotalCharges', 'CurrencyCode')),
    billableWeightLb: asNumber(at(rated, 'BillingWeight', 'Weight')) ?? r.parcel.weightLb,
    zone: asString(at(rated, 'Zone')) ?? '',
    deliveryDays: days,
    estimatedDeliveryDate: arrival ?? isoDate(at(rated, 'GuaranteedDelivery', 'ScheduledDeliveryDate')) ?? deliveryDate(r.shipDate, days),
    guaranteed: guaranteedTag !== undefined || at(rated, 'GuaranteedDelivery') !== undefined,
  };
}

/** RatedShipment may be one object on older versions (carriers.md 2.2); services outside our catalog are dropped. */
export function parseRateResponse(json: unknown, r: RateRequest): CarrierResult<Quote[]> {
  const response = at(json, 'RateResponse');
  if (response === undefined || typeof response !== 'object') return failure('carrier_error', 'UPS rate answer has no RateResponse');
  const quotes: Quote[] = [];
  for (const rated of asArray(at(response, 'RatedShipment'))) {
    const q = quoteFor(rated, r);
    if (q === null) continue;
    if ('problem' in q) return failure('carrier_error', `UPS rate answer: ${q.problem}`);
    if (r.services && !r.services.includes(q.service)) continue;
    quotes.push(q);
  }
  if (quotes.length === 0) return failure('service_unavailable', 'UPS offers none of the requested services for this shipment');
  return ok(quotes);
}
