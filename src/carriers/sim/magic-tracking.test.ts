import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { LabelRef } from '../carrier.ts';
import { lookupZip } from '../zips.ts';
import { magicTracking, magicTrackingNumbers } from './magic-tracking.ts';
import { SimulatedCarrier } from './simulator.ts';
import { simTables } from './tables.ts';

const hour = 3_600_000;
const now = new Date('2025-03-05T15:42:17Z');

test('each magic number ends in its own status', () => {
  const expected = {
    SHIPD_TEST_PRE_TRANSIT: 'pre_transit',
    SHIPD_TEST_IN_TRANSIT: 'in_transit',
    SHIPD_TEST_OUT_FOR_DELIVERY: 'out_for_delivery',
    SHIPD_TEST_DELIVERED: 'delivered',
    SHIPD_TEST_AVAILABLE_FOR_PICKUP: 'available_for_pickup',
    SHIPD_TEST_RETURN_TO_SENDER: 'return_to_sender',
    SHIPD_TEST_FAILURE: 'failure',
  };
  assert.deepEqual([...magicTrackingNumbers].sort(), Object.keys(expected).sort());
  for (const [number, status] of Object.entries(expected)) {
    const tracked = magicTracking(number, now)!;
    assert.equal(tracked.status, status, number);
    assert.equal(tracked.events.at(-1)!.status, status, number);
    assert.equal(tracked.statusDetail, tracked.events.at(-1)!.description);
    assert.equal(tracked.events[0]!.status, 'pre_transit');
    assert.match(tracked.estimatedDeliveryDate!, /^\d{4}-\d{2}-\d{2}$/);
  }
  const inTransit = magicTracking('SHIPD_TEST_IN_TRANSIT', now)!;
  assert.ok(inTransit.events.some((e) => e.description === 'Arrived at facility'));
  assert.ok(inTransit.estimatedDeliveryDate! > now.toISOString().slice(0, 10), 'still on its way');
});

test('magic journeys go through real places, in order, all in the past', () => {
  for (const number of magicTrackingNumbers) {
    const { events } = magicTracking(number, now)!;
    for (let i = 0; i < events.length; i++) {
      const e = events[i]!;
      assert.ok(e.occurredAt.getTime() < now.getTime(), `${number}: ${e.description} is in the past`);
      if (i > 0) assert.ok(e.occurredAt.getTime() > events[i - 1]!.occurredAt.getTime(), `${number}: ${e.description} comes after the one before`);
      assert.equal(lookupZip(e.location!.zip)?.city.toUpperCase(), e.location!.city, `${number}: ${e.location!.city} is the city of ZIP ${e.location!.zip}`);
    }
  }
  const delivered = magicTracking('SHIPD_TEST_DELIVERED', now)!;
  assert.equal(delivered.events[0]!.location!.city, 'NEW YORK');
  assert.equal(delivered.events.at(-1)!.location!.city, 'SAN FRANCISCO');
  assert.ok(delivered.events.filter((e) => e.description === 'Arrived at facility').length >= 2);
});

test('the answer is the same all hour, case and spaces aside, and other numbers are not magic', () => {
  const first = magicTracking('SHIPD_TEST_DELIVERED', new Date('2025-03-05T15:00:00Z'));
  assert.deepEqual(magicTracking(' shipd_test_delivered ', new Date('2025-03-05T15:59:59.999Z')), first);
  assert.deepEqual(magicTracking('Shipd_Test_Delivered', now), first);
  assert.equal(first!.events.at(-1)!.occurredAt.toISOString(), '2025-03-05T14:00:00.000Z');
  const nextHour = magicTracking('SHIPD_TEST_DELIVERED', new Date(now.getTime() + hour))!;
  assert.equal(nextHour.events.at(-1)!.occurredAt.toISOString(), '2025-03-05T15:00:00.000Z');
  for (const other of ['SHIPD_TEST_LOST', '9400100000000000000000', '', 'constructor', 'toString']) assert.equal(magicTracking(other, now), undefined, other);
});

test('a simulated carrier tracks a magic number with its fixed outcome', async () => {
  const carrier = new SimulatedCarrier(simTables.find((t) => t.id === 'usps')!, { now: () => now }, { trackingSpeed: 1440 });
  const label: LabelRef = { trackingNumber: 'SHIPD_TEST_RETURN_TO_SENDER', carrierShipmentId: '', service: 'PRIORITY_MAIL', purchasedAt: now };
  const tracked = await carrier.track(label);
  assert.deepEqual(tracked, { ok: true, value: magicTracking('SHIPD_TEST_RETURN_TO_SENDER', now) });
});
