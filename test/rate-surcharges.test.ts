import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, type TestServer } from './harness.ts';
import { payingTestKey } from './live-billing.ts';
import { austin, orderBody, sanFrancisco } from './fixtures.ts';
import { startCarrierFakes, type CarrierFakes } from './fakes/carriers.ts';
import { simTables } from '../src/carriers/sim/tables.ts';
import { publishedCents } from '../src/carriers/sim/prices/types.ts';
import { encodeRates } from '../src/domain/rating/rate-store.ts';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- tests read whatever JSON came back

const cents = (m: { amount: string }) => Math.round(Number(m.amount) * 100);
const types = (rate: Json) => rate.surcharges.map((s: Json) => s.type);
const surchargeCents = (rate: Json) => rate.surcharges.reduce((sum: number, s: Json) => sum + cents(s.amount), 0);

/** Every rate's surcharges are in its own currency and together leave a positive transport price. */
function assertIncluded(rates: Json[]): void {
  for (const r of rates) {
    for (const s of r.surcharges) {
      assert.equal(s.amount.currency, r.amount.currency, `${r.carrier} ${r.service}`);
      assert.ok(cents(s.amount) > 0, `${r.carrier} ${r.service} ${s.type}`);
    }
    assert.ok(surchargeCents(r) < cents(r.amount), `${r.carrier} ${r.service}: ${surchargeCents(r)} of ${cents(r.amount)}`);
  }
}

const heavy = { weight: { value: 55, unit: 'lb' }, dimensions: { length: 20, width: 14, height: 10, unit: 'in' } };
const small = { weight: { value: 2, unit: 'lb' }, dimensions: { length: 10, width: 8, height: 4, unit: 'in' } };

describe('rates show the surcharges they include, in test mode', () => {
  let server: TestServer;
  let key: string;
  before(async () => {
    server = await startServer();
    key = await payingTestKey(server);
  });
  after(() => server.close());
  const shop = async (body: unknown) => {
    const res = await server.request('POST', '/rates', { key, body });
    assert.equal(res.status, 200, res.text);
    assertIncluded(res.body.rates);
    return res.body as Json;
  };

  test('to a home, a 55 lb parcel: residential, additional handling and fuel, the rest being the published transport price less the discount', async () => {
    const rates: Json[] = (await shop({ ship_from: austin, ship_to: sanFrancisco, parcel: heavy })).rates;
    const ground = rates.find((r) => r.carrier === 'ups' && r.service === '03')!;
    assert.deepEqual(types(ground), ['fuel', 'residential', 'additional_handling']);
    const ups = simTables.find((t) => t.id === 'ups')!;
    const transport = publishedCents(ups.prices.services['03'], ground.zone, ground.billable_weight.value)!;
    assert.equal(cents(ground.amount) - surchargeCents(ground), Math.round(transport * (1 - ups.prices.accountDiscount)));
    const home = rates.find((r) => r.carrier === 'fedex' && r.service === 'GROUND_HOME_DELIVERY')!;
    assert.ok(types(home).includes('fuel') && types(home).includes('additional_handling'), JSON.stringify(home.surcharges));
    // USPS adds no fuel, residential or handling charge to a parcel within its standard size.
    for (const r of rates.filter((r) => r.carrier === 'usps')) assert.deepEqual(r.surcharges, []);
  });

  test('a small parcel to a business draws fuel alone at UPS and FedEx, nothing at USPS', async () => {
    // Downtown Seattle is on no delivery area list (San Francisco's 94105 is on FedEx's).
    const seattle = { name: 'Grace Hopper', company: 'Acme', street1: '1301 2nd Ave', city: 'Seattle', state: 'WA', zip: '98101' };
    const rates: Json[] = (await shop({ ship_from: austin, ship_to: seattle, parcel: small })).rates;
    for (const r of rates) assert.deepEqual(types(r), r.carrier === 'usps' ? [] : ['fuel'], `${r.carrier} ${r.service}`);
  });

  test('abroad, FedEx shows the surcharges of its international list: fuel on Ground alone, residential on each', async () => {
    const toronto = { name: 'Jean Tremblay', street1: '100 Queen St W', city: 'Toronto', state: 'ON', zip: 'M5H 2N2', country: 'CA', phone: '+1 416 555 0142' };
    const customs = {
      contents_type: 'merchandise',
      non_delivery: 'return',
      signer: 'Grace Hopper',
      certify: true,
      items: [{ description: 'Linen tea towel', quantity: 1, unit_value: { amount: '9.00', currency: 'USD' }, weight: { value: 3, unit: 'oz' }, hs_tariff_number: '6302.60', origin_country: 'PT' }],
    };
    const rates: Json[] = (await shop({ ship_from: austin, ship_to: toronto, parcel: small, customs, carriers: ['fedex'] })).rates;
    const byService = new Map(rates.map((r) => [r.service, types(r)]));
    assert.deepEqual(byService.get('FEDEX_INTERNATIONAL_PRIORITY'), ['residential']);
    assert.deepEqual(byService.get('FEDEX_GROUND'), ['fuel', 'residential']);
  });

  test('a label keeps the surcharges of the rate it was bought at, by rate id or as the cheapest', async () => {
    const newOrder = async () => (await server.request('POST', '/orders', { key, body: orderBody({ ship_to: sanFrancisco, parcel: heavy }) })).body as Json;
    const order = await newOrder();
    const ground = (await shop({ order_id: order.id, carriers: ['ups'] })).rates.find((r: Json) => r.service === '03');
    assert.deepEqual(types(ground), ['fuel', 'residential', 'additional_handling']);
    const bought = await server.request('POST', '/shipments', { key, body: { order_id: order.id, rate_id: ground.id } });
    assert.equal(bought.status, 201, bought.text);
    assert.deepEqual(bought.body.surcharges, ground.surcharges);
    assert.deepEqual((await server.request('GET', `/shipments/${bought.body.id}`, { key })).body.surcharges, ground.surcharges);

    const other = await newOrder();
    const cheapest = (await shop({ order_id: other.id })).rates[0];
    const direct = await server.request('POST', '/shipments', { key, body: { order_id: other.id } });
    assert.equal(direct.status, 201, direct.text);
    assert.deepEqual([direct.body.carrier, direct.body.service, direct.body.surcharges], [cheapest.carrier, cheapest.service, cheapest.surcharges]);
  });

  test('a shop stored before rates had surcharges is read with none; one stored now reads them back', async () => {
    const answer = await shop({ ship_from: austin, ship_to: sanFrancisco, parcel: heavy, carriers: ['ups'] });
    const db = server.services.database.db;
    const ground = answer.rates.find((r: Json) => r.service === '03');
    assert.deepEqual((await server.services.rateStore.find(db, ground.id))?.rate, ground);
    // The nine fields a USD rate was stored with before.
    const row = await db.selectFrom('rate_shops').selectAll().where('id', '=', answer.id).executeTakeFirstOrThrow();
    const before = (JSON.parse(row.rates) as unknown[][]).map((stored) => stored.slice(0, 9));
    await db.updateTable('rate_shops').set({ rates: JSON.stringify(before) }).where('id', '=', answer.id).execute();
    const old = await server.services.rateStore.find(db, ground.id);
    assert.deepEqual(old?.rate, { ...ground, surcharges: [] });
    // And a rate in another currency keeps its currency and USD price after the surcharges.
    const quote = { carrier: 'fedex' as const, service: 'FEDEX_INTERNATIONAL_PRIORITY', serviceName: '', amountCents: 5000, listAmountCents: 6000, currency: 'CAD', usdAmountCents: 3650, billableWeightLb: 2, zone: 'A', deliveryDays: null, estimatedDeliveryDate: null, guaranteed: false };
    assert.deepEqual(JSON.parse(encodeRates([{ ...quote, surcharges: [{ type: 'fuel', amountCents: 700 }] }, { ...quote, surcharges: [] }])), [
      ['fedex', 'FEDEX_INTERNATIONAL_PRIORITY', 5000, 6000, 2, 'A', null, null, 0, 'CAD', 3650, [['fuel', 700]]],
      ['fedex', 'FEDEX_INTERNATIONAL_PRIORITY', 5000, 6000, 2, 'A', null, null, 0, 'CAD', 3650],
    ]);
  });
});

