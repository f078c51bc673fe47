import { test } from 'node:test';
import assert from 'node:assert/strict';
import { problem, startServer } from '../harness.ts';
import { austin, orderBody } from '../fixtures.ts';
import { startUpsFake, upsFakeCredentials } from '../fakes/ups.ts';
import { saveCard, startBilling } from '../live-billing.ts';

// A purchase whose carrier call was cut off by the time-out (504) is left pending, to be decided. The client's
// retry with the same Idempotency-Key must hear "come back later" while it is, and then the decision: a 409
// idempotency_key_in_use stored as the key's answer would be replayed to it for the key's 7 days. UPS does not
// honour an idempotency key, so the decision is to give the purchase up rather than ask UPS again: every retry
// then hears that, and UPS was asked to ship once.

test('a UPS purchase cut off by a carrier time-out: retries with its Idempotency-Key hear it is running, then that it was given up; UPS ships once', { timeout: 60_000 }, async () => {
  const ups = await startUpsFake();
  const billing = await startBilling();
  const server = await startServer({
    env: {
      ...billing.env,
      UPS_BASE_URL: ups.url,
      UPS_CLIENT_ID: upsFakeCredentials.clientId,
      UPS_CLIENT_SECRET: upsFakeCredentials.clientSecret,
      UPS_ACCOUNT_NUMBER: upsFakeCredentials.accountNumber,
      // Long enough for the fake's token and rate calls on a busy machine; the purchase's stall outlasts it.
      SHIPD_CARRIER_TIMEOUT_MS: '2000',
    },
  });
  try {
    const account = await server.account();
    await saveCard(server, account);
    const key = (await server.key(account, 'live')).secret;
    const order = await server.request('POST', '/orders', { key, body: orderBody({ ship_from: { ...austin, phone: '512-555-0100' } }) });
    assert.equal(order.status, 201, order.text);
    const shop = await server.request('POST', '/rates', { key, body: { order_id: order.body.id, carriers: ['ups'] } });
    const rate = shop.body.rates?.[0];
    assert.ok(rate, shop.text);

    const buy = () => server.request('POST', '/shipments', { key, body: { order_id: order.body.id, rate_id: rate.id }, headers: { 'idempotency-key': 'label-1' } });
    ups.failNext({ kind: 'slow', ms: 5_000 }, '/api/shipments');
    problem(await buy(), 504, 'carrier_timeout');

    // Stale after the carrier time-out plus 5 s; then the retry (or the reconcile job) decides it.
    const deadline = Date.now() + 30_000;
    let answer = await buy();
    while (answer.status === 409) {
      problem(answer, 409, 'idempotency_key_in_use');
      assert.equal(answer.headers.get('idempotent-replayed'), null, 'a come-back-later answer is not the key answer');
      assert.ok(Date.now() < deadline, 'the retry got its answer once the purchase was stale');
      await new Promise((r) => setTimeout(r, 500));
      answer = await buy();
    }
    assert.match(problem(answer, 502, 'carrier_error').detail, /could sell a second label/);
    const again = await buy();
    assert.match(problem(again, 502, 'carrier_error').detail, /could sell a second label/);

    const ships = ups.calls.filter((c) => c.method === 'POST' && /\/api\/shipments\/v\w+\/ship$/.test(c.path));
    assert.equal(ships.length, 1, 'UPS was asked to ship once');
    const db = server.services.database.db;
    const labels = await db.selectFrom('shipments').select('status').where('order_id', '=', order.body.id).execute();
    assert.deepEqual(labels, [{ status: 'abandoned' }]);
    assert.equal((await db.selectFrom('postage_ledger').select('id').where('account_id', '=', account).execute()).length, 0, 'nothing charged');
  } finally {
    await server.close();
    await ups.close();
    await billing.stripe.close();
  }
});
