import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import Stripe from 'stripe';
import { startFakeStripe, type FakeStripe } from '../fakes/stripe.ts';
import { startReceiver, type Receiver } from '../webhook-receiver.ts';
import { apiVersion } from './stripe/common.ts';

// The Stripe fake, driven by the real `stripe` library as shipd drives it: if the fake answers what the library
// cannot read, or refuses what Stripe takes, these fail before shipd's billing tests can mislead.

let fake: FakeStripe;
let stripe: Stripe;
let receiver: Receiver;

const client = (key: string, maxNetworkRetries = 2): Stripe => {
  const u = new URL(fake.url);
  return new Stripe(key, { host: u.hostname, port: Number(u.port), protocol: 'http', maxNetworkRetries });
};

before(async () => {
  fake = await startFakeStripe();
  stripe = client(fake.secretKey);
  receiver = await startReceiver('/stripe/webhooks');
});
after(async () => {
  await fake.close();
  await receiver.close();
});

/** A raw request, for what the library would never send. */
async function raw(method: 'GET' | 'POST', path: string, body: string, headers: Record<string, string> = {}): Promise<{ status: number; headers: Headers; json: { error?: Record<string, unknown> } & Record<string, unknown> }> {
  const res = await fetch(`${fake.url}${path}`, {
    method,
    headers: { authorization: `Bearer ${fake.secretKey}`, 'stripe-version': apiVersion, 'content-type': 'application/x-www-form-urlencoded', ...headers },
    ...(method === 'POST' ? { body } : {}),
  });
  return { status: res.status, headers: res.headers, json: (await res.json()) as { error?: Record<string, unknown> } };
}

async function customerWithCard(card = 'pm_card_visa'): Promise<{ customer: string; paymentMethod: string }> {
  const customer = await stripe.customers.create({ name: 'Acme Shipping', metadata: { shipd_account: 'acct_1' } });
  const pm = await stripe.paymentMethods.attach(card, { customer: customer.id });
  await stripe.customers.update(customer.id, { invoice_settings: { default_payment_method: pm.id } });
  return { customer: customer.id, paymentMethod: pm.id };
}

const hold = (customer: string, paymentMethod: string, amount = 1234, shipment = 'shp_1') =>
  ({ amount, currency: 'usd', customer, payment_method: paymentMethod, off_session: true, confirm: true, capture_method: 'manual', description: 'Postage', metadata: { shipd_shipment: shipment } }) as const;

async function stripeError(p: Promise<unknown>): Promise<Stripe.errors.StripeError> {
  try {
    await p;
  } catch (err) {
    if (err instanceof Stripe.errors.StripeError) return err;
    throw err;
  }
  assert.fail('Stripe took what it should refuse');
}

test('a card saved through the hosted Checkout page: the page redirects to success_url with the session id, and the session expands to the saved card', async () => {
  const customer = await stripe.customers.create({ name: 'Acme', email: 'ops@acme.test' });
  const session = await stripe.checkout.sessions.create({
    mode: 'setup',
    customer: customer.id,
    currency: 'usd',
    allowed_payment_method_types: ['card'],
    success_url: 'https://shipd.test/billing/done?session={CHECKOUT_SESSION_ID}',
    cancel_url: 'https://shipd.test/billing',
    client_reference_id: 'acct_1',
    metadata: { shipd_account: 'acct_1' },
  });
  assert.equal(session.status, 'open');
  assert.equal(session.setup_intent, null);
  const page = await fetch(session.url!);
  assert.equal(page.status, 200);
  assert.match(await page.text(), /pm_card_mastercard/);
  const submitted = await fetch(session.url!, { method: 'POST', body: new URLSearchParams({ card: 'pm_card_mastercard' }), redirect: 'manual' });
  assert.equal(submitted.status, 303);
  assert.equal(submitted.headers.get('location'), `https://shipd.test/billing/done?session=${session.id}`);

  const done = await stripe.checkout.sessions.retrieve(session.id, { expand: ['setup_intent', 'setup_intent.payment_method'] });
  assert.equal(done.status, 'complete');
  const intent = done.setup_intent as Stripe.SetupIntent;
  assert.equal(intent.status, 'succeeded');
  const pm = intent.payment_method as Stripe.PaymentMethod;
  assert.deepEqual([pm.card?.brand, pm.card?.last4, pm.customer], ['mastercard', '4444', customer.id]);
  assert.equal((await stripe.setupIntents.retrieve(intent.id)).payment_method, pm.id);
  assert.equal((await fetch(session.url!)).status, 410, 'a completed session shows no form');
});

