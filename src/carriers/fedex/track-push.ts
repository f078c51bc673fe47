import { createHmac, timingSafeEqual } from 'node:crypto';
import { failure, ok, type CarrierResult, type TrackingResult } from '../carrier.ts';
import { asArray, asString, at } from '../live/lenient.ts';
import { parseTrackResponse } from './track.ts';

// FedEx Advanced Integrated Visibility (tracking webhooks), from FedEx's developer portal pages
// (developer.fedex.com/api/en-us/catalog/shipment-visibility-webhook/docs/...):
// - "Advanced Integrated Visibility Validation Process": FedEx signs each push with HMAC-SHA256 keyed with the
//   security token set on the webhook project, over the payload, Base64-encoded in the header `fdx-signature`.
// - The pushed body is the Track API's answer for the number: TestWebhookOutputVO (TestWebhookOutputVO_VB3 3.json
//   on the same portal) is output.completeTrackResults[] (CompleteTrackResult, as POST /track/v1/trackingnumbers
//   answers), with outputMetaData beside it.
// - Subscribing a number ("Tracking Number Association" of the Tracking Number Subscription API) is documented
//   only inside a project's portal pages: its path and request schema are not published, so shipd does not
//   subscribe FedEx numbers; FedEx pushes what the webhook project (an account-number one, set up in the portal)
//   covers, and those pushes are received here.

/** fdx-signature against HMAC-SHA256(security token, raw body), Base64, in constant time. */
export function fedexPushAuthentic(raw: Buffer, header: string | string[] | undefined, securityToken: string): boolean {
  if (typeof header !== 'string') return false;
  const want = createHmac('sha256', securityToken).update(raw).digest();
  const got = Buffer.from(header, 'base64');
  return got.length === want.length && timingSafeEqual(got, want);
}

/** Each number of a push with its journey, read as the Track API's answer is. */
export function parseFedexPush(body: unknown): CarrierResult<{ trackingNumber: string; result: TrackingResult }[]> {
  const complete = asArray(at(body, 'output', 'completeTrackResults'));
  if (complete.length === 0) return failure('carrier_error', 'the push has no output.completeTrackResults');
  const out: { trackingNumber: string; result: TrackingResult }[] = [];
  for (const c of complete) {
    const trackingNumber = asString(at(c, 'trackingNumber'))?.trim();
    if (!trackingNumber) return failure('carrier_error', 'a pushed result has no trackingNumber');
    const parsed = parseTrackResponse({ output: { completeTrackResults: [c] } }, trackingNumber);
    if (!parsed.ok) return parsed;
    out.push({ trackingNumber, result: parsed.value });
  }
  return ok(out);
}
