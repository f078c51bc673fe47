import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { addLocation } from '../src/domain/locations/locations.ts';
import { addPackage, setDefaultPackage } from '../src/domain/packages/packages.ts';
import { problem, startServer, type TestServer } from './harness.ts';
import { austin, orderBody, sanFrancisco } from './fixtures.ts';
import { packagePreset } from '../src/schemas/examples.ts';

let server: TestServer;
let accountId: string;
let accountName: string;
let key: string;
let otherKey: string;

before(async () => {
  server = await startServer();
  accountName = `pk-${Date.now()}`;
  accountId = await server.account(accountName);
  key = (await server.key(accountId)).secret;
  otherKey = (await server.key(await server.account())).secret;
});
after(() => server.close());

const newYork = { street1: '350 5th Ave', city: 'New York', state: 'NY', zip: '10118' };
type Rate = { carrier: string; service: string; amount: { amount: string }; list_amount: { amount: string } };

describe('GET /packages', () => {
  test("lists the carriers' boxes with their sizes", async () => {
    const res = await server.request('GET', '/packages', { key });
    assert.equal(res.status, 200);
    const medium = res.body.data.find((p: { id: string }) => p.id === 'pkg_usps_medium_flat_rate_box');
    // The OpenAPI document's example of a package is this answer, so it cannot drift from what shipd says.
    assert.deepEqual(medium, packagePreset);
    const usps = (await server.request('GET', '/packages?carrier=usps', { key })).body.data;
    assert.ok(usps.length >= 4 && usps.every((p: { carrier: string }) => p.carrier === 'usps'));
    problem(await server.request('GET', '/packages?carrier=dhl', { key }), 400, 'validation_failed');
  });

  test("a custom box added with the CLI is listed for the account's keys only", async () => {
    const out = await server.cli(['packages', 'add', '--account', accountName, '--name', 'Mug box', '--length', '8', '--width', '6', '--height', '6', '--max-weight', '10']);
    assert.equal(out.code, 0, out.stderr);
    const id = out.stdout.trim();
    assert.match(id, /^pkg_[0-9a-z]{26}$/);
    const custom = (await server.request('GET', '/packages?kind=custom', { key })).body.data;
    assert.deepEqual(custom.map((p: { id: string; name: string; kind: string; carrier: null }) => [p.id, p.name, p.kind, p.carrier]), [[id, 'Mug box', 'custom', null]]);
    const others = (await server.request('GET', '/packages', { key: otherKey })).body.data;
    assert.ok(!others.some((p: { id: string }) => p.id === id));
    const bad = await server.cli(['packages', 'add', '--account', accountName, '--name', 'Huge', '--length', '100', '--width', '30', '--height', '30', '--max-weight', '10']);
    assert.equal(bad.code, 1);
    assert.match(bad.stderr, /over 165 in of length plus girth/);
  });
});

