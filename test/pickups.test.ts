import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { Validator } from '@seriousme/openapi-schema-validator';
import { problem, startServer, type TestServer } from './harness.ts';
import { austin, orderBody } from './fixtures.ts';
import { setPaymentMethod } from '../src/domain/billing/payment-methods.ts';
import { addLocation } from '../src/domain/locations/locations.ts';
import { newId } from '../src/kernel/ids.ts';
import { isUniqueViolation } from '../src/db/unique-violation.ts';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- tests read whatever JSON came back

// The calendar rules are about named days, so the clock is put on a known one: Monday 25 November 2030, 09:00 in
// Austin (America/Chicago). Thanksgiving is that Thursday, and 30 days ahead is Christmas Day.
const mondayMorning = Date.parse('2030-11-25T15:00:00Z');
const tuesday = '2030-11-26';

let server: TestServer;
let key: string;
let otherKey: string;
let liveKey: string;
let locationId: string;

before(async () => {
  server = await startServer({ env: { SHIPD_FEATURES: 'pickups', SHIPD_CARRIER_TIMEOUT_MS: '300' } });
  server.clock.advance(mondayMorning - server.clock.now().getTime());
  const db = server.services.database.db;
  const account = await server.account();
  await setPaymentMethod(db, server.clock, account, 'test', 'pm_test_visa');
  key = (await server.key(account)).secret;
  otherKey = (await server.key(account)).secret;
  liveKey = (await server.key(account, 'live')).secret;
  locationId = (await addLocation(db, server.clock, account, { name: 'Austin warehouse', address: austin })).id;
});
after(() => server.close());

const services = { ups: '03', usps: 'PRIORITY_MAIL', fedex: 'FEDEX_2_DAY' } as const;

/** A purchased label of the carrier, bought by the key. */
async function label(carrier: keyof typeof services, k = key): Promise<Json> {
  const order = await server.request('POST', '/orders', { key: k, body: orderBody({ requested_service: { carrier, service: services[carrier] } }) });
  assert.equal(order.status, 201, order.text);
  const shipment = await server.request('POST', '/shipments', { key: k, body: { order_id: order.body.id } });
  assert.equal(shipment.status, 201, shipment.text);
  return shipment.body;
}

const pickupBody = (overrides: Record<string, unknown> = {}) => ({
  carrier: 'ups',
  ship_from_id: locationId,
  date: tuesday,
  window: { start: '13:00', end: '17:00' },
  ...overrides,
});

async function schedule(overrides: Record<string, unknown> = {}, k = key): Promise<Json> {
  const res = await server.request('POST', '/pickups', { key: k, body: pickupBody(overrides) });
  assert.equal(res.status, 201, res.text);
  return res.body;
}

/** The field errors of a pickup refused as invalid, by pointer (a pointer at fault twice gets both details, joined). */
async function refusal(overrides: Record<string, unknown>): Promise<Record<string, string>> {
  const p = problem(await server.request('POST', '/pickups', { key, body: pickupBody(overrides) }), 400, 'validation_failed');
  const byPointer: Record<string, string> = {};
  for (const e of p.errors as Json[]) byPointer[e.pointer] = byPointer[e.pointer] ? `${byPointer[e.pointer]} | ${e.detail}` : e.detail;
  return byPointer;
}

/** Asserts a 400 naming the pointer, with a detail matching `detail`. */
async function refused(overrides: Record<string, unknown>, pointer: string, detail: RegExp): Promise<void> {
  const errors = await refusal(overrides);
  assert.ok(errors[pointer], `no error at ${pointer}: ${JSON.stringify(errors)}`);
  assert.match(errors[pointer], detail);
}

