import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { LabelRef, TrackingEvent, TrackingStatus } from '../carrier.ts';
import { lookupZip } from '../zips.ts';
import { deliveryDate } from './calendar.ts';
import { SimulatedCarrier } from './simulator.ts';
import { simTables } from './tables.ts';
import { simulatedJourney, simulatedTracking } from './tracking-timeline.ts';

const minute = 60_000;
const newYork = { street1: '350 5th Ave', city: 'New York', state: 'NY', zip: '10001' };
const sanFrancisco = { name: 'Ada Lovelace', street1: '415 Mission St', city: 'San Francisco', state: 'CA', zip: '94105' };

/** A ground label across the country: five business days, as UPS Ground quotes zone 8. */
function groundLabel(purchasedAt: Date, recipient = sanFrancisco.name): LabelRef {
  return {
    trackingNumber: '1ZSHPD01030000001X',
    carrierShipmentId: '1ZSHPD01030000001X',
    service: '03',
    purchasedAt,
    estimatedDeliveryDate: deliveryDate(purchasedAt, 5),
    from: newYork,
    to: { ...sanFrancisco, name: recipient },
  };
}

const mondayMorning = new Date('2025-03-03T10:00:00Z');
const rank: Record<TrackingStatus, number> = {
  unknown: 0,
  pre_transit: 1,
  in_transit: 2,
  out_for_delivery: 3,
  available_for_pickup: 4,
  delivered: 4,
  return_to_sender: 4,
  failure: 4,
  cancelled: 4,
  error: 4,
};

function assertStrictlyIncreasing(events: TrackingEvent[]): void {
  for (let i = 1; i < events.length; i++) {
    assert.ok(events[i]!.occurredAt.getTime() > events[i - 1]!.occurredAt.getTime(), `event ${i} (${events[i]!.description}) is not after the one before`);
  }
}

test('a coast-to-coast journey: created, picked up, through cities between the two coasts, out for delivery, delivered', () => {
  const events = simulatedJourney(groundLabel(mondayMorning), 1);
  assertStrictlyIncreasing(events);
  const statuses = events.map((e) => e.status);
  assert.equal(statuses[0], 'pre_transit');
  assert.equal(statuses[1], 'in_transit');
  assert.deepEqual(statuses.slice(-2), ['out_for_delivery', 'delivered']);
  assert.ok(statuses.slice(1, -2).every((s) => s === 'in_transit'));
  assert.deepEqual(
    events.map((e) => e.description).filter((d) => !/^(Arrived at|Departed) /.test(d)),
    ['Shipping label created, awaiting item', 'Picked up', 'In transit to next facility', 'Out for delivery', 'Delivered, front door'],
  );
  assert.equal(events[1]!.location?.city, 'NEW YORK');
  assert.equal(events.at(-1)!.location?.city, 'SAN FRANCISCO');

  const hubs = events.filter((e) => e.description === 'Arrived at facility').map((e) => e.location!);
  assert.ok(hubs.length >= 2, `${hubs.length} facilities on the way`);
  const west = lookupZip('94105')!.longitude;
  const east = lookupZip('10001')!.longitude;
  let previous = east;
  for (const hub of hubs) {
    assert.ok(!['NEW YORK', 'SAN FRANCISCO'].includes(hub.city), hub.city);
    const known = lookupZip(hub.zip);
    assert.equal(known?.city.toUpperCase(), hub.city, `${hub.city} is the city of ZIP ${hub.zip}`);
    assert.ok(known.longitude < previous && known.longitude > west, `${hub.city}, ${hub.state} lies on the way west`);
    previous = known.longitude;
  }
  assert.equal(new Set(hubs.map((h) => h.city)).size, hubs.length);
  for (const hub of hubs) assert.ok(events.some((e) => e.description === 'Departed facility' && e.location?.city === hub.city));
});

test('at speed 1 the journey is the carrier plan: the afternoon pickup, a scan each business day, delivered on the quoted date', () => {
  const label = groundLabel(mondayMorning);
  const events = simulatedJourney(label, 1);
  assert.equal(label.estimatedDeliveryDate, '2025-03-10');
  assert.equal(events[0]!.occurredAt.toISOString(), '2025-03-03T10:00:00.000Z');
  // Between 14:00 and 18:00 in New York (EST, UTC-5), the same day.
  const pickup = events[1]!.occurredAt.toISOString();
  assert.ok(pickup >= '2025-03-03T19:00:00.000Z' && pickup < '2025-03-03T23:00:00.000Z', pickup);
  assert.equal(events[1]!.description, 'Picked up');
  assert.equal(events.find((e) => e.description === 'Arrived at destination facility')!.occurredAt.toISOString(), '2025-03-10T05:00:00.000Z');
  assert.equal(events.find((e) => e.status === 'out_for_delivery')!.occurredAt.toISOString(), '2025-03-10T08:00:00.000Z');
  assert.equal(events.at(-1)!.occurredAt.toISOString(), '2025-03-10T14:00:00.000Z');
  for (const day of ['2025-03-04', '2025-03-05', '2025-03-06', '2025-03-07']) {
    assert.ok(events.some((e) => e.status === 'in_transit' && e.occurredAt.toISOString().startsWith(day)), `a scan on ${day}`);
  }
  // Bought on a Friday at 17:30 in New York, after any pickup's last call: picked up on Monday afternoon, by then
  // on daylight time (UTC-4).
  const monday = simulatedJourney(groundLabel(new Date('2025-03-07T22:30:00Z')), 1)[1]!.occurredAt.toISOString();
  assert.ok(monday >= '2025-03-10T18:00:00.000Z' && monday < '2025-03-10T22:00:00.000Z', monday);
  // Bought on a Saturday: Monday too.
  const weekend = simulatedJourney(groundLabel(new Date('2025-03-08T15:00:00Z')), 1)[1]!.occurredAt.toISOString();
  assert.ok(weekend.startsWith('2025-03-10T'), weekend);
});