test('completeCheckout refuses a card that declines and leaves the session open; a card set-up needs a currency', async () => {
  const customer = await stripe.customers.create({ name: 'Acme' });
  const session = await stripe.checkout.sessions.create({ mode: 'setup', customer: customer.id, currency: 'usd', success_url: 'https://shipd.test/ok' });
  await assert.rejects(fake.completeCheckout(session.id, 'pm_card_chargeDeclined'), /Your card was declined/);
  assert.equal((await stripe.checkout.sessions.retrieve(session.id)).status, 'open');
  assert.equal(await fake.completeCheckout(session.id, 'pm_card_visa'), 'https://shipd.test/ok');
  const missing = await stripeError(stripe.checkout.sessions.create({ mode: 'setup', customer: customer.id }));
  assert.deepEqual([missing.code, missing.param], ['parameter_missing', 'currency']);
});

test('attaching a test card makes a new PaymentMethod for the customer; a declining card is refused with its decline code', async () => {
  const { customer, paymentMethod } = await customerWithCard('pm_card_visa');
  assert.match(paymentMethod, /^pm_/);
  assert.notEqual(paymentMethod, 'pm_card_visa');
  const read = await stripe.customers.retrieve(customer, { expand: ['invoice_settings.default_payment_method'] });
  const pm = (read as Stripe.Customer).invoice_settings.default_payment_method as Stripe.PaymentMethod;
  assert.deepEqual([pm.id, pm.card?.brand, pm.card?.last4], [paymentMethod, 'visa', '4242']);

  const refused = await stripeError(stripe.paymentMethods.attach('pm_card_chargeDeclinedInsufficientFunds', { customer }));
  assert.deepEqual([refused.type, refused.code, refused.decline_code, refused.statusCode], ['StripeCardError', 'card_declined', 'insufficient_funds', 402]);
  const missing = await stripeError(stripe.paymentMethods.attach('pm_nope', { customer }));
  assert.deepEqual([missing.code, missing.statusCode], ['resource_missing', 404]);
  const other = await stripe.customers.create({ name: 'Other' });
  const notTheirs = await stripeError(stripe.customers.update(other.id, { invoice_settings: { default_payment_method: paymentMethod } }));
  assert.equal(notTheirs.param, 'invoice_settings[default_payment_method]');
});