describe('scheduling, reading, listing and cancelling', () => {
  test('a UPS pickup at a location, for two labels: scheduled, readable, listed and filtered, then cancelled', async () => {
    const labels = [await label('ups'), await label('ups')];
    const created = await schedule({ shipment_ids: labels.map((l) => l.id), instructions: 'Dock 3, ring twice' });
    assert.match(created.id, /^pku_[0-9a-z]{26}$/);
    assert.equal(created.object, 'pickup');
    assert.equal(created.status, 'scheduled');
    assert.equal(created.carrier, 'ups');
    assert.match(created.confirmation_number, /^2[0-9A-Z]{10}$/);
    assert.equal(created.ship_from_id, locationId);
    assert.equal(created.address.street1, austin.street1);
    assert.equal(created.date, tuesday);
    assert.deepEqual(created.window, { start: '13:00', end: '17:00' });
    assert.deepEqual(created.shipment_ids, labels.map((l) => l.id));
    assert.equal(created.instructions, 'Dock 3, ring twice');
    assert.equal(created.mode, 'test');
    assert.match(created.created_at, /^2030-11-25T15:0/);
    assert.equal(created.cancelled_at, null);

    const got = await server.request('GET', `/pickups/${created.id}`, { key });
    assert.equal(got.status, 200);
    assert.deepEqual(got.body, created);

    const later = await schedule({ carrier: 'usps', address: { ...austin, state: 'tx' }, ship_from_id: undefined, date: '2030-11-27', window: { start: '08:00', end: '10:00' } });
    const all = (await server.request('GET', '/pickups?limit=100', { key })).body;
    assert.equal(all.object, 'list');
    assert.deepEqual(all.data.slice(0, 2).map((p: Json) => p.id), [later.id, created.id], 'newest first');
    const ids = async (query: string) => (await server.request('GET', `/pickups?${query}`, { key })).body.data.map((p: Json) => p.id);
    assert.deepEqual(await ids('carrier=usps'), [later.id]);
    assert.deepEqual(await ids(`date=${tuesday}&carrier=ups`), [created.id]);
    assert.deepEqual(await ids('status=cancelled'), []);
    const page = (await server.request('GET', '/pickups?limit=1', { key })).body;
    assert.equal(page.has_more, true);
    const next = (await server.request('GET', `/pickups?limit=1&cursor=${page.next_cursor}`, { key })).body;
    assert.equal(next.data[0].id, created.id);

    const cancelled = await server.request('POST', `/pickups/${created.id}/cancel`, { key });
    assert.equal(cancelled.status, 200, cancelled.text);
    assert.equal(cancelled.body.status, 'cancelled');
    assert.equal(typeof cancelled.body.cancelled_at, 'string');
    assert.deepEqual({ ...cancelled.body, status: 'scheduled', cancelled_at: null }, created);
    assert.deepEqual((await server.request('GET', `/pickups/${created.id}`, { key })).body, cancelled.body);
    assert.deepEqual(await ids('status=cancelled'), [created.id]);
    assert.deepEqual(await ids('status=scheduled&carrier=ups'), []);
  });

  test('an inline address is normalized; each carrier confirms in its own style', async () => {
    const usps = await schedule({ carrier: 'usps', ship_from_id: undefined, address: { ...austin, state: 'tx' } });
    assert.equal(usps.ship_from_id, null);
    assert.equal(usps.address.state, 'TX');
    assert.equal(usps.address.country, 'US');
    assert.match(usps.confirmation_number, /^WTC[0-9]{9}$/);
    assert.match((await schedule({ carrier: 'fedex' })).confirmation_number, /^[A-Z]{4}[0-9]{4}$/);
  });

  test('a pickup later today is taken while its window has not begun', async () => {
    const today = await schedule({ date: '2030-11-25', window: { start: '10:00', end: '12:00' } });
    assert.equal(today.date, '2030-11-25');
  });

  test('cancelling twice answers 409 pickup_already_cancelled', async () => {
    const created = await schedule();
    assert.equal((await server.request('POST', `/pickups/${created.id}/cancel`, { key })).status, 200);
    const again = problem(await server.request('POST', `/pickups/${created.id}/cancel`, { key }), 409, 'pickup_already_cancelled');
    assert.match(again.detail, new RegExp(created.id));
  });
});

