import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { problem, startServer, type TestServer } from './harness.ts';
import { orderBody, sanFrancisco } from './fixtures.ts';
import { setPaymentMethod } from '../src/domain/billing/payment-methods.ts';
import { pollTracking } from '../src/domain/tracking/tracking.ts';
import { serviceContext } from '../src/services.ts';
import { accountWithUser, DashboardClient, password } from './dashboard/client.ts';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- tests read whatever JSON came back

let server: TestServer;
let key: string;
let dashboard: DashboardClient;

before(async () => {
  server = await startServer();
  const { account, email } = await accountWithUser(server);
  await setPaymentMethod(server.services.database.db, server.clock, account, 'test', 'pm_test_visa');
  key = (await server.key(account)).secret;
  dashboard = new DashboardClient(server);
  assert.equal((await dashboard.signIn(email, password)).status, 303);
});
after(() => server.close());

const day = 24 * 3_600_000;

async function shipped(overrides: Record<string, unknown> = {}): Promise<Json> {
  const order = await server.request('POST', '/orders', { key, body: orderBody(overrides) });
  assert.equal(order.status, 201, order.text);
  const shipment = await server.request('POST', '/shipments', { key, body: { order_id: order.body.id } });
  assert.equal(shipment.status, 201, shipment.text);
  return shipment.body;
}

async function returned(orderId: string, body: Json, idempotencyKey?: string): Promise<Json> {
  const headers = idempotencyKey ? { 'idempotency-key': idempotencyKey } : undefined;
  const res = await server.request('POST', `/shipments/${orderId}/return`, { key, body, headers });
  assert.equal(res.status, 201, res.text);
  return res.body;
}

const ledger = (shipmentId: string) =>
  server.services.database.db.selectFrom('postage_ledger').select(['kind', 'amount_cents']).where('shipment_id', '=', shipmentId).orderBy('created_at').execute();

const poll = () => pollTracking(serviceContext(server.services, 'test'), { warn: () => undefined });

/** The shipment.updated events of a label, oldest first. */
async function updates(shipmentId: string): Promise<Json[]> {
  const res = await server.request('GET', '/events?type=shipment.updated&limit=100', { key });
  assert.equal(res.status, 200, res.text);
  return res.body.data.filter((e: Json) => e.data.id === shipmentId).reverse();
}

const cents = (money: Json) => Math.round(Number(money.amount) * 100);

describe('a return label paid on use', () => {
  test('is bought without a charge, and never charged while the customer keeps the parcel', async () => {
    const outbound = await shipped({ ship_to: { ...sanFrancisco, name: 'Never sent' } });
    const ret = await returned(outbound.order_id, { charge: 'on_use', metadata: { rma: 'RMA-1' } });
    assert.equal(ret.is_return, true);
    assert.equal(ret.charge, 'on_use');
    assert.equal(ret.return_status, 'unused');
    assert.equal(ret.charge_status, null);
    // Its price is quoted and shown, though not charged.
    assert.ok(cents(ret.postage) > 0, ret.postage.amount);
    assert.deepEqual(await ledger(ret.id), []);
    // Before the clock moves on past the dashboard session's life.
    const page = await dashboard.get(`/dashboard/test/shipments/${ret.id}`);
    assert.equal(page.status, 200, page.text.slice(0, 300));
    assert.match(page.text, /<dt>Kind<\/dt><dd>Return label, unused \(paid on use: nothing charged until the carrier scans it\)<\/dd>/);
    assert.equal(outbound.charge, null);
    assert.equal(outbound.return_status, null);

    for (let i = 0; i < 3; i++) {
      server.clock.advance(day);
      await poll();
      const tracked = await server.request('POST', '/tracking', { key, body: { tracking_number: ret.tracking_number } });
      assert.equal(tracked.body.status, 'pre_transit', tracked.text);
    }
    assert.deepEqual(await ledger(ret.id), []);
    const now = (await server.request('GET', `/shipments/${ret.id}`, { key })).body;
    assert.equal(now.return_status, 'unused');
    assert.deepEqual(await updates(ret.id), []);

    // Voided unused, it gives nothing back, as nothing was taken.
    const voided = await server.request('POST', `/shipments/${ret.id}/void`, { key });
    assert.equal(voided.status, 200, voided.text);
    assert.equal(voided.body.return_status, 'unused');
    assert.deepEqual(await ledger(ret.id), []);
  });

  test('is charged once, at its price when made, when first scanned, however many ask about it at once', async () => {
    const outbound = await shipped();
    const ret = await returned(outbound.order_id, { charge: 'on_use' });
    assert.deepEqual(await ledger(ret.id), []);

    server.clock.advance(2 * 60_000);
    const asks = [
      poll(),
      poll(),
      ...Array.from({ length: 4 }, () => server.request('POST', '/tracking', { key, body: { tracking_number: ret.tracking_number } })),
    ];
    await Promise.all(asks);
    assert.deepEqual(await ledger(ret.id), [{ kind: 'charge', amount_cents: cents(ret.postage) }]);
    const scanned = (await server.request('GET', `/shipments/${ret.id}`, { key })).body;
    assert.equal(scanned.return_status, 'in_transit');
    // Test mode's payment method pays at the scan.
    assert.equal(scanned.charge_status, 'paid');
    assert.deepEqual(scanned.postage, ret.postage);
    problem(await server.request('POST', `/shipments/${ret.id}/void`, { key }), 409, 'label_in_transit');

    server.clock.advance(10 * day);
    await poll();
    await poll();
    const delivered = (await server.request('GET', `/shipments/${ret.id}`, { key })).body;
    assert.equal(delivered.return_status, 'delivered');
    assert.equal((await ledger(ret.id)).length, 1);
    assert.deepEqual(
      (await updates(ret.id)).map((e) => e.data.return_status),
      ['in_transit', 'delivered'],
    );
  });
});

