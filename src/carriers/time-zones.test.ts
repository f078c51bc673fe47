import { test } from 'node:test';
import assert from 'node:assert/strict';
import { instantInZone, wallClock, zoneOfState } from './time-zones.ts';

function intl(zone: string, at: Date) {
  const f = new Intl.DateTimeFormat('en-CA', { timeZone: zone, year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', second: '2-digit', hourCycle: 'h23' });
  const p = Object.fromEntries(f.formatToParts(at).map((part) => [part.type, Number(part.value)]));
  return { year: p.year, month: p.month, day: p.day, hour: p.hour, minute: p.minute, second: p.second };
}

test('the wall clock from the remembered offsets is what Intl says, across both 2026 daylight-saving changes in every zone', () => {
  const zones = new Set(['NY', 'TX', 'CO', 'AZ', 'CA', 'AK', 'HI', 'IN', 'PR', 'GU', 'AS'].map((s) => zoneOfState(s)!));
  for (const change of ['2026-03-08T00:00:00Z', '2026-11-01T00:00:00Z']) {
    const from = Date.parse(change);
    // Every 7 min 13.5 s over two days: seconds and quarter hours on both sides of each zone's change.
    for (let t = from; t < from + 2 * 86_400_000; t += 433_500) {
      for (const zone of zones) assert.deepEqual(wallClock(zone, new Date(t)), intl(zone, new Date(t)), `${zone} at ${new Date(t).toISOString()}`);
    }
  }
});

test('a local time names its instant on either side of a change', () => {
  const ny = zoneOfState('NY')!;
  assert.equal(instantInZone(ny, { year: 2026, month: 3, day: 8, hour: 1, minute: 59, second: 0 }).toISOString(), '2026-03-08T06:59:00.000Z');
  assert.equal(instantInZone(ny, { year: 2026, month: 3, day: 8, hour: 3, minute: 0, second: 0 }).toISOString(), '2026-03-08T07:00:00.000Z');
  assert.equal(instantInZone(ny, { year: 2026, month: 11, day: 1, hour: 3, minute: 0, second: 0 }).toISOString(), '2026-11-01T08:00:00.000Z');
});