describe('the date and the window', () => {
  test('a date in the past is refused at /date', () => refused({ date: '2030-11-22' }, '/date', /is in the past: it is 2030-11-25 at the pickup address/));
  test('a weekend day is refused at /date', () => refused({ date: '2030-11-30' }, '/date', /is a Saturday; carriers pick up Monday to Friday/));
  test('a federal holiday is refused at /date, by name', () => refused({ date: '2030-11-28' }, '/date', /is Thanksgiving Day, a US federal holiday/));
  test('a date more than 30 days ahead is refused at /date', () => refused({ date: '2030-12-26' }, '/date', /more than 30 days ahead/));
  test('a date that does not exist is refused at /date', () => refused({ date: '2030-02-30' }, '/date', /must match format "date"/));
  test('a window shorter than 2 hours is refused at /window/end', () =>
    refused({ window: { start: '13:00', end: '14:30' } }, '/window/end', /at least 2 hours after the start; the window is 90 minutes/));
  test('a window ending before it starts is refused at /window/end', () => refused({ window: { start: '15:00', end: '13:00' } }, '/window/end', /must be after the start/));
  test('a window starting before 08:00 is refused at /window/start', () => refused({ window: { start: '07:00', end: '10:00' } }, '/window/start', /before 08:00/));
  test('a window ending after 20:00 is refused at /window/end', () => refused({ window: { start: '18:00', end: '21:00' } }, '/window/end', /after 20:00/));
  test('a window already begun today is refused at /window/start', () =>
    refused({ date: '2030-11-25', window: { start: '08:00', end: '12:00' } }, '/window/start', /has passed: it is 09:00 at the pickup address/));
  test('a time not written HH:MM is refused at its pointer', () => refused({ window: { start: '9:00', end: '17:00' } }, '/window/start', /must match pattern/));

  test('every fault is named at once', async () => {
    const errors = await refusal({ date: '2030-11-30', window: { start: '19:00', end: '20:30' } });
    assert.deepEqual(Object.keys(errors).sort(), ['/date', '/window/end']);
    assert.match(errors['/date']!, /Saturday/);
    assert.match(errors['/window/end']!, /after 20:00.* \| must be at least 2 hours after the start/);
  });
});

