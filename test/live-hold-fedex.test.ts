import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { TestServer } from './harness.ts';
import { austin, orderBody } from './fixtures.ts';
import type { CarrierFakes } from './fakes/carriers.ts';
import { fedexFakeLocations } from './fakes/fedex-locations.ts';
import { startLiveShop, type LiveShop } from './live-billing.ts';
import { contractViolations } from './contracts/check.ts';
import { fedexFindLocationsRequest } from './contracts/fedex/locations.ts';
import { fedexShipRequest } from './contracts/fedex/ship.ts';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- tests read whatever JSON came back

// Hold at Location with live keys against the fake FedEx: GET /carrier-locations searches FedEx's Location Search
// API, and a rate or label with hold_for_pickup goes to FedEx as HOLD_AT_LOCATION with the location's id.

/** FedEx labels need the shipper's phone live. */
const anOrder = () => orderBody({ ship_from: { ...austin, phone: '512-555-0100' } });
const holdAt = (id: string) => ({ hold_for_pickup: true, hold_location: { carrier: 'fedex', id } });

describe('FedEx Hold at Location with live keys (fake carrier servers)', () => {
  let fakes: CarrierFakes;
  let server: TestServer;
  let key: string;
  let live: LiveShop;
  before(async () => {
    live = await startLiveShop();
    ({ server, fakes, key } = live);
  });
  after(() => live.close());

  const callsTo = (path: string) => fakes.fedex.calls.filter((c) => c.path === path);
  const holding = fedexFakeLocations.filter((l) => l.holds);

  async function shop(options: Json): Promise<{ orderId: string; body: Json }> {
    const o = await server.request('POST', '/orders', { key, body: anOrder() });
    assert.equal(o.status, 201, o.text);
    const rates = await server.request('POST', '/rates', { key, body: { order_id: o.body.id, options } });
    assert.equal(rates.status, 200, rates.text);
    return { orderId: o.body.id, body: rates.body };
  }

  test('GET /carrier-locations lists the FedEx locations that hold parcels near the ZIP Code, nearest first, from a search FedEx takes', async () => {
    const res = await server.request('GET', '/carrier-locations?carrier=fedex&zip=94105&limit=10', { key });
    assert.equal(res.status, 200, res.text);
    assert.deepEqual(
      (res.body.data as Json[]).map((l) => l.id),
      holding.map((l) => l.locationId),
      'the drop box, which holds nothing, is not asked for',
    );
    const first = res.body.data[0];
    assert.deepEqual(first, {
      object: 'carrier_location',
      carrier: 'fedex',
      id: 'SFOA',
      name: 'FedEx Office Print & Ship Center',
      kind: 'FedEx Office',
      address: { street1: '100 California St', city: 'SAN FRANCISCO', state: 'CA', zip: '94111', country: 'US' },
      distance_miles: 0.6,
    });
    const asked = callsTo('/location/v1/locations').at(-1)!.body as Json;
    assert.deepEqual(contractViolations(fedexFindLocationsRequest, asked), []);
    assert.deepEqual(asked.location, { address: { postalCode: '94105', countryCode: 'US' } });
    assert.deepEqual(asked.locationCapabilities, [{ transferOfPossessionType: 'HOLD_AT_LOCATION' }]);

    const two = await server.request('GET', '/carrier-locations?carrier=fedex&zip=94105&limit=2', { key });
    assert.equal(two.status, 200, two.text);
    assert.equal(two.body.data.length, 2);
    assert.equal((callsTo('/location/v1/locations').at(-1)!.body as Json).locationsSummaryRequestControlParameters.maxResults, 2);
  });

  test('a hold at a FedEx location rates FedEx alone, and the label is bought with HOLD_AT_LOCATION and that locationId', async () => {
    const id = holding[1]!.locationId;
    const { orderId, body } = await shop(holdAt(id));
    assert.ok(body.rates.length > 0, JSON.stringify(body));
    assert.ok((body.rates as Json[]).every((r) => r.carrier === 'fedex'), JSON.stringify(body.rates));
    const refused = Object.fromEntries((body.errors as Json[]).map((e) => [e.carrier, e.code]));
    assert.deepEqual(refused, { ups: 'option_not_supported', usps: 'option_not_supported' });
    const held = { specialServiceTypes: ['HOLD_AT_LOCATION'], holdAtLocationDetail: { locationId: id } };
    assert.deepEqual((callsTo('/rate/v1/rates/quotes').at(-1)!.body as Json).requestedShipment.shipmentSpecialServices, held);

    const label = await server.request('POST', '/shipments', { key, body: { order_id: orderId, rate_id: body.rates[0].id } });
    assert.equal(label.status, 201, label.text);
    assert.deepEqual(label.body.options, holdAt(id));
    const shipped = callsTo('/ship/v1/shipments').at(-1)!.body as Json;
    assert.deepEqual(contractViolations(fedexShipRequest, shipped), []);
    assert.deepEqual(shipped.requestedShipment.shipmentSpecialServices, held);
  });

  test('the fake FedEx refuses HOLD_AT_LOCATION without its holdAtLocationDetail, and a location search without a country, in its error envelope', async () => {
    const tokenRes = await fetch(`${fakes.fedex.url}/oauth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ grant_type: 'client_credentials', client_id: fakes.fedex.clientId, client_secret: fakes.fedex.clientSecret }),
    });
    const { access_token: token } = (await tokenRes.json()) as Json;
    const post = async (path: string, body: Json) => {
      const res = await fetch(`${fakes.fedex.url}${path}`, { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: JSON.stringify(body) });
      return { status: res.status, body: (await res.json()) as Json };
    };
    const sold = callsTo('/ship/v1/shipments').find((c) => (c.body as Json).requestedShipment.shipmentSpecialServices)!.body as Json;
    const bare = { ...sold, requestedShipment: { ...sold.requestedShipment, shipmentSpecialServices: { specialServiceTypes: ['HOLD_AT_LOCATION'] } } };
    const ship = await post('/ship/v1/shipments', bare);
    assert.equal(ship.status, 400);
    assert.equal(ship.body.errors[0].code, 'INVALID.INPUT.EXCEPTION');
    const search = await post('/location/v1/locations', { location: { address: { postalCode: '94105' } } });
    assert.equal(search.status, 400);
    assert.equal(search.body.errors[0].code, 'INVALID.INPUT.EXCEPTION');
  });

  for (const [id, what] of [['ZZZZ', 'an id FedEx has no location for'], ['SFDB', 'a drop box, which holds nothing']] as const) {
    test(`${what} is refused by FedEx at purchase, and nothing is charged`, async () => {
      const { orderId, body } = await shop(holdAt(id));
      const rate = (body.rates as Json[]).find((r) => r.carrier === 'fedex');
      assert.ok(rate, JSON.stringify(body));
      const ships = callsTo('/ship/v1/shipments').length;
      const charges = live.stripe.charges().length;
      const ledgerRows = () => server.services.database.db.selectFrom('postage_ledger').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow();
      const before = Number((await ledgerRows()).n);

      const label = await server.request('POST', '/shipments', { key, body: { order_id: orderId, rate_id: rate.id } });
      assert.ok(label.status >= 400, label.text);
      assert.match(label.text, /HOLDATLOCATION\.LOCATIONID\.INVALID/);
      assert.equal(callsTo('/ship/v1/shipments').length, ships + 1, 'FedEx was asked, and refused');
      // The card is held for the postage before FedEx is asked; the hold is let go, nothing captured.
      const held = live.stripe.charges().slice(charges);
      assert.ok(held.every((c) => c.status === 'canceled' && c.captured === 0), JSON.stringify(held));
      assert.equal(Number((await ledgerRows()).n), before);
      const order = await server.request('GET', `/orders/${orderId}`, { key });
      assert.notEqual(order.body.status, 'shipped', order.text);
    });
  }
});
