import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, type TestServer } from './harness.ts';
import { austin } from './fixtures.ts';
import { fedexPrices, upsPrices } from '../src/carriers/sim/prices/current.ts';
import { publishedCents } from '../src/carriers/sim/prices/types.ts';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- tests read whatever JSON came back

let server: TestServer;
let key: string;

before(async () => {
  server = await startServer({ env: { SHIPD_SIM_UPS_DISCOUNT: '40', SHIPD_SIM_FEDEX_DISCOUNT: '0' } });
  key = (await server.key(await server.account(), 'test')).secret;
});
after(() => server.close());

test('test mode prices the account at the discount the operator set off the published list: 40% for UPS, none for FedEx', async () => {
  // A business recipient: no residential surcharge, so the price is transport and the week's fuel on it.
  const shop = await server.request('POST', '/rates', {
    key,
    body: { ship_from: austin, ship_to: { company: 'Acme Corp', street1: '415 Mission St', city: 'San Francisco', state: 'CA', zip: '94105' }, parcel: { weight: { value: 5, unit: 'lb' } } },
  });
  assert.equal(shop.status, 200, shop.text);
  const cents = (money: Json) => Math.round(Number(money.amount) * 100);
  const ups = shop.body.rates.find((r: Json) => r.carrier === 'ups' && r.service === '03');
  const fedex = shop.body.rates.find((r: Json) => r.carrier === 'fedex' && r.service === 'FEDEX_GROUND');
  assert.ok(ups && fedex, JSON.stringify(shop.body.rates.map((r: Json) => [r.carrier, r.service])));
  const withFuel = (transport: number, fuel: number) => transport + Math.round(transport * fuel);
  const upsList = publishedCents(upsPrices.services['03'], ups.zone, 5)!;
  assert.equal(cents(ups.list_amount), withFuel(upsList, 0.275));
  assert.equal(cents(ups.amount), withFuel(Math.round(upsList * 0.6), 0.275));
  const fedexList = publishedCents(fedexPrices.services.FEDEX_GROUND, fedex.zone, 5)!;
  // 94105 is on FedEx's delivery area list (Contiguous U.S.): $4.45 to a business (2026), not discounted, fuel on it.
  assert.equal(cents(fedex.amount), withFuel(fedexList + 445, 0.27));
  assert.equal(cents(fedex.amount), cents(fedex.list_amount));
});