test('a hold is captured in part and refunded; over-refunds and cancelling a captured charge are refused', async () => {
  const { customer, paymentMethod } = await customerWithCard();
  const intent = await stripe.paymentIntents.create(hold(customer, paymentMethod, 2000, 'shp_cap'));
  assert.deepEqual([intent.status, intent.amount_capturable, intent.amount_received], ['requires_capture', 2000, 0]);
  const captured = await stripe.paymentIntents.capture(intent.id, { amount_to_capture: 1500 });
  assert.deepEqual([captured.status, captured.amount_received, typeof captured.latest_charge], ['succeeded', 1500, 'string']);

  const cancel = await stripeError(stripe.paymentIntents.cancel(intent.id, { cancellation_reason: 'abandoned' }));
  assert.equal(cancel.code, 'payment_intent_unexpected_state');
  const again = await stripeError(stripe.paymentIntents.capture(intent.id));
  assert.equal(again.code, 'payment_intent_unexpected_state');

  const part = await stripe.refunds.create({ payment_intent: intent.id, amount: 500, reason: 'requested_by_customer', metadata: { shipd_shipment: 'shp_cap' } });
  assert.deepEqual([part.status, part.amount], ['succeeded', 500]);
  const over = await stripeError(stripe.refunds.create({ payment_intent: intent.id, amount: 1001 }));
  assert.deepEqual([over.code, over.param], ['amount_too_large', 'amount']);
  assert.equal((await stripe.refunds.create({ payment_intent: intent.id })).amount, 1000, 'the rest of what was captured');
  assert.equal((await stripeError(stripe.refunds.create({ payment_intent: intent.id }))).code, 'charge_already_refunded');
  const summary = fake.charges().find((c) => c.paymentIntent === intent.id);
  assert.deepEqual([summary?.captured, summary?.refunded, summary?.metadata.shipd_shipment], [1500, 1500, 'shp_cap']);

  const listed: Stripe.Refund[] = [];
  for await (const r of stripe.refunds.list({ payment_intent: intent.id, limit: 1 })) listed.push(r);
  assert.deepEqual(listed.map((r) => [r.amount, r.metadata?.shipd_shipment]), [[1000, undefined], [500, 'shp_cap']], "the PaymentIntent's refunds, newest first, page by page");
  const elsewhere = await stripe.refunds.list({ payment_intent: (await stripe.paymentIntents.create(hold(customer, paymentMethod))).id });
  assert.deepEqual(elsewhere.data, [], "another PaymentIntent's refunds are its own");
});

test('a hold is released by cancelling it, and cannot then be captured or refunded', async () => {
  const { customer, paymentMethod } = await customerWithCard();
  const intent = await stripe.paymentIntents.create(hold(customer, paymentMethod));
  const canceled = await stripe.paymentIntents.cancel(intent.id, { cancellation_reason: 'abandoned' });
  assert.deepEqual([canceled.status, canceled.cancellation_reason, canceled.amount_capturable], ['canceled', 'abandoned', 0]);
  assert.equal((await stripeError(stripe.paymentIntents.capture(intent.id))).code, 'payment_intent_unexpected_state');
  assert.equal((await stripeError(stripe.refunds.create({ payment_intent: intent.id }))).code, 'payment_intent_unexpected_state');
  const over = await stripeError(stripe.paymentIntents.capture((await stripe.paymentIntents.create(hold(customer, paymentMethod, 800))).id, { amount_to_capture: 801 }));
  assert.deepEqual([over.code, over.param], ['amount_too_large', 'amount_to_capture']);
});

test('declines: a saved card that stops paying, insufficient funds and an expired card answer 402 with the PaymentIntent left requiring a payment method', async () => {
  const { customer, paymentMethod } = await customerWithCard('pm_card_chargeCustomerFail');
  const generic = await stripeError(stripe.paymentIntents.create(hold(customer, paymentMethod)));
  assert.deepEqual([generic.type, generic.statusCode, generic.code, generic.decline_code], ['StripeCardError', 402, 'card_declined', 'generic_decline']);
  assert.equal(generic.payment_intent?.status, 'requires_payment_method');
  assert.equal((await stripe.paymentIntents.retrieve(generic.payment_intent!.id)).last_payment_error?.decline_code, 'generic_decline');

  const visa = await customerWithCard('pm_card_visa');
  fake.setCardBehaviour(visa.paymentMethod, 'pm_card_chargeDeclinedInsufficientFunds');
  const funds = await stripeError(stripe.paymentIntents.create(hold(visa.customer, visa.paymentMethod)));
  assert.deepEqual([funds.code, funds.decline_code, funds.message], ['card_declined', 'insufficient_funds', 'Your card has insufficient funds.']);
  const expired = await stripeError(stripe.paymentIntents.create({ amount: 900, currency: 'usd', payment_method: 'pm_card_chargeDeclinedExpiredCard', confirm: true }));
  assert.deepEqual([expired.code, expired.decline_code], ['expired_card', 'expired_card']);
});

