import { failure, ok, type CarrierResult, type TrackedNumbers, type TrackingEvent, type TrackingResult } from '../carrier.ts';
import { asArray, asNumber, asString, at } from '../live/lenient.ts';
import { formatOffset, localInstant, scanClock } from '../scan-clock.ts';
import { readProblem } from './errors.ts';
import { datePart } from './fields.ts';
import { categoryStatus, eventStatus } from './statuses.ts';

export const trackPath = (trackingNumber: string): string => `/tracking/v3/tracking/${encodeURIComponent(trackingNumber)}`;
/** DETAIL is what brings the event list; the default SUMMARY has none (carriers.md 3.5). */
export const trackQuery = { expand: 'DETAIL' } as const;

/** "-05:00" in real data, minutes like -420 in the spec's example (carriers.md 3.5). */
function offsetMinutes(value: unknown): number | undefined {
  const text = asString(value);
  // "-0500" and "-5:00" are hours and minutes; "-360" or "-420" without a colon are minutes, as the spec's example.
  const hm = text?.match(/^([+-])(\d{1,2}):(\d{2})$/) ?? text?.match(/^([+-])(\d{2})(\d{2})$/);
  if (hm) return (hm[1] === '-' ? -1 : 1) * (Number(hm[2]) * 60 + Number(hm[3]));
  return asNumber(value);
}

/**
 * When an event happened: GMTTimestamp when given, else the local eventTimestamp (no offset) moved by GMTOffset,
 * else read in the zone of the event's ZIP or state (carriers.md 3.5: local times without an offset).
 */
function occurredAt(event: unknown, place: TrackingEvent['location']): Date | undefined {
  const gmt = asString(at(event, 'GMTTimestamp'));
  if (gmt) {
    const d = new Date(/[zZ]|[+-]\d{2}:?\d{2}$/.test(gmt) ? gmt : `${gmt}Z`);
    if (!Number.isNaN(d.getTime())) return d;
  }
  const local = asString(at(event, 'eventTimestamp'));
  if (!local) return undefined;
  const asUtc = new Date(/[zZ]|[+-]\d{2}:?\d{2}$/.test(local) ? local : `${local}Z`);
  if (Number.isNaN(asUtc.getTime())) return undefined;
  const offset = offsetMinutes(at(event, 'GMTOffset'));
  if (offset !== undefined || /[zZ]|[+-]\d{2}:?\d{2}$/.test(local)) return new Date(asUtc.getTime() - (offset ?? 0) * 60_000);
  const wall = { year: asUtc.getUTCFullYear(), month: asUtc.getUTCMonth() + 1, day: asUtc.getUTCDate(), hour: asUtc.getUTCHours(), minute: asUtc.getUTCMinutes(), second: asUtc.getUTCSeconds() };
  return localInstant(wall, place);
}

function location(event: unknown): TrackingEvent['location'] {
  const city = asString(at(event, 'eventCity'));
  const state = asString(at(event, 'eventState'));
  // eventZIP in tracking v3, eventZIPCode in v3r2 and in the tracking subscriptions' payload.
  const zip = asString(at(event, 'eventZIP')) ?? asString(at(event, 'eventZIPCode'));
  if (!city && !state && !zip) return null;
  return { city: city ?? '', state: state ?? '', zip: zip ?? '', country: asString(at(event, 'eventCountry')) ?? 'US' };
}

