// Idempotency-Key on label purchases, past what the HTTP layer remembers: a key whose request failed with a 5xx is
// forgotten there, and a key is kept for 7 days; the purchase the key started must still decide the answer.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { problem, startServer, type TestServer } from './harness.ts';
import { orderBody } from './fixtures.ts';
import { setPaymentMethod } from '../src/domain/billing/payment-methods.ts';
import { carriersFor } from '../src/carriers/registry.ts';
import { idempotencyTtlMs } from '../src/domain/core/idempotency.ts';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- tests read whatever JSON came back

let server: TestServer;
let key: string;

before(async () => {
  server = await startServer({ env: { SHIPD_CARRIER_TIMEOUT_MS: '500' } });
  const account = await server.account();
  await setPaymentMethod(server.services.database.db, server.clock, account, 'test', 'pm_test_visa');
  key = (await server.key(account)).secret;
});
after(() => server.close());

async function newOrder(): Promise<Json> {
  const res = await server.request('POST', '/orders', { key, body: orderBody() });
  assert.equal(res.status, 201, res.text);
  return res.body;
}
async function ratesFor(orderId: string): Promise<Json[]> {
  const res = await server.request('POST', '/rates', { key, body: { order_id: orderId } });
  assert.equal(res.status, 200, res.text);
  return res.body.rates;
}
const buy = (body: Json, idem: string) => server.request('POST', '/shipments', { key, body, headers: { 'idempotency-key': idem } });

/** The UPS simulator does not answer its next purchase (the server shares this process's simulators). */
function upsHangsOnce(): () => void {
  const ups = carriersFor('test', server.config, server.clock).ups;
  const original = ups.purchase;
  ups.purchase = (_request, signal) => {
    ups.purchase = original;
    return new Promise((_, reject) => signal.addEventListener('abort', () => reject(new Error('aborted'))));
  };
  return () => {
    ups.purchase = original;
  };
}

describe('Idempotency-Key on POST /shipments', () => {
  test('after a time-out, the same key with another rate or format is 422 idempotency_key_reused; the same request finishes the first purchase', async () => {
    const order = await newOrder();
    const rates = await ratesFor(order.id);
    const ups = rates.find((r) => r.carrier === 'ups')!;
    const usps = rates.find((r) => r.carrier === 'usps')!;
    const restore = upsHangsOnce();
    try {
      problem(await buy({ order_id: order.id, rate_id: ups.id }, 'lost-1'), 504, 'carrier_timeout');
    } finally {
      restore();
    }
    server.clock.advance(6_000);
    problem(await buy({ order_id: order.id, rate_id: usps.id }, 'lost-1'), 422, 'idempotency_key_reused');
    problem(await buy({ order_id: order.id, rate_id: ups.id, label_format: 'zpl' }, 'lost-1'), 422, 'idempotency_key_reused');
    problem(await buy({ order_id: order.id, rate_id: ups.id, metadata: { a: 'b' } }, 'lost-1'), 422, 'idempotency_key_reused');
    const same = await buy({ order_id: order.id, rate_id: ups.id }, 'lost-1');
    assert.equal(same.status, 201, same.text);
    assert.equal(same.body.carrier, 'ups');
    assert.equal(same.body.label_format, 'pdf');
  });

  test('after 7 days the key is free again: it buys a new label instead of answering the old, voided one', async () => {
    const order = await newOrder();
    const first = await buy({ order_id: order.id }, 'week-old');
    assert.equal(first.status, 201, first.text);
    assert.equal((await server.request('POST', `/shipments/${order.id}/void`, { key })).status, 200);
    server.clock.advance(idempotencyTtlMs + 1_000);
    const later = await buy({ order_id: order.id }, 'week-old');
    assert.equal(later.status, 201, later.text);
    assert.notEqual(later.body.id, first.body.id);
    assert.equal(later.body.status, 'purchased');
    assert.equal((await server.request('GET', `/orders/${order.id}`, { key })).body.status, 'shipped');
  });
});
