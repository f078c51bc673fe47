import { randomUUID, timingSafeEqual } from 'node:crypto';
import { failure, ok, type CarrierResult, type TrackingEvent, type TrackingResult } from '../carrier.ts';
import { asArray, asString, at } from '../live/lenient.ts';
import { upsTrackingStatus } from './statuses.ts';
import { isoDate, transactionSrc, type UpsCall } from './wire.ts';

// UPS Track Alert, from UPSTrackAlert.yaml in UPS-API/api-documentation at commit 1265e9815bf21029eeb8f0e5b96264f8818e2069:
// - POST /api/track/v1/subscription/standard/package (OAuth, transId and transactionSrc headers) with locale,
//   countryCode, trackingNumberList (1Z numbers, at most 100) and destination { url, credentialType, credential };
//   the answer lists validTrackingNumbers and invalidTrackingNumbers. A subscription lasts 14 days.
// - webhooks.TrackingEvent: UPS POSTs one TrackingEventRequest per scan to the destination url, with the header
//   `credential` carrying the subscription's credential verbatim and User-Agent 'UPSPubSubTrackingService'; that
//   header is the only authentication the spec gives. The receiver answers 200.

export const upsSubscriptionPath = '/api/track/v1/subscription/standard/package';
/** "You can subscribe to up to 100 1Z in each submission" (VSS220 past that). */
export const upsSubscriptionBatch = 100;
/** "Each 1Z subscription is valid for 14 days." */
export const upsSubscriptionDays = 14;
/** The spec's example of credentialType, an open-entry field; shipd's credential is an opaque shared secret. */
const credentialType = 'Bearer';

export function buildSubscriptionRequest(trackingNumbers: string[], destination: { url: string; credential: string }): UpsCall {
  return {
    path: upsSubscriptionPath,
    headers: { transId: randomUUID().replaceAll('-', ''), transactionSrc },
    body: {
      locale: 'en_US',
      countryCode: 'US',
      trackingNumberList: trackingNumbers,
      destination: { url: destination.url, credentialType, credential: destination.credential },
    },
  };
}

export function parseSubscriptionResponse(json: unknown): CarrierResult<{ subscribed: string[]; refused: string[] }> {
  if (!json || typeof json !== 'object') return failure('carrier_error', 'UPS answered the Track Alert subscription with no JSON object');
  const list = (name: string) => asArray(at(json, name)).map((n) => asString(n)?.trim()).filter((n): n is string => !!n);
  return ok({ subscribed: list('validTrackingNumbers'), refused: list('invalidTrackingNumbers') });
}

/** The `credential` header against the configured one, in constant time; a missing or different one is refused. */
export function upsPushAuthentic(header: string | string[] | undefined, credential: string): boolean {
  if (typeof header !== 'string') return false;
  const sent = Buffer.from(header);
  const want = Buffer.from(credential);
  return sent.length === want.length && timingSafeEqual(sent, want);
}

const hhmmss = (v: unknown): string | undefined => {
  const s = asString(v);
  return s && /^\d{6}$/.test(s) ? s : undefined;
};

/** The GMT date and time when given (exact), else the local ones read as UTC (the message carries no offset). */
function scanTime(json: unknown): Date | undefined {
  const gmtDate = isoDate(at(json, 'gmtActivityDate'));
  const gmtTime = hhmmss(at(json, 'gmtActivityTime'));
  const date = gmtDate && gmtTime ? gmtDate : isoDate(at(json, 'localActivityDate'));
  const time = gmtDate && gmtTime ? gmtTime : hhmmss(at(json, 'localActivityTime'));
  if (!date || !time) return undefined;
  const d = new Date(`${date}T${time.slice(0, 2)}:${time.slice(2, 4)}:${time.slice(4, 6)}Z`);
  return Number.isNaN(d.getTime()) ? undefined : d;
}

/**
 * One Track Alert message: its number and the scan it tells of. The status comes from activityStatus.descriptionCode
 * (the same three-digit code as the Track API's status.statusCode, e.g. 003, 005, 011, 021, 071 in the spec's
 * examples), then the description and type (M, MV, X, I, U, D) through the tracking status table. The tracking
 * number is trimmed: the spec's own first example has a leading space.
 */
export function parseUpsPush(json: unknown): CarrierResult<{ trackingNumber: string; result: TrackingResult }> {
  if (!json || typeof json !== 'object' || Array.isArray(json)) return failure('carrier_error', 'a Track Alert message is a JSON object');
  const trackingNumber = asString(at(json, 'trackingNumber'))?.trim().toUpperCase();
  if (!trackingNumber || !/^1Z[0-9A-Z]{16}$/.test(trackingNumber)) return failure('carrier_error', 'the message has no 1Z trackingNumber');
  const occurredAt = scanTime(json);
  if (!occurredAt) return failure('carrier_error', 'the message has no readable activity date and time');
  const s = at(json, 'activityStatus');
  const description = asString(at(s, 'description')) ?? '';
  const status = upsTrackingStatus({ type: asString(at(s, 'type')), code: asString(at(s, 'descriptionCode')), description });
  const l = at(json, 'activityLocation');
  const place = {
    city: asString(at(l, 'city')) ?? '',
    state: asString(at(l, 'stateProvince')) ?? '',
    zip: asString(at(l, 'postalCode')) ?? '',
    country: asString(at(l, 'country')) ?? '',
  };
  const event: TrackingEvent = { occurredAt, status, description, location: Object.values(place).some((v) => v !== '') ? place : null };
  return ok({
    trackingNumber,
    result: {
      status,
      statusDetail: description,
      estimatedDeliveryDate: isoDate(at(json, 'actualDeliveryDate')) ?? isoDate(at(json, 'scheduledDeliveryDate')) ?? null,
      events: [event],
    },
  });
}