test('a card that always asks for authentication is refused off-session with authentication_required', async () => {
  const { customer, paymentMethod } = await customerWithCard('pm_card_authenticationRequired');
  const err = await stripeError(stripe.paymentIntents.create(hold(customer, paymentMethod)));
  assert.deepEqual([err.type, err.statusCode, err.code, err.decline_code], ['StripeCardError', 402, 'authentication_required', 'authentication_required']);
  assert.equal(err.payment_intent?.status, 'requires_payment_method');
  assert.equal(fake.charges().find((c) => c.paymentIntent === err.payment_intent?.id)?.captured, 0);
});

test('an Idempotency-Key replays the first answer, errors included; changed parameters are an idempotency_error; keys belong to one secret key and last 24 hours', async () => {
  const { customer, paymentMethod } = await customerWithCard();
  const body = new URLSearchParams({ amount: '1500', currency: 'usd', customer, payment_method: paymentMethod, off_session: 'true', confirm: 'true', capture_method: 'manual', 'metadata[shipd_shipment]': 'shp_idem' }).toString();
  const first = await raw('POST', '/v1/payment_intents', body, { 'idempotency-key': 'postage-shp_idem' });
  const second = await raw('POST', '/v1/payment_intents', body, { 'idempotency-key': 'postage-shp_idem' });
  assert.equal(first.status, 200);
  assert.deepEqual(second.json, first.json);
  assert.equal(second.headers.get('idempotent-replayed'), 'true');
  assert.equal(first.headers.get('idempotent-replayed'), null);
  assert.equal(fake.paymentIntents().filter((p) => p.metadata && (p.metadata as Record<string, string>).shipd_shipment === 'shp_idem').length, 1);

  const changed = await stripeError(stripe.paymentIntents.create({ ...hold(customer, paymentMethod, 1600) }, { idempotencyKey: 'postage-shp_idem' }));
  assert.deepEqual([changed.type, changed.statusCode], ['StripeIdempotencyError', 400]);

  fake.setCardBehaviour(paymentMethod, 'pm_card_chargeDeclined');
  const declined = await stripeError(stripe.paymentIntents.create(hold(customer, paymentMethod, 700), { idempotencyKey: 'postage-declined' }));
  fake.setCardBehaviour(paymentMethod, 'pm_card_visa');
  const replayed = await stripeError(stripe.paymentIntents.create(hold(customer, paymentMethod, 700), { idempotencyKey: 'postage-declined' }));
  assert.equal(replayed.payment_intent?.id, declined.payment_intent?.id, 'the decline is replayed, not charged again');

  // A request refused before any work is not kept: the same key then does the work.
  const refused = await raw('POST', '/v1/customers', 'nme=x', { 'idempotency-key': 'customer-typo' });
  assert.equal(refused.status, 400);
  assert.equal((await raw('POST', '/v1/customers', 'name=x', { 'idempotency-key': 'customer-typo' })).status, 200);

  let clock = Date.now();
  const other = 'sk_test_other_key';
  const timed = await startFakeStripe({ now: () => clock, extraSecretKeys: [other] });
  try {
    const u = new URL(timed.url);
    const as = (key: string) => new Stripe(key, { host: u.hostname, port: Number(u.port), protocol: 'http' });
    const a = await as(timed.secretKey).customers.create({ name: 'A' }, { idempotencyKey: 'same' });
    const b = await as(other).customers.create({ name: 'B' }, { idempotencyKey: 'same' });
    assert.notEqual(a.id, b.id, 'another secret key does not see the key');
    clock += 24 * 3600 * 1000 + 1;
    const c = await as(timed.secretKey).customers.create({ name: 'C' }, { idempotencyKey: 'same' });
    assert.equal(c.name, 'C', 'a key older than 24 hours is forgotten');
  } finally {
    await timed.close();
  }
});

