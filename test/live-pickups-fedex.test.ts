import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { problem, type TestServer } from './harness.ts';
import { orderBody, sanFrancisco } from './fixtures.ts';
import type { CarrierFakes } from './fakes/carriers.ts';
import { startLiveShop, type LiveShop } from './live-billing.ts';
import type { Address } from '../src/schemas/address.ts';
import { addLocation } from '../src/domain/locations/locations.ts';
import { reconcilePendingPickups } from '../src/domain/ops/pickups.ts';
import { pendingStaleMs } from '../src/domain/shipments/purchase.ts';
import { serviceContext } from '../src/services.ts';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- tests read whatever JSON came back

// FedEx pickups with live keys, over HTTP against the fake FedEx's Pickup API (test/fakes/fedex-pickup.ts), and the
// availability route in both modes. The clock is put on Monday 25 November 2030, 09:00 in Austin, so the days named
// are known: Tuesday a business day, Saturday not, Thursday Thanksgiving.
const mondayMorning = Date.parse('2030-11-25T15:00:00Z');
const monday = '2030-11-25';
const tuesday = '2030-11-26';
const saturday = '2030-11-30';

// FedEx wants a phone number for the shipper.
const austin: Json = { ...(orderBody().ship_from as Json), phone: '5125550100' };

