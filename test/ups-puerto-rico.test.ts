import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, type TestServer } from './harness.ts';
import { austin, orderBody } from './fixtures.ts';
import { startCarrierFakes, type CarrierFakes } from './fakes/carriers.ts';
import { payingLiveKey, startBilling } from './live-billing.ts';
import { setPaymentMethod } from '../src/domain/billing/payment-methods.ts';

// Puerto Rico stays country US, state PR in shipd's API; UPS sees it as a country of its own, so a UPS shipment
// between it and the rest of the US needs the value of its goods (declared, or the order's line items) and the
// recipient's phone. Without them UPS alone refuses, in test mode and live, while USPS and FedEx still quote.

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- tests read whatever JSON came back

const sanJuan = { name: 'Rita Moreno', street1: '100 Calle del Cristo', city: 'San Juan', state: 'PR', zip: '00901', phone: '787-555-0142' };
const customs = {
  contents_type: 'merchandise',
  non_delivery: 'return',
  signer: 'Grace Hopper',
  certify: true,
  items: [{ description: 'Stoneware coffee mug', quantity: 2, unit_value: { amount: '12.50', currency: 'USD' }, weight: { value: 14, unit: 'oz' }, hs_tariff_number: '6912.00', origin_country: 'US' }],
};
const from = { ...austin, phone: '512-555-0100' };

async function shop(server: TestServer, key: string, body: Json): Promise<{ order: Json; rates: Json[]; errors: Json[] }> {
  const created = await server.request('POST', '/orders', { key, body: orderBody({ ship_from: from, ...body }) });
  assert.equal(created.status, 201, created.text);
  const rated = await server.request('POST', '/rates', { key, body: { order_id: created.body.id } });
  assert.equal(rated.status, 200, rated.text);
  return { order: created.body, rates: rated.body.rates, errors: rated.body.errors };
}

async function refusedByUpsOnly(server: TestServer, key: string, body: Json, reason: RegExp): Promise<void> {
  const { rates, errors } = await shop(server, key, body);
  const ups = errors.find((e) => e.carrier === 'ups');
  assert.ok(ups, JSON.stringify(errors));
  assert.match(ups.detail, reason);
  assert.ok(!rates.some((r) => r.carrier === 'ups'));
  assert.ok(rates.some((r) => r.carrier !== 'ups'), 'USPS or FedEx still quotes');
}

async function buyUps(server: TestServer, key: string, body: Json, idempotencyKey: string): Promise<Json> {
  const { order, rates, errors } = await shop(server, key, body);
  assert.ok(!errors.some((e) => e.carrier === 'ups'), JSON.stringify(errors));
  const rate = rates.find((r) => r.carrier === 'ups');
  assert.ok(rate, JSON.stringify(rates));
  const bought = await server.request('POST', '/shipments', { key, body: { order_id: order.id, rate_id: rate.id }, headers: { 'idempotency-key': idempotencyKey } });
  assert.equal(bought.status, 201, bought.text);
  return bought.body;
}

const missingValue = /UPS treats Puerto Rico as its own country and needs the value of the goods \(InvoiceLineTotal\).*customs/;
const missingPhone = /UPS needs the recipient's phone number/;

describe('UPS to Puerto Rico in test mode', () => {
  let server: TestServer;
  let key: string;
  before(async () => {
    server = await startServer();
    const account = await server.account();
    await setPaymentMethod(server.services.database.db, server.clock, account, 'test', 'pm_test_visa');
    key = (await server.key(account, 'test')).secret;
  });
  after(() => server.close());

  test('without line items or a declaration, or without a recipient phone, UPS says why in errors; with a value and a phone it sells the label', async () => {
    await refusedByUpsOnly(server, key, { ship_to: sanJuan, items: [] }, missingValue);
    await refusedByUpsOnly(server, key, { ship_to: { ...sanJuan, phone: undefined }, customs }, missingPhone);
    assert.equal((await buyUps(server, key, { ship_to: sanJuan, customs }, 'pr-test-1')).carrier, 'ups');
    assert.equal((await buyUps(server, key, { ship_to: sanJuan }, 'pr-test-2')).carrier, 'ups', 'the line items give the value');
  });
});

const billing = await startBilling();
after(() => billing.stripe.close());

describe('UPS to Puerto Rico with live keys (fake UPS over HTTP)', () => {
  let fakes: CarrierFakes;
  let server: TestServer;
  let key: string;
  before(async () => {
    fakes = await startCarrierFakes();
    server = await startServer({ env: { ...fakes.env(['ups', 'usps', 'fedex']), ...billing.env } });
    key = await payingLiveKey(server);
  });
  after(async () => {
    await server.close();
    await fakes.close();
  });

  test('UPS is sent country PR and InvoiceLineTotal (from the line items, or the declaration) and sells the label; without a value it is never asked', async () => {
    const rateCalls = () => fakes.ups.calls.filter((c) => c.path.startsWith('/api/rating/'));
    const asked = rateCalls().length;
    await refusedByUpsOnly(server, key, { ship_to: sanJuan, items: [] }, missingValue);
    assert.equal(rateCalls().length, asked, 'UPS is not asked to rate what it would refuse');

    // orderBody's line items: 2 mugs at 12.50.
    await buyUps(server, key, { ship_to: sanJuan }, 'pr-live-1');
    assert.deepEqual(fakes.ups.contractRefusals, []);
    const shipped = fakes.ups.calls.filter((c) => /\/ship$/.test(c.path)).at(-1)!.body as Json;
    const s = shipped.ShipmentRequest.Shipment;
    assert.equal(s.ShipTo.Address.CountryCode, 'PR');
    assert.equal(s.ShipFrom.Address.CountryCode, 'US');
    assert.deepEqual(s.InvoiceLineTotal, { CurrencyCode: 'USD', MonetaryValue: '25' });
    assert.deepEqual(s.ShipTo.Phone, { Number: '7875550142' });
    const rated = rateCalls().at(-1)!.body as Json;
    assert.equal(rated.RateRequest.Shipment.ShipTo.Address.CountryCode, 'PR');
    assert.deepEqual(rated.RateRequest.Shipment.InvoiceLineTotal, { CurrencyCode: 'USD', MonetaryValue: '25' });
  });

  test('a declaration gives UPS its value when the order has no line items', async () => {
    await buyUps(server, key, { ship_to: sanJuan, items: [], customs: { ...customs, items: [{ ...customs.items[0], unit_value: { amount: '40.10', currency: 'USD' } }] } }, 'pr-live-2');
    assert.deepEqual(fakes.ups.contractRefusals, []);
    const shipped = fakes.ups.calls.filter((c) => /\/ship$/.test(c.path)).at(-1)!.body as Json;
    assert.deepEqual(shipped.ShipmentRequest.Shipment.InvoiceLineTotal, { CurrencyCode: 'USD', MonetaryValue: '81' });
  });
});