test("a connection cut after the charge is made: the library's retry with the same Idempotency-Key gets the same PaymentIntent, never a second charge", async () => {
  const { customer, paymentMethod } = await customerWithCard();
  const before = fake.paymentIntents().length;
  fake.failNext({ method: 'POST', path: '/v1/payment_intents', when: 'after' });
  const intent = await stripe.paymentIntents.create(hold(customer, paymentMethod, 2500, 'shp_cut'));
  assert.equal(intent.status, 'requires_capture');
  assert.equal(fake.paymentIntents().length, before + 1);
  const posts = fake.calls.filter((c) => c.method === 'POST' && c.path === '/v1/payment_intents').slice(-2);
  assert.equal(posts.length, 2);
  assert.equal(posts[0]!.headers['idempotency-key'], posts[1]!.headers['idempotency-key']);

  fake.failNext({ path: /^\/v1\/payment_intents\/[^/]+\/capture$/, when: 'before', times: 3 });
  const noRetries = client(fake.secretKey, 0);
  const lost = await stripeError(noRetries.paymentIntents.capture(intent.id));
  assert.equal(lost.type, 'StripeConnectionError');
  assert.equal((await stripe.paymentIntents.retrieve(intent.id)).status, 'requires_capture', "'before' does none of the work");
});

test('a request still running holds its Idempotency-Key (409 idempotency_key_in_use); a 500 is kept under its key like any answer', async () => {
  const customer = await stripe.customers.create({ name: 'Slow' });
  fake.hangNext({ method: 'POST', path: `/v1/customers/${customer.id}` });
  const body = 'metadata[tier]=gold';
  const hung = raw('POST', `/v1/customers/${customer.id}`, body, { 'idempotency-key': 'slow-update' }).catch(() => 'cut');
  await new Promise((r) => setTimeout(r, 100));
  const busy = await raw('POST', `/v1/customers/${customer.id}`, body, { 'idempotency-key': 'slow-update' });
  assert.equal(busy.status, 409);
  assert.equal(busy.json.error?.code, 'idempotency_key_in_use');

  fake.failNext({ path: '/v1/customers', when: 'before', answer: 'api_error' });
  const failed = await raw('POST', '/v1/customers', 'name=Lost', { 'idempotency-key': 'lost-customer' });
  assert.deepEqual([failed.status, failed.json.error?.type], [500, 'api_error']);
  const replay = await raw('POST', '/v1/customers', 'name=Lost', { 'idempotency-key': 'lost-customer' });
  assert.deepEqual([replay.status, replay.headers.get('idempotent-replayed')], [500, 'true']);
  assert.equal(fake.customers().filter((c) => c.name === 'Lost').length, 0);
  fake.failNext({ path: '/v1/customers', when: 'after', answer: 'api_error' });
  assert.equal((await raw('POST', '/v1/customers', 'name=Made', { 'idempotency-key': 'made-customer' })).status, 500);
  assert.equal(fake.customers().filter((c) => c.name === 'Made').length, 1, "'after' does the work, then answers 500");
  assert.equal(await Promise.race([hung, new Promise((r) => setTimeout(() => r('unanswered'), 100))]), 'unanswered');
});

