import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { problem, type TestServer } from './harness.ts';
import { orderBody, sanFrancisco } from './fixtures.ts';
import type { CarrierFakes } from './fakes/carriers.ts';
import { startLiveShop, type LiveShop } from './live-billing.ts';
import { usFederalHoliday } from '../src/carriers/sim/calendar.ts';
import { reconcilePendingPickups } from '../src/domain/ops/pickups.ts';
import { pendingStaleMs } from '../src/domain/shipments/purchase.ts';
import { serviceContext } from '../src/services.ts';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- tests read whatever JSON came back

// USPS carrier pickups with a live key, over HTTP against the fake Carrier Pickup API: booked with the labels'
// count and weight, read, cancelled at USPS; an address USPS does not serve refused with its code; a retry never
// books twice, and a booking whose answer was lost is given up rather than booked again (USPS cannot find a pickup
// by shipd's reference); availability from USPS's eligibility call.

const dock = { name: 'Dana Dock', company: 'Mugs Inc', street1: '1100 Congress Ave', city: 'Austin', state: 'TX', zip: '78701', country: 'US', email: 'dock@example.com' };

/** A weekday that is no federal holiday, three days out or more: bookable by shipd's rules and USPS's 2:00 AM CT cut-off. */
function pickupDay(): string {
  const d = new Date(Date.now() + 3 * 86_400_000);
  while (d.getUTCDay() === 0 || d.getUTCDay() === 6 || usFederalHoliday(d.toISOString().slice(0, 10))) d.setUTCDate(d.getUTCDate() + 1);
  return d.toISOString().slice(0, 10);
}

