import { after, before, beforeEach, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Carrier, PickupRequest } from '../src/carriers/carrier.ts';
import { UspsCarrier } from '../src/carriers/usps/adapter.ts';
import { fakeUspsCredentials, startUspsFake, type UspsFake } from './fakes/usps.ts';
import { TestClock } from './harness.ts';

// The USPS adapter's carrier pickups against the fake Carrier Pickup API (test/fakes/usps-pickup.ts): booked, read
// and cancelled; refusals mapped to their codes; eligibility as PickupAvailability.

const signal = new AbortController().signal;
const timeoutMs = 5000;

let fake: UspsFake;
let usps: UspsCarrier;
let clock: TestClock;
const carriers: UspsCarrier[] = [];

before(async () => {
  fake = await startUspsFake();
});
beforeEach(() => {
  clock = new TestClock();
  usps = new UspsCarrier({ credentials: fakeUspsCredentials, baseUrl: fake.url, timeoutMs, clock });
  carriers.push(usps);
  fake.violations.length = 0;
  fake.calls.length = 0;
  fake.pickups.ineligibleZips.clear();
  fake.failNext = null;
  fake.slowMs = 2000;
});
after(async () => {
  await Promise.all(carriers.map((c) => c.close()));
  await fake.close();
});

/** A Monday to Saturday at least three days out, so USPS's 2:00 AM Central cut-off is far off whatever the hour. */
function bookableDay(): string {
  const d = new Date(Date.now() + 3 * 86_400_000);
  if (d.getUTCDay() === 0) d.setUTCDate(d.getUTCDate() + 1);
  return d.toISOString().slice(0, 10);
}

const request = (overrides: Partial<PickupRequest> = {}): PickupRequest => ({
  address: { name: 'Ada Lovelace', company: 'Analytical Co', street1: '415 Mission St', city: 'San Francisco', state: 'CA', zip: '94105', email: 'ada@example.com' },
  date: bookableDay(),
  window: { start: '10:00', end: '16:00' },
  trackingNumbers: ['9400100000000000000001'],
  parcels: { count: 2, weightLb: 4.5 },
  instructions: 'Side entrance',
  reference: 'pku_1',
  ...overrides,
});

test('a pickup is booked with the boxes counted, read back by its confirmation number, and cancelled once', async () => {
  const booked = await usps.schedulePickup(request(), signal);
  assert.ok(booked.ok, JSON.stringify(booked));
  const stored = fake.pickups.pickups.get(booked.value.confirmationNumber);
  assert.ok(stored, 'USPS holds the pickup');
  assert.deepEqual(stored.request.packages, [{ packageType: 'OTHER', packageCount: 2 }]);
  assert.equal(stored.request.estimatedWeight, 4.5);
  assert.deepEqual(fake.violations, []);

  const cancelled = await usps.cancelPickup({ confirmationNumber: booked.value.confirmationNumber, date: request().date }, signal);
  assert.ok(cancelled.ok, JSON.stringify(cancelled));
  assert.equal(stored.cancelled, true);
  // The cancel read the pickup for its ETag and sent it back as If-Match.
  const methods = fake.calls.filter((c) => c.path.startsWith('/pickup/')).map((c) => c.method);
  assert.deepEqual(methods, ['POST', 'GET', 'DELETE']);

  const again = await usps.cancelPickup({ confirmationNumber: booked.value.confirmationNumber, date: request().date }, signal);
  assert.ok(!again.ok);
  assert.match(again.error.detail, /has been cancelled/);
});

test('a cancel of a confirmation number USPS never gave is refused', async () => {
  const r = await usps.cancelPickup({ confirmationNumber: 'WTC999999999', date: request().date }, signal);
  assert.ok(!r.ok);
  assert.equal(r.error.code, 'carrier_error');
  assert.match(r.error.detail, /No carrier pickup was found/);
});

