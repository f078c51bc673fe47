import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, type TestServer } from './harness.ts';
import { austin, orderBody } from './fixtures.ts';
import { upsFakeCredentials } from './fakes/ups.ts';
import { fakeUspsCredentials } from './fakes/usps.ts';
import { startCarrierFakes, type CarrierFakes } from './fakes/carriers.ts';
import { payingLiveKey, startBilling } from './live-billing.ts';
import { isValidTrackingNumber } from '../src/carriers/tracking-numbers.ts';

// Live keys ship abroad through the live adapters: an order to London rated by the three fake carriers, a label
// bought from each with its customs declaration, the declaration's lines found in what each fake was sent and in the
// redacted debug trace of the calls.

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- tests read whatever JSON came back

let fakes: CarrierFakes;
before(async () => {
  fakes = await startCarrierFakes();
});
after(() => fakes.close());
const billing = await startBilling();
after(() => billing.stripe.close());

const london = { name: 'Charles Babbage', street1: '10 Downing Street', city: 'London', zip: 'SW1A 2AA', country: 'GB', phone: '+44 20 7946 0000' };
const customs = {
  contents_type: 'merchandise',
  non_delivery: 'return',
  invoice_number: 'INV-2026-91',
  signer: 'Grace Hopper',
  certify: true,
  items: [{ description: 'Stoneware coffee mug', quantity: 2, unit_value: { amount: '12.50', currency: 'USD' }, weight: { value: 14, unit: 'oz' }, hs_tariff_number: '6912.00', origin_country: 'US' }],
};
/** FedEx labels need the shipper's phone. */
const here = (server: TestServer, link: string) => {
  const u = new URL(link);
  return `${server.url}${u.pathname}${u.search}`;
};
const abroadOrder = () => orderBody({ ship_from: { ...austin, phone: '512-555-0100' }, ship_to: london, customs });

