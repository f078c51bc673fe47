import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { addLocation } from '../src/domain/locations/locations.ts';
import { problem, startServer, type TestServer } from './harness.ts';
import { austin, orderBody, sanFrancisco } from './fixtures.ts';

let server: TestServer;
let accountId: string;
let key: string;

before(async () => {
  server = await startServer();
  accountId = await server.account();
  key = (await server.key(accountId)).secret;
});
after(() => server.close());

const create = (body: unknown, k = key) => server.request('POST', '/orders', { key: k, body });

describe('creating orders', () => {
  test('an order is created incomplete, normalized, and readable back', async () => {
    const res = await create(orderBody({ ship_to: { ...sanFrancisco, state: 'ca', zip: '941051804' }, metadata: { shop: 'x' }, notes: 'fragile' }));
    assert.equal(res.status, 201);
    const order = res.body;
    assert.match(order.id, /^ord_[0-9a-z]{26}$/);
    assert.equal(order.object, 'order');
    assert.equal(order.status, 'incomplete');
    assert.equal(order.mode, 'test');
    assert.equal(order.ship_to.state, 'CA');
    assert.equal(order.ship_to.zip, '94105-1804');
    assert.equal(order.ship_to.country, 'US');
    assert.deepEqual(order.metadata, { shop: 'x' });
    assert.equal(order.shipment_id, null);
    assert.equal(order.created_at, order.updated_at);
    const got = await server.request('GET', `/orders/${order.id}`, { key });
    assert.equal(got.status, 200);
    assert.deepEqual(got.body, order);
  });

  test('ship_from_id resolves to the location; with neither, the default location is used', async () => {
    const clock = server.clock;
    const db = server.services.database.db;
    const other = await server.account();
    const otherKey = (await server.key(other)).secret;
    const noLocation = problem(await create(orderBody({ ship_from: undefined }), otherKey), 400, 'validation_failed');
    assert.deepEqual(noLocation.errors, [{ in: 'body', pointer: '/ship_from', detail: 'is required: the account has no default ship-from location' }]);

    const first = await addLocation(db, clock, other, { name: 'Main', address: austin });
    const second = await addLocation(db, clock, other, { name: 'East', address: { ...sanFrancisco, name: 'East' } });
    const byDefault = await create(orderBody({ ship_from: undefined }), otherKey);
    assert.equal(byDefault.status, 201);
    assert.equal(byDefault.body.ship_from_id, first.id);
    assert.equal(byDefault.body.ship_from.city, 'Austin');
    const byId = await create(orderBody({ ship_from: undefined, ship_from_id: second.id }), otherKey);
    assert.equal(byId.body.ship_from_id, second.id);
    assert.equal(byId.body.ship_from.name, 'East');
    // A location saved without a name or company signs its labels with its own name.
    const { name: _unnamed, ...nameless } = austin;
    const third = await addLocation(db, clock, other, { name: 'Dock 4', address: nameless });
    const signed = await create(orderBody({ ship_from: undefined, ship_from_id: third.id }), otherKey);
    assert.equal(signed.body.ship_from.name, 'Dock 4');

    // Another account's location is not one of ours.
    const foreign = problem(await create(orderBody({ ship_from: undefined, ship_from_id: second.id })), 400, 'validation_failed');
    assert.equal(foreign.errors[0].pointer, '/ship_from_id');
    const both = problem(await create(orderBody({ ship_from_id: second.id }), otherKey), 400, 'validation_failed');
    assert.equal(both.errors[0].pointer, '/ship_from_id');
  });

  const invalid: [string, Record<string, unknown>, string, RegExp][] = [
    ['no ship_to', { ship_to: undefined }, '/ship_to', /is required/],
    ['no street', { ship_to: { ...sanFrancisco, street1: undefined } }, '/ship_to/street1', /is required/],
    ['a blank street', { ship_to: { ...sanFrancisco, street1: '   ' } }, '/ship_to/street1', /pattern/],
    ['an unknown state', { ship_to: { ...sanFrancisco, state: 'ZZ' } }, '/ship_to/state', /not a US state/],
    ['a three-letter state', { ship_to: { ...sanFrancisco, state: 'CAL' } }, '/ship_to/state', /pattern/],
    ['a short ZIP', { ship_to: { ...sanFrancisco, zip: '9410' } }, '/ship_to/zip', /pattern/],
    ['a country that is no ISO code', { ship_to: { ...sanFrancisco, country: 'XX' } }, '/ship_to/country', /"XX" is not an ISO 3166-1 alpha-2 country code/],
    ['a US ZIP in Canada', { ship_to: { ...sanFrancisco, state: 'ON', country: 'CA' } }, '/ship_to/zip', /"94105" is not a postal code of Canada \(they look like K1A 0B1\)/],
    ['an unknown address field', { ship_to: { ...sanFrancisco, street3: 'x' } }, '/ship_to/street3', /not a known field/],
    ['zero weight', { parcel: { weight: { value: 0, unit: 'lb' } } }, '/parcel/weight/value', /must be > 0/],
    ['negative weight', { parcel: { weight: { value: -1, unit: 'lb' } } }, '/parcel/weight/value', /must be > 0/],
    ['over 150 lb', { parcel: { weight: { value: 70, unit: 'kg' } } }, '/parcel/weight/value', /over the carriers' maximum of 150 lb/],
    ['a weight unit of stones', { parcel: { weight: { value: 1, unit: 'st' } } }, '/parcel/weight/unit', /must be one of|must be equal/],
    ['a weight as a string', { parcel: { weight: { value: '2', unit: 'lb' } } }, '/parcel/weight/value', /must be number/],
    ['over 165 in of length plus girth', { parcel: { weight: { value: 1, unit: 'lb' }, dimensions: { length: 100, width: 20, height: 20, unit: 'in' } } }, '/parcel/dimensions', /length plus girth is 180 in/],
    ['a zero dimension', { parcel: { weight: { value: 1, unit: 'lb' }, dimensions: { length: 10, width: 0, height: 2, unit: 'in' } } }, '/parcel/dimensions/width', /must be > 0/],
    ['a quantity of 0', { items: [{ name: 'Mug', quantity: 0, unit_price: { amount: '1.00', currency: 'USD' } }] }, '/items/0/quantity', /must be >= 1/],
    ['a fractional quantity', { items: [{ name: 'Mug', quantity: 1.5, unit_price: { amount: '1.00', currency: 'USD' } }] }, '/items/0/quantity', /must be integer/],
    ['three decimals of money', { items: [{ name: 'Mug', quantity: 1, unit_price: { amount: '1.005', currency: 'USD' } }] }, '/items/0/unit_price/amount', /pattern/],
    ['money as a number', { items: [{ name: 'Mug', quantity: 1, unit_price: { amount: 1, currency: 'USD' } }] }, '/items/0/unit_price/amount', /must be string/],
    ['euros', { items: [{ name: 'Mug', quantity: 1, unit_price: { amount: '1.00', currency: 'EUR' } }] }, '/items/0/unit_price/currency', /must be "USD"/],
    ['an unknown service', { requested_service: { carrier: 'ups', service: 'PRIORITY_MAIL' } }, '/requested_service/service', /is not a UPS service/],
    ['an international service within the US', { requested_service: { carrier: 'usps', service: 'PRIORITY_MAIL_INTERNATIONAL' } }, '/requested_service/service', /is an international USPS service, for parcels leaving the US; within the US USPS ships by .*PRIORITY_MAIL\b/],
    ['an unknown carrier', { requested_service: { carrier: 'dhl', service: 'X' } }, '/requested_service/carrier', /.+/],
    ['21 metadata keys', { metadata: Object.fromEntries(Array.from({ length: 21 }, (_, i) => [`k${i}`, 'v'])) }, '/metadata', /must NOT have more than 20 properties/],
    ['a metadata number', { metadata: { a: 1 } }, '/metadata/a', /must be string/],
    ['a metadata key of 41 characters', { metadata: { ['k'.repeat(41)]: 'v' } }, `/metadata/${'k'.repeat(41)}`, /is a key that must NOT have more than 40 characters/],
    ['an empty metadata key', { metadata: { '': 'v' } }, '/metadata/', /is a key that must NOT have fewer than 1 characters/],
    ['an unknown top-level field', { colour: 'red' }, '/colour', /not a known field/],
  ];
  for (const [name, overrides, pointer, detail] of invalid) {
    test(`refuses ${name}, naming ${pointer}`, async () => {
      const body = orderBody(overrides);
      for (const [k, v] of Object.entries(overrides)) if (v === undefined) delete body[k];
      const p = problem(await create(JSON.parse(JSON.stringify(body))), 400, 'validation_failed');
      const hit = p.errors.find((e: { pointer: string }) => e.pointer === pointer);
      assert.ok(hit, `no error at ${pointer}: ${JSON.stringify(p.errors)}`);
      assert.match(hit.detail, detail);
    });
  }

  test('a refused order writes nothing', async () => {
    const before = (await server.request('GET', '/events?limit=100', { key })).body.data.length;
    problem(await create(orderBody({ ship_to: { ...sanFrancisco, state: 'ZZ' } })), 400, 'validation_failed');
    assert.equal((await server.request('GET', '/events?limit=100', { key })).body.data.length, before);
  });
});

describe('changing orders', () => {
  test('PATCH changes only what is sent, merges metadata, clears with null, and emits order.updated', async () => {
    const order = (await create(orderBody({ metadata: { a: '1', b: '2' }, notes: 'n', requested_service: { carrier: 'usps', service: 'PRIORITY_MAIL' } }))).body;
    server.clock.advance(1_000);
    const res = await server.request('PATCH', `/orders/${order.id}`, {
      key,
      body: { parcel: { weight: { value: 3, unit: 'lb' } }, metadata: { b: null, c: '3' }, notes: null, requested_service: null },
    });
    assert.equal(res.status, 200);
    const changed = res.body;
    assert.deepEqual(changed.parcel, { weight: { value: 3, unit: 'lb' } });
    assert.deepEqual(changed.metadata, { a: '1', c: '3' });
    assert.equal(changed.notes, null);
    assert.equal(changed.requested_service, null);
    assert.deepEqual(changed.ship_to, order.ship_to);
    assert.equal(changed.created_at, order.created_at);
    assert.ok(changed.updated_at > order.updated_at);
    const events = (await server.request('GET', '/events?type=order.updated&limit=100', { key })).body.data;
    assert.deepEqual(events.filter((e: { data: { id: string } }) => e.data.id === order.id).map((e: { data: unknown }) => e.data), [changed]);
  });

  test('PATCH validates like create and names the field', async () => {
    const order = (await create(orderBody())).body;
    const p = problem(await server.request('PATCH', `/orders/${order.id}`, { key, body: { ship_to: { ...sanFrancisco, state: 'XX' } } }), 400, 'validation_failed');
    assert.equal(p.errors[0].pointer, '/ship_to/state');
    problem(await server.request('PATCH', `/orders/${order.id}`, { key, body: {} }), 400, 'validation_failed');
    problem(await server.request('PATCH', `/orders/${order.id}`, { key, body: { status: 'shipped' } }), 400, 'validation_failed');
    const long = problem(await server.request('PATCH', `/orders/${order.id}`, { key, body: { metadata: { ['k'.repeat(41)]: null } } }), 400, 'validation_failed');
    assert.deepEqual(long.errors, [{ in: 'body', pointer: `/metadata/${'k'.repeat(41)}`, detail: 'is a key that must NOT have more than 40 characters' }]);
  });

  test('cancel moves incomplete to cancelled; after that, neither PATCH nor cancel is allowed', async () => {
    const order = (await create(orderBody())).body;
    const cancelled = await server.request('POST', `/orders/${order.id}/cancel`, { key });
    assert.equal(cancelled.status, 200);
    assert.equal(cancelled.body.status, 'cancelled');
    problem(await server.request('POST', `/orders/${order.id}/cancel`, { key }), 409, 'order_not_cancellable');
    problem(await server.request('PATCH', `/orders/${order.id}`, { key, body: { notes: 'late' } }), 409, 'order_not_editable');
    assert.equal((await server.request('GET', `/orders/${order.id}`, { key })).body.status, 'cancelled');
  });

  test('unknown and malformed ids are 404', async () => {
    problem(await server.request('GET', '/orders/ord_01m81wmnea72vpx7xb7ptx4004', { key }), 404, 'not_found');
    problem(await server.request('GET', '/orders/nonsense', { key }), 404, 'not_found');
    problem(await server.request('PATCH', '/orders/ord_01m81wmnea72vpx7xb7ptx4004', { key, body: { notes: 'x' } }), 404, 'not_found');
    problem(await server.request('POST', '/orders/ord_01m81wmnea72vpx7xb7ptx4004/cancel', { key }), 404, 'not_found');
  });

  test('concurrent PATCH and cancel never lose a write or emit for a cancelled order', async () => {
    const order = (await create(orderBody())).body;
    const results = await Promise.all([
      ...Array.from({ length: 10 }, (_, i) => server.request('PATCH', `/orders/${order.id}`, { key, body: { metadata: { [`k${i}`]: 'v' } } })),
      server.request('POST', `/orders/${order.id}/cancel`, { key }),
    ]);
    const ok = results.filter((r) => r.status === 200);
    assert.ok(results.every((r) => r.status === 200 || r.status === 409));
    const final = (await server.request('GET', `/orders/${order.id}`, { key })).body;
    assert.equal(final.status, 'cancelled');
    const patchesApplied = ok.filter((r) => r.body.status === 'incomplete').length;
    assert.equal(Object.keys(final.metadata).length, patchesApplied, 'every successful patch kept its key');
    const events = (await server.request('GET', '/events?type=order.updated&limit=100', { key })).body.data.filter((e: { data: { id: string } }) => e.data.id === order.id);
    assert.equal(events.length, ok.length, 'one event per successful change');
  });
});
