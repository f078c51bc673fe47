import { failure, isResidential, ok, type CarrierErrorCode, type CarrierFailure, type CarrierResult, type PickupLookup, type PickupRef, type PickupRequest } from '../carrier.ts';
import type { Address } from '../../schemas/address.ts';
import { asArray, asCents, asString, at } from '../live/lenient.ts';
import { upsErrors, upsFailure } from './errors.ts';
import { upsCountryOf } from './puerto-rico.ts';
import { randomUUID } from 'node:crypto';
import { transactionSrc, upsName, type UpsCall } from './wire.ts';

// UPS's Pickup API, from Pickup.yaml in UPS-API/api-documentation at commit cf813de955d5c052563d6fc387e59597a7ea816e
// (2026-04-15); test/contracts/ups/pickup.ts holds our schemas of it. On-call pickups only: rate
// (POST /shipments/{version}/pickup/oncall), creation (POST /pickupcreation/{version}/pickup), cancel by PRN
// (DELETE /shipments/{version}/pickup/02) and pending status (GET /shipments/{version}/pickup/oncall).

/** The one version Pickup.yaml lists for each of these paths. */
export const pickupVersion = 'v2409';

/**
 * PickupPiece.ServiceCode, three digits: the spec's example pairs 001 with Next Day Air and 012 with 3 Day Select,
 * the Shipping API's 01 and 12 behind a 0. shipd's pickup request names no service per parcel, so every parcel is
 * declared as UPS Ground's (03); the driver collects whatever is labelled.
 */
const groundPiece = '003';

/** PickupPiece.Quantity: "Max per service: 999". */
export const upsPickupMaxPieces = 999;

/** transId ("unique to the request", 32 characters) and transactionSrc: optional here, sent for UPS's logs as with every UPS call. */
const transaction = () => ({ transId: randomUUID().replaceAll('-', ''), transactionSrc });

/** HHmm, as PickupDateInfo's times are given, from our HH:MM. */
const hhmm = (t: string): string => t.replace(':', '');
const yyyymmdd = (d: string): string => d.replaceAll('-', '');

/**
 * TotalWeight.Weight: "One decimal digit is allowed" and a length of exactly 6, so tenths of a pound zero-padded as
 * Rating.yaml's 8-character money is; rounded up, so the driver is never told of less than he lifts.
 */
export function pickupWeight(lb: number): string {
  return (Math.ceil(Number((lb * 10).toFixed(6))) / 10).toFixed(1).padStart(6, '0');
}

function rateAddress(a: Address) {
  return {
    AddressLine: a.street1.slice(0, 73),
    City: a.city.slice(0, 50),
    StateProvince: a.state.toUpperCase(),
    PostalCode: a.zip.replace('-', '').slice(0, 8),
    CountryCode: upsCountryOf(a),
    ResidentialIndicator: isResidential(a) ? 'Y' : 'N',
  };
}

/**
 * PickupRateRequest for an on-call pickup on a specific day (ServiceDateOption 03, which needs PickupDateInfo): the
 * pickup address is given, so it is an alternate address to the account's profile (AlternateAddressIndicator Y).
 */
export function buildPickupRateRequest(r: PickupRequest, accountNumber: string | undefined): UpsCall {
  return {
    path: `/api/shipments/${pickupVersion}/pickup/oncall`,
    headers: transaction(),
    body: {
      PickupRateRequest: {
        Request: { TransactionReference: { CustomerContext: r.reference } },
        ...(accountNumber && { ShipperAccount: { AccountNumber: accountNumber, AccountCountryCode: 'US' } }),
        PickupAddress: rateAddress(r.address),
        AlternateAddressIndicator: 'Y',
        ServiceDateOption: '03',
        PickupDateInfo: { ReadyTime: hhmm(r.window.start), CloseTime: hhmm(r.window.end), PickupDate: yyyymmdd(r.date) },
      },
    },
  };
}

