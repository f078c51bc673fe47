// Live platform postage charged to the merchant's card through Stripe, end to end over HTTP against the fake
// Stripe (held to our schemas of Stripe's published contract) and the fake USPS: a card saved on Stripe's page from
// the dashboard, a label charged once, declines and 3-D Secure that buy nothing, refunds on void, and the lost
// answers (a charge made but not heard of, Stripe out of reach, a capture that did not arrive) settled without a
// second charge.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { problem, startServer, type TestServer } from './harness.ts';
import { orderBody } from './fixtures.ts';
import { startCarrierFakes, type CarrierFakes } from './fakes/carriers.ts';
import type { ChargeSummary } from './fakes/stripe.ts';
import { saveCard, startBilling } from './live-billing.ts';
import { accountWithUser, DashboardClient, password } from './dashboard/client.ts';
import { setPaymentMethod } from '../src/domain/billing/payment-methods.ts';
import { settleCardCharges } from '../src/domain/billing/card-charges.ts';
import { pendingStaleMs } from '../src/domain/shipments/purchase.ts';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- tests read whatever JSON came back

let fakes: CarrierFakes;
let server: TestServer;
const billing = await startBilling();
const stripe = billing.stripe;

before(async () => {
  fakes = await startCarrierFakes();
  server = await startServer({ env: { ...fakes.env(['usps']), ...billing.env } });
  billing.follow(server);
  stripe.setWebhookUrl(`${server.url}/stripe/webhooks`);
});
after(async () => {
  await server.close();
  await fakes.close();
  await stripe.close();
});

// The settle job's failures are shown: none is expected here.
const settleLog = { info() {}, error(o: object) { console.error('settle error', o); } };
const uspsLabelCalls = () => fakes.usps.calls.filter((c) => c.method === 'POST' && c.path === '/labels/v3/label').length;
const chargesOf = (shipmentId: string): ChargeSummary[] => stripe.charges().filter((c) => c.metadata.shipd_shipment === shipmentId);
const chargeRow = (shipmentId: string) => server.services.database.db.selectFrom('card_charges').selectAll().where('shipment_id', '=', shipmentId).executeTakeFirst();
const ledger = (shipmentId: string) => server.services.database.db.selectFrom('postage_ledger').select(['kind', 'amount_cents']).where('shipment_id', '=', shipmentId).orderBy('created_at').execute();

/** An account with a live key and, unless told otherwise, a saved card that pays. */
async function liveAccount(card = 'pm_card_visa'): Promise<{ account: string; key: string; pm: string }> {
  const account = await server.account();
  const pm = await saveCard(server, account, card);
  return { account, key: (await server.key(account, 'live')).secret, pm };
}

async function newOrder(key: string): Promise<string> {
  const res = await server.request('POST', '/orders', { key, body: orderBody({ order_number: `card-${Math.random().toString(36).slice(2, 8)}` }) });
  assert.equal(res.status, 201, res.text);
  return res.body.id;
}

const buy = (key: string, orderId: string, idem?: string) =>
  server.request('POST', '/shipments', { key, body: { order_id: orderId }, ...(idem && { headers: { 'idempotency-key': idem } }) });

/** Runs the settle job as the worker would once the purchase's time is over. */
async function settle(): Promise<void> {
  server.clock.advance(pendingStaleMs(server) + 1_000);
  await settleCardCharges({ db: server.services.database.db, clock: server.clock, config: server.config }, pendingStaleMs(server), settleLog);
}