test('pickups spread over the afternoon at the ship-from address, two hours after the last label they take', () => {
  const at = (trackingNumber: string, from: typeof newYork, purchasedAt = mondayMorning) =>
    simulatedJourney({ ...groundLabel(purchasedAt), trackingNumber, carrierShipmentId: trackingNumber, from }, 1)[1]!.occurredAt;
  const numbers = Array.from({ length: 300 }, (_, i) => `1ZSHPD0103${String(i).padStart(7, '0')}`);
  const hoursIn = (zone: string, d: Date) => Number(new Intl.DateTimeFormat('en-US', { timeZone: zone, hour: 'numeric', minute: 'numeric', hourCycle: 'h23' }).format(d).replace(':', '.'));
  const newYorkPickups = numbers.map((n) => at(n, newYork));
  for (const p of newYorkPickups) assert.ok(hoursIn('America/New_York', p) >= 14 && hoursIn('America/New_York', p) < 18, p.toISOString());
  const spanMinutes = (ps: Date[]) => (Math.max(...ps.map(Number)) - Math.min(...ps.map(Number))) / minute;
  assert.ok(spanMinutes(newYorkPickups) >= 200, `New York's pickups span ${spanMinutes(newYorkPickups)} minutes`);
  // In the west the afternoon is cut at UTC midnight (the simulators' days are UTC days): 14:00 to 15:59 there.
  const seattle = { street1: '400 Broad St', city: 'Seattle', state: 'WA', zip: '98109' };
  const seattlePickups = numbers.map((n) => at(n, seattle));
  for (const p of seattlePickups) {
    assert.ok(hoursIn('America/Los_Angeles', p) >= 14 && hoursIn('America/Los_Angeles', p) < 16, p.toISOString());
    assert.ok(p.toISOString().startsWith('2025-03-03T'), p.toISOString());
  }
  assert.ok(spanMinutes(seattlePickups) >= 100, `Seattle's pickups span ${spanMinutes(seattlePickups)} minutes`);
  // Bought two hours before its pickup it makes it; a minute later it waits for the next business day's.
  const pickup = at(numbers[0]!, newYork);
  assert.equal(at(numbers[0]!, newYork, new Date(pickup.getTime() - 120 * minute)).toISOString(), pickup.toISOString());
  const tuesday = at(numbers[0]!, newYork, new Date(pickup.getTime() - 119 * minute));
  assert.ok(tuesday.toISOString().startsWith('2025-03-04T'), tuesday.toISOString());
});

test('the boxes of one shipment are picked up together', () => {
  const boxes = ['1ZSHPD01030000011X', '1ZSHPD01030000012X', '1ZSHPD01030000013X'].map((trackingNumber) => ({ trackingNumber, carrierShipmentId: trackingNumber }));
  const pickups = boxes.map((b) => simulatedJourney({ ...groundLabel(mondayMorning), ...b, boxes }, 1)[1]!.occurredAt.toISOString());
  assert.equal(new Set(pickups).size, 1, pickups.join(', '));
});

test('at the default speed a label bought on a Monday morning crosses the country within 15 minutes', () => {
  const label = groundLabel(mondayMorning);
  const events = simulatedJourney(label, 1440);
  assertStrictlyIncreasing(events);
  const delivered = events.at(-1)!;
  assert.equal(delivered.status, 'delivered');
  assert.ok(delivered.occurredAt.getTime() - mondayMorning.getTime() <= 15 * minute, delivered.occurredAt.toISOString());
  assert.equal(simulatedTracking(label, new Date(mondayMorning.getTime() + 15 * minute), 1440).status, 'delivered');
  // The quoted date stays what the customer was told.
  assert.equal(simulatedTracking(label, delivered.occurredAt, 1440).estimatedDeliveryDate, '2025-03-10');
});

