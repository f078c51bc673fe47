import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { buildTrackBatchRequest, parseTracking, parseTrackingBatch, parseTrackingNotFound } from './track.ts';
import { categoryStatus, eventStatus, eventStatuses } from './statuses.ts';

const fixture = (name: string): unknown => JSON.parse(readFileSync(new URL(`./fixtures/${name}`, import.meta.url), 'utf8'));

test('events come oldest first with their statuses, places and UTC times from either timestamp form', () => {
  const result = parseTracking(fixture('tracking.json'));
  assert.ok(result.ok);
  const t = result.value;
  assert.equal(t.status, 'delivered');
  assert.equal(t.statusDetail, 'Delivered, Parcel Locker');
  assert.equal(t.estimatedDeliveryDate, '2024-11-22');
  assert.deepEqual(
    t.events.map((e) => [e.occurredAt.toISOString(), e.status]),
    [
      ['2024-11-18T15:00:00.000Z', 'pre_transit'],
      ['2024-11-19T21:30:00.000Z', 'in_transit'],
      ['2024-11-20T15:00:00.000Z', 'unknown'],
      // No GMTTimestamp: the local time moved by the "-06:00" offset.
      ['2024-11-22T12:10:00.000Z', 'out_for_delivery'],
      ['2024-11-22T19:58:00.000Z', 'delivered'],
    ],
  );
  assert.deepEqual(t.events[0]!.location, { city: 'BROOKLYN', state: 'NY', zip: '11201', country: 'US' });
  assert.equal(t.events[2]!.location, null);
  assert.equal(t.events[4]!.description, 'Delivered, Parcel Locker');
});

test('a single event object instead of a list parses, and predictedDeliveryDate gives the estimate', () => {
  const result = parseTracking(fixture('tracking-single-event.json'));
  assert.ok(result.ok);
  assert.equal(result.value.status, 'pre_transit');
  assert.equal(result.value.estimatedDeliveryDate, '2024-11-25');
  assert.equal(result.value.events.length, 1);
  assert.equal(result.value.events[0]!.occurredAt.toISOString(), '2024-11-18T15:00:00.000Z');
});

test('an unknown category falls back to the latest event, and unknown codes to unknown', () => {
  const result = parseTracking({ statusCategory: 'Something New', trackingEvents: [{ eventCode: 'OF', eventType: 'Out for Delivery', GMTTimestamp: '2024-11-22T12:00:00Z' }] });
  assert.ok(result.ok);
  assert.equal(result.value.status, 'out_for_delivery');
  assert.equal(eventStatus('QQ'), 'unknown');
  assert.equal(eventStatus('toString'), 'unknown');
  assert.equal(categoryStatus('Return to Sender'), 'return_to_sender');
  assert.equal(categoryStatus(undefined), 'unknown');
});

test('every code of the published event list has a status, and only deliveries, returns and dead letters end tracking', () => {
  assert.equal(eventStatus('02'), 'available_for_pickup');
  assert.equal(eventStatus('16'), 'available_for_pickup');
  assert.equal(eventStatus('43'), 'delivered');
  assert.equal(eventStatus('17'), 'delivered');
  for (const code of ['04', '05', '09', '21', '22', '23', '24', '25', '26', '27', '28', '29', '31']) assert.equal(eventStatus(code), 'return_to_sender', code);
  for (const code of ['30', '51', '71', 'DX', '06', '08', 'EF', 'PC', '80', '81', '82']) assert.equal(eventStatus(code), 'in_transit', code);
  assert.equal(eventStatus('11'), 'failure');
  assert.equal(eventStatus('gx'), 'pre_transit');
  const ending = new Set(['delivered', 'return_to_sender', 'failure', 'cancelled']);
  const enders = Object.entries(eventStatuses).filter(([, status]) => ending.has(status)).map(([code]) => code).sort();
  assert.deepEqual(enders, ['01', '04', '05', '09', '11', '17', '21', '22', '23', '24', '25', '26', '27', '28', '29', '31', '43', '44']);
});

test('an Alert category (a delay, a missing scan) does not end tracking: the latest event decides', () => {
  const delayed = parseTracking({ statusCategory: 'Alert', status: 'Arriving Late', trackingEvents: [{ eventCode: 'DX', eventType: 'Delivery Status Not Updated', GMTTimestamp: '2024-11-22T12:00:00Z' }] });
  assert.ok(delayed.ok);
  assert.equal(delayed.value.status, 'in_transit');
  const unknownCode = parseTracking({ statusCategory: 'Alert', trackingEvents: [{ eventCode: 'Z9', eventType: 'Something new', GMTTimestamp: '2024-11-22T12:00:00Z' }] });
  assert.equal(unknownCode.ok && unknownCode.value.status, 'unknown');
});

