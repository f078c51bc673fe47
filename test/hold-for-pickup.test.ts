import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { problem, startServer, type TestServer } from './harness.ts';
import { payingTestKey } from './live-billing.ts';
import { austin, orderBody, sanFrancisco } from './fixtures.ts';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- tests read whatever JSON came back

const cents = (m: { amount: string }) => Math.round(Number(m.amount) * 100);
const withContact = { ...sanFrancisco, email: 'ada@example.com', phone: '415 555 0100' };
const sender = { ...austin, name: 'Grace Hopper', company: 'Warehouse', email: 'ship@example.com', phone: '512 555 0100' };

describe('holding a parcel for pickup at a carrier location, in test mode', () => {
  let server: TestServer;
  let key: string;

  before(async () => {
    server = await startServer();
    key = await payingTestKey(server);
  });
  after(() => server.close());

  async function locations(query: string): Promise<Json[]> {
    const res = await server.request('GET', `/carrier-locations?${query}`, { key });
    assert.equal(res.status, 200, res.text);
    assert.equal(res.body.object, 'list');
    return res.body.data;
  }

  async function order(overrides: Json = {}): Promise<Json> {
    const res = await server.request('POST', '/orders', { key, body: orderBody(overrides) });
    assert.equal(res.status, 201, res.text);
    return res.body;
  }

  async function shop(body: Json): Promise<Json> {
    const res = await server.request('POST', '/rates', { key, body });
    assert.equal(res.status, 200, res.text);
    return res.body;
  }

  test('GET /carrier-locations lists each carrier\'s locations in the ZIP Code, nearest first, ids in the carrier\'s shape', async () => {
    const shapes: Record<string, RegExp> = { ups: /^U\d{8}$/, usps: /^\d{7}$/, fedex: /^[0-9A-Z]{4}$/ };
    for (const carrier of ['ups', 'usps', 'fedex']) {
      const found = await locations(`carrier=${carrier}&zip=94105`);
      assert.equal(found.length, 5, carrier);
      for (const l of found) {
        assert.equal(l.object, 'carrier_location');
        assert.equal(l.carrier, carrier);
        assert.match(l.id, shapes[carrier]!);
        assert.deepEqual([l.address.city, l.address.state, l.address.zip, l.address.country], ['San Francisco', 'CA', '94105', 'US']);
      }
      const distances = found.map((l) => l.distance_miles);
      assert.deepEqual(distances, [...distances].sort((a, b) => a - b), carrier);
      assert.equal(new Set(found.map((l) => l.id)).size, 5, carrier);
    }
    assert.equal((await locations('carrier=fedex&zip=94105&limit=2')).length, 2);
    assert.deepEqual(await locations('carrier=ups&zip=94105'), await locations('carrier=ups&zip=94105'), 'the same every time');
  });

  test('a ZIP Code that does not exist, a malformed one or a missing carrier is a 400 naming the field', async () => {
    const unknown = problem(await server.request('GET', '/carrier-locations?carrier=ups&zip=00000', { key }), 400, 'validation_failed');
    assert.deepEqual(unknown.errors.map((e: Json) => [e.in, e.pointer]), [['query', '/zip']]);
    const malformed = problem(await server.request('GET', '/carrier-locations?carrier=ups&zip=9410', { key }), 400, 'validation_failed');
    assert.equal(malformed.errors[0].pointer, '/zip');
    const noCarrier = problem(await server.request('GET', '/carrier-locations?zip=94105', { key }), 400, 'validation_failed');
    assert.equal(noCarrier.errors[0].pointer, '/carrier');
    problem(await server.request('GET', '/carrier-locations?carrier=ups&zip=94105'), 401, 'missing_api_key');
  });

  test("holding at a Post Office rates USPS alone, at no charge as USPS publishes; the others answer that the location is USPS's", async () => {
    const [office] = await locations('carrier=usps&zip=94105');
    const o = await order({ ship_to: withContact, ship_from: sender });
    const options = { hold_for_pickup: true, hold_location: { carrier: 'usps', id: office!.id } };
    const held = await shop({ order_id: o.id, options });
    assert.deepEqual(held.options, options);
    assert.deepEqual([...new Set(held.rates.map((r: Json) => r.carrier))], ['usps']);
    assert.deepEqual(held.rates.map((r: Json) => r.service).sort(), ['PRIORITY_MAIL', 'PRIORITY_MAIL_EXPRESS', 'USPS_GROUND_ADVANTAGE']);
    assert.deepEqual(held.errors.map((e: Json) => [e.carrier, e.code]).sort(), [['fedex', 'option_not_supported'], ['ups', 'option_not_supported']]);
    for (const e of held.errors as Json[]) assert.match(e.detail, new RegExp(`hold_location ${office!.id}\\) is USPS's; (UPS|FedEx) holds parcels only at its own`));
    const plain = await shop({ order_id: o.id, carriers: ['usps'] });
    for (const r of held.rates as Json[]) {
      const before = plain.rates.find((p: Json) => p.service === r.service);
      assert.equal(cents(r.amount), cents(before.amount), r.service);
    }
  });

  test('FedEx holds at its locations at no charge, no signature needed from the recipient', async () => {
    const [near] = await locations('carrier=fedex&zip=94105');
    const o = await order();
    const options = { hold_for_pickup: true, hold_location: { carrier: 'fedex', id: near!.id } };
    const held = await shop({ order_id: o.id, options });
    assert.ok(held.rates.length > 0, JSON.stringify(held.errors));
    assert.deepEqual([...new Set(held.rates.map((r: Json) => r.carrier))], ['fedex']);
    const plain = await shop({ order_id: o.id, carriers: ['fedex'] });
    for (const r of held.rates as Json[]) assert.equal(cents(r.amount), cents(plain.rates.find((p: Json) => p.service === r.service).amount), r.service);
    const bought = await server.request('POST', '/shipments', { key, body: { order_id: o.id, options } });
    assert.equal(bought.status, 201, bought.text);
    assert.equal(bought.body.carrier, 'fedex');
    assert.deepEqual(bought.body.options, options);
  });

  test('buying the rate ships with the location, shown on the shipment', async () => {
    const [, second] = await locations('carrier=usps&zip=94105');
    const o = await order({ ship_to: withContact, ship_from: sender });
    const options = { hold_for_pickup: true, hold_location: { carrier: 'usps', id: second!.id } };
    const held = await shop({ order_id: o.id, options });
    const bought = await server.request('POST', '/shipments', { key, body: { order_id: o.id, rate_id: held.rates[0].id } });
    assert.equal(bought.status, 201, bought.text);
    assert.equal(bought.body.carrier, 'usps');
    assert.deepEqual(bought.body.options, options);
    const again = await server.request('GET', `/shipments/${o.id}`, { key });
    assert.deepEqual(again.body.options, options);
  });

  test('a purchase without a rate holds at the location too, with its carrier', async () => {
    const [office] = await locations('carrier=usps&zip=94105');
    const o = await order({ ship_to: withContact, ship_from: sender });
    const options = { hold_for_pickup: true, hold_location: { carrier: 'usps', id: office!.id } };
    const bought = await server.request('POST', '/shipments', { key, body: { order_id: o.id, options } });
    assert.equal(bought.status, 201, bought.text);
    assert.equal(bought.body.carrier, 'usps');
    assert.deepEqual(bought.body.options, options);
  });

  test('a held parcel tracks to the location: available for pickup there, then picked up the next business day', async () => {
    const [, office] = await locations('carrier=usps&zip=94105');
    const o = await order({ ship_to: withContact, ship_from: sender });
    const options = { hold_for_pickup: true, hold_location: { carrier: 'usps', id: office!.id } };
    const bought = await server.request('POST', '/shipments', { key, body: { order_id: o.id, options } });
    assert.equal(bought.status, 201, bought.text);
    let seen: Json = {};
    // Test servers run simulated journeys fast: a parcel waits at the counter for about a minute of the test clock.
    for (let i = 0; i < 200 && seen.status !== 'available_for_pickup'; i++) {
      server.clock.advance(15_000);
      seen = (await server.request('POST', '/tracking', { key, body: { order_id: o.id } })).body;
    }
    assert.equal(seen.status, 'available_for_pickup');
    const ready = seen.events.at(-1);
    assert.equal(ready.description, `Held for pickup at ${office!.name}`);
    assert.equal(ready.location.zip, office!.address.zip);
    assert.ok(!seen.events.some((e: Json) => e.status === 'out_for_delivery'), 'a held parcel is not out for delivery');
    server.clock.advance(24 * 3_600_000);
    const collected = (await server.request('POST', '/tracking', { key, body: { order_id: o.id } })).body;
    assert.equal(collected.status, 'delivered');
    assert.equal(collected.events.at(-1).description, `Picked up at ${office!.name}`);
    assert.equal((await server.request('GET', `/orders/${o.id}`, { key })).body.status, 'delivered');
  });

  test('UPS, whose charge for holding at an Access Point shipd has not found published, is not quoted for it in test mode', async () => {
    const [point] = await locations('carrier=ups&zip=94105');
    const o = await order();
    const held = await shop({ order_id: o.id, options: { hold_for_pickup: true, hold_location: { carrier: 'ups', id: point!.id } } });
    assert.deepEqual(held.rates, []);
    const ups = held.errors.find((e: Json) => e.carrier === 'ups');
    assert.equal(ups.code, 'option_not_supported');
    assert.match(ups.detail, /test mode has no published UPS price for holding for pickup/);
  });

  test('an id the carrier does not list drops the carrier out naming it; a purchase with it is refused and charges nothing', async () => {
    const o = await order();
    const options = { hold_for_pickup: true, hold_location: { carrier: 'ups', id: 'U00000001' } };
    const held = await shop({ order_id: o.id, options });
    assert.deepEqual(held.rates, []);
    const ups = held.errors.find((e: Json) => e.carrier === 'ups');
    assert.equal(ups.code, 'option_not_supported');
    assert.match(ups.detail, /has no location U00000001/);
    problem(await server.request('POST', '/shipments', { key, body: { order_id: o.id, options } }), 422, 'option_not_supported');
    const after = await server.request('GET', `/orders/${o.id}`, { key });
    assert.equal(after.body.status, 'incomplete');
  });

  test("USPS holds a parcel only with the recipient's email and phone and the sender's names, email and phone: a 400 naming each missing", async () => {
    const [office] = await locations('carrier=usps&zip=94105');
    const options = { hold_for_pickup: true, hold_location: { carrier: 'usps', id: office!.id } };
    const parcel = { weight: { value: 2, unit: 'lb' } };
    const missing = problem(await server.request('POST', '/rates', { key, body: { ship_from: austin, ship_to: sanFrancisco, parcel, options } }), 400, 'validation_failed');
    assert.deepEqual(missing.errors.map((e: Json) => e.pointer), ['/ship_to/email', '/ship_to/phone', '/ship_from/name', '/ship_from/email', '/ship_from/phone']);
    assert.match(missing.errors[2].detail, /first and a last name/);
    const complete = await shop({ ship_from: sender, ship_to: withContact, parcel, options });
    assert.deepEqual([...new Set(complete.rates.map((r: Json) => r.carrier))], ['usps']);
    const o = await order();
    const onOrder = problem(await server.request('POST', '/rates', { key, body: { order_id: o.id, options } }), 400, 'validation_failed');
    assert.deepEqual(new Set(onOrder.errors.map((e: Json) => e.pointer)), new Set(['/order_id']));
    assert.equal(onOrder.errors.length, 5);
    problem(await server.request('POST', '/shipments', { key, body: { order_id: o.id, options } }), 400, 'validation_failed');
    // FedEx asks nothing of either address to hold a parcel.
    const [near] = await locations('carrier=fedex&zip=94105');
    assert.ok((await shop({ order_id: o.id, options: { hold_for_pickup: true, hold_location: { carrier: 'fedex', id: near!.id } } })).rates.length > 0);

    const told = await order({ ship_to: withContact, ship_from: sender });
    const held = await shop({ order_id: told.id, options });
    assert.ok(held.rates.length > 0, JSON.stringify(held.errors));
    assert.deepEqual([...new Set(held.rates.map((r: Json) => r.carrier))], ['usps']);
    const bought = await server.request('POST', '/shipments', { key, body: { order_id: told.id, rate_id: held.rates[0].id } });
    assert.equal(bought.status, 201, bought.text);
    assert.deepEqual(bought.body.options, options);
  });
});
