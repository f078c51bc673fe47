import { createHmac, timingSafeEqual } from 'node:crypto';
import { failure, ok, type CarrierResult, type TrackingResult } from '../carrier.ts';
import { asString, at } from '../live/lenient.ts';
import { parseTracking } from './track.ts';

// USPS Subscriptions - Tracking v3r2 (version 3.2.2), from subscriptions-tracking-v3r2_1.yaml in
// Thecodergabe/shipstack specs/usps at commit 5b975df4144e304644c217bf413138879b77dd7b:
// - POST /subscriptions-tracking/v3r2/subscriptions (OAuth scope subscriptions-tracking), a TrackingSubscription:
//   listenerURL (uri, at most 200), secret (exactly 32 characters), adminNotification (1 to 3 { email }), and
//   filterProperties { trackingNumber, trackingEventTypes: ALL_UPDATES | DELIVERY_ACTIVITY | PACKAGE_DELAYED }.
//   201 answers the subscription with its subscriptionId. "After 30 days of inactivity, USPS may delete your subscription."
// - The listener (/notifications, "Listener URL Specification") receives { subscriptionId, subscriptionType,
//   timestamp, payload, links? }, payload being the tracking details as a JSON string, parsed with the Tracking
//   Subscription Event schema (CoreTrackingDetail + trackingEvents, the tracking API's DETAIL fields).
// - X-HMAC (hmac-header, deprecated, before it): "concatenate the value of the timestamp field and the value of the
//   payload field, hash the concatenated string using the shared secret and the SHA256 hash function, and encode
//   the output in Base64".

export const uspsSubscriptionPath = '/subscriptions-tracking/v3r2/subscriptions';

export function buildSubscriptionRequest(trackingNumber: string, listener: { url: string; secret: string; adminEmail: string }) {
  return {
    listenerURL: listener.url,
    secret: listener.secret,
    adminNotification: [{ email: listener.adminEmail }],
    filterProperties: { trackingNumber, trackingEventTypes: ['ALL_UPDATES'] },
  };
}

export function parseSubscriptionResponse(json: unknown): CarrierResult<{ subscriptionId: string }> {
  const id = asString(at(json, 'subscriptionId'));
  return id ? ok({ subscriptionId: id }) : failure('carrier_error', 'USPS created the subscription but its answer has no subscriptionId');
}

/** X-HMAC (or the older hmac-header) against HMAC-SHA256(secret, timestamp + payload), Base64, in constant time. */
export function uspsPushAuthentic(body: unknown, headers: Record<string, string | string[] | undefined>, secret: string): boolean {
  const sent = headers['x-hmac'] ?? headers['hmac-header'];
  const timestamp = at(body, 'timestamp');
  const payload = at(body, 'payload');
  if (typeof sent !== 'string' || typeof timestamp !== 'string' || typeof payload !== 'string') return false;
  const want = createHmac('sha256', secret).update(timestamp + payload, 'utf8').digest();
  const got = Buffer.from(sent, 'base64');
  return got.length === want.length && timingSafeEqual(got, want);
}

/** A verified notification's number and journey: the payload is read as the tracking API's DETAIL answer. */
export function parseUspsPush(body: unknown): CarrierResult<{ trackingNumber: string; result: TrackingResult }> {
  const text = at(body, 'payload');
  if (typeof text !== 'string') return failure('carrier_error', 'the notification has no payload string');
  let payload: unknown;
  try {
    payload = JSON.parse(text);
  } catch {
    return failure('carrier_error', 'the notification payload is not JSON');
  }
  const trackingNumber = asString(at(payload, 'trackingNumber'))?.replace(/\s/g, '').toUpperCase();
  if (!trackingNumber) return failure('carrier_error', 'the notification payload has no trackingNumber');
  const parsed = parseTracking(payload);
  return parsed.ok ? ok({ trackingNumber, result: parsed.value }) : parsed;
}
