import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fixture } from './fixtures.ts';
import { fedexStatus, fedexStatuses } from './statuses.ts';
import { buildTrackRequest, parseTrackResponse, parseTrackResponses } from './track.ts';

test('the track request asks detailed scans for one number', () => {
  assert.deepEqual(buildTrackRequest('581190049992'), { includeDetailedScans: true, trackingInfo: [{ trackingNumberInfo: { trackingNumber: '581190049992' } }] });
});

/**
 * Every code of FedEx's "Tracking Status Codes" list (Movement and Regulatory tables of karrio
 * modules/connectors/fedex/vendor/Tracking-Status-Codes.html, commit 0f7414f0), and the derived codes FedEx
 * answers beside them (IN, RL).
 */
const publishedCodes = [
  'PF', 'AA', 'PL', 'AC', 'PM', 'AD', 'PU', 'AF', 'PX', 'AO', 'RR', 'AP', 'RM', 'AR', 'RC', 'AX', 'RS', 'CA', 'RP', 'CH', 'LP',
  'DD', 'RG', 'DE', 'RD', 'DL', 'SE', 'DP', 'SF', 'DR', 'SP', 'DS', 'TR', 'DY', 'EA', 'ED', 'EO', 'EP', 'FD', 'HL', 'HP', 'IT',
  'IX', 'LO', 'OC', 'OD', 'OF', 'OW', 'OX', 'PD', 'CC', 'CD', 'CP',
];

test('every published status code and derived code has a status, and unknown codes fall back to unknown', () => {
  for (const code of [...publishedCodes, 'IN', 'RL']) assert.ok(Object.hasOwn(fedexStatuses, code), code);
  assert.equal(fedexStatus('IN'), 'pre_transit');
  assert.equal(fedexStatus('RL'), 'in_transit');
  assert.equal(fedexStatus('ED'), 'out_for_delivery');
  assert.equal(fedexStatus('DL'), 'delivered');
  assert.equal(fedexStatus('od'), 'out_for_delivery');
  assert.equal(fedexStatus('HL'), 'available_for_pickup');
  assert.equal(fedexStatus('RS'), 'return_to_sender');
  assert.equal(fedexStatus('CA'), 'cancelled');
  assert.equal(fedexStatus('ZZ'), 'unknown');
  assert.equal(fedexStatus('toString'), 'unknown');
  assert.equal(fedexStatus(undefined), 'unknown');
});

test('a delivered answer gives events oldest first with locations, and the estimate as FedEx wrote it', () => {
  const result = parseTrackResponse(fixture('track-delivered'), '581190049992');
  assert.ok(result.ok);
  const t = result.value;
  assert.equal(t.status, 'delivered');
  assert.equal(t.statusDetail, 'Delivered');
  assert.equal(t.estimatedDeliveryDate, '2024-05-03');
  // The OD scan's derivedStatusCode is IT: its own event type, out for delivery, is what it says.
  assert.deepEqual(t.events.map((e) => e.status), ['pre_transit', 'in_transit', 'out_for_delivery', 'delivered']);
  assert.equal(t.events[0]!.location, null);
  assert.deepEqual(t.events[3]!.location, { city: 'SAN FRANCISCO', state: 'CA', zip: '94105', country: 'US' });
  assert.equal(t.events[3]!.occurredAt.toISOString(), '2024-05-03T21:02:00.000Z');
});

test('a reused number answers with its latest shipment, single objects and a delivery window accepted', () => {
  const result = parseTrackResponse(fixture('track-reused'), '713062653486');
  assert.ok(result.ok);
  assert.equal(result.value.status, 'available_for_pickup');
  assert.equal(result.value.events.length, 1);
  assert.equal(result.value.estimatedDeliveryDate, '2024-05-04');
});

test('a number FedEx does not know yet is unknown, not a failure; other per-number errors are carrier_error', () => {
  const result = parseTrackResponse(fixture('track-notfound'), '123456789012');
  assert.ok(result.ok);
  assert.equal(result.value.status, 'unknown');
  assert.deepEqual(result.value.events, []);
  const other = parseTrackResponse(
    { output: { completeTrackResults: [{ trackingNumber: '1', trackResults: [{ error: { code: 'TRACKING.SYSTEM.ERROR', message: 'try later' } }] }] } },
    '1',
  );
  assert.equal(!other.ok && other.error.code, 'carrier_error');
  const empty = parseTrackResponse({ output: {} }, '1');
  assert.equal(!empty.ok && empty.error.code, 'carrier_error');
});

