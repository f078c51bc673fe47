// Card charges racing the rest of a purchase when Stripe is slow to answer: a void racing the capture of its label's
// charge (whichever is recorded last, the voided label's money goes back to the card), and a hold answered only after
// the reconcile job gave its purchase up (the carrier is not asked, and the hold is let go of).
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, type TestServer } from './harness.ts';
import { austin, orderBody } from './fixtures.ts';
import { startCarrierFakes, type CarrierFakes } from './fakes/carriers.ts';
import { payingLiveKey, startBilling } from './live-billing.ts';
import { settleCardCharges } from '../src/domain/billing/card-charges.ts';
import { pendingStaleMs, reconcilePending } from '../src/domain/shipments/purchase.ts';
import { serviceContext } from '../src/services.ts';

let fakes: CarrierFakes;
let server: TestServer;
const billing = await startBilling();
const stripe = billing.stripe;

before(async () => {
  fakes = await startCarrierFakes();
  server = await startServer({ env: { ...fakes.env(['usps', 'ups']), ...billing.env } });
  billing.follow(server);
});
after(async () => {
  await server.close();
  await fakes.close();
  await stripe.close();
});

const calls = (path: RegExp) => stripe.calls.filter((c) => c.method === 'POST' && path.test(c.path)).length;
const quiet = { info() {}, error() {} };


test('a label voided while its capture is answered late: the capture, recorded after the void, is refunded', { timeout: 90_000 }, async () => {
  const key = await payingLiveKey(server);
  const order = await server.request('POST', '/orders', { key, body: orderBody({ requested_service: { carrier: 'usps', service: 'PRIORITY_MAIL' } }) });
  assert.equal(order.status, 201, order.text);

  // Stripe captures the label's charge and its answer is lost: the library asks again after its 20 s time-out.
  const captures = calls(/\/capture$/);
  stripe.hangNext({ method: 'POST', path: /\/capture$/, when: 'after' });
  const buying = server.request('POST', '/shipments', { key, body: { order_id: order.body.id } });
  while (calls(/\/capture$/) === captures) await new Promise((r) => setTimeout(r, 5));
  // The label is stored, so the client may void it. Stripe refuses to release a captured hold, and that answer is
  // lost too, half a second after the capture's (more than the library's jitter between their second tries).
  await new Promise((r) => setTimeout(r, 500));
  const cancels = calls(/\/cancel$/);
  stripe.hangNext({ method: 'POST', path: /\/cancel$/, when: 'after' });
  const voided = await server.request('POST', `/shipments/${order.body.id}/void`, { key });
  assert.equal(voided.status, 200, voided.text);
  const bought = await buying;
  assert.equal(bought.status, 201, bought.text);
  assert.equal(calls(/\/cancel$/), cancels + 2, 'the void asked Stripe to release the hold, and asked again after the time-out');

  // Whatever the requests left is the settle job's.
  server.clock.advance(pendingStaleMs(server) + 1_000);
  await settleCardCharges({ db: server.services.database.db, clock: server.clock, config: server.config }, pendingStaleMs(server), quiet);

  const [charge] = stripe.charges().filter((c) => c.metadata.shipd_shipment === bought.body.id);
  assert.ok(charge && charge.captured > 0 && charge.refunded === charge.captured, `the captured postage is refunded in full: ${JSON.stringify(charge)}`);
  const row = await server.services.database.db.selectFrom('card_charges').selectAll().where('shipment_id', '=', bought.body.id).executeTakeFirstOrThrow();
  assert.equal(row.status, 'refunded', JSON.stringify(row));
  const ledger = await server.services.database.db.selectFrom('postage_ledger').select('amount_cents').where('shipment_id', '=', bought.body.id).execute();
  assert.equal(
    ledger.reduce((sum, l) => sum + l.amount_cents, 0),
    0,
    'the ledger keeps nothing for the voided label',
  );
});

test('a hold Stripe answers only after the reconcile job gave its UPS purchase up: UPS is not asked, the hold is let go of', { timeout: 90_000 }, async () => {
  const key = await payingLiveKey(server);
  const order = await server.request('POST', '/orders', { key, body: orderBody({ ship_from: { ...austin, phone: '512-555-0100' }, requested_service: { carrier: 'ups', service: '03' } }) });
  assert.equal(order.status, 201, order.text);
  const upsShips = () => fakes.ups.calls.filter((c) => c.method === 'POST' && /\/ship$/.test(c.path)).length;
  const shipsBefore = upsShips();

  // Stripe makes the hold and its answer is lost: the library asks again after its 20 s time-out.
  const holds = calls(/^\/v1\/payment_intents$/);
  stripe.hangNext({ method: 'POST', path: '/v1/payment_intents', when: 'after' });
  const buying = server.request('POST', '/shipments', { key, body: { order_id: order.body.id } });
  while (calls(/^\/v1\/payment_intents$/) === holds) await new Promise((r) => setTimeout(r, 5));
  // Meanwhile the purchase looks like a crash's to the reconcile job, which gives it up (UPS cannot be asked twice).
  server.clock.advance(pendingStaleMs(server) + 1_000);
  await reconcilePending(serviceContext(server.services, 'test'), quiet);

  const answer = await buying;
  assert.equal(answer.status, 503, answer.text);
  assert.equal(answer.body.code, 'billing_unavailable');
  assert.equal(upsShips(), shipsBefore, 'UPS was not asked for a label of a purchase given up');
  const shipment = await server.services.database.db.selectFrom('shipments').select(['id', 'status']).where('order_id', '=', order.body.id).executeTakeFirstOrThrow();
  assert.equal(shipment.status, 'abandoned');
  const [hold] = stripe.charges().filter((c) => c.metadata.shipd_shipment === shipment.id);
  assert.equal(hold?.status, 'canceled', `the hold is let go of: ${JSON.stringify(hold)}`);
  const row = await server.services.database.db.selectFrom('card_charges').selectAll().where('shipment_id', '=', shipment.id).executeTakeFirstOrThrow();
  assert.equal(row.status, 'released', JSON.stringify(row));
  assert.equal(row.payment_intent_id, hold.paymentIntent);
});
