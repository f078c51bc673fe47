// Live purchases whose answer was lost, own carrier accounts that go away, and refunds under a carrier's review:
// the ways a live label could be bought twice, bought on the wrong bill, or charged after its void.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { problem, startServer, type TestServer } from './harness.ts';
import { austin, orderBody } from './fixtures.ts';
import type { UpsFake } from './fakes/ups.ts';
import type { UspsFake } from './fakes/usps.ts';
import { connectOwnUps, startCarrierFakes, type CarrierFakes } from './fakes/carriers.ts';
import { payingLiveKey, saveCard, startBilling } from './live-billing.ts';
import { pollTracking } from '../src/domain/tracking/tracking.ts';
import { pendingStaleMs } from '../src/domain/shipments/purchase.ts';
import { serviceContext } from '../src/services.ts';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- tests read whatever JSON came back

let fakes: CarrierFakes;
let ups: UpsFake;
let usps: UspsFake;
const billing = await startBilling();

before(async () => {
  fakes = await startCarrierFakes();
  ({ ups, usps } = fakes);
});
after(async () => {
  await fakes.close();
  await billing.stripe.close();
});

/** FedEx labels need the shipper's phone. */
const liveOrder = (over: Record<string, unknown> = {}) => orderBody({ ship_from: { ...austin, phone: '512-555-0100' }, ...over });

const upsShipCalls = () => ups.calls.filter((c) => c.method === 'POST' && /\/api\/shipments\/v\w+\/ship$/.test(c.path)).length;

async function upsRate(server: TestServer, key: string, orderId: string): Promise<string> {
  const shop = await server.request('POST', '/rates', { key, body: { order_id: orderId } });
  assert.equal(shop.status, 200, shop.text);
  return shop.body.rates.find((r: Json) => r.carrier === 'ups').id;
}

/** Lets the pending purchase go stale, as the reconcile job and a retry judge it (the carrier time-out + 5 s). */
async function staleAfterTimeout(server: TestServer): Promise<void> {
  // The fake sells the label once its slow answer is done.
  await new Promise((r) => setTimeout(r, 700));
  server.clock.advance(pendingStaleMs(server) + 1_000);
}

describe('a UPS purchase whose answer was lost', () => {
  let server: TestServer;
  let key: string;
  let account: string;
  before(async () => {
    server = await startServer({ env: { ...fakes.env(['ups', 'usps', 'fedex']), ...billing.env, SHIPD_CARRIER_TIMEOUT_MS: '1000' } });
    account = await server.account();
    await saveCard(server, account);
    key = (await server.key(account, 'live')).secret;
  });
  after(() => server.close());

  test('is never bought again: UPS does not honour an idempotency key, so the retry answers the failure and says where to look', async () => {
    const o = (await server.request('POST', '/orders', { key, body: liveOrder() })).body;
    const body = { order_id: o.id, rate_id: await upsRate(server, key, o.id) };
    const before = upsShipCalls();
    ups.failNext({ kind: 'slow', ms: 1500 }, '/api/shipments');
    problem(await server.request('POST', '/shipments', { key, body, headers: { 'idempotency-key': 'ups-lost' } }), 504, 'carrier_timeout');
    await staleAfterTimeout(server);

    for (let i = 0; i < 2; i++) {
      const retry = problem(await server.request('POST', '/shipments', { key, body, headers: { 'idempotency-key': 'ups-lost' } }), 502, 'carrier_error');
      assert.match(retry.detail, /could sell a second label/);
      assert.match(retry.detail, new RegExp(o.id));
    }
    assert.equal(upsShipCalls() - before, 1, 'UPS was asked to ship once, whoever finished the purchase');
    const ledger = await server.services.database.db.selectFrom('postage_ledger').selectAll().where('account_id', '=', account).execute();
    assert.equal(ledger.length, 0, 'nothing charged for a label shipd does not know');

    // The order is free again: a new request (a new key) buys a label.
    const fresh = await server.request('POST', '/shipments', { key, body, headers: { 'idempotency-key': 'ups-lost-2' } });
    assert.equal(fresh.status, 201, fresh.text);
    assert.equal(upsShipCalls() - before, 2);
  });
});

