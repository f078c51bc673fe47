import { failure, ok, type CarrierResult, type TrackedNumbers, type TrackingEvent, type TrackingResult } from '../carrier.ts';
import { asArray, asString, at } from '../live/lenient.ts';
import { scanClock } from '../scan-clock.ts';
import { fedexStatus } from './statuses.ts';
import { fedexInstant } from './time.ts';

export const trackPath = '/track/v1/trackingnumbers';

/**
 * trackingInfo per Full_Schema_Tracking_Numbers (track/v1/TrackingNumbers-Resource.json, ShipStream/fedex-rest-php-sdk
 * resources/models/.raw at bc94dcd2, 2025-10-17): "At least one occurrence of TrackingInfo is required. Maximum limit is 30."
 */
export const fedexTrackingBatchLimit = 30;

/** One call for up to fedexTrackingBatchLimit numbers; a label's tracking asks about its one number the same way. */
export function buildTrackRequest(trackingNumbers: string | readonly string[]) {
  const numbers = typeof trackingNumbers === 'string' ? [trackingNumbers] : trackingNumbers;
  return { includeDetailedScans: true, trackingInfo: numbers.map((trackingNumber) => ({ trackingNumberInfo: { trackingNumber } })) };
}

/** FedEx has no scans for the number yet: a label just bought looks like this until FedEx hears of it. */
const notYetKnown = new Set(['TRACKING.TRACKINGNUMBER.NOTFOUND', 'TRACKING.DATA.NOTFOUND']);

function location(scan: unknown): TrackingEvent['location'] {
  const l = at(scan, 'scanLocation');
  const city = asString(at(l, 'city')) ?? '';
  const state = asString(at(l, 'stateOrProvinceCode')) ?? '';
  const zip = asString(at(l, 'postalCode')) ?? '';
  const country = asString(at(l, 'countryCode')) ?? '';
  return city || state || zip || country ? { city, state, zip, country } : null;
}

function events(result: unknown): TrackingEvent[] {
  const out: TrackingEvent[] = [];
  for (const scan of asArray(at(result, 'scanEvents'))) {
    const when = fedexInstant(asString(at(scan, 'date')), asString(at(scan, 'scanLocation', 'stateOrProvinceCode')));
    if (!when) continue;
    const place = location(scan);
    // The offset FedEx wrote after the time is the scan's local clock (ScanEvent.date, "2018-02-02T12:01:00-07:00").
    const written = asString(at(scan, 'date'))?.trim().match(/T[\d:.]+([+-]\d{2}:?\d{2})$/)?.[1];
    const clock = scanClock(when, place, written);
    out.push({
      occurredAt: when,
      status: fedexStatus(asString(at(scan, 'eventType')), asString(at(scan, 'derivedStatusCode'))),
      description: asString(at(scan, 'eventDescription')) ?? asString(at(scan, 'derivedStatus')) ?? '',
      location: place,
      ...(clock.utcOffset !== undefined && { utcOffset: clock.utcOffset }),
      ...(clock.timeZone !== undefined && { timeZone: clock.timeZone }),
    });
  }
  // FedEx lists scans newest first; ours are oldest first.
  return out.sort((a, b) => a.occurredAt.getTime() - b.occurredAt.getTime());
}

function estimatedDelivery(result: unknown): string | null {
  const estimate = asArray(at(result, 'dateAndTimes')).find((d) => asString(at(d, 'type')) === 'ESTIMATED_DELIVERY');
  const when =
    asString(at(estimate, 'dateTime')) ??
    asString(at(result, 'estimatedDeliveryTimeWindow', 'window', 'ends')) ??
    asString(at(result, 'estimatedDeliveryTimeWindow', 'window', 'begins'));
  // The local date FedEx wrote, not the UTC one: "2024-05-02T20:00:00-07:00" is the 2nd.
  return when && /^\d{4}-\d{2}-\d{2}/.test(when) ? when.slice(0, 10) : null;
}