test('parameters Stripe does not take are refused in its words: unknown, missing, not in the enum, not an integer; keys and objects that do not exist', async () => {
  const unknown = await raw('POST', '/v1/payment_intents', 'amount=100&currency=usd&shipment=shp_1');
  assert.deepEqual([unknown.status, unknown.json.error?.code, unknown.json.error?.param, unknown.json.error?.message], [400, 'parameter_unknown', 'shipment', 'Received unknown parameter: shipment']);
  const nested = await raw('POST', '/v1/customers/cus_1', 'invoice_settings[default_pm]=pm_1');
  assert.equal(nested.json.error?.param, 'invoice_settings[default_pm]');
  const missing = await stripeError(stripe.paymentIntents.create({ currency: 'usd' } as Stripe.PaymentIntentCreateParams));
  assert.deepEqual([missing.code, missing.param], ['parameter_missing', 'amount']);
  const choice = await raw('POST', '/v1/payment_intents', 'amount=100&currency=usd&capture_method=later');
  assert.deepEqual([choice.status, choice.json.error?.param], [400, 'capture_method']);
  assert.match(String(choice.json.error?.message), /automatic, automatic_async, or manual/);
  const integer = await raw('POST', '/v1/payment_intents', 'amount=12.50&currency=usd');
  assert.deepEqual([integer.json.error?.code, integer.json.error?.param], ['parameter_invalid_integer', 'amount']);
  const small = await stripeError(stripe.paymentIntents.create({ amount: 49, currency: 'usd' }));
  assert.equal(small.code, 'amount_too_small');
  const removed = await raw('POST', '/v1/checkout/sessions', 'mode=setup&currency=usd&payment_method_types[0]=card');
  assert.deepEqual([removed.json.error?.code, removed.json.error?.param], ['parameter_unknown', 'payment_method_types'], 'gone in 2026-10-28.endive');

  const noKey = await fetch(`${fake.url}/v1/customers/cus_x`, { headers: { 'stripe-version': apiVersion } });
  assert.equal(noKey.status, 401);
  assert.equal((await stripeError(client('sk_test_wrong').customers.create({ name: 'x' }))).statusCode, 401);
  const nowhere = await stripeError(stripe.paymentIntents.retrieve('pi_nope'));
  assert.deepEqual([nowhere.statusCode, nowhere.code], [404, 'resource_missing']);
  const version = await raw('GET', '/v1/customers/cus_x', '', { 'stripe-version': '2020-08-27' });
  assert.equal(version.status, 400);
  assert.match(String(version.json.error?.message), /Invalid Stripe API version/);
});

test('webhook events are signed as Stripe signs them: constructEvent takes them and refuses a tampered one', async () => {
  fake.setWebhookUrl(`${receiver.url}/stripe/webhooks`);
  try {
    const customer = await stripe.customers.create({ name: 'Hooked' });
    const session = await stripe.checkout.sessions.create({ mode: 'setup', customer: customer.id, currency: 'usd', success_url: 'https://shipd.test/ok' });
    const from = receiver.received.length;
    await fake.completeCheckout(session.id);
    const got = receiver.received.slice(from);
    const events = got.map((r) => stripe.webhooks.constructEvent(r.body, String(r.headers['stripe-signature']), fake.webhookSecret));
    assert.deepEqual(
      events.map((e) => e.type),
      ['checkout.session.completed', 'setup_intent.succeeded'],
    );
    assert.equal((events[0]!.data.object as Stripe.Checkout.Session).id, session.id);
    assert.equal(events[0]!.api_version, apiVersion);

    const tampered = got[0]!.body.replace(session.id, 'cs_test_forged');
    assert.throws(() => stripe.webhooks.constructEvent(tampered, String(got[0]!.headers['stripe-signature']), fake.webhookSecret), Stripe.errors.StripeSignatureVerificationError);
    assert.throws(() => stripe.webhooks.constructEvent(got[0]!.body, String(got[0]!.headers['stripe-signature']), 'whsec_other'), Stripe.errors.StripeSignatureVerificationError);

    const pm = (events[1]!.data.object as Stripe.SetupIntent).payment_method as string;
    const updated = await fake.updateCardExpiry(pm, 4, 2031);
    const last = receiver.received.at(-1)!;
    const change = stripe.webhooks.constructEvent(last.body, String(last.headers['stripe-signature']), fake.webhookSecret);
    assert.deepEqual([updated?.status, change.type, (change.data.object as Stripe.PaymentMethod).card?.exp_year], [204, 'payment_method.automatically_updated', 2031]);
    await fake.detachPaymentMethod(pm);
    const detached = JSON.parse(receiver.received.at(-1)!.body) as Stripe.Event;
    assert.deepEqual([detached.type, (detached.data.object as Stripe.PaymentMethod).customer], ['payment_method.detached', null]);
    assert.equal(((await stripe.customers.retrieve(customer.id)) as Stripe.Customer).invoice_settings.default_payment_method, null);
    const reuse = await stripeError(stripe.paymentIntents.create(hold(customer.id, pm)));
    assert.equal(reuse.param, 'payment_method', 'a detached card cannot be charged');
  } finally {
    fake.setWebhookUrl(undefined);
  }
});
