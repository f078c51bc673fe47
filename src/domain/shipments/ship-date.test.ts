import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ApiError } from '../../kernel/errors.ts';
import { shipDay } from './ship-date.ts';

// 05:50 UTC on Friday 27 November 2026: still Thursday evening in Texas, already Friday afternoon on Guam.
const now = new Date('2026-11-27T05:50:00Z');

test("today is the ship-from location's day, and the carriers get an instant of that UTC date", () => {
  assert.deepEqual(shipDay({ state: 'TX' }, now, undefined), { day: '2026-11-26', at: new Date('2026-11-26T12:00:00Z') });
  assert.deepEqual(shipDay({ state: 'GU' }, now, undefined), { day: '2026-11-27', at: now });
  // A military post office has no zone: UTC's day.
  assert.equal(shipDay({ state: 'AE' }, now, undefined).day, '2026-11-27');
});

test('from today to 7 days ahead, counted where the parcel ships from', () => {
  assert.equal(shipDay({ state: 'TX' }, now, '2026-12-03').day, '2026-12-03');
  const refused = (state: string, day: string) =>
    assert.throws(() => shipDay({ state }, now, day), (e: unknown) => e instanceof ApiError && e.code === 'ship_date_out_of_range' && e.errors?.[0]?.pointer === '/ship_date');
  refused('TX', '2026-12-04');
  refused('GU', '2026-11-26');
  refused('TX', '2026-11-25');
});
