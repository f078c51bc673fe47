import { test } from 'node:test';
import assert from 'node:assert/strict';
import { dueTodayEveryMs, firstCheckWithinMs, firstLiveCheck, idFraction, liveCheckEveryMs, liveNextCheck, type LiveScheduleInput } from './schedule.ts';
import { CarrierPace } from './carrier-pace.ts';

const hour = 3_600_000;
const day = 24 * hour;
const now = new Date('2026-11-27T15:00:00Z');
const input = (over: Partial<LiveScheduleInput> = {}): LiveScheduleInput => ({
  trackerId: 'trk_01jx0000000000000000000000',
  status: 'in_transit',
  events: 2,
  estimatedDeliveryDate: '2026-11-30',
  lastEventAt: new Date(now.getTime() - hour),
  lastChangeAt: new Date(now.getTime() - hour),
  createdAt: new Date(now.getTime() - day),
  now,
  ...over,
});
const waitOf = (over: Partial<LiveScheduleInput> = {}) => {
  const next = liveNextCheck(input(over)).nextCheckAt;
  assert.ok(next, 'a next check');
  return next.getTime() - now.getTime();
};

test('a parcel is asked about more often the nearer it is to delivery, each within a quarter of its interval', () => {
  const unknown = waitOf({ status: 'unknown', events: 0 });
  const pre = waitOf({ status: 'pre_transit' });
  const moving = waitOf({ status: 'in_transit' });
  const out = waitOf({ status: 'out_for_delivery' });
  assert.ok(unknown > pre && pre > moving && moving > out, `${unknown} > ${pre} > ${moving} > ${out}`);
  for (const [status, wait] of [['unknown', unknown], ['pre_transit', pre], ['in_transit', moving], ['out_for_delivery', out]] as const) {
    const every = liveCheckEveryMs[status]!;
    assert.ok(wait >= every * 0.75 && wait <= every * 1.25, `${status}: ${wait} within a quarter of ${every}`);
  }
  assert.ok(pre >= 3 * hour, 'pre-transit is asked about hours apart');
});

test('a parcel in transit due today, or late, is asked about as often as one out for delivery', () => {
  const today = waitOf({ estimatedDeliveryDate: '2026-11-27' });
  const late = waitOf({ estimatedDeliveryDate: '2026-11-25', lastChangeAt: new Date(now.getTime() - hour) });
  assert.ok(today <= dueTodayEveryMs * 1.25 && late <= dueTodayEveryMs * 1.25, `${today}, ${late}`);
  assert.ok(waitOf({ estimatedDeliveryDate: '2026-11-29' }) > dueTodayEveryMs * 1.25);
});

test('a final status is never asked about again, with no reason beyond the status itself', () => {
  for (const status of ['delivered', 'return_to_sender', 'failure', 'cancelled'] as const) {
    assert.deepEqual(liveNextCheck(input({ status })), { nextCheckAt: null, stopDetail: null });
  }
});

test('a number the carrier has not known for 7 days since it was followed is given up, saying so; 6 days is still asked', () => {
  const unknown = { status: 'unknown' as const, events: 0, estimatedDeliveryDate: null, lastEventAt: null };
  const sixDays = liveNextCheck(input({ ...unknown, createdAt: new Date(now.getTime() - 6 * day), lastChangeAt: new Date(now.getTime() - 6 * day) }));
  assert.ok(sixDays.nextCheckAt);
  const sevenDays = liveNextCheck(input({ ...unknown, createdAt: new Date(now.getTime() - 7 * day), lastChangeAt: new Date(now.getTime() - 7 * day) }));
  assert.equal(sevenDays.nextCheckAt, null);
  assert.match(sevenDays.stopDetail!, /no record of this number for the 7 days/);
});

test('a parcel with no change for 30 days after its last scan and its estimated delivery is given up', () => {
  const quiet = { lastEventAt: new Date(now.getTime() - 31 * day), lastChangeAt: new Date(now.getTime() - 31 * day), createdAt: new Date(now.getTime() - 40 * day) };
  const stopped = liveNextCheck(input({ ...quiet, estimatedDeliveryDate: '2026-10-20' }));
  assert.equal(stopped.nextCheckAt, null);
  assert.match(stopped.stopDetail!, /No change for 30 days/);
  // An estimate still ahead keeps it asked, however old its last scan.
  assert.ok(liveNextCheck(input({ ...quiet, estimatedDeliveryDate: '2026-11-20' })).nextCheckAt);
});

test('trackers made in the same second fall due spread over the interval, each always at its own place', () => {
  const ids = Array.from({ length: 10_000 }, (_, i) => `trk_01jx${String(i).padStart(22, '0')}`);
  const seconds = new Set(ids.map((trackerId) => Math.floor(liveNextCheck(input({ trackerId, status: 'pre_transit' })).nextCheckAt!.getTime() / 1000)));
  assert.ok(seconds.size > 2_000, `${seconds.size} distinct seconds for 10,000 trackers`);
  const firsts = new Set(ids.map((id) => Math.floor(firstLiveCheck(id, now).getTime() / 1000)));
  assert.equal(firsts.size, firstCheckWithinMs / 1000, 'first checks fill every second of their minute');
  assert.equal(idFraction(ids[7]!), idFraction(ids[7]!));
  assert.deepEqual(liveNextCheck(input()), liveNextCheck(input()), 'the same tracker gets the same schedule');
});

test('the pace keeps a lane within each of its windows, and backs off one lane alone, doubling to its cap, honouring Retry-After', () => {
  const pace = new CarrierPace({ fedex: [{ calls: 3, perMs: 10_000 }, { calls: 5, perMs: 60_000 }], ups: [{ calls: 1, perMs: 1_000 }], usps: [{ calls: 60, perMs: hour }] }, { baseMs: 1_000, maxMs: 8_000 });
  const t = 1_000_000;
  assert.deepEqual([1, 2, 3, 4].map(() => pace.take('fedex', 'fedex', t)), [true, true, true, false]);
  assert.equal(pace.readyAt('fedex', 'fedex', t), t + 3_334, 'a call comes back as the short window refills');
  assert.ok(pace.take('fedex', 'fedex', t + 3_334));
  assert.ok(pace.take('fedex', 'fedex', t + 6_667));
  assert.equal(pace.take('fedex', 'fedex', t + 10_000), false, 'the short window has room, the long one not');
  assert.ok(pace.take('fedex:acct_1', 'fedex', t), 'an account with its own credentials has its own lane');

  assert.ok(pace.take('ups', 'ups', t));
  assert.equal(pace.failed('ups', 'ups', t), t + 1_000);
  assert.equal(pace.failed('ups', 'ups', t), t + 2_000);
  assert.equal(pace.failed('ups', 'ups', t), t + 4_000);
  assert.equal(pace.failed('ups', 'ups', t), t + 8_000);
  assert.equal(pace.failed('ups', 'ups', t), t + 8_000, 'capped');
  assert.equal(pace.failed('ups', 'ups', t, 120_000), t + 120_000, "the carrier's Retry-After when longer");
  assert.equal(pace.take('ups', 'ups', t + 60_000), false);
  assert.ok(pace.take('usps', 'usps', t), 'other lanes go on');
  pace.succeeded('ups');
  assert.equal(pace.failed('ups', 'ups', t + 200_000), t + 201_000, 'a success starts the doubling over');
});