describe('rates show the surcharges they include, with live keys (fake carrier servers over HTTP)', () => {
  let fakes: CarrierFakes;
  let server: TestServer;
  let key: string;
  before(async () => {
    fakes = await startCarrierFakes();
    server = await startServer({ env: fakes.env(['ups', 'usps', 'fedex']) });
    key = (await server.key(await server.account(), 'live')).secret;
  });
  after(async () => {
    await server.close();
    await fakes.close();
  });

  test("each carrier's itemized charges are mapped to shipd's types, the account's share where the account price is quoted", async () => {
    // 55 lb, 24 in long, to a home: UPS's additional handling, USPS's nonstandard length fee, FedEx's residential charge.
    const parcel = { weight: { value: 55, unit: 'lb' }, dimensions: { length: 24, width: 10, height: 8, unit: 'in' } };
    const res = await server.request('POST', '/rates', { key, body: { ship_from: { ...austin, phone: '512-555-0100' }, ship_to: sanFrancisco, parcel } });
    assert.equal(res.status, 200, res.text);
    assert.deepEqual(res.body.errors, []);
    const rates: Json[] = res.body.rates;
    assertIncluded(rates);
    const ground = rates.find((r) => r.carrier === 'ups' && r.service === '03')!;
    assert.deepEqual(types(ground), ['fuel', 'residential', 'additional_handling']);
    // The fake's account price is 80% of the published one, and so is each of its itemized charges: fuel is 15% of it.
    assert.equal(cents(ground.surcharges[0].amount), Math.round(cents(ground.amount) * 0.15));
    for (const r of rates.filter((r) => r.carrier === 'usps')) assert.deepEqual(r.surcharges, [{ type: 'nonstandard', amount: { amount: '4.00', currency: 'USD' } }], r.service);
    for (const r of rates.filter((r) => r.carrier === 'fedex')) assert.deepEqual(types(r), ['fuel', 'residential'], r.service);
  });
});