test('an address USPS does not serve: eligibility says so, and a booking there is pickup_unavailable', async () => {
  fake.pickups.ineligibleZips.add('94105');
  const availability = await usps.pickupAvailability({ address: request().address, date: request().date }, signal);
  assert.ok(availability.ok, JSON.stringify(availability));
  assert.equal(availability.value.available, false);
  assert.match(availability.value.reason ?? '', /not eligible/);

  const before = fake.pickups.pickups.size;
  const booked = await usps.schedulePickup(request(), signal);
  assert.ok(!booked.ok);
  assert.equal(booked.error.code, 'pickup_unavailable');
  assert.equal(fake.pickups.pickups.size, before, 'nothing booked');
});

test('an eligible address is available, with the time booking closes there; a Sunday is not', async () => {
  const date = request().date;
  const availability = await usps.pickupAvailability({ address: request().address, date }, signal);
  assert.ok(availability.ok, JSON.stringify(availability));
  // 2:00 AM Central is midnight in California.
  assert.deepEqual(availability.value, { available: true, earliest: null, latest: null, bookBy: '00:00', reason: null });

  const sunday = new Date(`${date}T00:00:00Z`);
  sunday.setUTCDate(sunday.getUTCDate() + ((7 - sunday.getUTCDay()) % 7 || 7));
  const calls = fake.calls.length;
  const closed = await usps.pickupAvailability({ address: request().address, date: sunday.toISOString().slice(0, 10) }, signal);
  assert.ok(closed.ok);
  assert.equal(closed.value.available, false);
  assert.match(closed.value.reason ?? '', /Monday to Saturday/);
  assert.equal(fake.calls.length, calls, 'no call for a day USPS never books');
});

test('past the 2:00 AM Central cut-off: refused before calling, and USPS\'s own refusal of the date maps the same', async () => {
  // The last Monday to Saturday before today: its cut-off has passed on the real clock the fake keeps.
  const past = new Date(Date.now() - 86_400_000);
  if (past.getUTCDay() === 0) past.setUTCDate(past.getUTCDate() - 1);
  const date = past.toISOString().slice(0, 10);
  // Noon UTC on the day is past 2:00 AM Central.
  clock.advance(Date.parse(`${date}T12:00:00Z`) - clock.now().getTime());
  const calls = fake.calls.length;
  const early = await usps.schedulePickup(request({ date }), signal);
  assert.ok(!early.ok);
  assert.equal(early.error.code, 'outside_pickup_window');
  assert.equal(fake.calls.length, calls);

  // An adapter whose clock is two days behind asks anyway: the fake refuses the pickupDate.
  clock.advance(-2 * 86_400_000);
  const late = await usps.schedulePickup(request({ date }), signal);
  assert.ok(!late.ok);
  assert.equal(late.error.code, 'outside_pickup_window');
  assert.match(late.error.detail, /pickupDate/);
});

test('a booking whose answer is late is a time-out, never sent twice, and the API has no reference to find it by', async () => {
  const hasty = new UspsCarrier({ credentials: fakeUspsCredentials, baseUrl: fake.url, timeoutMs: 1500, clock });
  carriers.push(hasty);
  // The token first, so the slow answer is the booking's.
  assert.ok((await hasty.pickupAvailability({ address: request().address, date: request().date }, signal)).ok);
  fake.slowMs = 3000;
  fake.failNext = 'slow';
  const before = fake.pickups.pickups.size;
  const booked = await hasty.schedulePickup(request(), signal);
  assert.ok(!booked.ok);
  assert.equal(booked.error.code, 'carrier_timeout');
  await new Promise((r) => setTimeout(r, 2000));
  assert.equal(fake.calls.filter((c) => c.method === 'POST' && c.path === '/pickup/v3/carrier-pickup').length, 1, 'not resent');
  assert.equal(fake.pickups.pickups.size, before, 'the fake drops a request its caller gave up on');
  assert.equal((hasty as Carrier).findPickup, undefined, 'the API cannot find it by our reference');
});