test('the first scan is never sooner than a minute after purchase, whatever the speed and the hour bought', () => {
  for (const bought of ['2025-03-03T10:00:00Z', '2025-03-03T15:59:30Z', '2025-03-07T17:00:00Z', '2025-03-08T12:00:00Z']) {
    for (const speed of [1, 60, 1440, 1_000_000]) {
      const purchasedAt = new Date(bought);
      const events = simulatedJourney(groundLabel(purchasedAt), speed);
      assertStrictlyIncreasing(events);
      assert.equal(events[0]!.occurredAt.getTime(), purchasedAt.getTime());
      assert.ok(events[1]!.occurredAt.getTime() >= purchasedAt.getTime() + minute, `${bought} at speed ${speed}`);
      assert.equal(simulatedTracking(groundLabel(purchasedAt), new Date(purchasedAt.getTime() + minute - 1), speed).status, 'pre_transit');
    }
  }
});

test('as the clock moves, tracking only moves forward, and shows nothing that has not happened yet', () => {
  const label = groundLabel(mondayMorning);
  let before = simulatedTracking(label, mondayMorning, 1440);
  assert.equal(before.status, 'pre_transit');
  for (let t = mondayMorning.getTime(); t <= mondayMorning.getTime() + 20 * minute; t += 5_000) {
    const now = new Date(t);
    const seen = simulatedTracking(label, now, 1440);
    assert.ok(rank[seen.status] >= rank[before.status], `${before.status} → ${seen.status} at ${now.toISOString()}`);
    assert.ok(seen.events.length >= before.events.length);
    assert.deepEqual(seen.events.slice(0, before.events.length), before.events);
    assert.ok(seen.events.every((e) => e.occurredAt.getTime() <= t));
    assert.equal(seen.status, seen.events.at(-1)!.status);
    if (seen.status !== 'delivered') assert.ok(seen.nextEventAt!.getTime() > t, 'says when to look again');
    before = seen;
  }
  assert.equal(before.status, 'delivered');
  assert.equal(before.nextEventAt, undefined);
});

test('a clock set back before the purchase sees a label not yet handed over, with no events', () => {
  const seen = simulatedTracking(groundLabel(mondayMorning), new Date(mondayMorning.getTime() - minute), 1440);
  assert.equal(seen.status, 'pre_transit');
  assert.deepEqual(seen.events, []);
});

test('the same label, clock and speed give the same journey', () => {
  const now = new Date(mondayMorning.getTime() + 4 * minute);
  assert.deepEqual(simulatedTracking(groundLabel(mondayMorning), now, 1440), simulatedTracking(groundLabel(mondayMorning), now, 1440));
  assert.deepEqual(simulatedJourney(groundLabel(mondayMorning), 1), simulatedJourney(groundLabel(mondayMorning), 1));
});

test('a parcel across town passes no facility on the way', () => {
  const label = { ...groundLabel(mondayMorning), to: { ...newYork, street1: '1 Grand St', zip: '10002' }, estimatedDeliveryDate: '2025-03-04' };
  const events = simulatedJourney(label, 1);
  assert.deepEqual(
    events.map((e) => e.description),
    ['Shipping label created, awaiting item', 'Picked up', 'Arrived at destination facility', 'Out for delivery', 'Delivered, front door'],
  );
});

test('the recipient name picks an unhappy ending: return to sender, failure, held for pickup', () => {
  const endings: [string, TrackingStatus[]][] = [
    ['Return to sender', ['out_for_delivery', 'return_to_sender']],
    ['Delivery failure', ['out_for_delivery', 'failure']],
    ['  pickup AT facility ', ['in_transit', 'available_for_pickup']],
  ];
  for (const [name, last] of endings) {
    const label = groundLabel(mondayMorning, name);
    const events = simulatedJourney(label, 1440);
    assertStrictlyIncreasing(events);
    assert.deepEqual(events.slice(-2).map((e) => e.status), last, name);
    assert.ok(!events.some((e) => e.status === 'delivered'), name);
    assert.equal(events.at(-1)!.location?.city, 'SAN FRANCISCO');
    assert.equal(simulatedTracking(label, new Date(mondayMorning.getTime() + 15 * minute), 1440).status, last[1]);
  }
});

test('a simulated label can be voided until its first scan, a minute after purchase at the default speed', async () => {
  let now = mondayMorning;
  const carrier = new SimulatedCarrier(simTables.find((t) => t.id === 'ups')!, { now: () => now }, { trackingSpeed: 1440 });
  const label = groundLabel(mondayMorning);
  now = new Date(mondayMorning.getTime() + 59_000);
  assert.deepEqual(await carrier.void(label), { ok: true, value: 'refunded' });
  now = new Date(mondayMorning.getTime() + minute);
  const refused = await carrier.void(label);
  assert.equal(refused.ok, false);
  assert.equal(!refused.ok && refused.error.code, 'label_in_transit');
  const tracked = await carrier.track(label);
  assert.equal(tracked.ok && tracked.value.status, 'in_transit');
});