describe('USPS pickups with live keys (fake USPS)', () => {
  let shop: LiveShop;
  let fakes: CarrierFakes;
  let server: TestServer;
  let key: string;

  before(async () => {
    shop = await startLiveShop({ platform: ['usps'], env: { SHIPD_FEATURES: 'pickups', SHIPD_CARRIER_TIMEOUT_MS: '4000' }, followClock: true });
    ({ server, fakes, key } = shop);
  });
  after(() => shop.close());

  async function label(weightLb: number): Promise<Json> {
    const order = await server.request('POST', '/orders', {
      key,
      body: orderBody({ ship_to: sanFrancisco, requested_service: { carrier: 'usps', service: 'USPS_GROUND_ADVANTAGE' }, parcel: { weight: { value: weightLb, unit: 'lb' }, dimensions: { length: 10, width: 8, height: 4, unit: 'in' } } }),
    });
    assert.equal(order.status, 201, order.text);
    const bought = await server.request('POST', '/shipments', { key, body: { order_id: order.body.id } });
    assert.equal(bought.status, 201, bought.text);
    return bought.body;
  }

  test('a pickup is booked at USPS with the labels counted and weighed, read, and cancelled at USPS', { timeout: 120_000 }, async () => {
    const shipments = [await label(2), await label(3.5)];
    const date = pickupDay();
    const res = await server.request('POST', '/pickups', {
      key,
      body: { carrier: 'usps', address: dock, date, window: { start: '09:00', end: '15:00' }, shipment_ids: shipments.map((s) => s.id), instructions: 'Dock door 3' },
    });
    assert.equal(res.status, 201, res.text);
    const pickup = res.body;
    assert.equal(pickup.mode, 'live');
    assert.equal(pickup.status, 'scheduled');
    const booked = fakes.usps.pickups.pickups.get(pickup.confirmation_number);
    assert.ok(booked, `USPS holds pickup ${pickup.confirmation_number}`);
    // USPS asks for counts and the total weight, not tracking numbers: both labels are counted.
    assert.deepEqual(booked.request.packages, [{ packageType: 'OTHER', packageCount: 2 }]);
    assert.equal(booked.request.estimatedWeight, 5.5);
    assert.equal(booked.request.pickupDate, date);
    assert.deepEqual(booked.request.pickupLocation, { packageLocation: 'OTHER', specialInstructions: 'Dock door 3 Packages ready 09:00-15:00 local time.' });
    assert.deepEqual(booked.request.pickupAddress, {
      firstName: 'Dana',
      lastName: 'Dock',
      firm: 'Mugs Inc',
      address: { streetAddress: dock.street1, city: dock.city, state: dock.state, ZIPCode: dock.zip },
      contact: [{ email: dock.email }],
    });
    assert.deepEqual(fakes.usps.violations, []);

    const read = await server.request('GET', `/pickups/${pickup.id}`, { key });
    assert.equal(read.status, 200, read.text);
    assert.equal(read.body.confirmation_number, pickup.confirmation_number);
    assert.deepEqual(read.body.shipment_ids, shipments.map((s) => s.id));

    const cancelled = await server.request('POST', `/pickups/${pickup.id}/cancel`, { key });
    assert.equal(cancelled.status, 200, cancelled.text);
    assert.equal(cancelled.body.status, 'cancelled');
    assert.equal(booked.cancelled, true, 'cancelled at USPS');
    problem(await server.request('POST', `/pickups/${pickup.id}/cancel`, { key }), 409, 'pickup_already_cancelled');
    assert.equal((await server.request('GET', `/pickups/${pickup.id}`, { key })).body.status, 'cancelled');
  });

  test('an address USPS does not pick up at is refused with its code, and nothing is recorded', { timeout: 120_000 }, async () => {
    const shipment = await label(1);
    const far = { ...dock, street1: '1 Remote Rd', zip: '78799' };
    fakes.usps.pickups.ineligibleZips.add(far.zip);
    const before = fakes.usps.pickups.pickups.size;
    const res = await server.request('POST', '/pickups', { key, body: { carrier: 'usps', address: far, date: pickupDay(), window: { start: '09:00', end: '15:00' }, shipment_ids: [shipment.id] } });
    const p = problem(res, 422, 'pickup_unavailable');
    assert.equal(p.errors[0].pointer, '/date');
    assert.match(p.detail, /not eligible for Carrier Pickup/);
    assert.equal(fakes.usps.pickups.pickups.size, before);
    const listed = await server.request('GET', '/pickups', { key });
    assert.equal(listed.status, 200, listed.text);
    assert.ok(!listed.body.data.some((x: Json) => x.address?.zip === far.zip), 'no pickup recorded');
  });

  const db = () => server.services.database.db;
  const quiet = { info() {}, error() {} };
  /** The pickups the fake USPS booked for this ZIP Code, cancelled or not. */
  const bookedAt = (zip: string) => [...fakes.usps.pickups.pickups.values()].filter((p) => (p.request.pickupAddress as Json).address.ZIPCode === zip);

  test('a retry with the same Idempotency-Key and body is the same pickup, booked once at USPS', { timeout: 120_000 }, async () => {
    const shipment = await label(2);
    const here = { ...dock, zip: '78702' };
    const body = { carrier: 'usps', address: here, date: pickupDay(), window: { start: '09:00', end: '15:00' }, shipment_ids: [shipment.id] };
    const first = await server.request('POST', '/pickups', { key, headers: { 'idempotency-key': 'usps-pickup-replay' }, body });
    assert.equal(first.status, 201, first.text);
    const again = await server.request('POST', '/pickups', { key, headers: { 'idempotency-key': 'usps-pickup-replay' }, body });
    assert.equal(again.status, 201, again.text);
    assert.deepEqual(again.body, first.body);
    assert.deepEqual(bookedAt(here.zip).map((p) => p.confirmationNumber), [first.body.confirmation_number], 'one booking at USPS');
    problem(await server.request('POST', '/pickups', { key, headers: { 'idempotency-key': 'usps-pickup-replay' }, body: { ...body, window: { start: '10:00', end: '15:00' } } }), 422, 'idempotency_key_reused');
    assert.equal(bookedAt(here.zip).length, 1);
  });

  test("USPS's answer lost: 504, and neither a retry with the same Idempotency-Key nor the reconcile job books again; the pickup is given up", { timeout: 120_000 }, async () => {
    const shipment = await label(1.5);
    const here = { ...dock, zip: '78703' };
    const body = { carrier: 'usps', address: here, date: pickupDay(), window: { start: '09:00', end: '15:00' }, shipment_ids: [shipment.id] };
    fakes.usps.pickups.holdAnswers = true;
    try {
      const lost = problem(await server.request('POST', '/pickups', { key, headers: { 'idempotency-key': 'usps-pickup-lost' }, body }), 504, 'carrier_timeout');
      assert.match(lost.detail, /retry with the same Idempotency-Key for the outcome/);
    } finally {
      fakes.usps.pickups.holdAnswers = false;
    }
    assert.equal(bookedAt(here.zip).length, 1, 'USPS booked it, but its answer never came');
    const pending = await db().selectFrom('pickups').selectAll().where('idempotency_key', '=', 'usps-pickup-lost').executeTakeFirstOrThrow();
    assert.equal(pending.status, 'pending');
    problem(await server.request('GET', `/pickups/${pending.id}`, { key }), 404, 'not_found');

    // While the first request's time may still run, a retry waits for it.
    problem(await server.request('POST', '/pickups', { key, headers: { 'idempotency-key': 'usps-pickup-lost' }, body }), 409, 'idempotency_key_in_use');

    // Once stale, the retry gives it up: USPS finds pickups by its own confirmation number only, never by shipd's reference.
    server.clock.advance(pendingStaleMs(server) + 1_000);
    const givenUp = problem(await server.request('POST', '/pickups', { key, headers: { 'idempotency-key': 'usps-pickup-lost' }, body }), 502, 'carrier_error');
    assert.match(givenUp.detail, /cannot find a pickup by shipd's reference/);
    assert.match(givenUp.detail, /Look in the USPS account's pickups/);
    const abandoned = await db().selectFrom('pickups').selectAll().where('id', '=', pending.id).executeTakeFirstOrThrow();
    assert.equal(abandoned.status, 'abandoned');
    assert.match(abandoned.last_error ?? '', /asking again could send a second driver/);
    // Asked again later, the answer stays the same, and USPS is still asked nothing.
    problem(await server.request('POST', '/pickups', { key, headers: { 'idempotency-key': 'usps-pickup-lost' }, body }), 502, 'carrier_error');
    await reconcilePendingPickups(serviceContext(server.services, 'test'), quiet);
    assert.equal(bookedAt(here.zip).length, 1, 'USPS was not asked to book it again');
    assert.ok(!(await server.request('GET', '/pickups?limit=100', { key })).body.data.some((x: Json) => x.id === pending.id), 'an abandoned booking is not listed');
  });

  test("USPS's answer lost and no retry: the reconcile job gives the booking up without booking again", { timeout: 120_000 }, async () => {
    const here = { ...dock, zip: '78704' };
    fakes.usps.pickups.holdAnswers = true;
    try {
      problem(await server.request('POST', '/pickups', { key, body: { carrier: 'usps', address: here, date: pickupDay(), window: { start: '09:00', end: '15:00' }, parcel_count: 2, total_weight: { value: 4, unit: 'lb' } } }), 504, 'carrier_timeout');
    } finally {
      fakes.usps.pickups.holdAnswers = false;
    }
    const pending = await db().selectFrom('pickups').selectAll().where('status', '=', 'pending').where('carrier', '=', 'usps').execute();
    assert.equal(pending.length, 1);
    server.clock.advance(pendingStaleMs(server) + 1_000);
    await reconcilePendingPickups(serviceContext(server.services, 'test'), quiet);
    const row = await db().selectFrom('pickups').selectAll().where('id', '=', pending[0]!.id).executeTakeFirstOrThrow();
    assert.equal(row.status, 'abandoned');
    assert.match(row.last_error ?? '', /Look in the USPS account's pickups for one booked at .* for \d{4}-\d{2}-\d{2}/);
    await reconcilePendingPickups(serviceContext(server.services, 'test'), quiet);
    assert.equal(bookedAt(here.zip).length, 1, 'booked once, by the first request only');
  });

  test("availability with a live key: USPS's eligibility call says whether it comes to the address, and when booking closes", { timeout: 120_000 }, async () => {
    const date = pickupDay();
    const res = await server.request('POST', '/pickups/availability', { key, body: { carrier: 'usps', address: dock, date } });
    assert.equal(res.status, 200, res.text);
    // USPS's eligibility call gives no times; its booking closes at 2:00 AM Central on the day, 02:00 in Austin.
    assert.deepEqual(res.body, { object: 'pickup_availability', carrier: 'usps', date, available: true, earliest: null, latest: null, book_by: '02:00', reason: null });
    const asked = fakes.usps.calls.filter((c) => c.path.startsWith('/pickup/v3/carrier-pickup/eligibility')).at(-1);
    assert.ok(asked, 'USPS was asked');
    assert.equal(asked.query.ZIPCode, dock.zip);
    assert.equal(asked.query.streetAddress, dock.street1);

    const far = { ...dock, street1: '9 Remote Rd', zip: '78798' };
    fakes.usps.pickups.ineligibleZips.add(far.zip);
    const no = await server.request('POST', '/pickups/availability', { key, body: { carrier: 'usps', address: far, date } });
    assert.equal(no.status, 200, no.text);
    assert.deepEqual([no.body.available, no.body.earliest, no.body.latest, no.body.book_by], [false, null, null, null]);
    assert.match(no.body.reason, /ZIP Code 78798 is not eligible for Carrier Pickup/);
    assert.deepEqual(fakes.usps.violations, []);
  });
});
