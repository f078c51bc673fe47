import type { Address } from '../../schemas/address.ts';
import { failure, ok, type CarrierErrorCode, type CarrierFailure, type CarrierResult, type PickupAvailability, type PickupRef, type PickupRequest } from '../carrier.ts';
import { asArray, asString, at } from '../live/lenient.ts';
import { groundServices } from './end-of-day.ts';
import { fedexErrors, fedexFailure } from './errors.ts';
import { contactNames, fedexAddress, usPhone } from './party.ts';

// FedEx's Pickup Request API 1.0.0, as kept in ShipStream/fedex-rest-php-sdk
// resources/models/.raw/pickup-request/v1/Pickup-Resource.json (commit bc94dcd2c7254f105842125a3eb671c3f614d072,
// 2025-10-17): Create Pickup (Full_Schema_Create_Pickup, PickupOriginDetail, CreatePickupOutputVO), Check Pickup
// Availability (Full_Schema_Pickup_Availability, PickupAvailabilityOutputVO, PickupScheduleOption) and Cancel Pickup
// (Full_Schema_Cancel_Pickup, CancelPickupOutputVO).

export const pickupPath = '/pickup/v1/pickups';
export const availabilityPath = '/pickup/v1/pickups/availabilities';
export const cancelPickupPath = '/pickup/v1/pickups/cancel';

/** "Maximum length is 60 characters" (remarks, on create and cancel). */
const remarksMax = 60;

/** FedEx's operating companies a pickup names: its Express and Ground drivers are dispatched apart. */
export type FedexCarrierCode = 'FDXE' | 'FDXG';

/**
 * What a cancel needs beyond the confirmation number and date, kept with the pickup: the operating company
 * (carrierCode, "Required for FedEx Ground") and the Express location that answered the booking ("required to cancel
 * a FedEx Express dispatch").
 */
export interface FedexPickupData extends Record<string, string> {
  carrierCode: FedexCarrierCode;
  location: string;
}

/**
 * Errors the document publishes for these calls, and what each is for us: a day already gone is outside the window
 * FedEx takes; a pickup of a day gone can no longer be cancelled. The others (PICKUP.POSTALCODE.MISSING among them,
 * an address fault by its name) read as every FedEx call's.
 */
const pickupErrors: Readonly<Record<string, CarrierErrorCode>> = {
  'PICKUP.REQUESTED.PREVIOUS.DAY': 'outside_pickup_window',
  'PICKUP.NUMBER.EXPIRED': 'outside_pickup_window',
};

/** A refusal of one of the pickup calls as our failure. */
export function pickupFailure(status: number, json: unknown): CarrierFailure {
  const first = fedexErrors(json)[0];
  const mapped = first && pickupErrors[first.code.toUpperCase()];
  if (mapped) return { code: mapped, detail: `FedEx: ${first.code}${first.message ? `: ${first.message}` : ''}` };
  return fedexFailure(status, json);
}

/**
 * The driver the labels need: Ground for FedEx Ground and Home Delivery labels, Express for the rest and where no label
 * is named (the API's default company). Both at once are two dispatches at FedEx, so they are refused as one pickup.
 */
export function pickupCarrierCode(services: readonly string[]): CarrierResult<FedexCarrierCode> {
  const ground = services.filter((s) => groundServices.has(s));
  if (ground.length > 0 && ground.length < services.length) {
    return failure('not_serviced', 'FedEx sends its Express and Ground drivers apart: schedule one pickup for the Ground labels and another for the Express ones');
  }
  return ok(ground.length > 0 ? 'FDXG' : 'FDXE');
}

/** The pickup location party: where the driver comes and whom to ask for (PickupLocationParty: address and contact). */
function pickupLocation(a: Address): CarrierResult<Record<string, unknown>> {
  const address = fedexAddress(a);
  if (!address.ok) return address;
  const { residential: _, ...place } = address.value;
  const names = contactNames(a);
  const phone = usPhone(a.phone);
  return ok({ address: place, contact: { ...names, ...(phone && { phoneNumber: phone }) } });
}