test('a tracking 404 is an unknown status with the carrier message; a non-object answer is a carrier_error', () => {
  const nf = parseTrackingNotFound({ apiVersion: '/tracking/v3', error: { code: '404', message: 'Not Found', errors: [{ detail: 'A status update is not yet available.' }] } });
  assert.deepEqual(nf, { ok: true, value: { status: 'unknown', statusDetail: 'A status update is not yet available.', estimatedDeliveryDate: null, events: [] } });
  assert.equal(parseTracking([]).ok, false);
  assert.equal(parseTracking({ trackingEvents: [{ eventCode: '01', eventTimestamp: 'yesterday' }] }).ok, false);
});

test("tracking v3r2's answer for several numbers: each item found by its number, 404 items unknown, v3r2's field names read", () => {
  const answer = [
    { statusCode: '404', trackingNumber: '9400100000000000000001', apiVersion: '/tracking/v3r2', error: { code: '404', message: 'Not Found', errors: [{ code: '1001', detail: 'A status update is not yet available on your package.' }] } },
    {
      statusCode: '200',
      trackingNumber: '9400100000000000000002',
      statusCategory: 'In Transit',
      status: 'Arrived at USPS Regional Facility',
      deliveryDateExpectation: { expectedDeliveryDate: '2026-12-01' },
      trackingEvents: [{ eventType: 'Arrived at USPS Regional Facility', eventCode: '10', GMTTimestamp: '2026-11-27T10:00:00Z', eventCity: 'DALLAS', eventState: 'TX', eventZIPCode: '75260' }],
    },
    { statusCode: '500', trackingNumber: '9400100000000000000003', error: { message: 'try later' } },
  ];
  const parsed = parseTrackingBatch(answer, ['9400100000000000000002', '9400100000000000000001', '9400100000000000000003', '9400100000000000000004']);
  assert.ok(parsed.ok);
  const [moving, unknown, failed, missing] = [...parsed.value.values()];
  assert.ok(moving?.ok && unknown?.ok);
  assert.equal(moving.value.status, 'in_transit');
  assert.equal(moving.value.estimatedDeliveryDate, '2026-12-01');
  assert.deepEqual(moving.value.events[0]!.location, { city: 'DALLAS', state: 'TX', zip: '75260', country: 'US' });
  assert.equal(unknown.value.status, 'unknown');
  assert.match(unknown.value.statusDetail, /not yet available/);
  assert.equal(!failed!.ok && failed!.error.code, 'carrier_error');
  assert.equal(!missing!.ok && missing!.error.code, 'carrier_error');
  assert.deepEqual(buildTrackBatchRequest(['A1', 'B2']), [{ trackingNumber: 'A1' }, { trackingNumber: 'B2' }]);
  const notArray = parseTrackingBatch({}, ['A1']);
  assert.equal(!notArray.ok && notArray.error.code, 'carrier_error');
});

test('the delivery event names who signed; a local time without an offset is read in the zone of its ZIP', () => {
  const r = parseTracking(fixture('tracking-signed.json'));
  assert.ok(r.ok);
  assert.equal(r.value.signedBy, 'K JOHNSON');
  assert.deepEqual(
    r.value.events.map((e) => [e.occurredAt.toISOString(), e.utcOffset, e.timeZone]),
    [
      // GMTOffset as the spec's example writes it ("-7:00"), here Seattle's winter time.
      ['2026-03-07T01:20:00.000Z', '-08:00', 'America/Los_Angeles'],
      // No state given: ZIP 80202 is Denver's, on summer time since March 8.
      ['2026-03-10T12:05:00.000Z', '-06:00', 'America/Denver'],
      ['2026-03-10T16:14:00.000Z', '-06:00', 'America/Denver'],
    ],
  );
  const plain = parseTracking(fixture('tracking.json'));
  assert.ok(plain.ok);
  // An empty name is nobody.
  assert.equal(plain.value.signedBy, undefined);
  assert.deepEqual(plain.value.events.map((e) => e.utcOffset), ['-05:00', '-05:00', '-06:00', '-06:00', '-06:00']);
});
