import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { problem, startServer, type TestServer } from './harness.ts';
import { orderBody } from './fixtures.ts';
import { setPaymentMethod } from '../src/domain/billing/payment-methods.ts';

let server: TestServer;
let key: string;

before(async () => {
  // The default, which the other test files shorten to a minute.
  server = await startServer({ env: { SHIPD_SIM_FIRST_SCAN_MINUTES: '15' } });
  const account = await server.account();
  await setPaymentMethod(server.services.database.db, server.clock, account, 'test', 'pm_test_visa');
  key = (await server.key(account, 'test')).secret;
});
after(() => server.close());

async function bought(): Promise<string> {
  const order = await server.request('POST', '/orders', { key, body: orderBody() });
  assert.equal(order.status, 201, order.text);
  const shipment = await server.request('POST', '/shipments', { key, body: { order_id: order.body.id } });
  assert.equal(shipment.status, 201, shipment.text);
  return order.body.id;
}

test('a test label waits 15 minutes for its first scan, so someone reading the README has time to void it', async () => {
  const first = await bought();
  const second = await bought();
  server.clock.advance(14 * 60_000);
  try {
    const tracked = await server.request('POST', '/tracking', { key, body: { order_id: first } });
    assert.equal(tracked.body.status, 'pre_transit', tracked.text);
    const voided = await server.request('POST', `/shipments/${first}/void`, { key });
    assert.equal(voided.status, 200, voided.text);
    server.clock.advance(2 * 60_000);
    const scanned = await server.request('POST', '/tracking', { key, body: { order_id: second } });
    assert.notEqual(scanned.body.status, 'pre_transit', scanned.text);
    problem(await server.request('POST', `/shipments/${second}/void`, { key }), 409, 'label_in_transit');
  } finally {
    server.clock.advance(-16 * 60_000);
  }
});