/** The DETAIL answer; `trackingEvents` come newest first and may be one object, and are returned oldest first. */
export function parseTracking(json: unknown): CarrierResult<TrackingResult> {
  if (!json || typeof json !== 'object' || Array.isArray(json)) return failure('carrier_error', 'USPS answered the tracking request with no tracking details');
  const events: TrackingEvent[] = [];
  let signedBy: string | undefined;
  for (const e of asArray(at(json, 'trackingEvents'))) {
    const place = location(e);
    const when = occurredAt(e, place);
    if (!when) return failure('carrier_error', `USPS sent a tracking event without a readable time: ${JSON.stringify(at(e, 'eventTimestamp') ?? null)}`);
    const offset = offsetMinutes(at(e, 'GMTOffset'));
    const clock = scanClock(when, place, offset === undefined ? undefined : formatOffset(offset));
    events.push({
      occurredAt: when,
      status: eventStatus(asString(at(e, 'eventCode'))),
      description: asString(at(e, 'eventType')) ?? '',
      location: place,
      ...(clock.utcOffset !== undefined && { utcOffset: clock.utcOffset }),
      ...(clock.timeZone !== undefined && { timeZone: clock.timeZone }),
    });
    // TrackingEvent.name: "the name of the persons signing for delivery (if available)"; events come newest first.
    signedBy ??= asString(at(e, 'name'))?.trim() || undefined;
  }
  events.sort((a, b) => a.occurredAt.getTime() - b.occurredAt.getTime());
  const byCategory = categoryStatus(asString(at(json, 'statusCategory')));
  const status = byCategory !== 'unknown' ? byCategory : (events.at(-1)?.status ?? 'unknown');
  return ok({
    status,
    statusDetail: asString(at(json, 'status')) ?? asString(at(json, 'statusSummary')) ?? events.at(-1)?.description ?? '',
    estimatedDeliveryDate:
      datePart(at(json, 'expectedDeliveryTimeStamp')) ??
      datePart(at(json, 'predictedDeliveryDate')) ??
      // v3r2 puts them in deliveryDateExpectation.
      datePart(at(json, 'deliveryDateExpectation', 'expectedDeliveryDate')) ??
      datePart(at(json, 'deliveryDateExpectation', 'predictedDeliveryDate')) ??
      null,
    events,
    ...(signedBy && { signedBy }),
  });
}

/**
 * A 404 says USPS has no scan or record of the number yet, which is how a label bought minutes ago looks: the
 * status is unknown for now, not a failure of the call.
 */
export function parseTrackingNotFound(json: unknown): CarrierResult<TrackingResult> {
  const problem = readProblem(json);
  return ok({ status: 'unknown', statusDetail: problem?.errors[0]?.detail ?? problem?.message ?? 'USPS has no record of this number yet', estimatedDeliveryDate: null, events: [] });
}

/*
 * Tracking v3r2 (tracking-v3r2_4.yaml, info.version 3.2.2, in Thecodergabe/shipstack specs/usps at commit
 * 5b975df4144e304644c217bf413138879b77dd7b): POST /tracking/v3r2/tracking takes TrackingRequest, an array of 1 to 35
 * {trackingNumber, mailingDate?, destinationZIPCode?}. It answers 200 with TrackingDetails (an array of details), or
 * 207 with MultiStatusResponse, each item a SuccessResponse (statusCode "200" and the detail) or a FailureResponse
 * (statusCode "404" by default, trackingNumber, and the error envelope). 429 and 503 carry Retry-After.
 */
export const uspsTrackingBatchLimit = 35;
export const trackBatchPath = '/tracking/v3r2/tracking';

export function buildTrackBatchRequest(trackingNumbers: readonly string[]): { trackingNumber: string }[] {
  return trackingNumbers.map((trackingNumber) => ({ trackingNumber }));
}

/**
 * Each number's item, found by its trackingNumber. A 404 item is a number USPS has no record of yet (`unknown`, as
 * the single GET's 404 reads); another failing item fails that number alone; a number with no item is a failure of its own.
 */
export function parseTrackingBatch(json: unknown, trackingNumbers: readonly string[]): CarrierResult<TrackedNumbers> {
  if (!Array.isArray(json)) return failure('carrier_error', 'USPS answered the tracking request of several numbers with something other than an array');
  const byNumber = new Map<string, unknown>();
  for (const item of json) {
    const n = asString(at(item, 'trackingNumber'));
    if (n !== undefined && !byNumber.has(n)) byNumber.set(n, item);
  }
  const answers: TrackedNumbers = new Map();
  for (const n of trackingNumbers) {
    const item = byNumber.get(n);
    const status = asString(at(item, 'statusCode')) ?? '200';
    if (item === undefined) answers.set(n, failure('carrier_error', `USPS's tracking answer has no item for ${n}`));
    else if (status === '200') answers.set(n, parseTracking(item));
    else if (status === '404') answers.set(n, parseTrackingNotFound(item));
    else answers.set(n, failure('carrier_error', `USPS could not track ${n} (${status}): ${asString(at(item, 'error', 'message')) ?? 'no message'}`));
  }
  return ok(answers);
}
