import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { TestServer } from './harness.ts';
import { austin, orderBody, sanFrancisco } from './fixtures.ts';
import type { CarrierFakes } from './fakes/carriers.ts';
import { startLiveShop, type LiveShop } from './live-billing.ts';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- tests read whatever JSON came back

/** What USPS needs of both addresses to hold a parcel: the recipient's email and phone, the sender's names, email and phone. */
const reachable = {
  ship_to: { ...sanFrancisco, email: 'ada@example.com', phone: '(415) 555-0100' },
  ship_from: { ...austin, name: 'Grace Hopper', email: 'ship@example.com', phone: '512-555-0100' },
};

describe('USPS Hold for Pickup with live keys (fake USPS Locations and Labels APIs)', () => {
  let live: LiveShop;
  let server: TestServer;
  let fakes: CarrierFakes;
  let key: string;
  before(async () => {
    live = await startLiveShop();
    ({ server, fakes, key } = live);
  });
  after(() => live.close());

  const labelCalls = () => fakes.usps.calls.filter((c) => c.method === 'POST' && c.path === '/labels/v3/label');
  const held = (id: string) => ({ hold_for_pickup: true, hold_location: { carrier: 'usps', id } });

  async function order(overrides: Json = reachable): Promise<Json> {
    const o = await server.request('POST', '/orders', { key, body: orderBody({ order_number: `hold-${Math.random().toString(36).slice(2, 8)}`, ...overrides }) });
    assert.equal(o.status, 201, o.text);
    return o.body;
  }

  test('GET /carrier-locations lists the Post Offices near the ZIP Code that hold parcels, nearest first, from the Locations API', async () => {
    const res = await server.request('GET', '/carrier-locations?carrier=usps&zip=94105&limit=10', { key });
    assert.equal(res.status, 200, res.text);
    assert.deepEqual(
      (res.body.data as Json[]).map((l) => [l.object, l.carrier, l.id, l.kind, l.distance_miles]),
      [
        ['carrier_location', 'usps', '1390271', 'Post Office', 0.3],
        ['carrier_location', 'usps', '1390274', 'Post Office', 1.9],
      ],
    );
    assert.deepEqual(res.body.data[0].address, { street1: '180 STEUART ST', city: 'SAN FRANCISCO', state: 'CA', zip: '94105-1241', country: 'US' });
    const asked = new URL(fakes.usps.calls.findLast((c) => c.path.startsWith('/locations/v3/'))!.path, 'http://usps');
    assert.deepEqual(Object.fromEntries(asked.searchParams), { ZIPCode: '94105', radius: '20', limit: '10', postOfficeType: 'POST_OFFICE', pickupService: 'HOLD_FOR_PICKUP' });

    const one = await server.request('GET', '/carrier-locations?carrier=usps&zip=94105&limit=1', { key });
    assert.deepEqual((one.body.data as Json[]).map((l) => l.id), ['1390271']);
    const unknown = await server.request('GET', '/carrier-locations?carrier=usps&zip=00000', { key });
    assert.equal(unknown.status, 400, unknown.text);
    assert.equal(unknown.body.errors[0].pointer, '/zip');
    assert.deepEqual(fakes.usps.violations, []);
  });

  test('a rate shop held at a Post Office rates USPS alone, and the label bought holds it there with the emails and phones', async () => {
    const o = await order();
    const shop = await server.request('POST', '/rates', { key, body: { order_id: o.id, options: held('1390271') } });
    assert.equal(shop.status, 200, shop.text);
    assert.ok(shop.body.rates.length > 0, shop.text);
    assert.deepEqual([...new Set((shop.body.rates as Json[]).map((r) => r.carrier))], ['usps']);
    assert.deepEqual(
      (shop.body.errors as Json[]).map((e) => [e.carrier, e.code]).sort(),
      [['fedex', 'option_not_supported'], ['ups', 'option_not_supported']],
    );
    assert.match(shop.body.errors[0].detail, /hold_location 1390271\) is USPS's/);
    // USPS charges nothing for Hold for Pickup: the rate shows no surcharge for it.
    assert.ok((shop.body.rates as Json[]).every((r) => (r.surcharges as Json[]).every((s) => s.type !== 'hold_for_pickup')));

    const rate = shop.body.rates[0];
    const bought = await server.request('POST', '/shipments', { key, body: { order_id: o.id, rate_id: rate.id } });
    assert.equal(bought.status, 201, bought.text);
    assert.deepEqual(bought.body.options, held('1390271'));
    assert.deepEqual(bought.body.postage, rate.amount);
    const label = labelCalls().at(-1)!.body as Json;
    assert.deepEqual(
      [label.toAddress.holdForPickup, label.toAddress.facilityId, label.toAddress.email, label.toAddress.phone],
      [true, '1390271', 'ada@example.com', '4155550100'],
    );
    assert.deepEqual(
      [label.fromAddress.firstName, label.fromAddress.lastName, label.fromAddress.email, label.fromAddress.phone],
      ['Grace', 'Hopper', 'ship@example.com', '5125550100'],
    );
    assert.deepEqual(fakes.usps.violations, []);
  });

  test('a Post Office that does not hold parcels is refused by USPS, and nothing is charged', async () => {
    const o = await order();
    const shop = await server.request('POST', '/rates', { key, body: { order_id: o.id, options: held('1390275') } });
    assert.equal(shop.status, 200, shop.text);
    const labelsBefore = labelCalls().length;
    const bought = await server.request('POST', '/shipments', { key, body: { order_id: o.id, rate_id: shop.body.rates[0].id } });
    assert.ok(bought.status >= 400, bought.text);
    assert.match(bought.body.detail, /toAddress\.facilityId: The facility 1390275 is not a Post Office that offers Hold for Pickup/);
    assert.equal(labelCalls().length, labelsBefore + 1, 'USPS was asked once and refused');
    const rows = await server.services.database.db.selectFrom('shipments').select(['id', 'status']).where('order_id', '=', o.id).execute();
    assert.deepEqual(rows.map((r) => r.status), ['failed']);
    assert.deepEqual(await live.ledger(rows[0]!.id), []);
    assert.ok(live.chargesOf(rows[0]!.id).every((c) => c.captured === 0), 'the card is not charged');
  });

  test('without the sender\'s email and phone, which USPS also requires of a hold, it is a 400 naming them and USPS is not asked', async () => {
    const o = await order({ ship_to: reachable.ship_to, ship_from: { ...reachable.ship_from, email: undefined, phone: undefined } });
    const labelsBefore = labelCalls().length;
    const bought = await server.request('POST', '/shipments', { key, body: { order_id: o.id, options: held('1390271') } });
    assert.equal(bought.status, 400, bought.text);
    assert.equal(bought.body.code, 'validation_failed');
    assert.deepEqual(
      bought.body.errors.map((e: Json) => e.detail),
      ["the sender's email is required to hold a parcel at a USPS location (USPS tells the recipient it is waiting)", "the sender's phone is required to hold a parcel at a USPS location (USPS tells the recipient it is waiting)"],
    );
    assert.equal(labelCalls().length, labelsBefore);
  });
});