test('a scan is read by its own event type before the derived code FedEx groups it under', () => {
  assert.equal(fedexStatus('OD', 'IT'), 'out_for_delivery');
  assert.equal(fedexStatus('HP', 'IT'), 'available_for_pickup');
  assert.equal(fedexStatus('ZZ', 'IT'), 'in_transit');
  const answer = {
    output: {
      completeTrackResults: [
        {
          trackingNumber: '039813852990618',
          trackResults: [
            {
              latestStatusDetail: { code: 'OD', derivedCode: 'IT', description: 'On FedEx vehicle for delivery' },
              scanEvents: [{ date: '2024-05-03T07:55:00-07:00', eventType: 'OD', derivedStatusCode: 'IT', eventDescription: 'On FedEx vehicle for delivery' }],
            },
          ],
        },
      ],
    },
  };
  const result = parseTrackResponse(answer, '039813852990618');
  assert.ok(result.ok);
  assert.equal(result.value.status, 'out_for_delivery');
  assert.equal(result.value.events[0]!.status, 'out_for_delivery');
});

test('the derived codes IN and RL of real answers are label created and running late', () => {
  const answer = (code: string, derivedCode: string) => ({
    output: { completeTrackResults: [{ trackingNumber: '1', trackResults: [{ latestStatusDetail: { code, derivedCode }, scanEvents: [] }] }] },
  });
  const created = parseTrackResponse(answer('', 'IN'), '1');
  assert.equal(created.ok && created.value.status, 'pre_transit');
  const late = parseTrackResponse(answer('', 'RL'), '1');
  assert.equal(late.ok && late.value.status, 'in_transit');
});

test("an answer in the track document's shape: out for delivery by its own code, label created by its derived one", () => {
  const result = parseTrackResponse(fixture('track-spec-shape'), '128667043726');
  assert.ok(result.ok);
  assert.equal(result.value.status, 'out_for_delivery');
  assert.equal(result.value.statusDetail, 'On FedEx vehicle for delivery');
  assert.equal(result.value.estimatedDeliveryDate, '2024-05-03');
  assert.deepEqual(result.value.events.map((e) => e.status), ['pre_transit', 'in_transit', 'in_transit', 'out_for_delivery']);
  assert.deepEqual(result.value.events.map((e) => e.occurredAt.toISOString()), ['2024-05-01T14:30:57.000Z', '2024-05-01T22:12:00.000Z', '2024-05-03T05:10:00.000Z', '2024-05-03T14:41:00.000Z']);
  assert.equal(result.value.events[0]!.location, null);
});

test('several numbers go in one request and each is answered by its own completeTrackResults entry, whatever the order', () => {
  const numbers = ['581190049992', '123456789012', '568838414941'];
  assert.deepEqual(buildTrackRequest(numbers).trackingInfo.map((i) => i.trackingNumberInfo.trackingNumber), numbers);
  const delivered = (fixture('track-delivered') as { output: { completeTrackResults: unknown[] } }).output.completeTrackResults[0];
  const notFound = (fixture('track-notfound') as { output: { completeTrackResults: unknown[] } }).output.completeTrackResults[0];
  const answer = { output: { completeTrackResults: [{ ...(notFound as object), trackingNumber: '123456789012' }, { ...(delivered as object), trackingNumber: '581190049992' }] } };
  const parsed = parseTrackResponses(answer, numbers);
  assert.ok(parsed.ok);
  const byNumber = Object.fromEntries([...parsed.value].map(([n, r]) => [n, r.ok ? r.value.status : r.error.code]));
  assert.deepEqual(byNumber, { '581190049992': 'delivered', '123456789012': 'unknown', '568838414941': 'carrier_error' }, 'a number left out fails alone');
  const none = parseTrackResponses({ output: {} }, numbers);
  assert.equal(!none.ok && none.error.code, 'carrier_error');
});

test('a signed delivery: signedByName before receivedByName, the SPOD FedEx holds, and each scan with its offset and zone', () => {
  const r = parseTrackResponse(fixture('track-signed'), '770818234654');
  assert.ok(r.ok);
  assert.equal(r.value.status, 'delivered');
  assert.equal(r.value.signedBy, 'GHOPPER');
  assert.deepEqual(r.value.proofOfDelivery, [{ type: 'document' }]);
  assert.deepEqual(
    r.value.events.map((e) => [e.occurredAt.toISOString(), e.utcOffset, e.timeZone]),
    [
      // Pensacola is on Central time, Florida's zone is Eastern: FedEx's offset is kept, no zone is claimed.
      ['2026-03-06T21:30:00.000Z', '-06:00', undefined],
      // No offset written: local time in Indiana's zone.
      ['2026-03-07T21:40:00.000Z', '-05:00', 'America/Indiana/Indianapolis'],
      // After the change to summer time on March 8.
      ['2026-03-09T15:02:00.000Z', '-05:00', 'America/Chicago'],
    ],
  );
  const unsigned = parseTrackResponse(fixture('track-delivered'), '581190049992');
  assert.ok(unsigned.ok);
  assert.equal(unsigned.value.signedBy, undefined);
  assert.deepEqual(unsigned.value.proofOfDelivery, [], "FedEx says it holds no SPOD, so none is asked for");
});
