import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { problem, startServer, type TestServer } from './harness.ts';
import { austin, orderBody } from './fixtures.ts';

const pointers = (p: { errors?: { pointer: string }[] }) => (p.errors ?? []).map((e) => e.pointer).sort();

describe('ship-from locations and custom boxes set up through the API', () => {
  let server: TestServer;
  let key: string;
  let otherKey: string;
  let sameAccountKey: string;
  before(async () => {
    server = await startServer();
    const account = await server.account();
    key = (await server.key(account)).secret;
    sameAccountKey = (await server.key(account, 'live')).secret;
    otherKey = (await server.key(await server.account())).secret;
  });
  after(() => server.close());

  const call = (method: string, path: string, body?: unknown, k = key) => server.request(method, path, { key: k, body });

  test('a location is checked as /addresses/validate checks it, kept normalized, and refused where it cannot be', async () => {
    const badZip = await call('POST', '/ship-from', { name: 'Dock', address: { ...austin, zip: '00000' } });
    assert.ok(pointers(problem(badZip, 400, 'validation_failed')).includes('/address/zip'), badZip.text);
    const abroad = await call('POST', '/ship-from', { name: 'Dock', address: { name: 'W', street1: '111 Wellington St', city: 'Ottawa', state: 'ON', zip: 'K1A 0A9', country: 'CA' } });
    assert.deepEqual(pointers(problem(abroad, 400, 'validation_failed')), ['/address/country']);
    assert.deepEqual((await call('GET', '/ship-from')).body.data, [], 'nothing was stored');

    const sent = { ...austin, street1: '1100 congress avenue', city: 'austin' };
    const made = await call('POST', '/ship-from', { name: 'Austin dock', address: sent });
    assert.equal(made.status, 201, made.text);
    const validated = await call('POST', '/addresses/validate', { address: sent });
    assert.equal(made.body.address.street1, validated.body.address.street1);
    assert.equal(made.body.address.city, validated.body.address.city);
    assert.equal(made.body.is_default, true, "the account's first location is its default");
    assert.deepEqual((await call('GET', `/ship-from/${made.body.id}`, undefined, sameAccountKey)).body.id, made.body.id, 'every key of the account sees it');
    problem(await call('GET', `/ship-from/${made.body.id}`, undefined, otherKey), 404, 'not_found');
    problem(await call('DELETE', `/ship-from/${made.body.id}`, undefined, otherKey), 404, 'not_found');
  });

  test('the default moves with is_default, cannot be unset alone, and passes on when it is removed', async () => {
    const [first] = (await call('GET', '/ship-from')).body.data;
    const second = await call('POST', '/ship-from', { name: 'Second dock', address: { ...austin, street1: '500 E Cesar Chavez St', zip: '78701' }, is_default: true });
    assert.equal(second.status, 201, second.text);
    const listed = (await call('GET', '/ship-from')).body.data;
    assert.deepEqual(listed.map((l: { id: string; is_default: boolean }) => [l.id, l.is_default]), [[second.body.id, true], [first.id, false]]);
    assert.deepEqual(pointers(problem(await call('PATCH', `/ship-from/${second.body.id}`, { is_default: false }), 400, 'validation_failed')), ['/is_default']);
    const renamed = await call('PATCH', `/ship-from/${first.id}`, { name: 'Old dock', is_default: true });
    assert.deepEqual([renamed.body.name, renamed.body.is_default], ['Old dock', true]);

    // An order not yet shipped from the default keeps it: the removal is refused and names the order.
    const order = await call('POST', '/orders', { ...orderBody(), ship_from: undefined, ship_from_id: first.id });
    assert.equal(order.status, 201, order.text);
    const inUse = problem(await call('DELETE', `/ship-from/${first.id}`), 409, 'resource_in_use');
    assert.ok(inUse.detail.includes(order.body.id), inUse.detail);
    assert.equal((await call('POST', `/orders/${order.body.id}/cancel`)).status, 200);
    const removed = await call('DELETE', `/ship-from/${first.id}`);
    assert.equal(removed.status, 200, removed.text);
    const left = (await call('GET', '/ship-from')).body.data;
    assert.deepEqual(left.map((l: { id: string; is_default: boolean }) => [l.id, l.is_default]), [[second.body.id, true]], 'the one left is the default');
  });

  test('a retried POST /ship-from with the same Idempotency-Key adds one location', async () => {
    const body = { name: 'Retry dock', address: { ...austin, street1: '301 W 2nd St' } };
    const headers = { 'idempotency-key': 'ship-from-once' };
    const a = await server.request('POST', '/ship-from', { key, body, headers });
    const b = await server.request('POST', '/ship-from', { key, body, headers });
    assert.equal(a.status, 201, a.text);
    assert.equal(b.body.id, a.body.id);
    assert.equal((await call('GET', '/ship-from')).body.data.filter((l: { name: string }) => l.name === 'Retry dock').length, 1);
  });

  test("custom boxes: carriers' limits at the field, the default box used by orders, and no removal while orders name it", async () => {
    const blank = await call('POST', '/packages', { name: '\u2003 ', dimensions: { length: 10, width: 8, height: 4, unit: 'in' }, max_weight: { value: 2, unit: 'lb' } });
    assert.deepEqual(pointers(problem(blank, 400, 'validation_failed')), ['/name'], 'a blank name is the client\'s error');
    assert.deepEqual(pointers(problem(await call('POST', '/ship-from', { name: '   ', address: austin }), 400, 'validation_failed')), ['/name']);
    const huge = await call('POST', '/packages', { name: 'Huge', dimensions: { length: 100, width: 30, height: 30, unit: 'in' }, max_weight: { value: 200, unit: 'lb' } });
    assert.deepEqual(pointers(problem(huge, 400, 'validation_failed')), ['/dimensions', '/max_weight/value']);

    const box = await call('POST', '/packages', { name: 'Mug box', dimensions: { length: 10, width: 8, height: 4, unit: 'in' }, max_weight: { value: 20, unit: 'lb' }, is_default: true });
    assert.equal(box.status, 201, box.text);
    assert.deepEqual([box.body.kind, box.body.is_default], ['custom', true]);
    const order = await call('POST', '/orders', orderBody({ parcel: { weight: { value: 2, unit: 'lb' } } }));
    assert.equal(order.status, 201, order.text);
    assert.equal(order.body.package_id, box.body.id, 'an order without dimensions goes in the default box');

    const resized = await call('PATCH', `/packages/${box.body.id}`, { dimensions: { length: 12, width: 8, height: 4, unit: 'in' }, is_default: false });
    assert.equal(resized.status, 200, resized.text);
    assert.deepEqual([resized.body.dimensions.length, resized.body.is_default, resized.body.name], [12, false, 'Mug box']);
    problem(await call('PATCH', '/packages/pkg_usps_medium_flat_rate_box', { name: 'Mine now' }), 404, 'not_found');
    problem(await call('PATCH', `/packages/${box.body.id}`, { name: 'Theirs' }, otherKey), 404, 'not_found');

    const inUse = problem(await call('DELETE', `/packages/${box.body.id}`), 409, 'resource_in_use');
    assert.ok(inUse.detail.includes(order.body.id), inUse.detail);
    assert.equal((await call('POST', `/orders/${order.body.id}/cancel`)).status, 200);
    const removed = await call('DELETE', `/packages/${box.body.id}`);
    assert.equal(removed.status, 200, removed.text);
    assert.deepEqual((await call('GET', '/packages?kind=custom')).body.data, []);
  });

  test('a box named by one box of an order of several is in use too', async () => {
    const box = await call('POST', '/packages', { name: 'Tall box', dimensions: { length: 20, width: 10, height: 10, unit: 'in' }, max_weight: { value: 30, unit: 'lb' } });
    assert.equal(box.status, 201, box.text);
    const parcels = [{ weight: { value: 1, unit: 'lb' }, dimensions: { length: 6, width: 6, height: 6, unit: 'in' } }, { weight: { value: 3, unit: 'lb' }, package_id: box.body.id }];
    const order = await call('POST', '/orders', orderBody({ parcel: undefined, parcels }));
    assert.equal(order.status, 201, order.text);
    const inUse = problem(await call('DELETE', `/packages/${box.body.id}`), 409, 'resource_in_use');
    assert.ok(inUse.detail.includes(order.body.id), inUse.detail);
  });

  test("changes racing on one account's locations and boxes each answer as if they came one after another, and one default is left", async () => {
    const fresh = (await server.key(await server.account())).secret;
    const send = (method: string, path: string, body?: unknown) => call(method, path, body, fresh);
    const streets = ['1100 Congress Ave', '500 E Cesar Chavez St', '301 W 2nd St', '200 Congress Ave'];
    const places = await Promise.all(streets.map((street1, i) => send('POST', '/ship-from', { name: `Dock ${i}`, address: { ...austin, street1 }, is_default: true })));
    const boxes = await Promise.all([0, 1, 2, 3].map((i) => send('POST', '/packages', { name: `Box ${i}`, dimensions: { length: 8 + i, width: 6, height: 4, unit: 'in' }, max_weight: { value: 10, unit: 'lb' }, is_default: true })));
    for (const made of [...places, ...boxes]) assert.equal(made.status, 201, made.text);
    const raced = await Promise.all([
      ...places.flatMap((p, i) => [
        send('PATCH', `/ship-from/${p.body.id}`, { name: `Dock ${i} renamed`, is_default: true }),
        send('DELETE', `/ship-from/${p.body.id}`),
        send('POST', '/ship-from', { name: `Late dock ${i}`, address: { ...austin, street1: streets[i] }, is_default: true }),
      ]),
      ...boxes.flatMap((b, i) => [
        send('PATCH', `/packages/${b.body.id}`, { dimensions: { length: 12, width: 8, height: 4, unit: 'in' }, is_default: true }),
        send('DELETE', `/packages/${b.body.id}`),
        send('POST', '/packages', { name: `Late box ${i}`, dimensions: { length: 9, width: 6, height: 4, unit: 'in' }, max_weight: { value: 10, unit: 'lb' }, is_default: i % 2 === 0 }),
      ]),
    ]);
    for (const answer of raced) {
      assert.ok([200, 201].includes(answer.status) || (answer.status === 404 && answer.body.code === 'not_found'), `${answer.status} ${answer.text}`);
    }
    const defaults = (path: string) => send('GET', path).then((r) => r.body.data.filter((x: { is_default: boolean }) => x.is_default).length);
    assert.equal(await defaults('/ship-from'), 1, 'one default location');
    assert.ok((await defaults('/packages?kind=custom')) <= 1, 'at most one default box');
  });
});

