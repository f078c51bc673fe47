import { test } from 'node:test';
import assert from 'node:assert/strict';
import { localClock, minutesOf, timeOf } from './local-time.ts';

test("the local day and time follow the state's zone, daylight saving included, and any letter case", () => {
  const julyNoonUtc = new Date('2030-07-01T12:00:00Z');
  assert.deepEqual(localClock('ny', julyNoonUtc), { date: '2030-07-01', minutes: 8 * 60 });
  assert.deepEqual(localClock('AZ', julyNoonUtc), { date: '2030-07-01', minutes: 5 * 60 });
  assert.deepEqual(localClock('HI', julyNoonUtc), { date: '2030-07-01', minutes: 2 * 60 });
  assert.deepEqual(localClock('CA', new Date('2030-01-01T05:30:00Z')), { date: '2029-12-31', minutes: 21 * 60 + 30 });
});

test('military post offices have no local time', () => {
  for (const state of ['AA', 'AE', 'AP']) assert.equal(localClock(state, new Date()), undefined);
});

test('HH:MM and minutes convert both ways', () => {
  assert.equal(minutesOf('08:05'), 485);
  assert.equal(timeOf(485), '08:05');
  assert.equal(timeOf(0), '00:00');
});