describe('a card saved on Stripe\'s page from the dashboard', () => {
  test('the owner is sent to Stripe, comes back with the card saved, and the card shows; Stripe\'s event alone saves it too', async () => {
    const { account, email } = await accountWithUser(server);
    const client = new DashboardClient(server);
    await client.signIn(email, password);
    const before = await client.get('/dashboard/live/billing');
    assert.match(before.text, /data-add-card/);

    const handoff = await client.submit('/dashboard/live/billing', '/dashboard/live/billing/setup');
    assert.equal(handoff.status, 303, handoff.text);
    assert.ok(handoff.location?.startsWith(`${stripe.url}/c/pay/cs_`), `off to Stripe's page: ${handoff.location}`);
    const sessionId = /\/(cs_[A-Za-z0-9_]+)/.exec(handoff.location!)![1]!;

    // The holder saves the card on Stripe's page; Stripe posts checkout.session.completed before the browser returns.
    const back = await stripe.completeCheckout(sessionId, 'pm_card_visa');
    assert.deepEqual(stripe.deliveries.map((d) => [d.event.type, d.status]).slice(-2), [['checkout.session.completed', 200], ['setup_intent.succeeded', 200]]);
    const stored = await server.services.database.db.selectFrom('payment_methods').selectAll().where('account_id', '=', account).where('mode', '=', 'live').executeTakeFirstOrThrow();
    assert.deepEqual(JSON.parse(stored.card!), { brand: 'visa', last4: '4242', exp_month: JSON.parse(stored.card!).exp_month, exp_year: JSON.parse(stored.card!).exp_year });
    const customer = stripe.customers().find((c) => (c.metadata as Record<string, string>).shipd_account === account);
    assert.equal(stripe.paymentMethods().find((p) => p.id === stored.payment_method)?.customer, customer?.id, "the card is the account's Stripe customer's");

    const returned = await client.get(new URL(back).pathname + new URL(back).search);
    assert.equal(returned.status, 303, returned.text);
    assert.equal(returned.location, '/dashboard/live/billing?notice=billing_saved');
    const page = await client.get('/dashboard/live/billing');
    assert.match(page.text, /visa •••• 4242, expires \d\d\/\d{4}/);
    assert.ok(!page.text.includes('4242 4242'), 'no card number anywhere');

    // Another account's owner cannot take this set-up's card by its return address.
    const other = await accountWithUser(server);
    const intruder = new DashboardClient(server);
    await intruder.signIn(other.email, password);
    const stolen = await intruder.get(new URL(back).pathname + new URL(back).search);
    assert.equal(stolen.status, 400);
    assert.match(stolen.text, /belongs to another account/);
    const theirs = await server.services.database.db.selectFrom('payment_methods').selectAll().where('account_id', '=', other.account).executeTakeFirst();
    assert.equal(theirs, undefined);
  });

  test('`shipd billing set --mode live` saves one of Stripe\'s cards through Stripe, and refuses what Stripe does not know', async () => {
    const account = await server.account();
    const saved = await server.cli(['billing', 'set', '--account', account, '--mode', 'live', '--payment-method', 'pm_card_mastercard'], billing.env);
    assert.equal(saved.code, 0, saved.stderr);
    const pm = /: (pm_\w+)/.exec(saved.stdout)![1]!;
    assert.notEqual(pm, 'pm_card_mastercard', "Stripe's own id for the attached card is stored");
    assert.equal(stripe.paymentMethods().find((p) => p.id === pm)?.customer !== null, true);
    const unknown = await server.cli(['billing', 'set', '--account', account, '--mode', 'live', '--payment-method', 'pm_nosuchcard1'], billing.env);
    assert.notEqual(unknown.code, 0);
    assert.match(unknown.stderr, /No such PaymentMethod/i);
  });
});