/**
 * Who signed (TrackingNumbers-Resource.json DeliveryDetails.signedByName), else who received it (receivedByName);
 * and whether FedEx holds a signature proof of delivery (availableImages[].type SIGNATURE_PROOF_OF_DELIVERY). The
 * SPOD itself is a document FedEx gives through its tracking documents call, not in this answer.
 */
function delivery(result: unknown): Pick<TrackingResult, 'signedBy' | 'proofOfDelivery'> {
  const signedBy = (asString(at(result, 'deliveryDetails', 'signedByName')) ?? '').trim() || (asString(at(result, 'deliveryDetails', 'receivedByName')) ?? '').trim();
  const spod = asArray(at(result, 'availableImages')).some((i) => asString(at(i, 'type')) === 'SIGNATURE_PROOF_OF_DELIVERY');
  // An empty list is FedEx saying it holds none, so it is not asked for one (track-documents.ts).
  return { ...(signedBy && { signedBy }), proofOfDelivery: spod ? [{ type: 'document' as const }] : [] };
}

/**
 * output.completeTrackResults[].trackResults[]: a number FedEx reused has several results, and the one with the
 * latest scan is this parcel's. A per-number error arrives inside the result with HTTP 200 (carriers.md 4.6).
 */
export function parseTrackResponse(json: unknown, trackingNumber: string): CarrierResult<TrackingResult> {
  const complete = asArray(at(json, 'output', 'completeTrackResults'));
  if (complete.length === 0) return failure('carrier_error', 'FedEx answered the tracking request without output.completeTrackResults');
  return resultOf(complete.find((c) => asString(at(c, 'trackingNumber')) === trackingNumber) ?? complete[0], trackingNumber);
}

/**
 * The answer to a call of several numbers: each number's completeTrackResults entry, found by its trackingNumber (FedEx
 * does not promise the order asked). A number the answer leaves out is a failure of its own, the others stand.
 */
export function parseTrackResponses(json: unknown, trackingNumbers: readonly string[]): CarrierResult<TrackedNumbers> {
  const complete = asArray(at(json, 'output', 'completeTrackResults'));
  if (complete.length === 0) return failure('carrier_error', 'FedEx answered the tracking request without output.completeTrackResults');
  const byNumber = new Map(complete.map((c) => [asString(at(c, 'trackingNumber')) ?? '', c]));
  const answers: TrackedNumbers = new Map();
  for (const n of trackingNumbers) {
    const entry = byNumber.get(n);
    answers.set(n, entry === undefined ? failure('carrier_error', `FedEx's tracking answer has no result for ${n}`) : resultOf(entry, n));
  }
  return ok(answers);
}

function resultOf(mine: unknown, trackingNumber: string): CarrierResult<TrackingResult> {
  const results = asArray(at(mine, 'trackResults'));
  const good = results.filter((r) => at(r, 'error') === undefined);
  if (good.length === 0) {
    const code = asString(at(results[0], 'error', 'code')) ?? '';
    const message = asString(at(results[0], 'error', 'message')) ?? 'no tracking results';
    if (notYetKnown.has(code)) return ok({ status: 'unknown', statusDetail: message, estimatedDeliveryDate: null, events: [] });
    return failure('carrier_error', `FedEx could not track ${trackingNumber}: ${code ? `${code}: ` : ''}${message}`);
  }
  const latest = (r: unknown) => events(r).at(-1)?.occurredAt.getTime() ?? 0;
  const result = good.reduce((best, r) => (latest(r) > latest(best) ? r : best));
  const list = events(result);
  const stated = fedexStatus(asString(at(result, 'latestStatusDetail', 'code')), asString(at(result, 'latestStatusDetail', 'derivedCode')));
  const status = stated === 'unknown' ? (list.at(-1)?.status ?? 'unknown') : stated;
  return ok({
    status,
    statusDetail: asString(at(result, 'latestStatusDetail', 'description')) ?? asString(at(result, 'latestStatusDetail', 'statusByLocale')) ?? list.at(-1)?.description ?? '',
    estimatedDeliveryDate: estimatedDelivery(result),
    events: list,
    ...delivery(result),
  });
}