describe('live keys ship abroad through the carriers (fake carrier servers over HTTP)', () => {
  let server: TestServer;
  let key: string;
  before(async () => {
    server = await startServer({ env: { ...fakes.env(['ups', 'usps', 'fedex']), ...billing.env, SHIPD_LOG_LEVEL: 'debug' } });
    key = await payingLiveKey(server);
  });
  after(() => server.close());

  test('an order to London is rated by UPS, USPS and FedEx and a label is bought from each, its declaration sent and traced redacted, the carriers\' invoices kept', async () => {
    for (const carrier of ['ups', 'usps', 'fedex'] as const) {
      const created = await server.request('POST', '/orders', { key, body: abroadOrder() });
      assert.equal(created.status, 201, created.text);
      const shop = await server.request('POST', '/rates', { key, body: { order_id: created.body.id } });
      assert.equal(shop.status, 200, shop.text);
      assert.deepEqual(shop.body.errors, [], `${carrier}: no carrier refuses London`);
      assert.deepEqual([...new Set(shop.body.rates.map((r: Json) => r.carrier))].sort(), ['fedex', 'ups', 'usps']);
      const rate = shop.body.rates.find((r: Json) => r.carrier === carrier);
      const callsBefore = fakes[carrier].calls.length;
      const bought = await server.request('POST', '/shipments', {
        key,
        body: { order_id: created.body.id, rate_id: rate.id },
        headers: { 'idempotency-key': `abroad-${carrier}`, 'x-request-id': `req-abroad-${carrier}` },
      });
      assert.equal(bought.status, 201, bought.text);
      assert.equal(bought.body.mode, 'live');
      assert.equal(bought.body.payment, 'platform');
      assert.ok(isValidTrackingNumber(carrier, bought.body.tracking_number), `${carrier} ${bought.body.tracking_number}`);

      // UPS and FedEx draw the commercial invoice (FedEx's a copy of what it sent by ETD), kept beside the label;
      // USPS prints its customs form on the international label itself, so has no document of its own.
      assert.deepEqual(bought.body.documents.map((d: Json) => d.type), carrier === 'usps' ? [] : ['commercial_invoice'], carrier);
      for (const d of bought.body.documents) {
        const file = await fetch(here(server, d.url));
        assert.equal(file.status, 200);
        assert.equal(Buffer.from(await file.arrayBuffer()).subarray(0, 4).toString(), '%PDF', `${carrier} ${d.type} is the carrier's PDF`);
      }
      const shown = await server.request('GET', `/shipments/${created.body.id}`, { key });
      // Links are signed when they are answered, so a second boundary between the two answers changes the token only.
      const unsigned = (docs: Json[]) => docs.map((d) => ({ ...d, url: String(d.url).split('?')[0] }));
      assert.deepEqual(unsigned(shown.body.documents), unsigned(bought.body.documents));

      // The declaration's line reached the carrier in the purchase request, in that carrier's own words.
      const sent = JSON.stringify(fakes[carrier].calls.slice(callsBefore).map((c) => c.body));
      assert.ok(sent.includes('Stoneware coffee mug'), `${carrier} was sent the customs line`);
      assert.ok(/691200/.test(sent.replace(/\./g, '')), `${carrier} was sent the HS number`);

      const traces = server.logs.filter((l) => l.includes('"msg":"carrier call"')).map((l) => JSON.parse(l) as Json).filter((t) => t.request_id === `req-abroad-${carrier}`);
      assert.ok(traces.length > 0, `${carrier}: the purchase's calls are traced`);
      assert.ok(JSON.stringify(traces).includes('Stoneware coffee mug'), `${carrier}: the trace shows the customs line`);
    }
    assert.deepEqual(fakes.ups.contractRefusals, []);
    assert.deepEqual(fakes.usps.violations, []);
    const all = server.logs.join('');
    for (const secret of [upsFakeCredentials.clientSecret, fakeUspsCredentials.clientSecret, fakes.fedex.clientSecret]) assert.ok(!all.includes(secret), 'no client secret in the log');
    assert.ok(!/"access_token":"(?!\[redacted\])/.test(all), 'no access token in the log');
  });

  test('Hong Kong has no postal codes: FedEx rates and ships it without one', async () => {
    const hongKong = { name: 'Charles Kao', street1: "1 Queen's Road Central", city: 'Hong Kong', country: 'HK', phone: '+852 2822 1111' };
    const created = await server.request('POST', '/orders', { key, body: orderBody({ ship_from: { ...austin, phone: '512-555-0100' }, ship_to: hongKong, customs }) });
    assert.equal(created.status, 201, created.text);
    const callsBefore = fakes.fedex.calls.length;
    const shop = await server.request('POST', '/rates', { key, body: { order_id: created.body.id, carriers: ['fedex'] } });
    assert.equal(shop.status, 200, shop.text);
    assert.deepEqual(shop.body.errors, []);
    assert.ok(shop.body.rates.length > 0);
    const asked = fakes.fedex.calls.slice(callsBefore).find((c) => c.path === '/rate/v1/rates/quotes')?.body as Json;
    assert.deepEqual(asked.requestedShipment.recipient.address, { city: 'Hong Kong', countryCode: 'HK', residential: true });
    const bought = await server.request('POST', '/shipments', { key, body: { order_id: created.body.id, rate_id: shop.body.rates[0].id } });
    assert.equal(bought.status, 201, bought.text);
  });

  test("an address abroad is checked by FedEx's address resolution, which the answer names; where FedEx checks no streets the answer says so", async () => {
    const validate = async (address: Json) => {
      const res = await server.request('POST', '/addresses/validate', { key, body: { address } });
      assert.equal(res.status, 200, res.text);
      return res.body;
    };
    const callsBefore = fakes.fedex.calls.length;
    const checked = await validate(london);
    assert.equal(checked.valid, true, JSON.stringify(checked));
    assert.deepEqual(checked.checks.map((c: Json) => c.check).at(-1), 'carrier_street');
    assert.match(checked.checks.at(-1).detail, /FedEx checked the street and number/);
    assert.ok(!checked.messages.some((m: Json) => m.code === 'street_not_checked'), JSON.stringify(checked.messages));
    assert.equal(checked.address.street1, '10 DOWNING STREET');
    assert.equal(checked.address.country, 'GB');
    const sent = fakes.fedex.calls.slice(callsBefore).find((c) => c.path === '/address/v1/addresses/resolve');
    // Sent as the offline check normalized it.
    assert.deepEqual((sent?.body as Json).addressesToValidate[0].address, { streetLines: ['10 DOWNING STREET'], city: 'LONDON', postalCode: 'SW1A 2AA', countryCode: 'GB' });

    const unknown = await validate({ ...london, street1: '1 Nowhere Lane' });
    assert.equal(unknown.valid, false);
    assert.ok(unknown.messages.some((m: Json) => m.code === 'fedex_address_not_found' && /not matched to a known address/.test(m.detail)), JSON.stringify(unknown.messages));

    const nairobi = await validate({ name: 'Wangari Maathai', street1: '1 Kenyatta Ave', city: 'Nairobi', zip: '00100', country: 'KE', phone: '+254 20 555 0100' });
    assert.equal(nairobi.valid, true, 'the offline answer stands');
    assert.ok(!nairobi.checks.some((c: Json) => c.check === 'carrier_street'));
    assert.match(nairobi.messages.find((m: Json) => m.code === 'street_not_checked').detail, /FedEx does not check addresses in KE/);

    const hongKong = await validate({ name: 'Charles Kao', street1: '1 Queen\'s Road Central', city: 'Hong Kong', country: 'HK', phone: '+852 5555 0100' });
    assert.match(hongKong.messages.find((m: Json) => m.code === 'street_not_checked').detail, /needs a postal code, which addresses in HK do not have/);
  });

  test('a FedEx account billed in Canadian dollars: its rates are shown in CAD with the US-dollar price FedEx states, bought at that price, and one without a USD price is shown but not bought', async () => {
    const cad = (states: 'preferred' | 'exchange' | 'none') => ({ code: 'CAD', usdPerUnit: 0.7, states });
    const fedexRate = async (states: 'preferred' | 'exchange' | 'none') => {
      fakes.fedex.accountCurrency = cad(states);
      const created = await server.request('POST', '/orders', { key, body: abroadOrder() });
      const shop = await server.request('POST', '/rates', { key, body: { order_id: created.body.id } });
      assert.equal(shop.status, 200, shop.text);
      const fedex = shop.body.rates.filter((r: Json) => r.carrier === 'fedex');
      assert.ok(fedex.length > 0, shop.text);
      for (const r of fedex) assert.equal(r.amount.currency, 'CAD', 'the price stays in the currency FedEx gave');
      for (const r of shop.body.rates.filter((r: Json) => r.carrier !== 'fedex')) assert.equal(r.amount_usd, undefined, 'a USD rate has no second figure');
      return { order: created.body.id as string, rates: shop.body.rates as Json[], fedex: fedex[0] as Json };
    };
    try {
      for (const states of ['preferred', 'exchange'] as const) {
        const { order, rates, fedex } = await fedexRate(states);
        assert.equal(fedex.amount_usd.currency, 'USD');
        assert.equal(Number(fedex.amount_usd.amount), Math.round(Number(fedex.amount.amount) * 100 * 0.7) / 100, `${states}: FedEx's own USD figure`);
        // Rates are compared in dollars, never CAD figures against USD ones.
        const usd = rates.map((r) => Number((r.amount_usd ?? r.amount).amount));
        assert.deepEqual(usd, [...usd].sort((a, b) => a - b), `${states}: cheapest first, in USD`);
        const bought = await server.request('POST', '/shipments', { key, body: { order_id: order, rate_id: fedex.id } });
        assert.equal(bought.status, 201, bought.text);
        // The stored rate is read back at purchase: its USD figure is what is charged.
        assert.deepEqual(bought.body.postage, fedex.amount_usd, `${states}: charged the USD price the rate showed`);
      }

      const { order, fedex } = await fedexRate('none');
      assert.equal(fedex.amount_usd, undefined, 'FedEx stated no USD price');
      const callsBefore = fakes.fedex.calls.length;
      const refused = await server.request('POST', '/shipments', { key, body: { order_id: order, rate_id: fedex.id } });
      assert.equal(refused.status, 422, refused.text);
      assert.equal(refused.body.code, 'not_supported_by_carrier');
      assert.equal(refused.body.errors[0].pointer, '/rate_id');
      assert.match(refused.body.detail, /priced in CAD .* no US-dollar price/);
      assert.equal(fakes.fedex.calls.length, callsBefore, 'nothing bought from FedEx');
      const order2 = await server.request('GET', `/orders/${order}`, { key });
      assert.equal(order2.body.status, 'incomplete', 'nothing stored against the order');
      // Without a rate id shipd buys the cheapest rate it can charge for: not the CAD one.
      const cheapest = await server.request('POST', '/shipments', { key, body: { order_id: order } });
      assert.equal(cheapest.status, 201, cheapest.text);
      assert.notEqual(cheapest.body.carrier, 'fedex');
    } finally {
      delete fakes.fedex.accountCurrency;
    }
  });
});