describe('rating in a package', () => {
  test('a flat rate box costs the same near and far, light and heavy, and only with its carrier', async () => {
    const shop = async (to: object, pounds: number) =>
      (await server.request('POST', '/rates', { key, body: { ship_from: austin, ship_to: to, parcel: { weight: { value: pounds, unit: 'lb' } }, package_id: 'pkg_usps_medium_flat_rate_box' } })).body;
    const near = await shop({ ...austin, street1: '500 E 5th St' }, 1);
    const far = await shop(newYork, 1);
    const heavy = await shop(newYork, 30);
    for (const res of [near, far, heavy]) {
      assert.deepEqual(res.rates.map((r: Rate) => [r.carrier, r.service, r.amount.amount, r.list_amount.amount]), [['usps', 'PRIORITY_MAIL', '17.85', '20.10']]);
      assert.deepEqual(res.errors, []);
    }
  });

  test("a carrier's box ships only with that carrier, in that box's size", async () => {
    const res = await server.request('POST', '/rates', { key, body: { ship_from: austin, ship_to: sanFrancisco, parcel: { weight: { value: 1, unit: 'lb' } }, package_id: 'pkg_ups_express_box_large' } });
    assert.equal(res.status, 200);
    assert.ok(res.body.rates.length > 0 && res.body.rates.every((r: Rate) => r.carrier === 'ups'));
    // 18 × 13 × 3 = 702 in³ / 139 = 5.05 → 6 lb billable, not the 1 lb it weighs.
    assert.deepEqual(res.body.rates[0].billable_weight, { value: 6, unit: 'lb' });
    const wrong = problem(
      await server.request('POST', '/rates', { key, body: { ship_from: austin, ship_to: sanFrancisco, parcel: { weight: { value: 1, unit: 'lb' } }, package_id: 'pkg_ups_express_box_large', carriers: ['fedex'] } }),
      400,
      'validation_failed',
    );
    assert.equal(wrong.errors[0].pointer, '/carriers');
  });

  test('package mistakes are 400s naming the field', async () => {
    const rate = (body: object) => server.request('POST', '/rates', { key, body: { ship_from: austin, ship_to: sanFrancisco, ...body } });
    const withDims = problem(await rate({ package_id: 'pkg_ups_pak', parcel: { weight: { value: 1, unit: 'lb' }, dimensions: { length: 1, width: 1, height: 1, unit: 'in' } } }), 400, 'validation_failed');
    assert.equal(withDims.errors[0].pointer, '/parcel/dimensions');
    const unknown = problem(await rate({ package_id: 'pkg_nope', parcel: { weight: { value: 1, unit: 'lb' } } }), 400, 'validation_failed');
    assert.equal(unknown.errors[0].pointer, '/package_id');
    const tooHeavy = problem(await rate({ package_id: 'pkg_ups_pak', parcel: { weight: { value: 25, unit: 'lb' } } }), 400, 'validation_failed');
    assert.equal(tooHeavy.errors[0].pointer, '/parcel/weight/value');
    assert.match(tooHeavy.errors[0].detail, /over the 20 lb that UPS Pak holds/);
    const custom = (await server.request('GET', '/packages?kind=custom', { key })).body.data[0].id;
    const foreign = problem(await server.request('POST', '/rates', { key: otherKey, body: { ship_from: austin, ship_to: sanFrancisco, package_id: custom, parcel: { weight: { value: 1, unit: 'lb' } } } }), 400, 'validation_failed');
    assert.equal(foreign.errors[0].pointer, '/package_id');
  });

  test('an order in a package is rated in that package', async () => {
    const order = await server.request('POST', '/orders', { key, body: orderBody({ parcel: { weight: { value: 3, unit: 'lb' } }, package_id: 'pkg_usps_small_flat_rate_box' }) });
    assert.equal(order.status, 201, order.text);
    assert.equal(order.body.package_id, 'pkg_usps_small_flat_rate_box');
    const rates = (await server.request('POST', '/rates', { key, body: { order_id: order.body.id } })).body.rates;
    assert.deepEqual(rates.map((r: Rate) => [r.service, r.amount.amount]), [['PRIORITY_MAIL', '10.40']]);
    const bad = problem(await server.request('POST', '/orders', { key, body: orderBody({ package_id: 'pkg_usps_small_flat_rate_box' }) }), 400, 'validation_failed');
    assert.equal(bad.errors[0].pointer, '/parcel/dimensions');
  });
});

