import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { TestServer } from './harness.ts';
import type { CarrierFakes } from './fakes/carriers.ts';
import type { FakeStripe } from './fakes/stripe.ts';
import { upsFakeAccessPoints } from './fakes/ups-locator.ts';
import { upsFakeCredentials } from './fakes/ups.ts';
import { austin, orderBody, sanFrancisco } from './fixtures.ts';
import { buildShipRequest } from '../src/carriers/ups/ship.ts';
import { startLiveShop, type LiveShop } from './live-billing.ts';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- tests read whatever JSON came back

const locatorPath = /^\/api\/locations\/v3\/search\/availabilities\/64$/;
const ratePath = /^\/api\/rating\//;
const shipPath = /^\/api\/shipments\/v\w+\/ship$/;

describe('UPS Access Points with live keys (fake UPS over HTTP)', () => {
  let live: LiveShop;
  let server: TestServer;
  let fakes: CarrierFakes;
  let stripe: FakeStripe;
  let key: string;
  before(async () => {
    live = await startLiveShop();
    ({ server, fakes, stripe, key } = live);
  });
  after(async () => {
    assert.deepEqual(fakes.ups.contractRefusals, [], 'every request shipd sent UPS kept its published contract');
    await live.close();
  });

  const post = (path: string, body: unknown) => server.request('POST', path, { key, body });
  const lastCall = (path: RegExp): Json => fakes.ups.calls.findLast((c) => path.test(c.path))!.body as Json;
  const hold = (id: string) => ({ hold_for_pickup: true, hold_location: { carrier: 'ups' as const, id } });

  test("GET /carrier-locations lists the active UPS Access Points near the ZIP, nearest first, by UPS's Locator", async () => {
    const res = await server.request('GET', '/carrier-locations?carrier=ups&zip=94105&limit=10', { key });
    assert.equal(res.status, 200, res.text);
    const active = upsFakeAccessPoints.filter((p) => p.status === '01');
    assert.deepEqual(
      res.body.data.map((l: Json) => [l.id, l.name, l.kind, l.distance_miles]),
      active.map((p) => [p.id, p.name, 'UPS Access Point', p.miles]),
    );
    assert.deepEqual(res.body.data[0].address, { street1: '101 MISSION ST', street2: 'STE 110', city: 'SAN FRANCISCO', state: 'CA', zip: '94105', country: 'US' });
    const asked = lastCall(locatorPath).LocatorRequest;
    assert.deepEqual(asked.LocationSearchCriteria, { MaximumListSize: '10', AccessPointSearch: { AccessPointStatus: '01' } });
    assert.equal(asked.OriginAddress.AddressKeyFormat.PostcodePrimaryLow, '94105');

    const far = await server.request('GET', '/carrier-locations?carrier=ups&zip=10001', { key });
    assert.equal(far.status, 200, far.text);
    assert.deepEqual(far.body.data, []);
    const nowhere = await server.request('GET', '/carrier-locations?carrier=ups&zip=00000', { key });
    assert.equal(nowhere.status, 400, nowhere.text);
    assert.match(nowhere.text, /\/zip/);
  });

  test('a parcel held at an Access Point is rated by UPS alone and bought with ShipmentIndicationType 01 and the Access Point as AlternateDeliveryAddress', async () => {
    const point = upsFakeAccessPoints[1]!;
    const o = await post('/orders', orderBody());
    assert.equal(o.status, 201, o.text);
    const shop = await post('/rates', { order_id: o.body.id, options: hold(point.id) });
    assert.equal(shop.status, 200, shop.text);
    assert.ok(shop.body.rates.length > 0, shop.text);
    assert.deepEqual([...new Set(shop.body.rates.map((r: Json) => r.carrier))], ['ups']);
    assert.deepEqual(
      shop.body.errors.map((e: Json) => [e.carrier, e.code]).sort(),
      [
        ['fedex', 'option_not_supported'],
        ['usps', 'option_not_supported'],
      ],
    );
    const rated = lastCall(ratePath).RateRequest.Shipment;
    assert.deepEqual(rated.ShipmentIndicationType, [{ Code: '01' }]);
    assert.deepEqual(rated.AlternateDeliveryAddress, { Name: point.name, Address: { AddressLine: point.lines, City: point.city, StateProvinceCode: point.state, PostalCode: point.zip, CountryCode: 'US' } });

    const bought = await post('/shipments', { order_id: o.body.id, rate_id: shop.body.rates[0].id });
    assert.equal(bought.status, 201, bought.text);
    assert.deepEqual(bought.body.options, hold(point.id));
    const shipped = lastCall(shipPath).ShipmentRequest.Shipment;
    assert.deepEqual(shipped.ShipmentIndicationType, [{ Code: '01' }]);
    assert.deepEqual(shipped.AlternateDeliveryAddress, {
      Name: point.name,
      AttentionName: 'Ada Lovelace',
      UPSAccessPointID: point.id,
      Address: { AddressLine: point.lines, City: point.city, StateProvinceCode: point.state, PostalCode: point.zip, CountryCode: 'US' },
    });
    // The recipient is still the ShipTo: the one the Access Point hands the parcel to.
    assert.equal(shipped.ShipTo.Name, 'Ada Lovelace');
    // The Access Point was looked up by its public id before each request was built.
    const lookups = fakes.ups.calls.filter((c) => locatorPath.test(c.path) && (c.body as Json).LocatorRequest.LocationSearchCriteria.AccessPointSearch.PublicAccessPointID === point.id);
    assert.equal(lookups.length, 2);
  });

  test('an id UPS does not know, or an Access Point not taking parcels, is refused with a pointer and nothing is charged', async () => {
    for (const id of ['U00000000', upsFakeAccessPoints.find((p) => p.status !== '01')!.id, 'U123']) {
      const o = await post('/orders', orderBody());
      assert.equal(o.status, 201, o.text);
      const shop = await post('/rates', { order_id: o.body.id, options: hold(id) });
      assert.equal(shop.status, 200, shop.text);
      assert.deepEqual(shop.body.rates, []);
      const ups = shop.body.errors.find((e: Json) => e.carrier === 'ups');
      assert.equal(ups?.code, 'option_not_supported', shop.text);
      assert.match(ups.detail, new RegExp(`${id}.*hold_location`));

      const charges = stripe.charges().length;
      const ships = fakes.ups.calls.filter((c) => shipPath.test(c.path)).length;
      const bought = await post('/shipments', { order_id: o.body.id, options: hold(id) });
      assert.equal(bought.status, 422, bought.text);
      assert.equal(bought.body.code, 'option_not_supported', bought.text);
      assert.ok(bought.body.errors.some((e: Json) => e.pointer.startsWith('/options')), bought.text);
      assert.match(bought.text, /\/options\/hold_location\/id/);
      assert.equal(stripe.charges().length, charges, 'no card charge');
      assert.equal(fakes.ups.calls.filter((c) => shipPath.test(c.path)).length, ships, 'no label asked of UPS');
      const order = await server.request('GET', `/orders/${o.body.id}`, { key });
      assert.equal(order.body.status, 'incomplete', order.text);
    }
  });

  test('a search by id that UPS refuses outright is an id it does not know; its outage is not', async () => {
    const o = await post('/orders', orderBody());
    fakes.ups.failNext({ kind: 'envelope', status: 400, code: '350104', message: 'Invalid Access Point ID' }, '/api/locations/');
    let shop = await post('/rates', { order_id: o.body.id, carriers: ['ups'], options: hold(upsFakeAccessPoints[0]!.id) });
    assert.equal(shop.body.errors[0]?.code, 'option_not_supported', shop.text);
    assert.match(shop.body.errors[0].detail, /Invalid Access Point ID/);
    fakes.ups.failNext({ kind: 'server_error' }, '/api/locations/');
    shop = await post('/rates', { order_id: o.body.id, carriers: ['ups'], options: hold(upsFakeAccessPoints[0]!.id) });
    assert.equal(shop.body.errors[0]?.code, 'carrier_unavailable', shop.text);
  });

  test("the fake UPS refuses a ship request holding the parcel at none of its Access Points, in UPS's error envelope", async () => {
    const basic = Buffer.from(`${upsFakeCredentials.clientId}:${upsFakeCredentials.clientSecret}`).toString('base64');
    const token = await fetch(`${fakes.ups.url}/security/v1/oauth/token`, { method: 'POST', headers: { authorization: `Basic ${basic}`, 'content-type': 'application/x-www-form-urlencoded' }, body: 'grant_type=client_credentials' });
    const { access_token: bearer } = (await token.json()) as { access_token: string };
    const stranger = { id: 'U00000000', name: 'NOWHERE MART', kind: 'UPS Access Point', address: { street1: '1 NOWHERE ST', city: 'SAN FRANCISCO', state: 'CA', zip: '94105', country: 'US' }, distanceMiles: null };
    const request = { from: austin, to: sanFrancisco, parcels: [{ weightLb: 2 }], shipDate: new Date(), service: '03', options: hold(stranger.id), quotedCents: 1, labelFormat: 'pdf' as const, isReturn: false, idempotencyKey: 'k' };
    const built = buildShipRequest(request, upsFakeCredentials.accountNumber, stranger);
    assert.ok(built.ok);
    const res = await fetch(`${fakes.ups.url}${built.value.path}`, { method: 'POST', headers: { authorization: `Bearer ${bearer}`, 'content-type': 'application/json' }, body: JSON.stringify(built.value.body) });
    assert.equal(res.status, 400);
    assert.deepEqual(await res.json(), { response: { errors: [{ code: '400', message: 'Invalid UPS Access Point ID U00000000' }] } });
  });
});
