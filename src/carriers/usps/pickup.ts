import type { Address } from '../../schemas/address.ts';
import { failure, ok, type CarrierFailure, type CarrierResult, type PickupAvailability, type PickupRequest } from '../carrier.ts';
import { asArray, asString, at } from '../live/lenient.ts';
import { instantInZone, wallClock, zoneOfState } from '../time-zones.ts';
import { describeProblem, readProblem, uspsFailure } from './errors.ts';
import { toUspsAddress } from './fields.ts';

// USPS Carrier Pickup v3: free pickups by the letter carrier on the regular route. Source: carrier-pickup.yaml
// version 3.1.8 (karrioapi/karrio modules/connectors/usps/vendor/, commit e1754707ebcba368deb2be62c72eabbcd4d31723),
// operations get-carrier-pickup-eligibility, post-carrier-pickup, get-carrier-pickup-confirmation-number and
// delete-carrier-pickup-confirmation-number; components SchedulePickupRequest, PickupAddress, PickupConfirmation.
//
// What the API has no field for, and so is not sent: a client reference (a pickup is found only by USPS's
// confirmation number, hence no findPickup), a time window (the carrier comes on the route; shipd writes the window
// into the special instructions), and the tracking numbers (USPS asks for counts only). The spec publishes no error
// codes, only the ErrorMessage envelope.

export const pickupPath = '/pickup/v3/carrier-pickup';
export const pickupEligibilityPath = '/pickup/v3/carrier-pickup/eligibility';
export const pickupOfPath = (confirmationNumber: string): string => `${pickupPath}/${encodeURIComponent(confirmationNumber)}`;

/** "You can schedule pickups Monday - Saturday until 2:00 AM CT on the day of the pickup" (pickupDate). */
const cutoffZone = 'America/Chicago';
const cutoffHour = 2;
/** "you can schedule your pickup up to one year in advance". */
const maxDaysAhead = 365;

/**
 * The packageType shipd counts everything as: PickupRequest carries the boxes' count, not their mail classes, and
 * OTHER is one of the published kinds.
 */
const packageType = 'OTHER';

const dayMs = 86_400_000;

/** The instant booking closes for a pickup on `date`: 2:00 AM Central that day. */
function bookingCutoff(date: string): Date {
  const [year, month, day] = date.split('-').map(Number) as [number, number, number];
  return instantInZone(cutoffZone, { year, month, day, hour: cutoffHour, minute: 0, second: 0 });
}

/** Why USPS would not take a pickup on `date` asked at `now`, by its published date rules; null when it would. */
export function pickupDateRefusal(date: string, now: Date): CarrierFailure | null {
  if (new Date(`${date}T00:00:00Z`).getUTCDay() === 0) return { code: 'pickup_unavailable', detail: `USPS carrier pickups are Monday to Saturday; ${date} is a Sunday` };
  const cutoff = bookingCutoff(date);
  if (now.getTime() >= cutoff.getTime()) {
    return { code: 'outside_pickup_window', detail: `USPS takes pickups for ${date} until 2:00 AM Central that day (${cutoff.toISOString()}); it is past that` };
  }
  if (cutoff.getTime() - now.getTime() > (maxDaysAhead + 1) * dayMs) return { code: 'outside_pickup_window', detail: `USPS schedules pickups up to one year in advance; ${date} is further out` };
  return null;
}

/** HH:MM at the address when booking closes, where that falls on the pickup's own day there (not in Alaska or Hawaii). */
export function pickupBookBy(address: Address, date: string): string | null {
  const zone = zoneOfState(address.state);
  if (!zone) return null;
  const w = wallClock(zone, bookingCutoff(date));
  const local = `${w.year}-${String(w.month).padStart(2, '0')}-${String(w.day).padStart(2, '0')}`;
  return local === date ? `${String(w.hour).padStart(2, '0')}:${String(w.minute).padStart(2, '0')}` : null;
}

/** PickupAddress.contact: an email, else a 10-digit US phone number (cellNumber), as one or the other is required. */
function contact(a: Address): { email: string } | { cellNumber: string } | null {
  const { email } = toUspsAddress(a);
  if (email) return { email };
  const digits = (a.phone ?? '').replace(/\D/g, '');
  const ten = digits.length === 11 && digits.startsWith('1') ? digits.slice(1) : digits;
  return ten.length === 10 ? { cellNumber: ten } : null;
}

/**
 * The SchedulePickupRequest: the address with the contact's first and last name (Addressee requires both) and an
 * email or phone; every box counted as OTHER with their total weight; the window and the client's instructions as
 * the special instructions of an OTHER location, the only place the spec has for them. nextAvailablePickup stays
 * false: a pickup moved to another day than the one recorded would be a driver nobody expects.
 */