describe('a label of the account own UPS account', () => {
  let server: TestServer;
  let key: string;
  let account: string;
  before(async () => {
    server = await startServer({ env: { ...fakes.env(['ups', 'usps', 'fedex']), ...billing.env, SHIPD_CARRIER_TIMEOUT_MS: '1000' } });
    account = await server.account('own-ups');
    key = (await server.key(account, 'live')).secret;
    await connectOwnUps(server, 'own-ups');
  });
  after(() => server.close());

  test('is never finished, voided or tracked with the platform credentials once the own account is disconnected', async () => {
    const o = (await server.request('POST', '/orders', { key, body: liveOrder() })).body;
    const bought = await server.request('POST', '/shipments', { key, body: { order_id: o.id, rate_id: await upsRate(server, key, o.id) } });
    assert.equal(bought.status, 201, bought.text);
    assert.equal(bought.body.payment, 'carrier_account');
    const gone = await server.cli(['carriers', 'disconnect', '--account', 'own-ups', '--carrier', 'ups']);
    assert.equal(gone.code, 0, gone.stderr);
    const voids = ups.calls.filter((c) => c.method === 'DELETE').length;
    const voided = problem(await server.request('POST', `/shipments/${o.id}/void`, { key }), 502, 'carrier_error');
    assert.match(voided.detail, /no longer connected/);
    assert.equal(ups.calls.filter((c) => c.method === 'DELETE').length, voids, 'the platform account was not asked to void it');
    const ledger = await server.services.database.db.selectFrom('postage_ledger').selectAll().where('account_id', '=', account).execute();
    assert.equal(ledger.length, 0);

    const tracked = problem(await server.request('POST', '/tracking', { key, body: { order_id: o.id } }), 502, 'carrier_error');
    assert.match(tracked.detail, /UPS cannot be asked: .*no longer connected/);
    // The tracking worker: asking every minute changes nothing until the account is connected again.
    const db = server.services.database.db;
    await db.updateTable('shipments').set({ tracking_next_check_at: server.clock.now().toISOString() }).where('id', '=', bought.body.id).execute();
    const warnings: object[] = [];
    const trackCalls = ups.calls.length;
    assert.equal(await pollTracking(serviceContext(server.services, 'test'), { warn: (o) => warnings.push(o) }), 1);
    assert.equal(warnings.length, 1);
    assert.equal(ups.calls.length, trackCalls, 'the platform account was not asked to track it');
    const row = await db.selectFrom('shipments').select('tracking_next_check_at').where('id', '=', bought.body.id).executeTakeFirstOrThrow();
    const wait = Date.parse(row.tracking_next_check_at!) - server.clock.now().getTime();
    assert.ok(wait > 3_590_000 && wait <= 3_600_000, `next check in ${wait} ms, not an hour`);
  });
});

describe('an account with its own UPS account and no payment method', () => {
  let server: TestServer;
  let key: string;
  before(async () => {
    server = await startServer({ env: { ...fakes.env(['usps', 'fedex']), ...billing.env } });
    const account = await server.account('own-ups-only');
    key = (await server.key(account, 'live')).secret;
    await connectOwnUps(server, 'own-ups-only');
  });
  after(() => server.close());

  test('answers 402 for an order whose requested service is a platform carrier', async () => {
    const o = await server.request('POST', '/orders', { key, body: liveOrder({ requested_service: { carrier: 'usps', service: 'PRIORITY_MAIL' } }) });
    assert.equal(o.status, 201, o.text);
    problem(await server.request('POST', '/shipments', { key, body: { order_id: o.body.id } }), 402, 'payment_method_required');
  });

  test("answers 402 for an order in a platform carrier's box", async () => {
    const boxes = await server.request('GET', '/packages?carrier=usps', { key });
    const o = await server.request('POST', '/orders', { key, body: liveOrder({ parcel: { weight: { value: 2, unit: 'lb' } }, package_id: boxes.body.data[0].id }) });
    assert.equal(o.status, 201, o.text);
    problem(await server.request('POST', '/shipments', { key, body: { order_id: o.body.id } }), 402, 'payment_method_required');
  });

  test('buys its own UPS label when the order asks for UPS', async () => {
    const o = await server.request('POST', '/orders', { key, body: liveOrder({ requested_service: { carrier: 'ups', service: '03' } }) });
    const bought = await server.request('POST', '/shipments', { key, body: { order_id: o.body.id } });
    assert.equal(bought.status, 201, bought.text);
    assert.equal(bought.body.payment, 'carrier_account');
  });
});

