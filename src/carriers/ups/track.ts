import { randomUUID } from 'node:crypto';
import { failure, ok, type CarrierResult, type TrackingEvent, type TrackingResult } from '../carrier.ts';
import { asArray, asString, at } from '../live/lenient.ts';
import { upsTrackingStatus } from './statuses.ts';
import { isoDate, transactionSrc, type UpsCall } from './wire.ts';

/** Tracking requires transId and transactionSrc (carriers.md 2.6); transId is unique per call, at most 32 characters. */
export function buildTrackRequest(trackingNumber: string): UpsCall {
  return {
    path: `/api/track/v1/details/${encodeURIComponent(trackingNumber)}`,
    query: { locale: 'en_US', returnSignature: 'false', returnMilestones: 'false', returnPOD: 'false' },
    headers: { transId: randomUUID().replaceAll('-', ''), transactionSrc },
  };
}

const digits = (v: unknown): string => (asString(v) ?? '').replace(/\D/g, '');

/**
 * HHMMSS from a UPS time. Tracking.yaml says HHMMSS, but answers also carry "9:05:00" or "90500": the hour loses
 * its leading zero, so digits are read from the right (seconds, minutes, then whatever hour is left). Four digits
 * or fewer are HHMM or HMM, the form UPS uses where seconds are left out.
 */
export function clockTime(value: unknown): string | undefined {
  const s = asString(value);
  if (s === undefined) return undefined;
  const parts = s.includes(':') ? s.split(':') : undefined;
  if (parts) {
    if (parts.length < 2 || parts.length > 3 || parts.some((p) => !/^\d{1,2}$/.test(p))) return undefined;
    return [...parts, '00'].slice(0, 3).map((p) => p.padStart(2, '0')).join('');
  }
  const d = digits(s);
  if (d.length === 0 || d.length > 6) return undefined;
  return (d.length <= 4 ? `${d}00` : d).padStart(6, '0');
}

/**
 * When an activity happened. The GMT date and time are exact; without them the local date and time with the
 * GMT offset; without an offset the local time is taken as UTC, off by hours at most.
 */
function activityTime(a: unknown): Date | undefined {
  const gmtDate = digits(at(a, 'gmtDate'));
  const gmt = gmtDate.length === 8;
  const date = gmt ? gmtDate : digits(at(a, 'date'));
  const time = clockTime(at(a, gmt ? 'gmtTime' : 'time')) ?? '000000';
  if (date.length !== 8) return undefined;
  const offset = asString(at(a, 'gmtOffset')) ?? '';
  const zone = gmt || !/^[+-]\d{2}:\d{2}$/.test(offset) ? 'Z' : offset;
  const d = new Date(`${date.slice(0, 4)}-${date.slice(4, 6)}-${date.slice(6, 8)}T${time.slice(0, 2)}:${time.slice(2, 4)}:${time.slice(4, 6)}${zone}`);
  return Number.isNaN(d.getTime()) ? undefined : d;
}

function eventOf(a: unknown): TrackingEvent | undefined {
  const occurredAt = activityTime(a);
  if (!occurredAt) return undefined;
  const status = at(a, 'status');
  const description = asString(at(status, 'description')) ?? '';
  const address = at(a, 'location', 'address');
  const place = {
    city: asString(at(address, 'city')) ?? '',
    state: asString(at(address, 'stateProvince')) ?? '',
    zip: asString(at(address, 'postalCode')) ?? '',
    country: asString(at(address, 'countryCode')) ?? asString(at(address, 'country')) ?? '',
  };
  return {
    occurredAt,
    status: upsTrackingStatus({ type: asString(at(status, 'type')), code: asString(at(status, 'statusCode')), description }),
    description,
    location: Object.values(place).some((v) => v !== '') ? place : null,
  };
}

/** No scans yet: UPS knows the number only once the label is in its system, so a new label looks like this. */
export function notYetTracked(message: string): TrackingResult {
  return { status: 'unknown', statusDetail: message, estimatedDeliveryDate: null, events: [] };
}

/** The scheduled (SDD) or rescheduled (RDD) delivery day; on delivery, the day it came (DEL). */
function expectedDelivery(pkg: unknown): string | null {
  const dates = asArray(at(pkg, 'deliveryDate'));
  for (const type of ['DEL', 'RDD', 'SDD']) {
    const hit = dates.find((d) => asString(at(d, 'type')) === type);
    const iso = isoDate(at(hit, 'date'));
    if (iso) return iso;
  }
  return null;
}

/**
 * Activities come most recent first (carriers.md 2.6); ours go oldest first. "Not found" may come as a 200 with
 * warning TW0001 instead of a 404.
 */
export function parseTrackResponse(json: unknown): CarrierResult<TrackingResult> {
  const shipment = asArray(at(json, 'trackResponse', 'shipment'))[0];
  if (shipment === undefined) return failure('carrier_error', 'UPS tracking answer has no trackResponse.shipment');
  const pkg = asArray(at(shipment, 'package'))[0];
  if (pkg === undefined) {
    const warning = asArray(at(shipment, 'warnings'))[0];
    if (warning !== undefined) return ok(notYetTracked(asString(at(warning, 'message')) ?? 'Tracking Information Not Found'));
    return failure('carrier_error', 'UPS tracking answer has neither a package nor a warning');
  }
  const events = asArray(at(pkg, 'activity'))
    .map(eventOf)
    .filter((e): e is TrackingEvent => e !== undefined)
    .sort((a, b) => a.occurredAt.getTime() - b.occurredAt.getTime());
  const current = at(pkg, 'currentStatus');
  const latest = events.at(-1);
  const currentDescription = asString(at(current, 'description')) ?? asString(at(current, 'simplifiedTextDescription'));
  const fromCurrent = current
    ? upsTrackingStatus({ type: asString(at(current, 'type')), code: asString(at(current, 'statusCode')), description: currentDescription })
    : 'unknown';
  return ok({
    status: fromCurrent !== 'unknown' ? fromCurrent : (latest?.status ?? 'unknown'),
    statusDetail: currentDescription ?? latest?.description ?? '',
    estimatedDeliveryDate: expectedDelivery(pkg),
    events,
  });
}