/**
 * The charge is RateResult.GrandTotalOfAllCharge, in RateResult.CurrencyCode; shipd charges in US dollars, so a
 * price in another currency is refused rather than relabelled.
 */
export function parsePickupRateResponse(json: unknown): CarrierResult<{ amountCents: number } | null> {
  const result = at(json, 'PickupRateResponse', 'RateResult');
  if (result === undefined) return failure('carrier_error', 'UPS pickup rate answer has no PickupRateResponse.RateResult');
  const currency = asString(at(result, 'CurrencyCode'));
  const cents = asCents(at(result, 'GrandTotalOfAllCharge'));
  if (cents === undefined) return failure('carrier_error', 'UPS pickup rate answer has no GrandTotalOfAllCharge');
  if (currency !== 'USD') return failure('carrier_error', `UPS priced the pickup in ${currency ?? 'no currency'}; shipd charges in USD`);
  return ok(cents === 0 ? null : { amountCents: cents });
}

/**
 * PickupCreationRequest for an on-call pickup, paid by the shipper account (PaymentMethod 01, which needs
 * Shipper.Account): UPS bills the platform's account and shipd charges the client the quoted price. Not rated again
 * (RatePickupIndicator N): the rate call priced it. Our pickup id goes in ReferenceNumber (35 characters at most), which
 * the pending status answers back, so a booking whose answer was lost is found by it.
 */
export function buildPickupCreationRequest(r: PickupRequest, accountNumber: string): CarrierResult<UpsCall> {
  const a = r.address;
  if (!a.phone) return failure('address_invalid', 'UPS needs a phone number at the pickup address (PickupAddress.Phone is required); add one to the address or the location');
  if (r.parcels.count > upsPickupMaxPieces) return failure('pickup_unavailable', `UPS takes at most ${upsPickupMaxPieces} parcels of a service in one pickup; book several`);
  const phone = a.phone.replace(/[^0-9]/g, '').slice(0, 25);
  return ok({
    path: `/api/pickupcreation/${pickupVersion}/pickup`,
    headers: transaction(),
    body: {
      PickupCreationRequest: {
        Request: { TransactionReference: { CustomerContext: r.reference } },
        RatePickupIndicator: 'N',
        Shipper: { Account: { AccountNumber: accountNumber, AccountCountryCode: 'US' } },
        PickupDateInfo: { ReadyTime: hhmm(r.window.start), CloseTime: hhmm(r.window.end), PickupDate: yyyymmdd(r.date) },
        PickupAddress: {
          CompanyName: upsName(a).slice(0, 27).trim(),
          ContactName: (a.name ?? a.company ?? a.street1).slice(0, 22).trim(),
          // "Only one AddressLine is allowed": a second street line goes on the same line.
          AddressLine: [[a.street1, a.street2].filter(Boolean).join(' ').slice(0, 73)],
          City: a.city.slice(0, 50),
          StateProvince: a.state.toUpperCase(),
          PostalCode: a.zip.replace('-', '').slice(0, 8),
          CountryCode: upsCountryOf(a),
          ResidentialIndicator: isResidential(a) ? 'Y' : 'N',
          Phone: { Number: phone },
        },
        AlternateAddressIndicator: 'Y',
        PickupPiece: [{ ServiceCode: groundPiece, Quantity: String(r.parcels.count), DestinationCountryCode: 'US', ContainerCode: '01' }],
        TotalWeight: { Weight: pickupWeight(r.parcels.weightLb), UnitOfMeasurement: 'LBS' },
        // "Indicates if at least any package is over 70 lbs": certain when the parcels weigh more than 70 lb each on average.
        OverweightIndicator: r.parcels.weightLb / r.parcels.count > 70 ? 'Y' : 'N',
        PaymentMethod: '01',
        ...(r.instructions && { SpecialInstruction: r.instructions.slice(0, 57) }),
        ReferenceNumber: r.reference,
      },
    },
  });
}