describe('FedEx pickups with live keys (fake FedEx) and pickup availability', () => {
  let shop: LiveShop;
  let fakes: CarrierFakes;
  let server: TestServer;
  let key: string;
  let testKey: string;
  let locationId: string;

  before(async () => {
    shop = await startLiveShop({ env: { SHIPD_FEATURES: 'pickups', SHIPD_CARRIER_TIMEOUT_MS: '4000' }, followClock: true });
    ({ server, fakes, key } = shop);
    server.clock.advance(mondayMorning - server.clock.now().getTime());
    testKey = (await server.key(shop.account)).secret;
    locationId = (await addLocation(server.services.database.db, server.clock, shop.account, { name: 'Austin dock', address: austin as Address })).id;
  });
  after(() => shop.close());

  /** A FedEx label bought by the live key, for a business recipient (FedEx Ground delivers to businesses). */
  async function label(service: string, weightLb: number): Promise<Json> {
    const order = await server.request('POST', '/orders', {
      key,
      body: orderBody({ ship_to: { ...sanFrancisco, company: 'Analytical Engines' }, ship_from: austin, requested_service: { carrier: 'fedex', service }, parcel: { weight: { value: weightLb, unit: 'lb' }, dimensions: { length: 10, width: 8, height: 4, unit: 'in' } } }),
    });
    assert.equal(order.status, 201, order.text);
    const bought = await server.request('POST', '/shipments', { key, body: { order_id: order.body.id } });
    assert.equal(bought.status, 201, bought.text);
    return bought.body;
  }

  const lastCall = (method: string, path: string) => fakes.fedex.calls.filter((c) => c.method === method && c.path === path).at(-1);
  const availability = (body: Json, k = key) => server.request('POST', '/pickups/availability', { key: k, body });

  test("FedEx availability: FedEx's own times for the day at a location, and its words on a day it does not come", async () => {
    const res = await availability({ carrier: 'fedex', ship_from_id: locationId, date: tuesday });
    assert.equal(res.status, 200, res.text);
    // The fake offers Express from 09:00 to a 18:00 cut-off and 20:00 latest, Ground from 08:00 to 16:00 and 19:00.
    assert.deepEqual(res.body, { object: 'pickup_availability', carrier: 'fedex', date: tuesday, available: true, earliest: '08:00', latest: '20:00', book_by: '18:00', reason: null });
    assert.deepEqual(lastCall('POST', '/pickup/v1/pickups/availabilities')!.body, {
      pickupAddress: { streetLines: [austin.street1], city: austin.city, stateOrProvinceCode: 'TX', postalCode: austin.zip, countryCode: 'US' },
      dispatchDate: tuesday,
      pickupRequestType: ['SAME_DAY', 'FUTURE_DAY'],
      carriers: ['FDXE', 'FDXG'],
      countryRelationship: 'DOMESTIC',
      associatedAccountNumber: fakes.fedex.accountNumber,
    });

    const weekend = await availability({ carrier: 'fedex', ship_from_id: locationId, date: saturday });
    assert.equal(weekend.status, 200, weekend.text);
    assert.deepEqual([weekend.body.available, weekend.body.earliest, weekend.body.latest, weekend.body.book_by], [false, null, null, null]);
    assert.match(weekend.body.reason, /No pickup is available for 78701 on 2030-11-30/);

    fakes.fedex.pickups.unserved.add('73301');
    const far = await availability({ carrier: 'fedex', address: { ...austin, zip: '73301' }, date: tuesday });
    assert.equal(far.status, 200, far.text);
    assert.equal(far.body.available, false);

    problem(await availability({ carrier: 'fedex', ship_from_id: locationId, date: '2030-11-22' }), 400, 'validation_failed');
    problem(await availability({ carrier: 'ups', ship_from_id: locationId, date: tuesday }), 422, 'not_supported_by_carrier');
  });

  test('a FedEx Ground pickup for two labels: booked with a Ground driver, the boxes counted and weighed, read, then cancelled', async () => {
    const labels = [await label('FEDEX_GROUND', 2), await label('FEDEX_GROUND', 5)];
    const res = await server.request('POST', '/pickups', {
      key,
      headers: { 'idempotency-key': 'fedex-ground-pickup' },
      body: { carrier: 'fedex', ship_from_id: locationId, date: tuesday, window: { start: '13:00', end: '17:00' }, shipment_ids: labels.map((l) => l.id), instructions: 'Dock 3, ring the bell' },
    });
    assert.equal(res.status, 201, res.text);
    const pickup = res.body;
    assert.equal(pickup.mode, 'live');
    const booked = fakes.fedex.pickups.booked.get(pickup.confirmation_number);
    assert.ok(booked, `FedEx booked ${pickup.confirmation_number}`);
    assert.equal(booked.carrierCode, 'FDXG');
    assert.equal(booked.reference, pickup.id, 'our pickup id goes as x-customer-transaction-id');
    assert.equal(booked.body.packageCount, 2);
    assert.deepEqual(booked.body.totalWeight, { units: 'LB', value: 7 });
    assert.equal(booked.body.remarks, 'Dock 3, ring the bell');
    assert.equal(booked.body.originDetail.readyDateTimestamp, `${tuesday}T13:00:00`);
    assert.equal(booked.body.originDetail.customerCloseTime, '17:00:00');
    assert.equal(booked.body.originDetail.packageLocation, 'NONE');
    assert.equal(booked.body.associatedAccountNumber.value, fakes.fedex.accountNumber);

    const replay = await server.request('POST', '/pickups', {
      key,
      headers: { 'idempotency-key': 'fedex-ground-pickup' },
      body: { carrier: 'fedex', ship_from_id: locationId, date: tuesday, window: { start: '13:00', end: '17:00' }, shipment_ids: labels.map((l) => l.id), instructions: 'Dock 3, ring the bell' },
    });
    assert.equal(replay.body.id, pickup.id);
    assert.equal([...fakes.fedex.pickups.booked.values()].filter((p) => p.reference === pickup.id).length, 1, 'a replay books no second driver');

    const got = await server.request('GET', `/pickups/${pickup.id}`, { key });
    assert.deepEqual(got.body, pickup);

    const cancelled = await server.request('POST', `/pickups/${pickup.id}/cancel`, { key });
    assert.equal(cancelled.status, 200, cancelled.text);
    assert.equal(cancelled.body.status, 'cancelled');
    assert.equal(booked.cancelled, true);
    assert.deepEqual(lastCall('PUT', '/pickup/v1/pickups/cancel')!.body, { associatedAccountNumber: { value: fakes.fedex.accountNumber }, pickupConfirmationCode: pickup.confirmation_number, scheduledDate: tuesday, carrierCode: 'FDXG' });
  });

  test('a FedEx Express pickup is cancelled with the location FedEx answered the booking with', async () => {
    const express = await label('FEDEX_2_DAY', 3);
    const res = await server.request('POST', '/pickups', { key, body: { carrier: 'fedex', address: austin, date: tuesday, window: { start: '10:00', end: '14:00' }, shipment_ids: [express.id] } });
    assert.equal(res.status, 201, res.text);
    const booked = fakes.fedex.pickups.booked.get(res.body.confirmation_number)!;
    assert.equal(booked.carrierCode, 'FDXE');
    assert.equal(booked.location, 'NQAA');
    const cancelled = await server.request('POST', `/pickups/${res.body.id}/cancel`, { key });
    assert.equal(cancelled.status, 200, cancelled.text);
    assert.equal(booked.cancelled, true);
    assert.equal((lastCall('PUT', '/pickup/v1/pickups/cancel')!.body as Json).location, 'NQAA');
  });

  test("FedEx refuses the booking: the API answers with FedEx's code and words, and no pickup is kept", async () => {
    const before = (await server.request('GET', '/pickups?carrier=fedex', { key })).body.data.length;
    fakes.fedex.pickups.refuseNext = { code: 'PICKUP.REQUESTED.PREVIOUS.DAY', message: 'Cannot schedule a pickup requested for a previous day.' };
    const body = { carrier: 'fedex', ship_from_id: locationId, date: tuesday, window: { start: '13:00', end: '17:00' }, parcel_count: 2, total_weight: { value: 6, unit: 'lb' } };
    const res = await server.request('POST', '/pickups', { key, body });
    const refused = problem(res, 422, 'outside_pickup_window');
    assert.deepEqual(refused.errors.map((e: { pointer: string }) => e.pointer), ['/window']);
    assert.match(res.body.detail, /PICKUP\.REQUESTED\.PREVIOUS\.DAY: Cannot schedule a pickup requested for a previous day/);
    assert.equal((await server.request('GET', '/pickups?carrier=fedex', { key })).body.data.length, before);
  });

  test("FedEx's answer lost: 504, and neither a retry with the same Idempotency-Key nor the reconcile job books a second driver; the pickup is given up", async () => {
    const db = server.services.database.db;
    const quiet = { info() {}, error() {} };
    const bookedFor = (id: string) => [...fakes.fedex.pickups.booked.values()].filter((p) => p.reference === id);
    const body = { carrier: 'fedex', ship_from_id: locationId, date: tuesday, window: { start: '13:00', end: '17:00' }, parcel_count: 2, total_weight: { value: 6, unit: 'lb' } };
    const lose = async (idempotencyKey: string) => {
      fakes.fedex.pickups.holdAnswers = true;
      try {
        const lost = problem(await server.request('POST', '/pickups', { key, headers: { 'idempotency-key': idempotencyKey }, body }), 504, 'carrier_timeout');
        assert.match(lost.detail, /retry with the same Idempotency-Key for the outcome/);
      } finally {
        fakes.fedex.pickups.holdAnswers = false;
      }
      const row = await db.selectFrom('pickups').selectAll().where('idempotency_key', '=', idempotencyKey).executeTakeFirstOrThrow();
      assert.equal(row.status, 'pending');
      assert.equal(bookedFor(row.id).length, 1, 'FedEx booked it, but its answer never came');
      return row;
    };

    // Retried with the same key: refused while the first request may still run, given up once it is stale.
    const retried = await lose('fedex-pickup-lost');
    problem(await server.request('POST', '/pickups', { key, headers: { 'idempotency-key': 'fedex-pickup-lost' }, body }), 409, 'idempotency_key_in_use');
    problem(await server.request('GET', `/pickups/${retried.id}`, { key }), 404, 'not_found');
    server.clock.advance(pendingStaleMs(server) + 1_000);
    const givenUp = problem(await server.request('POST', '/pickups', { key, headers: { 'idempotency-key': 'fedex-pickup-lost' }, body }), 502, 'carrier_error');
    assert.match(givenUp.detail, /cannot find a pickup by shipd's reference/);
    assert.match(givenUp.detail, /Look in the FedEx account's pickups/);
    problem(await server.request('POST', '/pickups', { key, headers: { 'idempotency-key': 'fedex-pickup-lost' }, body }), 502, 'carrier_error');
    assert.equal((await db.selectFrom('pickups').select('status').where('id', '=', retried.id).executeTakeFirstOrThrow()).status, 'abandoned');

    // Left alone: the reconcile job gives it up likewise.
    const left = await lose('fedex-pickup-left');
    server.clock.advance(pendingStaleMs(server) + 1_000);
    await reconcilePendingPickups(serviceContext(server.services, 'test'), quiet);
    await reconcilePendingPickups(serviceContext(server.services, 'test'), quiet);
    const row = await db.selectFrom('pickups').selectAll().where('id', '=', left.id).executeTakeFirstOrThrow();
    assert.equal(row.status, 'abandoned');
    assert.match(row.last_error ?? '', /asking again could send a second driver/);

    for (const id of [retried.id, left.id]) assert.equal(bookedFor(id).length, 1, `${id} was booked at FedEx once`);
    const listed = (await server.request('GET', '/pickups?carrier=fedex&limit=100', { key })).body.data.map((x: Json) => x.id);
    assert.ok(!listed.includes(retried.id) && !listed.includes(left.id), 'abandoned bookings are not listed');
  });

  test('availability in test mode: the simulated carriers answer by the rules test pickups are held to', async () => {
    for (const carrier of ['ups', 'usps', 'fedex']) {
      const res = await availability({ carrier, ship_from_id: locationId, date: tuesday }, testKey);
      assert.equal(res.status, 200, res.text);
      assert.deepEqual(res.body, { object: 'pickup_availability', carrier, date: tuesday, available: true, earliest: '08:00', latest: '20:00', book_by: '18:00', reason: null });
    }
    const calls = fakes.fedex.calls.length;
    const today = await availability({ carrier: 'fedex', ship_from_id: locationId, date: monday }, testKey);
    assert.equal(today.body.available, true, 'at 09:00 the day can still be booked');
    const weekend = await availability({ carrier: 'ups', ship_from_id: locationId, date: saturday }, testKey);
    assert.equal(weekend.body.available, false);
    assert.match(weekend.body.reason, /2030-11-30 is a Saturday/);
    const thanksgiving = await availability({ carrier: 'usps', address: austin, date: '2030-11-28' }, testKey);
    assert.equal(thanksgiving.body.available, false);
    assert.match(thanksgiving.body.reason, /Thanksgiving/);
    assert.equal(fakes.fedex.calls.length, calls, 'test mode asks no carrier');

    // A test pickup booked within the answer's hours is taken; one starting after book_by is refused.
    const ok = await server.request('POST', '/pickups', { key: testKey, body: { carrier: 'ups', ship_from_id: locationId, date: tuesday, window: { start: '18:00', end: '20:00' } } });
    assert.equal(ok.status, 201, ok.text);
    problem(await server.request('POST', '/pickups', { key: testKey, body: { carrier: 'ups', ship_from_id: locationId, date: tuesday, window: { start: '18:30', end: '20:00' } } }), 400, 'validation_failed');

    // Past the cut-off on the day itself, no driver can be booked for it.
    server.clock.advance(9.5 * 3_600_000);
    const late = await availability({ carrier: 'fedex', ship_from_id: locationId, date: monday }, testKey);
    assert.equal(late.body.available, false);
    assert.match(late.body.reason, /It is 18:30 at the pickup address, past FedEx's 18:00 cut-off/);
  });
});