/** Create Pickup for the request's day and window (local times at the pickup postal code, without a zone). */
export function buildPickupRequest(request: PickupRequest, accountNumber: string, carrierCode: FedexCarrierCode): CarrierResult<Record<string, unknown>> {
  const location = pickupLocation(request.address);
  if (!location.ok) return location;
  const remarks = request.instructions?.trim().slice(0, remarksMax).trim();
  return ok({
    associatedAccountNumber: { value: accountNumber },
    originDetail: {
      pickupLocation: location.value,
      readyDateTimestamp: `${request.date}T${request.window.start}:00`,
      customerCloseTime: `${request.window.end}:00`,
      // "Mandatory for Ground Pickup": where at the building is the instructions' to say, so none is named.
      ...(carrierCode === 'FDXG' && { packageLocation: 'NONE' }),
    },
    carrierCode,
    countryRelationships: 'DOMESTIC',
    ...(request.parcels.count > 0 && { packageCount: request.parcels.count, totalWeight: { units: 'LB', value: Math.round(request.parcels.weightLb * 10) / 10 } }),
    ...(remarks && { remarks }),
  });
}

/** The confirmation code, and what a cancel will need (FedexPickupData). */
export function parsePickupResponse(json: unknown, carrierCode: FedexCarrierCode): CarrierResult<{ confirmationNumber: string; carrierData: FedexPickupData }> {
  const code = asString(at(json, 'output', 'pickupConfirmationCode'));
  if (!code) return failure('carrier_error', 'FedEx answered the pickup request without a pickupConfirmationCode');
  return ok({ confirmationNumber: code, carrierData: { carrierCode, location: asString(at(json, 'output', 'location')) ?? '' } });
}

/** Cancel Pickup: the confirmation code, its day, and the company and Express location the booking answered. */
export function buildCancelPickupRequest(pickup: PickupRef, accountNumber: string): Record<string, unknown> {
  const carrierCode = pickup.carrierData?.carrierCode === 'FDXG' ? 'FDXG' : 'FDXE';
  const location = pickup.carrierData?.location;
  return {
    associatedAccountNumber: { value: accountNumber },
    pickupConfirmationCode: pickup.confirmationNumber,
    scheduledDate: pickup.date,
    carrierCode,
    ...(location && { location }),
  };
}

/** Check Pickup Availability for both companies on the day, domestic, same day or later. */
export function buildAvailabilityRequest(address: Address, date: string, accountNumber: string): CarrierResult<Record<string, unknown>> {
  const place = fedexAddress(address);
  if (!place.ok) return place;
  const { residential: _, ...pickupAddress } = place.value;
  return ok({
    pickupAddress,
    dispatchDate: date,
    pickupRequestType: ['SAME_DAY', 'FUTURE_DAY'],
    carriers: ['FDXE', 'FDXG'],
    countryRelationship: 'DOMESTIC',
    associatedAccountNumber: accountNumber,
  });
}

/** HH:MM of FedEx's HH:MM:SS, or null for anything else. */
function hhmm(value: unknown): string | null {
  const s = asString(value);
  return s && /^\d{2}:\d{2}(:\d{2})?$/.test(s) ? s.slice(0, 5) : null;
}

const earliestOf = (times: (string | null)[]) => times.filter((t): t is string => t !== null).sort()[0] ?? null;
const latestOf = (times: (string | null)[]) => times.filter((t): t is string => t !== null).sort().at(-1) ?? null;

/**
 * The day's options, either company's: a driver can come if one of them can. The earliest ready time is the first of
 * readyTimeOptions (else defaultReadyTime), the latest the last of latestTimeOptions (else defaultLatestTimeOptions),
 * and the booking cut-off the option's cutOffTime ("the latest allowed ready time"), each the widest of the
 * companies that can come.
 */
export function parseAvailability(json: unknown, date: string): CarrierResult<PickupAvailability> {
  const output = at(json, 'output');
  if (!output || typeof output !== 'object') return failure('carrier_error', 'FedEx answered the pickup availability request without an output');
  const options = asArray(at(output, 'options')).filter((o) => (asString(at(o, 'pickupDate')) ?? date) === date);
  const open = options.filter((o) => at(o, 'available') === true);
  if (open.length === 0) {
    const words = asArray(at(output, 'alerts')).map((a) => asString(at(a, 'message'))).filter((m): m is string => !!m);
    return ok({ available: false, earliest: null, latest: null, bookBy: null, reason: words.join('; ') || `FedEx offers no pickup there on ${date}` });
  }
  return ok({
    available: true,
    earliest: earliestOf(open.map((o) => hhmm(asArray(at(o, 'readyTimeOptions'))[0]) ?? hhmm(at(o, 'defaultReadyTime')))),
    latest: latestOf(open.map((o) => hhmm(asArray(at(o, 'latestTimeOptions')).at(-1)) ?? hhmm(at(o, 'defaultLatestTimeOptions')))),
    bookBy: latestOf(open.map((o) => hhmm(at(o, 'cutOffTime')))),
    reason: null,
  });
}
