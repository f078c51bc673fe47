import { test } from 'node:test';
import assert from 'node:assert/strict';
import { externalParcel } from './external-tracking.ts';
import { simulatedTracking } from './tracking-timeline.ts';
import { lookupZip } from '../zips.ts';

test('a number bought elsewhere: the number decides the route and the days, the moment it is followed starts it', () => {
  const monday = new Date('2026-11-23T10:00:00Z');
  const a = externalParcel('770818234654', monday);
  assert.deepEqual(externalParcel('770818234654', monday), a, 'the same every time');
  const later = externalParcel('770818234654', new Date('2026-11-30T10:00:00Z'));
  assert.deepEqual([later.from, later.to], [a.from, a.to]);
  assert.notDeepEqual(a.from, a.to);
  const routes = new Set(Array.from({ length: 40 }, (_, i) => JSON.stringify(externalParcel(`1Z${i}`, monday).to)));
  assert.ok(routes.size > 4, `numbers go to ${routes.size} places`);
  for (let i = 0; i < 40; i++) {
    const p = externalParcel(`n${i}`, monday);
    for (const end of [p.from!, p.to!]) assert.ok(lookupZip(end.zip!), end.zip);
    // Picked up on the day it is followed (before the cut-off), due 1 to 4 business days after.
    assert.ok(p.estimatedDeliveryDate! >= '2026-11-24' && p.estimatedDeliveryDate! <= '2026-11-27', p.estimatedDeliveryDate);
    const journey = simulatedTracking(p, new Date('2026-12-31T00:00:00Z'), 1);
    assert.equal(journey.status, 'delivered');
    assert.equal(journey.events[0]!.occurredAt.getTime(), monday.getTime());
  }
});
