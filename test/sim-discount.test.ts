import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, type TestServer } from './harness.ts';
import { austin } from './fixtures.ts';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- tests read whatever JSON came back

let server: TestServer;
let key: string;

before(async () => {
  server = await startServer({ env: { SHIPD_SIM_UPS_DISCOUNT: '40', SHIPD_SIM_FEDEX_DISCOUNT: '0' } });
  key = (await server.key(await server.account(), 'test')).secret;
});
after(() => server.close());

test('test mode prices the account at the discount the operator set off the published list: 40% for UPS, none for FedEx', async () => {
  // A business recipient: no residential surcharge, so the whole price is transport.
  const shop = await server.request('POST', '/rates', {
    key,
    body: { ship_from: austin, ship_to: { company: 'Acme Corp', street1: '415 Mission St', city: 'San Francisco', state: 'CA', zip: '94105' }, parcel: { weight: { value: 5, unit: 'lb' } } },
  });
  assert.equal(shop.status, 200, shop.text);
  const cents = (money: Json) => Math.round(Number(money.amount) * 100);
  const ups = shop.body.rates.find((r: Json) => r.carrier === 'ups' && r.service === '03');
  const fedex = shop.body.rates.find((r: Json) => r.carrier === 'fedex' && r.service === 'FEDEX_GROUND');
  assert.ok(ups && fedex, JSON.stringify(shop.body.rates.map((r: Json) => [r.carrier, r.service])));
  assert.equal(cents(ups.amount), Math.round(cents(ups.list_amount) * 0.6));
  assert.equal(cents(fedex.amount), cents(fedex.list_amount));
});
