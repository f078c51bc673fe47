import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { problem, startServer, type TestServer } from './harness.ts';
import { austin, orderBody } from './fixtures.ts';
import { upsFakeCredentials, type UpsFake } from './fakes/ups.ts';
import { fakeUspsCredentials, type UspsFake } from './fakes/usps.ts';
import type { FedexFake } from './fakes/fedex.ts';
import { connectOwnUps, connectOwnUsps, startCarrierFakes, type CarrierFakes } from './fakes/carriers.ts';
import { saveCard, startBilling } from './live-billing.ts';
import { isValidTrackingNumber } from '../src/carriers/tracking-numbers.ts';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- tests read whatever JSON came back

let fakes: CarrierFakes;
let ups: UpsFake;
let usps: UspsFake;
let fedex: FedexFake;

before(async () => {
  fakes = await startCarrierFakes();
  ({ ups, usps, fedex } = fakes);
});
after(() => fakes.close());

/** FedEx labels need the shipper's phone. */
const liveOrder = () => orderBody({ ship_from: { ...austin, phone: '512-555-0100' } });

async function order(server: TestServer, key: string): Promise<Json> {
  const res = await server.request('POST', '/orders', { key, body: liveOrder() });
  assert.equal(res.status, 201, res.text);
  return res.body;
}

async function rates(server: TestServer, key: string, orderId: string): Promise<Json> {
  const res = await server.request('POST', '/rates', { key, body: { order_id: orderId } });
  assert.equal(res.status, 200, res.text);
  return res.body;
}

const here = (server: TestServer, labelUrl: string) => {
  const u = new URL(labelUrl);
  return `${server.url}${u.pathname}${u.search}`;
};

const billing = await startBilling();
after(() => billing.stripe.close());