describe('live platform postage on the card', () => {
  test('is held before the carrier is asked, captured once for the label, never again on retries, and refunded on void', async () => {
    const { key } = await liveAccount();
    const orderId = await newOrder(key);
    const bought = await buy(key, orderId, 'card-once');
    assert.equal(bought.status, 201, bought.text);
    const again = await buy(key, orderId, 'card-once');
    assert.equal(again.body.id, bought.body.id);
    const [charge, ...more] = chargesOf(bought.body.id);
    assert.equal(more.length, 0, 'one PaymentIntent for the label');
    const cents = Math.round(Number(bought.body.postage.amount) * 100);
    assert.deepEqual([charge!.status, charge!.captured, charge!.refunded], ['succeeded', cents, 0]);
    assert.deepEqual(await ledger(bought.body.id), [{ kind: 'charge', amount_cents: cents }]);
    assert.equal((await chargeRow(bought.body.id))?.status, 'captured');

    const voided = await server.request('POST', `/shipments/${orderId}/void`, { key });
    assert.equal(voided.status, 200, voided.text);
    const [refunded] = chargesOf(bought.body.id);
    assert.equal(refunded!.refunded, cents, 'refunded in full');
    assert.equal((await chargeRow(bought.body.id))?.status, 'refunded');
    assert.equal(stripe.refunds().filter((r) => r.payment_intent === charge!.paymentIntent).length, 1);
  });

  test('a decline is 402 payment_declined with the decline code, and nothing is bought or charged', async () => {
    const { key, pm } = await liveAccount();
    stripe.setCardBehaviour(pm, 'pm_card_chargeDeclinedInsufficientFunds');
    const orderId = await newOrder(key);
    const labelsBefore = uspsLabelCalls();
    const declined = problem(await buy(key, orderId, 'declined-1'), 402, 'payment_declined');
    assert.equal(declined.decline_code, 'insufficient_funds');
    assert.equal(uspsLabelCalls(), labelsBefore, 'the carrier was never asked');
    const order = await server.request('GET', `/orders/${orderId}`, { key });
    assert.equal(order.body.status, 'incomplete');
    assert.ok(stripe.charges().filter((c) => c.customer && c.paymentMethod === pm).every((c) => c.captured === 0));

    // With the card paying again, the same order is bought, under a new key.
    stripe.setCardBehaviour(pm, 'pm_card_visa');
    assert.equal((await buy(key, orderId, 'declined-2')).status, 201);
  });

  test('a card whose bank wants its holder is 402 payment_authentication_required, with the way out', async () => {
    const { key } = await liveAccount('pm_card_authenticationRequired');
    const labelsBefore = uspsLabelCalls();
    const refused = problem(await buy(key, await newOrder(key)), 402, 'payment_authentication_required');
    assert.match(refused.detail, /Billing page/);
    assert.equal(uspsLabelCalls(), labelsBefore);
  });

  test('a charge made but its answer lost is asked again under its key: one PaymentIntent, one label', async () => {
    const { key } = await liveAccount();
    stripe.failNext({ method: 'POST', path: '/v1/payment_intents', when: 'after' });
    const bought = await buy(key, await newOrder(key));
    assert.equal(bought.status, 201, bought.text);
    const charges = chargesOf(bought.body.id);
    assert.equal(charges.length, 1);
    assert.equal(charges[0]!.captured, Math.round(Number(bought.body.postage.amount) * 100));
  });

  test('Stripe out of reach is 503 billing_unavailable with nothing bought, and a hold it made anyway is released by the settle job', async () => {
    const { key } = await liveAccount();
    const orderId = await newOrder(key);
    const labelsBefore = uspsLabelCalls();
    // The first attempt holds the money and every answer is lost, the library's retries included; the look for the
    // hold that the request makes on its way out is lost too, so the hold is the settle job's to find.
    stripe.failNext({ method: 'POST', path: '/v1/payment_intents', when: 'after', times: 3 });
    stripe.failNext({ method: 'GET', path: '/v1/payment_intents', when: 'before', times: 3 });
    problem(await buy(key, orderId, 'unreachable'), 503, 'billing_unavailable');
    assert.equal(uspsLabelCalls(), labelsBefore);
    const failed = await server.services.database.db.selectFrom('shipments').select(['id', 'status']).where('order_id', '=', orderId).executeTakeFirstOrThrow();
    assert.equal(failed.status, 'failed');
    assert.equal(chargesOf(failed.id)[0]?.status, 'requires_capture', 'Stripe holds the money');

    await settle();
    assert.equal(chargesOf(failed.id)[0]?.status, 'canceled', 'the hold is let go of');
    assert.equal((await chargeRow(failed.id))?.status, 'released');
    // The order can be bought again, and is charged once.
    const bought = await buy(key, orderId, 'unreachable');
    assert.equal(bought.status, 201, bought.text);
    assert.equal(chargesOf(bought.body.id).length, 1);
  });

  test('Stripe refusing every attempt before doing anything leaves no hold: the settle job finds none and closes the charge', async () => {
    const { key } = await liveAccount();
    const orderId = await newOrder(key);
    stripe.failNext({ method: 'POST', path: '/v1/payment_intents', when: 'before', times: 3 });
    problem(await buy(key, orderId), 503, 'billing_unavailable');
    const failed = await server.services.database.db.selectFrom('shipments').select('id').where('order_id', '=', orderId).executeTakeFirstOrThrow();
    await settle();
    assert.equal(chargesOf(failed.id).length, 0);
    assert.equal((await chargeRow(failed.id))?.status, 'released');
  });

  test('the carrier refusing the label releases the hold at once', async () => {
    const { key } = await liveAccount();
    // A first label brings the USPS tokens, so the next USPS call is the label itself.
    assert.equal((await buy(key, await newOrder(key))).status, 201);
    const orderId = await newOrder(key);
    const shop = await server.request('POST', '/rates', { key, body: { order_id: orderId } });
    fakes.usps.failNext = 'envelope';
    problem(await server.request('POST', '/shipments', { key, body: { order_id: orderId, rate_id: shop.body.rates[0].id } }), 502, 'carrier_error');
    const failed = await server.services.database.db.selectFrom('shipments').select('id').where('order_id', '=', orderId).executeTakeFirstOrThrow();
    assert.equal(chargesOf(failed.id)[0]?.status, 'canceled');
    assert.equal((await chargeRow(failed.id))?.status, 'released');
  });

  test('a capture Stripe did not hear leaves the label bought and the hold in place, and the settle job captures it', async () => {
    const { key } = await liveAccount();
    stripe.failNext({ method: 'POST', path: /\/capture$/, when: 'before', times: 3 });
    const bought = await buy(key, await newOrder(key));
    assert.equal(bought.status, 201, bought.text);
    assert.equal(chargesOf(bought.body.id)[0]?.status, 'requires_capture');
    assert.equal((await chargeRow(bought.body.id))?.status, 'authorized');
    await settle();
    assert.equal(chargesOf(bought.body.id)[0]?.captured, Math.round(Number(bought.body.postage.amount) * 100));
    assert.equal((await chargeRow(bought.body.id))?.status, 'captured');
  });

  test('a step Stripe took that shipd never heard of, its key forgotten, is recorded as Stripe has it, not tried for ever', async () => {
    const { key } = await liveAccount();
    stripe.failNext({ method: 'POST', path: /\/capture$/, when: 'before', times: 3 });
    const bought = await buy(key, await newOrder(key));
    assert.equal(bought.status, 201, bought.text);
    const [held] = chargesOf(bought.body.id);
    // Captured at Stripe by another request than shipd's (a key Stripe no longer remembers, as after a day).
    const captured = await fetch(`${stripe.url}/v1/payment_intents/${held!.paymentIntent}/capture`, {
      method: 'POST',
      headers: { authorization: `Bearer ${stripe.secretKey}`, 'stripe-version': '2026-10-28.endive', 'content-type': 'application/x-www-form-urlencoded' },
      body: '',
    });
    assert.equal(captured.status, 200, await captured.text());
    await settle();
    const row = await chargeRow(bought.body.id);
    assert.deepEqual([row?.status, row?.captured_cents], ['captured', held!.amount]);
    assert.equal(chargesOf(bought.body.id).length, 1);
  });

  test('test keys never reach Stripe', async () => {
    const account = await server.account();
    await setPaymentMethod(server.services.database.db, server.clock, account, 'test', 'pm_test_visa');
    const key = (await server.key(account, 'test')).secret;
    const calls = stripe.calls.length;
    assert.equal((await buy(key, await newOrder(key))).status, 201);
    assert.equal(stripe.calls.length, calls);
  });
});