describe('a ship-from location a scheduled pickup uses', () => {
  let server: TestServer;
  let key: string;
  before(async () => {
    server = await startServer({ env: { SHIPD_FEATURES: 'pickups' } });
    // A Monday morning in Austin, so the pickup below is on the next business day.
    server.clock.advance(Date.parse('2030-11-25T15:00:00Z') - server.clock.now().getTime());
    key = (await server.key(await server.account())).secret;
  });
  after(() => server.close());

  const call = (method: string, path: string, body?: unknown) => server.request(method, path, { key, body });

  test('cannot be removed: 409 resource_in_use names the pickup, until it is cancelled', async () => {
    const dock = await call('POST', '/ship-from', { name: 'Pickup dock', address: austin });
    assert.equal(dock.status, 201, dock.text);
    const pickup = await call('POST', '/pickups', { carrier: 'ups', ship_from_id: dock.body.id, date: '2030-11-26', window: { start: '13:00', end: '17:00' } });
    assert.equal(pickup.status, 201, pickup.text);

    const inUse = problem(await call('DELETE', `/ship-from/${dock.body.id}`), 409, 'resource_in_use');
    assert.match(inUse.detail, new RegExp(`scheduled pickups: ${pickup.body.id}\\b`));
    assert.ok(!inUse.detail.includes('orders'), `only the pickup uses it: ${inUse.detail}`);
    assert.equal((await call('GET', `/ship-from/${dock.body.id}`)).status, 200, 'the location is kept');

    assert.equal((await call('POST', `/pickups/${pickup.body.id}/cancel`)).status, 200);
    const removed = await call('DELETE', `/ship-from/${dock.body.id}`);
    assert.equal(removed.status, 200, removed.text);
    assert.equal((await call('GET', `/pickups/${pickup.body.id}`)).body.ship_from_id, dock.body.id, 'the cancelled pickup still says where it was');
  });
});