describe('live keys against the carriers (fake carrier servers over HTTP)', () => {
  let server: TestServer;
  let key: string;
  let account: string;
  before(async () => {
    server = await startServer({ env: { ...fakes.env(['ups', 'usps', 'fedex']), ...billing.env } });
    account = await server.account();
    await saveCard(server, account);
    key = (await server.key(account, 'live')).secret;
  });
  after(() => server.close());

  test('carriers are connected, rates come from all three, and each label is bought, served, tracked and voided', async () => {
    const carriers = await server.request('GET', '/carriers', { key });
    assert.deepEqual(carriers.body.data.map((c: Json) => [c.id, c.connected, c.mode]), [
      ['ups', true, 'live'],
      ['usps', true, 'live'],
      ['fedex', true, 'live'],
    ]);
    for (const carrier of ['ups', 'usps', 'fedex']) {
      const o = await order(server, key);
      const shop = await rates(server, key, o.id);
      assert.deepEqual(shop.errors, []);
      assert.deepEqual([...new Set(shop.rates.map((r: Json) => r.carrier))].sort(), ['fedex', 'ups', 'usps']);
      const rate = shop.rates.find((r: Json) => r.carrier === carrier);
      const bought = await server.request('POST', '/shipments', { key, body: { order_id: o.id, rate_id: rate.id }, headers: { 'idempotency-key': `live-${carrier}` } });
      assert.equal(bought.status, 201, bought.text);
      const shipment = bought.body;
      assert.equal(shipment.carrier, carrier);
      assert.equal(shipment.payment, 'platform');
      assert.equal(shipment.mode, 'live');
      assert.ok(isValidTrackingNumber(carrier as 'ups', shipment.tracking_number), `${carrier} ${shipment.tracking_number}`);
      const file = await fetch(here(server, shipment.label_url));
      assert.equal(file.status, 200);
      const bytes = Buffer.from(await file.arrayBuffer());
      assert.equal(bytes.subarray(0, 4).toString(), '%PDF', `${carrier} label is a PDF`);

      const tracked = await server.request('POST', '/tracking', { key, body: { order_id: o.id } });
      assert.equal(tracked.status, 200, tracked.text);
      assert.equal(tracked.body.tracking_number, shipment.tracking_number);
      assert.ok(['unknown', 'pre_transit', 'in_transit'].includes(tracked.body.status), `${carrier}: ${tracked.body.status}`);

      const voided = await server.request('POST', `/shipments/${o.id}/void`, { key });
      assert.equal(voided.status, 200, voided.text);
      assert.ok(['voided', 'void_pending'].includes(voided.body.status), `${carrier}: ${voided.body.status}`);
      const ledger = await server.services.database.db.selectFrom('postage_ledger').select(['kind', 'amount_cents']).where('shipment_id', '=', shipment.id).execute();
      // The card pays the label's postage, never more than the rate the client bought.
      const charged = Math.min(Math.round(Number(shipment.postage.amount) * 100), Math.round(Number(rate.amount.amount) * 100));
      assert.equal(ledger.find((l) => l.kind === 'charge')?.amount_cents, charged);
      const card = billing.stripe.charges().find((c) => c.metadata.shipd_shipment === shipment.id);
      assert.deepEqual([card?.captured, card?.refunded], [charged, charged], `${carrier}: the card was charged once and refunded on void`);
    }
    assert.ok(ups.tokenRequests <= 1 && fedex.tokenRequests <= 1 && usps.tokenRequests <= 1, 'one token per carrier for every call');
  });

  test("addresses are checked at street level by USPS: ZIP+4, a missing unit, no such address", async () => {
    const validate = (address: Json) => server.request('POST', '/addresses/validate', { key, body: { address } });
    const good = await validate({ street1: '415 mission street', city: 'san francisco', state: 'ca', zip: '94105' });
    assert.equal(good.status, 200, good.text);
    assert.equal(good.body.valid, true);
    assert.equal(good.body.address.zip, '94105-1804');
    assert.equal(good.body.address.street1, '415 MISSION ST');
    assert.ok(good.body.corrections.some((c: Json) => c.field === 'zip' && c.to === '94105-1804'));
    const unit = await validate({ street1: '100 Main Apartments', city: 'San Francisco', state: 'CA', zip: '94105' });
    assert.equal(unit.body.valid, false);
    assert.ok(unit.body.messages.some((m: Json) => m.code.startsWith('usps_')), JSON.stringify(unit.body.messages));
    const nowhere = await validate({ street1: '1 Nowhere Rd', city: 'San Francisco', state: 'CA', zip: '94105' });
    assert.equal(nowhere.status, 200);
    assert.equal(nowhere.body.valid, false);
  });

  test('a carrier failing answers in its own errors entry; the others still rate', async () => {
    const o = await order(server, key);
    fedex.faults.push({ kind: 'status500' }, { kind: 'status500' }, { kind: 'status500' });
    const shop = await rates(server, key, o.id);
    assert.deepEqual(shop.errors.map((e: Json) => e.carrier), ['fedex']);
    assert.ok(shop.rates.length > 0 && shop.rates.every((r: Json) => r.carrier !== 'fedex'));
    fedex.faults.length = 0;
  });
});