export function buildPickupRequest(request: PickupRequest): CarrierResult<Record<string, unknown>> {
  const u = toUspsAddress(request.address);
  if (!u.firstName || !u.lastName) {
    return failure('address_invalid', "USPS carrier pickup needs the contact's first and last name: give the pickup address a name of two words or more");
  }
  const reach = contact(request.address);
  if (!reach) return failure('address_invalid', 'USPS carrier pickup needs an email or a 10-digit phone number at the pickup address to reach the contact');
  if (request.parcels.count < 1 || request.parcels.weightLb <= 0) {
    return failure('not_serviced', 'USPS carrier pickup asks for the number and weight of the packages: name the shipments to collect (shipment_ids)');
  }
  const ready = `Packages ready ${request.window.start}-${request.window.end} local time.`;
  return ok({
    pickupDate: request.date,
    pickupAddress: {
      firstName: u.firstName,
      lastName: u.lastName,
      ...(u.firm ? { firm: u.firm } : {}),
      address: {
        streetAddress: u.streetAddress,
        ...(u.secondaryAddress ? { secondaryAddress: u.secondaryAddress } : {}),
        city: u.city,
        state: u.state,
        ZIPCode: u.ZIPCode,
        ...(u.ZIPPlus4 ? { ZIPPlus4: u.ZIPPlus4 } : {}),
      },
      contact: [reach],
    },
    packages: [{ packageType, packageCount: request.parcels.count }],
    // Rounded up to a tenth of a pound: an estimate is better a little high than short for the carrier's vehicle.
    estimatedWeight: Math.ceil(request.parcels.weightLb * 10) / 10,
    pickupLocation: { packageLocation: 'OTHER', specialInstructions: request.instructions?.trim() ? `${request.instructions.trim()} ${ready}` : ready },
    nextAvailablePickup: false,
  });
}

export function buildEligibilityQuery(a: Address): Record<string, string | undefined> {
  const u = toUspsAddress(a);
  return { streetAddress: u.streetAddress, secondaryAddress: u.secondaryAddress, city: u.city, state: u.state, ZIPCode: u.ZIPCode, ZIPPlus4: u.ZIPPlus4 };
}

export function parsePickupConfirmation(json: unknown): CarrierResult<{ confirmationNumber: string }> {
  const confirmationNumber = asString(at(json, 'confirmationNumber'));
  return confirmationNumber ? ok({ confirmationNumber }) : failure('carrier_error', 'USPS answered the pickup without its confirmationNumber');
}

/** The ETag a cancel sends back as If-Match, from the GET of the pickup; null where USPS gave none or has no such pickup. */
export function pickupEtag(headers: Record<string, string | string[] | undefined>, json: unknown, confirmationNumber: string): string | null {
  const found = asArray(json).some((p) => asString(at(p, 'confirmationNumber')) === confirmationNumber);
  const tag = headers.etag;
  const value = Array.isArray(tag) ? tag[0] : tag;
  return found && value ? value : null;
}

/**
 * A refused booking. The spec names no error codes, so the refusal is read from what the error points at: the
 * pickupDate parameter is a day or time USPS will not book; an address it calls not eligible (the spec's word for
 * where carrier pickup is not offered) is pickup_unavailable; the rest as every USPS refusal.
 */
export function pickupRefusal(status: number, json: unknown, what: string): CarrierFailure {
  const problem = readProblem(json);
  if (status === 400 && problem) {
    const said = describeProblem(problem);
    if (problem.errors.some((e) => /eligib/i.test(e.detail)) || /eligib/i.test(problem.message ?? '')) return { code: 'pickup_unavailable', detail: `USPS cannot pick up there: ${said}` };
    if (problem.errors.some((e) => e.parameter === 'pickupDate')) return { code: 'outside_pickup_window', detail: `USPS refused the pickup date: ${said}` };
  }
  return uspsFailure(status, json, what);
}

/**
 * A refused read or cancel of a pickup (unknown, cancelled already, a stale ETag): the pickup is not cancelled, in
 * USPS's words. Only service failures (401, 429, 5xx) take the general codes, as they say nothing of the pickup.
 */
export function pickupCancelRefusal(status: number, json: unknown, confirmationNumber: string): CarrierFailure {
  if (status !== 400 && status !== 404) return uspsFailure(status, json, `the cancel of pickup ${confirmationNumber}`);
  return { code: 'carrier_error', detail: `USPS would not cancel pickup ${confirmationNumber} (HTTP ${status}): ${describeProblem(readProblem(json))}` };
}

/** The eligibility answer for a day: 200 is an address USPS picks up at, 400 one it does not (its reason given). */
export function parseEligibility(status: number, json: unknown, address: Address, date: string): CarrierResult<PickupAvailability> {
  if (status === 200) return ok({ available: true, earliest: null, latest: null, bookBy: pickupBookBy(address, date), reason: null });
  return ok({ available: false, earliest: null, latest: null, bookBy: null, reason: describeProblem(readProblem(json)) });
}