describe("Stripe's events", () => {
  test('are refused unsigned; a new expiry is shown; a card detached in Stripe is no longer charged', async () => {
    const unsigned = await fetch(`${server.url}/stripe/webhooks`, { method: 'POST', headers: { 'content-type': 'application/json', 'stripe-signature': 't=1,v1=00' }, body: '{}' });
    assert.equal(unsigned.status, 400);
    assert.equal(((await unsigned.json()) as Json).code, 'invalid_stripe_signature');

    const { account, key, pm } = await liveAccount();
    assert.equal((await stripe.updateCardExpiry(pm, 7, 2034))?.status, 200);
    const row = await server.services.database.db.selectFrom('payment_methods').select('card').where('account_id', '=', account).where('mode', '=', 'live').executeTakeFirstOrThrow();
    assert.deepEqual([JSON.parse(row.card!).exp_month, JSON.parse(row.card!).exp_year], [7, 2034]);

    assert.equal((await stripe.detachPaymentMethod(pm))?.status, 200);
    problem(await buy(key, await newOrder(key)), 402, 'payment_method_required');
  });
});

describe('a server without Stripe', () => {
  test('refuses live platform postage with 402 billing_not_configured before any carrier call, and says so on the billing page', async () => {
    const bare = await startServer({ env: fakes.env(['usps']) });
    try {
      const { account, email } = await accountWithUser(bare);
      const key = (await bare.key(account, 'live')).secret;
      const order = await bare.request('POST', '/orders', { key, body: orderBody() });
      const labelsBefore = uspsLabelCalls();
      const refused = problem(await bare.request('POST', '/shipments', { key, body: { order_id: order.body.id } }), 402, 'billing_not_configured');
      assert.match(refused.detail, /STRIPE_SECRET_KEY/);
      assert.equal(uspsLabelCalls(), labelsBefore);
      const cli = await bare.cli(['billing', 'set', '--account', account, '--mode', 'live', '--payment-method', 'pm_card_visa']);
      assert.notEqual(cli.code, 0);
      assert.match(cli.stderr, /STRIPE_SECRET_KEY/);
      const client = new DashboardClient(bare);
      await client.signIn(email, password);
      assert.match((await client.get('/dashboard/live/billing')).text, /data-billing-off/);
    } finally {
      await bare.close();
    }
  });
});