describe('the carrier trace', () => {
  test('each carrier call is in the debug log with the request id, credentials and tokens redacted', async () => {
    const server = await startServer({ env: { ...fakes.env(['ups', 'usps', 'fedex']), SHIPD_LOG_LEVEL: 'debug' } });
    try {
      const account = await server.account();
      const key = (await server.key(account, 'live')).secret;
      const res = await server.request('POST', '/rates', { key, body: { order_id: (await order(server, key)).id }, headers: { 'x-request-id': 'req-trace-1' } });
      assert.equal(res.status, 200, res.text);
      const traces = server.logs.filter((l) => l.includes('"msg":"carrier call"')).map((l) => JSON.parse(l));
      const mine = traces.filter((t) => t.request_id === 'req-trace-1');
      assert.deepEqual([...new Set(mine.map((t) => t.carrier))].sort(), ['fedex', 'ups', 'usps']);
      assert.ok(mine.every((t) => typeof t.status === 'number' && typeof t.ms === 'number' && t.url.startsWith('http://127.0.0.1')));
      const all = server.logs.join('');
      for (const secret of [upsFakeCredentials.clientSecret, fakeUspsCredentials.clientSecret, fedex.clientSecret]) assert.ok(!all.includes(secret), 'no client secret in the log');
      assert.ok(!/"access_token":"(?!\[redacted\])/.test(all), 'no access token in the log');
    } finally {
      await server.close();
    }
  });
});

describe('an account bringing its own carrier account', () => {
  let server: TestServer;
  let account: string;
  let key: string;
  before(async () => {
    // The platform has USPS and FedEx; UPS only through the account's own credentials.
    server = await startServer({ env: { ...fakes.env(['usps', 'fedex']), ...billing.env } });
    account = await server.account('byoa');
    key = (await server.key(account, 'live')).secret;
  });
  after(() => server.close());

  test('without credentials a live carrier says so per carrier; after `carriers connect` it rates and buys on the account, uncharged', async () => {
    const before = await rates(server, key, (await order(server, key)).id);
    assert.deepEqual(before.errors.map((e: Json) => [e.carrier, e.code]), [['ups', 'credentials_missing']]);
    const locations = await server.request('GET', '/carrier-locations?carrier=ups&zip=94105', { key });
    assert.equal(locations.status, 502, locations.text);
    assert.equal(locations.body.code, 'carrier_error');
    assert.match(locations.body.detail, /UPS/);

    await connectOwnUps(server, 'byoa');
    const stored = await server.services.database.db.selectFrom('carrier_accounts').selectAll().executeTakeFirstOrThrow();
    assert.ok(!stored.credentials.includes(upsFakeCredentials.clientSecret), 'the secret is stored sealed');
    const listed = await server.cli(['carriers', 'list', '--account', 'byoa']);
    assert.match(listed.stdout, /ca_\w+\s+ups\s+connected\s+(never tested|tested \S+)\s+updated /);
    for (const credential of [upsFakeCredentials.clientSecret, upsFakeCredentials.clientId, upsFakeCredentials.clientId.slice(-4)]) {
      assert.ok(!listed.stdout.includes(credential), 'no part of a credential is listed');
    }

    const o = await order(server, key);
    const shop = await rates(server, key, o.id);
    assert.deepEqual(shop.errors, []);
    const upsRate = shop.rates.find((r: Json) => r.carrier === 'ups');
    const fedexRate = shop.rates.find((r: Json) => r.carrier === 'fedex');
    // No live payment method: platform postage is refused, the account's own UPS account is not.
    problem(await server.request('POST', '/shipments', { key, body: { order_id: o.id, rate_id: fedexRate.id } }), 402, 'payment_method_required');
    const bought = await server.request('POST', '/shipments', { key, body: { order_id: o.id, rate_id: upsRate.id } });
    assert.equal(bought.status, 201, bought.text);
    assert.equal(bought.body.payment, 'carrier_account');
    const ledger = await server.services.database.db.selectFrom('postage_ledger').selectAll().where('shipment_id', '=', bought.body.id).execute();
    assert.deepEqual(ledger, [], 'no platform charge');
    const voided = await server.request('POST', `/shipments/${o.id}/void`, { key });
    assert.equal(voided.status, 200, voided.text);

    // Without a rate id and without a payment method, only the own account is quoted.
    const cheapest = await server.request('POST', '/shipments', { key, body: { order_id: o.id } });
    assert.equal(cheapest.status, 201, cheapest.text);
    assert.equal(cheapest.body.carrier, 'ups');
    assert.equal(cheapest.body.payment, 'carrier_account');

    const gone = await server.cli(['carriers', 'disconnect', '--account', 'byoa', '--carrier', 'ups']);
    assert.equal(gone.code, 0, gone.stderr);
    const after = await rates(server, key, (await order(server, key)).id);
    assert.deepEqual(after.errors.map((e: Json) => e.carrier), ['ups']);
  });
});

describe('an account bringing its own USPS account', () => {
  let server: TestServer;
  let key: string;
  before(async () => {
    server = await startServer({ env: { ...fakes.env(['ups', 'fedex']), ...billing.env } });
    await server.account('own-usps');
    key = (await server.cli(['keys', 'create', '--account', 'own-usps', '--mode', 'live'])).stdout.trim();
  });
  after(() => server.close());

  test('`carriers connect` takes the CRID and MIDs the USPS payment authorization needs, and labels are bought with them', async () => {
    const badMid = await connectOwnUsps(server, 'own-usps', ['--crid', fakeUspsCredentials.crid, '--mid', '12345']);
    assert.notEqual(badMid.code, 0);
    assert.match(badMid.stderr, /--mid must be a USPS Mailer ID \(MID\) of 6 or 9 digits/);
    const upsCrid = await server.cli(['carriers', 'connect', '--account', 'own-usps', '--carrier', 'ups', '--client-id', 'x', '--crid', '1234'], { SHIPD_CARRIER_CLIENT_SECRET: 's' });
    assert.match(upsCrid.stderr, /--crid is for --carrier usps only/);

    // Connected without a CRID or MID: rates work, buying names what is missing.
    assert.equal((await connectOwnUsps(server, 'own-usps', [])).code, 0);
    const o = await order(server, key);
    const uspsRate = () => rates(server, key, o.id).then((r) => r.rates.find((x: Json) => x.carrier === 'usps'));
    const refused = await server.request('POST', '/shipments', { key, body: { order_id: o.id, rate_id: (await uspsRate()).id } });
    assert.notEqual(refused.status, 201);
    assert.match(refused.text, /USPS_CRID.*USPS_MID/);

    // Connected again with them: the adapter of the old credentials is not reused.
    const connected = await connectOwnUsps(server, 'own-usps', ['--crid', fakeUspsCredentials.crid, '--mid', fakeUspsCredentials.mid, '--manifest-mid', '123456']);
    assert.equal(connected.code, 0, connected.stderr);
    const bought = await server.request('POST', '/shipments', { key, body: { order_id: o.id, rate_id: (await uspsRate()).id } });
    assert.equal(bought.status, 201, bought.text);
    assert.equal(bought.body.payment, 'carrier_account');
    const payment = usps.calls.findLast((c) => c.path === '/payments/v3/payment-authorization')!;
    assert.deepEqual((payment.body as { roles: unknown[] }).roles[1], { roleName: 'LABEL_OWNER', CRID: fakeUspsCredentials.crid, MID: fakeUspsCredentials.mid, manifestMID: '123456' });
  });
});

describe("the platform's carrier credentials refused", () => {
  let server: TestServer;
  let key: string;
  before(async () => {
    server = await startServer({ env: { ...fakes.env(['ups']), UPS_CLIENT_SECRET: 'not-the-secret' } });
    key = (await server.key(await server.account('platform-refused'), 'live')).secret;
  });
  after(() => server.close());

  test("a rate shop's UPS entry sends the operator to the server's settings, not to a carrier account", async () => {
    const shop = await rates(server, key, (await order(server, key)).id);
    const entry = shop.errors.find((e: Json) => e.carrier === 'ups');
    assert.ok(entry, JSON.stringify(shop.errors));
    assert.match(entry.message ?? entry.detail, /UPS refused the credentials.*check the server's UPS_CLIENT_ID, UPS_CLIENT_SECRET and UPS_ACCOUNT_NUMBER/);
    assert.doesNotMatch(JSON.stringify(entry), /carrier-accounts|not-the-secret/);
  });
});