describe('a return label paid when made', () => {
  test('is charged as before, and its return_status follows its tracking too', async () => {
    const outbound = await shipped();
    const ret = await returned(outbound.order_id, {});
    assert.equal(ret.charge, 'on_create');
    assert.equal(ret.charge_status, null, 'paid before it existed, so nothing to follow');
    assert.equal(ret.return_status, 'unused');
    assert.deepEqual(await ledger(ret.id), [{ kind: 'charge', amount_cents: cents(ret.postage) }]);
    server.clock.advance(2 * 60_000);
    await poll();
    assert.equal((await server.request('GET', `/shipments/${ret.id}`, { key })).body.return_status, 'in_transit');
    assert.equal((await ledger(ret.id)).length, 1);
  });
});

describe('a return label from another carrier', () => {
  test('is bought from the carrier and in the service asked for', async () => {
    const outbound = await shipped({ requested_service: { carrier: 'ups', service: '03' } });
    assert.equal(outbound.carrier, 'ups');
    problem(await server.request('POST', `/shipments/${outbound.order_id}/return`, { key, body: { carrier: 'usps', service: '03' } }), 422, 'no_rate_available');
    const ret = await returned(outbound.order_id, { carrier: 'usps', service: 'USPS_GROUND_ADVANTAGE', charge: 'on_use' }, 'ret-usps-1');
    assert.equal(ret.carrier, 'usps');
    assert.equal(ret.service, 'USPS_GROUND_ADVANTAGE');
    assert.equal(ret.charge, 'on_use');
    // The same key answers the same label, and refuses another ask.
    assert.equal((await returned(outbound.order_id, { carrier: 'usps', service: 'USPS_GROUND_ADVANTAGE', charge: 'on_use' }, 'ret-usps-1')).id, ret.id);
    const reused = await server.request('POST', `/shipments/${outbound.order_id}/return`, { key, body: { carrier: 'usps', charge: 'on_create' }, headers: { 'idempotency-key': 'ret-usps-1' } });
    problem(reused, 422, 'idempotency_key_reused');
  });

  test('without a service, is the carrier\'s cheapest return', async () => {
    const outbound = await shipped({ requested_service: { carrier: 'ups', service: '03' } });
    const ret = await returned(outbound.order_id, { carrier: 'fedex' });
    assert.equal(ret.carrier, 'fedex');
    const refused = problem(await server.request('POST', `/shipments/${outbound.order_id}/return`, { key, body: { charge: 'later' } }), 400, 'validation_failed');
    assert.equal(refused.errors[0].pointer, '/charge');
  });
});