/** PRN: "Same PRN will be returned if a pickup request already exists for a pickup address/ point". */
export function parsePickupCreationResponse(json: unknown): CarrierResult<{ confirmationNumber: string }> {
  const response = at(json, 'PickupCreationResponse');
  if (response === undefined) return failure('carrier_error', 'UPS pickup answer has no PickupCreationResponse');
  const prn = asString(at(response, 'PRN'));
  if (!prn) return failure('carrier_error', 'UPS pickup answer has no PRN');
  return ok({ confirmationNumber: prn });
}

/** Cancel by PRN: the path's CancelBy is 02 and the PRN goes in the Prn header. */
export function buildPickupCancelRequest(pickup: PickupRef): UpsCall {
  return { path: `/api/shipments/${pickupVersion}/pickup/02`, headers: { ...transaction(), Prn: pickup.confirmationNumber } };
}

/** ResponseStatus.Code "1=Success"; the answer says nothing of charges, only the PickupType cancelled. */
export function parsePickupCancelResponse(json: unknown): CarrierResult<void> {
  const code = asString(at(json, 'PickupCancelResponse', 'Response', 'ResponseStatus', 'Code'));
  if (code === '1') return ok(undefined);
  const said = asString(at(json, 'PickupCancelResponse', 'Response', 'ResponseStatus', 'Description'));
  return failure('carrier_error', `UPS did not cancel the pickup${said ? `: ${said}` : ''}`);
}

/** Pending status of the account's on-call pickups: the AccountNumber header is required. */
export function buildPendingStatusRequest(accountNumber: string): UpsCall {
  return { path: `/api/shipments/${pickupVersion}/pickup/oncall`, headers: { ...transaction(), AccountNumber: accountNumber } };
}

/**
 * The pending pickup booked with our reference for that day, by its PendingStatus entry's ReferenceNumber and
 * ServiceDate. UPS lists only today's and tomorrow's ("will only display incomplete status for today and tomorrow
 * only"): a booking further ahead is not found here, and is found instead by booking again, which answers the same
 * PRN for the same address.
 */
export function parsePendingStatusResponse(json: unknown, lookup: PickupLookup): CarrierResult<{ confirmationNumber: string } | null> {
  const response = at(json, 'PickupPendingStatusResponse');
  if (response === undefined) return failure('carrier_error', 'UPS pending status answer has no PickupPendingStatusResponse');
  const found = asArray(at(response, 'PendingStatus')).find(
    (p) => asString(at(p, 'ReferenceNumber')) === lookup.reference && asString(at(p, 'ServiceDate')) === yyyymmdd(lookup.date),
  );
  const prn = found ? asString(at(found, 'PRN')) : undefined;
  return ok(prn ? { confirmationNumber: prn } : null);
}

/**
 * UPS publishes no list of the Pickup API's error codes in Pickup.yaml (its Errors page is a link), so a refusal is
 * read by what it says, in the terms of the spec's own rules: a close time before the "Earliest Allowed Customer
 * Close Time", a window shorter than the "LeadTime", a ready time past the "CallByTime" are the window's fault; a place
 * or day UPS does not serve is no pickup at all.
 */
const pickupWords: readonly (readonly [RegExp, CarrierErrorCode])[] = [
  [/call ?by ?time|close ?time|ready ?time|lead ?time|cut-?off|too late/i, 'outside_pickup_window'],
  [/not available|no (pickup )?service|not serviced|unavailable|cannot be scheduled|not offered/i, 'pickup_unavailable'],
];

export function upsPickupFailure(status: number, json: unknown, what: string): CarrierFailure {
  const general = upsFailure(status, json, what);
  if (status === 401 || status === 403 || status === 429 || status >= 500) return general;
  for (const e of upsErrors(json)) {
    const match = pickupWords.find(([re]) => re.test(e.message));
    if (match) return { code: match[1], detail: general.detail };
  }
  return general;
}
