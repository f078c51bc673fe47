import { randomUUID } from 'node:crypto';
import { failure, ok, type CarrierResult, type ProofOfDelivery, type TrackingEvent, type TrackingResult } from '../carrier.ts';
import { imageKindOf } from '../live/image-kind.ts';
import { asArray, asString, at } from '../live/lenient.ts';
import { formatOffset, localInstant, offsetMinutes, scanClock } from '../scan-clock.ts';
import { upsTrackingStatus } from './statuses.ts';
import { isoDate, transactionSrc, type UpsCall } from './wire.ts';

/**
 * Tracking requires transId and transactionSrc (carriers.md 2.6); transId is unique per call, at most 32 characters.
 * With `proofs`, the delivered parcel's signature image and POD are asked for too (Tracking.yaml returnSignature and
 * returnPOD, "by default the image will not be returned"): only then, as they make the answer much larger.
 */
export function buildTrackRequest(trackingNumber: string, proofs = false): UpsCall {
  const flag = String(proofs);
  return {
    path: `/api/track/v1/details/${encodeURIComponent(trackingNumber)}`,
    query: { locale: 'en_US', returnSignature: flag, returnMilestones: 'false', returnPOD: flag },
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
 * When an activity happened and on what clock. The GMT date and time are exact; without them the local date and
 * time with the GMT offset; without an offset the local time is read in the zone of the activity's place (or as
 * UTC where it has none we know). The offset is UPS's own gmtOffset, else the one between the local and GMT
 * times when both are given, else the place's zone's.
 */
function activityTime(a: unknown, place: TrackingEvent['location']): Pick<TrackingEvent, 'occurredAt' | 'utcOffset' | 'timeZone'> | undefined {
  const gmtDate = digits(at(a, 'gmtDate'));
  const gmt = gmtDate.length === 8;
  const localDate = digits(at(a, 'date'));
  const localTime = clockTime(at(a, 'time'));
  const date = gmt ? gmtDate : localDate;
  const time = clockTime(at(a, gmt ? 'gmtTime' : 'time')) ?? '000000';
  if (date.length !== 8) return undefined;
  const given = asString(at(a, 'gmtOffset'));
  const offset = offsetMinutes(given);
  const wall = { year: Number(date.slice(0, 4)), month: Number(date.slice(4, 6)), day: Number(date.slice(6, 8)), hour: Number(time.slice(0, 2)), minute: Number(time.slice(2, 4)), second: Number(time.slice(4, 6)) };
  const asUtc = Date.UTC(wall.year, wall.month - 1, wall.day, wall.hour, wall.minute, wall.second);
  if (Number.isNaN(asUtc)) return undefined;
  let occurredAt: Date;
  if (gmt) occurredAt = new Date(asUtc);
  else if (offset !== undefined) occurredAt = new Date(asUtc - offset * 60_000);
  else occurredAt = localInstant(wall, place);
  if (Number.isNaN(occurredAt.getTime())) return undefined;
  let stated = offset;
  if (stated === undefined && gmt && localDate.length === 8 && localTime) {
    const local = Date.UTC(Number(localDate.slice(0, 4)), Number(localDate.slice(4, 6)) - 1, Number(localDate.slice(6, 8)), Number(localTime.slice(0, 2)), Number(localTime.slice(2, 4)), Number(localTime.slice(4, 6)));
    // A whole quarter hour, as offsets are; anything else is a clock UPS did not mean.
    const minutes = Math.round((local - asUtc) / 60_000);
    if (minutes % 15 === 0 && Math.abs(minutes) <= 14 * 60) stated = minutes;
  }
  return { occurredAt, ...scanClock(occurredAt, place, stated === undefined ? undefined : formatOffset(stated)) };
}

function eventOf(a: unknown): TrackingEvent | undefined {
  const status = at(a, 'status');
  const description = asString(at(status, 'description')) ?? '';
  const address = at(a, 'location', 'address');
  const place = {
    city: asString(at(address, 'city')) ?? '',
    state: asString(at(address, 'stateProvince')) ?? '',
    zip: asString(at(address, 'postalCode')) ?? '',
    country: asString(at(address, 'countryCode')) ?? asString(at(address, 'country')) ?? '',
  };
  const location = Object.values(place).some((v) => v !== '') ? place : null;
  const when = activityTime(a, location);
  if (!when) return undefined;
  return {
    occurredAt: when.occurredAt,
    status: upsTrackingStatus({ type: asString(at(status, 'type')), code: asString(at(status, 'statusCode')), description }),
    description,
    location,
    ...(when.utcOffset !== undefined && { utcOffset: when.utcOffset }),
    ...(when.timeZone !== undefined && { timeZone: when.timeZone }),
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

/** The media type of base64 bytes by their signature; UPS's Tracking.yaml names none for its images. */
function contentTypeOf(base64: string): string | undefined {
  const kind = imageKindOf(Buffer.from(base64.slice(0, 8192), 'base64'));
  return kind === 'pdf' ? 'application/pdf' : kind === 'png' ? 'image/png' : kind === 'gif' ? 'image/gif' : undefined;
}

/**
 * Who received the parcel and its proofs, from Tracking.yaml DeliveryInformation ("populated only when the package
 * is delivered"): `receivedBy`, the signature image (only when the request asks returnSignature) and the POD
 * (returnPOD), each base64. An empty `receivedBy` (the spec's own example) says nothing.
 */
function deliveryInformation(pkg: unknown): Pick<TrackingResult, 'signedBy' | 'proofOfDelivery'> {
  const info = at(pkg, 'deliveryInformation');
  const receivedBy = asString(at(info, 'receivedBy'))?.trim();
  const proofs: ProofOfDelivery[] = [];
  for (const [type, content] of [
    ['signature', asString(at(info, 'signature', 'image'))],
    ['document', asString(at(info, 'pod', 'content'))],
  ] as const) {
    if (!content?.trim()) continue;
    const contentType = contentTypeOf(content.trim());
    proofs.push({ type, content: content.trim(), ...(contentType && { contentType }) });
  }
  return { ...(receivedBy && { signedBy: receivedBy }), ...(proofs.length > 0 && { proofOfDelivery: proofs }) };
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
    ...deliveryInformation(pkg),
  });
}
