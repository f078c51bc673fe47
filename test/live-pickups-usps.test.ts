import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { problem, type TestServer } from './harness.ts';
import { orderBody, sanFrancisco } from './fixtures.ts';
import type { CarrierFakes } from './fakes/carriers.ts';
import { startLiveShop, type LiveShop } from './live-billing.ts';
import { usFederalHoliday } from '../src/carriers/sim/calendar.ts';
import { errorCodes } from '../src/kernel/errors.ts';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- tests read whatever JSON came back

// USPS carrier pickups with a live key, over HTTP against the fake Carrier Pickup API: booked with the labels'
// count and weight, read, cancelled at USPS; an address USPS does not serve refused with its code.

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
    shop = await startLiveShop({ platform: ['usps'], env: { SHIPD_FEATURES: 'pickups', SHIPD_CARRIER_TIMEOUT_MS: '10000' }, followClock: true });
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
    // The domain answers a carrier's pickup refusal with its own code once the API's table has it; before, as carrier_error.
    const code = 'pickup_unavailable' in errorCodes ? 'pickup_unavailable' : 'carrier_error';
    const p = problem(res, errorCodes[code as keyof typeof errorCodes].status, code);
    assert.match(p.detail, /not eligible for Carrier Pickup/);
    assert.equal(fakes.usps.pickups.pickups.size, before);
    const listed = await server.request('GET', '/pickups', { key });
    assert.equal(listed.status, 200, listed.text);
    assert.ok(!listed.body.data.some((x: Json) => x.address?.zip === far.zip), 'no pickup recorded');
  });
});