describe('where, what and the rest of the body', () => {
  test('address and ship_from_id together are refused at /ship_from_id', () => refused({ address: austin }, '/ship_from_id', /not both/));
  test('neither address nor ship_from_id is refused at /address', () => refused({ ship_from_id: undefined }, '/address', /is required/));
  test('a location of another account is refused at /ship_from_id', () =>
    refused({ ship_from_id: 'loc_01jf3k4m5n6p7q8r9s0t1v2w3x' }, '/ship_from_id', /not one of the account's ship-from locations/));
  test('an APO address is refused at /address/state', () => refused({ ship_from_id: undefined, address: { ...austin, state: 'AE', zip: '09001' } }, '/address/state', /military post office/));
  test('instructions over 500 characters are refused at /instructions', () => refused({ instructions: 'x'.repeat(501) }, '/instructions', /500/));
  test('an unknown field is refused', () => refused({ driver: 'Bob' }, '/driver', /is not a known field/));

  test("each label that is not the key's purchased label of the carrier is named at its index", async () => {
    const ups = await label('ups');
    const usps = await label('usps');
    const voided = await label('ups');
    assert.equal((await server.request('POST', `/shipments/${voided.order_id}/void`, { key })).status, 200);
    const foreign = await label('ups', otherKey);
    const errors = await refusal({ shipment_ids: [ups.id, usps.id, voided.id, foreign.id, 'shp_nope'] });
    assert.deepEqual(Object.keys(errors).sort(), ['/shipment_ids/1', '/shipment_ids/2', '/shipment_ids/3', '/shipment_ids/4']);
    assert.match(errors['/shipment_ids/1']!, /is a USPS label; UPS would not take it/);
    assert.match(errors['/shipment_ids/2']!, /is voided; only purchased labels can be picked up/);
    assert.match(errors['/shipment_ids/3']!, /is not a shipment of this key/);
    assert.match(errors['/shipment_ids/4']!, /is not a shipment of this key/);
  });
});

describe('one UPS pickup per address and day, as UPS keeps it (test keys too)', () => {
  const monday = '2030-12-02';

  test('a second UPS pickup at the same address and day is 409 pickup_already_scheduled, naming the first; another day, door, carrier or account is not', async () => {
    const first = await schedule({ date: monday });
    // The same address written otherwise (case, punctuation, ZIP+4), inline rather than as the location, another window.
    const sameBuilding = { ...austin, street1: '1100 CONGRESS AVE.', zip: '78701-1234' };
    const again = problem(await server.request('POST', '/pickups', { key, body: pickupBody({ date: monday, ship_from_id: undefined, address: sameBuilding, window: { start: '15:00', end: '18:00' } }) }), 409, 'pickup_already_scheduled');
    assert.deepEqual(again.errors, [{ in: 'body', pointer: '/address', detail: `already has UPS pickup ${first.id} on ${monday}` }]);
    assert.match(again.detail, new RegExp(`^Pickup ${first.id} is booked \\(confirmation ${first.confirmation_number}\\) with UPS at this address on ${monday}: UPS keeps one pickup per address and day`));
    assert.match(again.detail, new RegExp(`Nothing was booked or charged; use it, or cancel it \\(POST /pickups/${first.id}/cancel\\) and schedule again$`));
    const byLocation = problem(await server.request('POST', '/pickups', { key, body: pickupBody({ date: monday }) }), 409, 'pickup_already_scheduled');
    assert.equal(byLocation.errors[0].pointer, '/ship_from_id');
    const otherKeys = problem(await server.request('POST', '/pickups', { key: otherKey, body: pickupBody({ date: monday }) }), 409, 'pickup_already_scheduled');
    assert.match(otherKeys.detail, new RegExp(`^Pickup ${first.id}, of another API key of this account, is booked .*cancel it with the key that booked it`));
    const onMonday = (await server.request('GET', `/pickups?date=${monday}&carrier=ups&limit=100`, { key })).body.data;
    assert.deepEqual(onMonday.map((p: Json) => p.id), [first.id], 'nothing else was recorded');

    await schedule({ date: '2030-12-03' });
    await schedule({ date: monday, ship_from_id: undefined, address: { ...austin, street2: 'Suite 200' } });
    for (const carrier of ['usps', 'fedex']) {
      await schedule({ carrier, date: monday });
      await schedule({ carrier, date: monday }, otherKey);
    }
    const stranger = await server.account();
    await setPaymentMethod(server.services.database.db, server.clock, stranger, 'test', 'pm_test_visa');
    await schedule({ date: monday, ship_from_id: undefined, address: austin }, (await server.key(stranger)).secret);
  });

  test('once the first is cancelled, the refused request goes on with its own Idempotency-Key: the refusal is not stored', async () => {
    const date = '2030-12-04';
    const first = await schedule({ date });
    const headers = { 'idempotency-key': 'second-on-wednesday' };
    const body = pickupBody({ date, instructions: 'Ring twice' });
    problem(await server.request('POST', '/pickups', { key, headers, body }), 409, 'pickup_already_scheduled');
    assert.equal((await server.request('POST', `/pickups/${first.id}/cancel`, { key })).status, 200);
    const second = await server.request('POST', '/pickups', { key, headers, body });
    assert.equal(second.status, 201, second.text);
    assert.equal(second.headers.get('idempotent-replayed'), null);
    assert.notEqual(second.body.id, first.id);
  });

  test('bookings at once of one place and day: one is booked, the others are 409', async () => {
    const date = '2030-12-05';
    const answers = await Promise.all([key, otherKey, key, otherKey].map((k) => server.request('POST', '/pickups', { key: k, body: pickupBody({ date }) })));
    assert.deepEqual(answers.map((a) => a.status).sort(), [201, 409, 409, 409], answers.map((a) => a.text).join('\n'));
    for (const a of answers.filter((a) => a.status === 409)) assert.equal(a.body.code, 'pickup_already_scheduled');
  });

  test('the database itself holds one active pickup per account, mode, carrier, day and place, and one booked one per confirmation number', async () => {
    const db = server.services.database.db;
    const first = await schedule({ date: '2030-12-06' });
    const row = await db.selectFrom('pickups').selectAll().where('id', '=', first.id).executeTakeFirstOrThrow();
    assert.equal(row.place, 'US|TX|78701|1100 congress ave');
    const copy = (overrides: Record<string, unknown>) => db.insertInto('pickups').values({ ...row, id: newId('pku'), ...overrides }).execute();
    // Refused as a unique index's violation, which shipd reads as such on either database.
    await assert.rejects(copy({ confirmation_number: '2ANOTHERPRN' }), isUniqueViolation, 'a second scheduled pickup of the place and day');
    await assert.rejects(copy({ status: 'pending', confirmation_number: '' }), isUniqueViolation, 'a second one being booked');
    await assert.rejects(copy({ place: 'US|TX|78701|elsewhere' }), isUniqueViolation, 'a second booked pickup with the same confirmation number');
    await copy({ status: 'cancelled', confirmation_number: '2ANOTHERPRN' });
    await copy({ status: 'failed', confirmation_number: '' });
    await copy({ mode: 'live', confirmation_number: '2ANOTHERPRN' });
    await copy({ date: '2030-12-09', confirmation_number: '2ANOTHERPRN2' });
  });
});

describe('idempotency, ownership, modes and carrier failures', () => {
  test('the same Idempotency-Key replays the first pickup; another body with it is 422', async () => {
    const headers = { 'idempotency-key': 'pickup-tuesday' };
    const first = await server.request('POST', '/pickups', { key, headers, body: pickupBody() });
    assert.equal(first.status, 201, first.text);
    const again = await server.request('POST', '/pickups', { key, headers, body: pickupBody() });
    assert.equal(again.status, 201);
    assert.equal(again.headers.get('idempotent-replayed'), 'true');
    assert.equal(again.text, first.text);
    const onTuesday = (await server.request('GET', `/pickups?date=${tuesday}&limit=100`, { key })).body.data;
    assert.equal(onTuesday.filter((p: Json) => p.confirmation_number === first.body.confirmation_number).length, 1);
    problem(await server.request('POST', '/pickups', { key, headers, body: pickupBody({ instructions: 'other' }) }), 422, 'idempotency_key_reused');
  });

  test("another key's pickup is 404, read or cancelled, and not in its list", async () => {
    // Tuesday's UPS pickup at the location is the test above's: UPS keeps one per address and day.
    const mine = await schedule({ date: '2030-11-27' });
    problem(await server.request('GET', `/pickups/${mine.id}`, { key: otherKey }), 404, 'not_found');
    problem(await server.request('POST', `/pickups/${mine.id}/cancel`, { key: otherKey }), 404, 'not_found');
    problem(await server.request('GET', '/pickups/ord_01jf3k4m5n6p7q8r9s0t1v2w3x', { key }), 404, 'not_found');
    const theirs = (await server.request('GET', '/pickups?limit=100', { key: otherKey })).body.data;
    assert.ok(!theirs.some((p: Json) => p.id === mine.id));
    assert.equal((await server.request('GET', `/pickups/${mine.id}`, { key })).body.status, 'scheduled');
  });

  test('live keys of a server without carrier credentials are told which settings are missing (502), and nothing is recorded', async () => {
    for (const [carrier, name] of [['ups', 'UPS'], ['usps', 'USPS'], ['fedex', 'FedEx']] as const) {
      const p = problem(await server.request('POST', '/pickups', { key: liveKey, body: pickupBody({ carrier, parcel_count: 2, total_weight: { value: 5, unit: 'lb' } }) }), 502, 'carrier_error');
      assert.match(p.detail, new RegExp(`^${name}: Set ${carrier.toUpperCase()}_CLIENT_ID and ${carrier.toUpperCase()}_CLIENT_SECRET, or connect the account's own ${name} account, to use ${name} with live keys; no pickup was scheduled$`));
    }
    assert.deepEqual((await server.request('GET', '/pickups', { key: liveKey })).body.data, []);
  });

  test('so is a live key asking USPS or FedEx for pickup availability (502); UPS publishes no availability call (422)', async () => {
    for (const [carrier, name] of [['usps', 'USPS'], ['fedex', 'FedEx']] as const) {
      const p = problem(await server.request('POST', '/pickups/availability', { key: liveKey, body: { carrier, ship_from_id: locationId, date: tuesday } }), 502, 'carrier_error');
      assert.match(p.detail, new RegExp(`^${name}: Set ${carrier.toUpperCase()}_CLIENT_ID and ${carrier.toUpperCase()}_CLIENT_SECRET, or connect the account's own ${name} account, to use ${name} with live keys; its availability is not known$`));
    }
    const ups = problem(await server.request('POST', '/pickups/availability', { key: liveKey, body: { carrier: 'ups', ship_from_id: locationId, date: tuesday } }), 422, 'not_supported_by_carrier');
    assert.match(ups.detail, /UPS publishes no pickup availability call/);
    // The place and the day are checked first, as with credentials.
    problem(await server.request('POST', '/pickups/availability', { key: liveKey, body: { carrier: 'usps', ship_from_id: locationId, date: '2030-11-22' } }), 400, 'validation_failed');
  });

  test('a carrier that fails answers 502, one that never answers 504; nothing is recorded', async () => {
    const before = (await server.request('GET', '/pickups?limit=100', { key })).body.data.length;
    const down = problem(
      await server.request('POST', '/pickups', { key, body: pickupBody({ carrier: 'fedex', ship_from_id: undefined, address: { ...austin, name: 'Unavailable FedEx' } }) }),
      502,
      'carrier_error',
    );
    assert.match(down.detail, /no pickup was scheduled/);
    problem(await server.request('POST', '/pickups', { key, body: pickupBody({ date: '2030-11-29', ship_from_id: undefined, address: { ...austin, name: 'Timeout UPS' } }) }), 504, 'carrier_timeout');
    assert.equal((await server.request('GET', '/pickups?limit=100', { key })).body.data.length, before);
  });

  // Moves the clock, so it runs last.
  test('a pickup whose window has begun can no longer be cancelled (409)', async () => {
    // Another door of the building: the location's own address has Tuesday's UPS pickup already.
    const created = await schedule({ date: tuesday, window: { start: '10:00', end: '14:00' }, ship_from_id: undefined, address: { ...austin, street2: 'Dock 9' } });
    server.clock.advance(25 * 3_600_000 + 1); // Tuesday 10:00:00.001 in Austin
    const p = problem(await server.request('POST', `/pickups/${created.id}/cancel`, { key }), 409, 'pickup_not_cancellable');
    assert.match(p.detail, /has begun; it is 2030-11-26 10:00 there/);
    assert.equal((await server.request('GET', `/pickups/${created.id}`, { key })).body.status, 'scheduled');
  });
});

describe('the feature switch', () => {
  test('with pickups on, /openapi.json has the routes and the Pickup schemas, and is valid OpenAPI 3.1', async () => {
    const doc = (await server.request('GET', '/openapi.json')).body;
    const valid = await new Validator().validate(doc);
    assert.equal(valid.valid, true, JSON.stringify(valid.errors, null, 2));
    const paths = Object.keys(doc.paths);
    assert.ok(paths.includes('/api/integrations/v1/pickups'));
    assert.ok(paths.includes('/api/integrations/v1/pickups/{id}/cancel'));
    for (const name of ['Pickup', 'PickupCreate', 'PickupList', 'PickupWindow', 'PickupStatus']) assert.ok(doc.components.schemas[name], name);
  });

  test('with pickups off, the routes answer 404 problems and /openapi.json has neither paths nor schemas', async () => {
    const off = await startServer();
    try {
      const account = await off.account();
      const k = (await off.key(account)).secret;
      problem(await off.request('POST', '/pickups', { key: k, body: pickupBody() }), 404, 'route_not_found');
      problem(await off.request('GET', '/pickups', { key: k }), 404, 'route_not_found');
      problem(await off.request('GET', '/pickups/pku_01jf3k4m5n6p7q8r9s0t1v2w3x', { key: k }), 404, 'route_not_found');
      problem(await off.request('POST', '/pickups/pku_01jf3k4m5n6p7q8r9s0t1v2w3x/cancel', { key: k }), 404, 'route_not_found');
      const doc = (await off.request('GET', '/openapi.json')).body;
      assert.deepEqual(Object.keys(doc.paths).filter((p) => p.includes('pickup')), []);
      assert.deepEqual(Object.keys(doc.components.schemas).filter((s) => s.startsWith('Pickup')), []);
    } finally {
      await off.close();
    }
  });
});

describe('pickups for today, and places at fault', () => {
  let server: TestServer;
  let key: string;
  let locationId: string;
  before(async () => {
    server = await startServer({ env: { SHIPD_FEATURES: 'pickups' } });
    // Monday 2030-11-25, 13:00:30 in Austin (UTC-6).
    server.clock.advance(Date.parse('2030-11-25T19:00:30Z') - server.clock.now().getTime());
    const db = server.services.database.db;
    const account = await server.account();
    await setPaymentMethod(db, server.clock, account, 'test', 'pm_test_visa');
    key = (await server.key(account)).secret;
    locationId = (await addLocation(db, server.clock, account, { name: 'Austin warehouse', address: austin })).id;
  });
  after(() => server.close());

  test('a window whose start minute has come is refused, as it could no longer be cancelled; the next minute is taken', async () => {
    const at = (start: string) => server.request('POST', '/pickups', { key, body: { carrier: 'ups', ship_from_id: locationId, date: '2030-11-25', window: { start, end: '17:00' } } });
    const begun = problem(await at('13:00'), 400, 'validation_failed');
    assert.deepEqual(begun.errors.map((e: { pointer: string }) => e.pointer), ['/window/start']);
    const next = await at('13:01');
    assert.equal(next.status, 201, next.text);
    assert.equal((await server.request('POST', `/pickups/${next.body.id}/cancel`, { key })).status, 200);
  });

  test('an unknown location still has its date and window checked: every broken rule in one answer', async () => {
    const res = await server.request('POST', '/pickups', {
      key,
      body: { carrier: 'ups', ship_from_id: newId('loc'), date: '2030-11-30', window: { start: '13:00', end: '14:00' } },
    });
    const p = problem(res, 400, 'validation_failed');
    assert.deepEqual(p.errors.map((e: { pointer: string }) => e.pointer).sort(), ['/date', '/ship_from_id', '/window/end']);
  });
});
