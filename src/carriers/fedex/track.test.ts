import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fixture } from './fixtures.ts';
import { fedexStatus, fedexStatuses } from './statuses.ts';
import { buildTrackRequest, parseTrackResponse } from './track.ts';

test('the track request asks detailed scans for one number', () => {
  assert.deepEqual(buildTrackRequest('581190049992'), { includeDetailedScans: true, trackingInfo: [{ trackingNumberInfo: { trackingNumber: '581190049992' } }] });
});

test('every documented status code has a status, and unknown codes fall back to unknown', () => {
  for (const code of ['OC', 'PU', 'AR', 'DP', 'IT', 'AF', 'FD', 'OD', 'DL', 'DE', 'SE', 'DY', 'DD', 'HL', 'HP', 'CA', 'RS', 'CD', 'SF', 'OX']) {
    assert.ok(Object.hasOwn(fedexStatuses, code), code);
  }
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
  assert.deepEqual(t.events.map((e) => e.status), ['pre_transit', 'in_transit', 'in_transit', 'delivered']);
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