describe('the default package', () => {
  test("orders and rates that name no package and give no dimensions use the account's default box, and only that account's", async () => {
    const db = server.services.database.db;
    const kind = server.services.database.kind;
    const ownAccount = await server.account();
    const own = (await server.key(ownAccount)).secret;
    const other = (await server.key(await server.account())).secret;
    const add = (name: string, side: number) =>
      addPackage(db, server.clock, ownAccount, { name, dimensions: { length: side, width: side, height: side, unit: 'in' }, maxWeight: { value: 50, unit: 'lb' } });
    const small = await add('Small cube', 6);
    const big = await add('Big cube', 20);
    const weightOnly = { weight: { value: 1, unit: 'lb' } };
    const order = (key: string, body: Record<string, unknown>) => server.request('POST', '/orders', { key, body: orderBody(body) });
    const rate = (key: string, body: object) => server.request('POST', '/rates', { key, body: { ship_from: austin, ship_to: sanFrancisco, ...body } });
    const upsBillable = (res: { body: { rates: (Rate & { billable_weight: object })[] } }) => res.body.rates.find((r) => r.carrier === 'ups')!.billable_weight;

    // Without a default, nothing changes: a parcel without dimensions is rated by its weight alone.
    const before = await order(own, { parcel: weightOnly });
    assert.equal(before.body.package_id, null);
    assert.deepEqual(upsBillable(await rate(own, { parcel: weightOnly })), { value: 1, unit: 'lb' });
    const missing = problem(await rate(own, {}), 400, 'validation_failed');
    assert.equal(missing.errors[0].pointer, '/parcel');
    assert.match(missing.errors[0].detail, /default package/);

    await setDefaultPackage(db, kind, ownAccount, small.id);
    await setDefaultPackage(db, kind, ownAccount, big.id);
    const listed = (await server.request('GET', '/packages?kind=custom', { key: own })).body.data;
    assert.deepEqual(listed.map((p: { id: string; is_default: boolean }) => [p.id, p.is_default]), [[small.id, false], [big.id, true]]);
    await assert.rejects(db.updateTable('packages').set({ is_default: 1 }).where('id', '=', small.id).execute(), 'the index allows one default per account');
    await assert.rejects(setDefaultPackage(db, kind, ownAccount, 'pkg_usps_small_flat_rate_box'), /no package/);

    // 20 × 20 × 20 = 8,000 in³; 8,000 / 139 = 57.55 → 58 lb at UPS, the box's size and not the 1 lb it weighs.
    const explicit = await rate(own, { parcel: weightOnly, package_id: big.id });
    const defaulted = await rate(own, { parcel: weightOnly });
    assert.equal(defaulted.status, 200, defaulted.text);
    assert.deepEqual(upsBillable(defaulted), { value: 58, unit: 'lb' });
    assert.deepEqual(defaulted.body.rates.map((r: Rate) => [r.service, r.amount.amount]), explicit.body.rates.map((r: Rate) => [r.service, r.amount.amount]));
    assert.equal(problem(await rate(own, {}), 400, 'validation_failed').errors[0].pointer, '/parcel');
    const tooHeavy = problem(await rate(own, { parcel: { weight: { value: 60, unit: 'lb' } } }), 400, 'validation_failed');
    assert.equal(tooHeavy.errors[0].pointer, '/parcel/weight/value');

    const withoutParcel = await order(own, { parcel: undefined });
    assert.equal(withoutParcel.status, 201, withoutParcel.text);
    assert.equal(withoutParcel.body.package_id, big.id);
    const inDefault = await order(own, { parcel: weightOnly });
    assert.equal(inDefault.body.package_id, big.id);
    const orderRates = await server.request('POST', '/rates', { key: own, body: { order_id: inDefault.body.id } });
    assert.deepEqual(upsBillable(orderRates), { value: 58, unit: 'lb' });
    assert.equal((await order(own, {})).body.package_id, null, 'a parcel with its own dimensions keeps them');

    // An order made before the default keeps its box until a patch sets its parcel.
    const notes = await server.request('PATCH', `/orders/${before.body.id}`, { key: own, body: { notes: 'fragile' } });
    assert.equal(notes.body.package_id, null);
    const patched = await server.request('PATCH', `/orders/${before.body.id}`, { key: own, body: { parcel: { weight: { value: 2, unit: 'lb' } } } });
    assert.equal(patched.body.package_id, big.id);

    // A later default is for later orders: the ones made keep the box they were made with.
    await setDefaultPackage(db, kind, ownAccount, small.id);
    assert.equal((await server.request('GET', `/orders/${inDefault.body.id}`, { key: own })).body.package_id, big.id);

    assert.equal((await order(other, { parcel: weightOnly })).body.package_id, null);
    assert.deepEqual(upsBillable(await rate(other, { parcel: weightOnly })), { value: 1, unit: 'lb' });
  });

  test('the CLI adds a box as the default', async () => {
    const name = `dp-${Date.now()}`;
    const ownKey = (await server.key(await server.account(name))).secret;
    const out = await server.cli(['packages', 'add', '--account', name, '--name', 'Tube', '--length', '30', '--width', '4', '--height', '4', '--max-weight', '10', '--default']);
    assert.equal(out.code, 0, out.stderr);
    const custom = (await server.request('GET', '/packages?kind=custom', { key: ownKey })).body.data;
    assert.deepEqual(custom.map((p: { id: string; is_default: boolean }) => [p.id, p.is_default]), [[out.stdout.trim(), true]]);
  });
});

describe('GET /ship-from', () => {
  test("lists the account's locations, the default first, and no one else's", async () => {
    assert.deepEqual((await server.request('GET', '/ship-from', { key })).body.data, []);
    const db = server.services.database.db;
    const first = await addLocation(db, server.clock, accountId, { name: 'Austin', address: austin });
    server.clock.advance(1_000);
    const second = await addLocation(db, server.clock, accountId, { name: 'SF', address: sanFrancisco, isDefault: true });
    const list = (await server.request('GET', '/ship-from', { key })).body;
    assert.deepEqual(list.data.map((l: { id: string; is_default: boolean }) => [l.id, l.is_default]), [[second.id, true], [first.id, false]]);
    assert.equal(list.data[0].object, 'location');
    assert.equal(list.data[0].address.zip, '94105');
    assert.deepEqual((await server.request('GET', '/ship-from', { key: otherKey })).body.data, []);
  });
});