describe('a USPS void whose refund goes under review', () => {
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

  test('is void_pending and refunded in the ledger at once, so the next label is the only one charged', async () => {
    const o = (await server.request('POST', '/orders', { key, body: liveOrder({ requested_service: { carrier: 'usps', service: 'PRIORITY_MAIL' } }) })).body;
    const bought = await server.request('POST', '/shipments', { key, body: { order_id: o.id } });
    assert.equal(bought.status, 201, bought.text);
    usps.manifested = true;
    const voided = await server.request('POST', `/shipments/${o.id}/void`, { key });
    usps.manifested = false;
    assert.equal(voided.status, 200, voided.text);
    assert.equal(voided.body.status, 'void_pending');
    const again = await server.request('POST', '/shipments', { key, body: { order_id: o.id } });
    assert.equal(again.status, 201, again.text);
    const ledger = await server.services.database.db.selectFrom('postage_ledger').selectAll().where('account_id', '=', account).execute();
    const net = (id: string) => ledger.filter((l) => l.shipment_id === id).reduce((s, l) => s + l.amount_cents, 0);
    assert.equal(net(bought.body.id), 0, JSON.stringify(ledger));
    assert.ok(net(again.body.id) > 0);
  });
});

describe('a void cut off after the carrier voided the label', () => {
  let server: TestServer;
  let key: string;
  before(async () => {
    server = await startServer({ env: { ...fakes.env(['ups', 'usps', 'fedex']), ...billing.env } });
    key = await payingLiveKey(server);
  });
  after(() => server.close());

  test('is recorded by the retry: the carrier says it is already void, so the label is voided, refunded and the order open again', async () => {
    const o = (await server.request('POST', '/orders', { key, body: liveOrder({ requested_service: { carrier: 'ups', service: '03' } }) })).body;
    const bought = await server.request('POST', '/shipments', { key, body: { order_id: o.id } });
    assert.equal(bought.status, 201, bought.text);
    // The void that reached UPS before shipd went down: UPS's answer never got written.
    const shipped = ups.calls.findLast((c) => /\/ship$/.test(c.path))!;
    const cancel = shipped.path.replace(/\/ship$/, `/void/cancel/${bought.body.tracking_number}`);
    const cut = await fetch(`${ups.url}${cancel}`, { method: 'DELETE', headers: { authorization: String(shipped.headers.authorization), transId: 'cut-off', transactionSrc: 'shipd' } });
    assert.equal(cut.status, 200, await cut.text());
    const voided = await server.request('POST', `/shipments/${o.id}/void`, { key });
    assert.equal(voided.status, 200, voided.text);
    assert.equal(voided.body.status, 'voided');
    const ledger = await server.services.database.db.selectFrom('postage_ledger').select('amount_cents').where('shipment_id', '=', bought.body.id).execute();
    assert.equal(ledger.reduce((s, l) => s + l.amount_cents, 0), 0, 'the postage is refunded');
    assert.equal((await server.request('GET', `/orders/${o.id}`, { key })).body.status, 'incomplete');
    const twice = await server.request('POST', `/shipments/${o.id}/void`, { key });
    assert.equal(twice.status, 409, twice.text);
  });
});
