import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fixture } from './fixtures.ts';
import { parseTrackResponse } from './track.ts';
import { fedexInstant } from './time.ts';

/** Runs `read` with the process in another time zone (Node applies a new TZ at once), then puts the zone back. */
function inZone<T>(zone: string, read: () => T): T {
  const before = process.env.TZ;
  process.env.TZ = zone;
  try {
    return read();
  } finally {
    if (before === undefined) delete process.env.TZ;
    else process.env.TZ = before;
  }
}

const zones = ['UTC', 'Pacific/Honolulu', 'Asia/Tokyo', 'America/New_York'];

test('a FedEx time with an offset is that instant whatever the server zone', () => {
  for (const zone of zones) {
    assert.equal(inZone(zone, () => fedexInstant('2024-05-03T07:55:00-07:00'))?.toISOString(), '2024-05-03T14:55:00.000Z', zone);
    assert.equal(inZone(zone, () => fedexInstant('2024-05-03T07:55:00+0530'))?.toISOString(), '2024-05-03T02:25:00.000Z', zone);
    assert.equal(inZone(zone, () => fedexInstant('2024-05-03T07:55:00Z'))?.toISOString(), '2024-05-03T07:55:00.000Z', zone);
  }
});

test('a FedEx time without an offset is local time where it was scanned, else UTC, never in the server zone', () => {
  for (const zone of zones) {
    assert.equal(inZone(zone, () => fedexInstant('2024-05-03T07:55:00', 'TN'))?.toISOString(), '2024-05-03T12:55:00.000Z', zone);
    assert.equal(inZone(zone, () => fedexInstant('2024-01-03T07:55:00', 'tn'))?.toISOString(), '2024-01-03T13:55:00.000Z', zone);
    assert.equal(inZone(zone, () => fedexInstant('2024-03-10T03:30:00', 'NY'))?.toISOString(), '2024-03-10T07:30:00.000Z', zone);
    assert.equal(inZone(zone, () => fedexInstant('2024-05-03T07:55:00', 'HI'))?.toISOString(), '2024-05-03T17:55:00.000Z', zone);
    assert.equal(inZone(zone, () => fedexInstant('2024-05-03T07:55:00', 'AE'))?.toISOString(), '2024-05-03T07:55:00.000Z', zone);
  }
  for (const zone of zones) {
    assert.equal(inZone(zone, () => fedexInstant('2024-05-03T07:55:00'))?.toISOString(), '2024-05-03T07:55:00.000Z', zone);
    assert.equal(inZone(zone, () => fedexInstant('2024-05-03'))?.toISOString(), '2024-05-03T00:00:00.000Z', zone);
  }
  assert.equal(fedexInstant('soon'), undefined);
  assert.equal(fedexInstant(''), undefined);
  assert.equal(fedexInstant(undefined), undefined);
});

test('tracking events without offsets land on the instants of their scan locations in every server zone', () => {
  const answer = {
    output: {
      completeTrackResults: [
        {
          trackingNumber: '568838414941',
          trackResults: [
            {
              latestStatusDetail: { code: 'DP', derivedCode: 'IT' },
              scanEvents: [
                { date: '2024-05-02T03:40:00', eventType: 'DP', scanLocation: { city: 'MEMPHIS', stateOrProvinceCode: 'TN', countryCode: 'US' } },
                { date: '2024-05-01T18:05:00', eventType: 'AR', scanLocation: { city: 'MEMPHIS', stateOrProvinceCode: 'TN', countryCode: 'US' } },
              ],
            },
          ],
        },
      ],
    },
  };
  for (const zone of zones) {
    const result = inZone(zone, () => parseTrackResponse(answer, '568838414941'));
    assert.ok(result.ok);
    assert.deepEqual(result.value.events.map((e) => e.occurredAt.toISOString()), ['2024-05-01T23:05:00.000Z', '2024-05-02T08:40:00.000Z'], zone);
  }
  const delivered = inZone('Asia/Tokyo', () => parseTrackResponse(fixture('track-delivered'), '581190049992'));
  assert.ok(delivered.ok);
  assert.equal(delivered.value.events.at(-1)!.occurredAt.toISOString(), '2024-05-03T21:02:00.000Z');
});
