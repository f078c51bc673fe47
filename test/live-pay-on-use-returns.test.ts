import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { problem, startServer, type TestServer } from './harness.ts';
import { austin, orderBody } from './fixtures.ts';
import { startCarrierFakes, type CarrierFakes } from './fakes/carriers.ts';
import { payingLiveKey, saveCard, startBilling } from './live-billing.ts';
import { pollTracking } from '../src/domain/tracking/tracking.ts';
import { settleCardCharges } from '../src/domain/billing/card-charges.ts';
import { pendingStaleMs } from '../src/domain/shipments/purchase.ts';
import { serviceContext } from '../src/services.ts';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- tests read whatever JSON came back

let fakes: CarrierFakes;
let server: TestServer;
let key: string;
const billing = await startBilling();

before(async () => {
  fakes = await startCarrierFakes();
  server = await startServer({ env: { ...fakes.env(['ups', 'usps', 'fedex']), ...billing.env } });
  billing.follow(server);
  key = await payingLiveKey(server);
});
after(async () => {
  await server.close();
  await fakes.close();
  await billing.stripe.close();
});

const hour = 3_600_000;
const day = 24 * hour;
const defaultKey = () => key;
const poll = () => pollTracking(serviceContext(server.services, 'live-returns'), { warn: () => undefined });
const ledger = (shipmentId: string) => server.services.database.db.selectFrom('postage_ledger').select(['kind', 'amount_cents']).where('shipment_id', '=', shipmentId).execute();
const stripeCharges = (shipmentId: string) => billing.stripe.charges().filter((c) => c.metadata.shipd_shipment === shipmentId);
const cents = (money: Json) => Math.round(Number(money.amount) * 100);

/** The carrier's first scan of a label, told the way each fake tells it. */
const firstScan: Record<'ups' | 'usps' | 'fedex', (trackingNumber: string) => void> = {
  ups: (tn) => fakes.ups.setStage(tn, 'in_transit'),
  usps: (tn) => fakes.usps.scan(tn, 'accepted'),
  fedex: (tn) => fakes.fedex.tendered.add(tn),
};

/** A live order shipped with the carrier, and its return label paid on use. */
async function unusedReturn(carrier: 'ups' | 'usps' | 'fedex', key = defaultKey()): Promise<Json> {
  // FedEx labels need the shipper's phone.
  const order = await server.request('POST', '/orders', { key, body: orderBody({ ship_from: { ...austin, phone: '512-555-0100' } }) });
  assert.equal(order.status, 201, order.text);
  const shop = await server.request('POST', '/rates', { key, body: { order_id: order.body.id } });
  const rate = shop.body.rates.find((r: Json) => r.carrier === carrier);
  const outbound = await server.request('POST', '/shipments', { key, body: { order_id: order.body.id, rate_id: rate.id } });
  assert.equal(outbound.status, 201, outbound.text);
  const made = await server.request('POST', `/shipments/${order.body.id}/return`, { key, body: { charge: 'on_use' } });
  assert.equal(made.status, 201, made.text);
  return made.body;
}

for (const carrier of ['ups', 'usps', 'fedex'] as const) {
  test(`a ${carrier} return paid on use is charged to the card only once the carrier scans it`, async () => {
    const ret = await unusedReturn(carrier);
    assert.equal(ret.carrier, carrier);
    assert.equal(ret.charge, 'on_use');
    assert.equal(ret.return_status, 'unused');
    assert.deepEqual(await ledger(ret.id), []);
    assert.deepEqual(stripeCharges(ret.id), [], 'no hold on the card for an unused return');

    server.clock.advance(2 * hour);
    await poll();
    assert.deepEqual(await ledger(ret.id), []);
    assert.deepEqual(stripeCharges(ret.id), []);

    firstScan[carrier](ret.tracking_number);
    server.clock.advance(2 * hour);
    await Promise.all([poll(), poll()]);
    const charged = cents(ret.postage);
    assert.deepEqual(await ledger(ret.id), [{ kind: 'charge', amount_cents: charged }]);
    const card = stripeCharges(ret.id);
    assert.equal(card.length, 1);
    assert.equal(card[0]!.captured, charged);
    const row = await server.services.database.db.selectFrom('card_charges').selectAll().where('shipment_id', '=', ret.id).executeTakeFirstOrThrow();
    assert.equal(row.status, 'captured');
    assert.equal((await server.request('GET', `/shipments/${ret.id}`, { key })).body.return_status, 'in_transit');
    problem(await server.request('POST', `/shipments/${ret.id}/void`, { key }), 409, 'label_in_transit');
  });
}

for (const [when, carrier, what] of [
  ['after', 'usps', 'a card charge whose answer Stripe lost at the first scan is finished by the settle job: the hold Stripe made is captured, once'],
  ['before', 'ups', 'a card charge Stripe never made at the first scan is made by the settle job'],
] as const) {
  test(what, async () => {
    const ret = await unusedReturn(carrier);
    firstScan[carrier](ret.tracking_number);
    server.clock.advance(2 * hour);
    // Stripe never answers the hold, neither the request nor the library's two retries.
    billing.stripe.failNext({ method: 'POST', path: '/v1/payment_intents', when, times: 3 });
    await poll();
    assert.deepEqual(await ledger(ret.id), [{ kind: 'charge', amount_cents: cents(ret.postage) }]);
    const db = server.services.database.db;
    const chargeStatus = async () => (await db.selectFrom('card_charges').select('status').where('shipment_id', '=', ret.id).executeTakeFirstOrThrow()).status;
    assert.equal(await chargeStatus(), 'authorizing');

    server.clock.advance(pendingStaleMs(server) + 1_000);
    await settleCardCharges({ db, clock: server.clock, config: server.config }, pendingStaleMs(server), { info: () => undefined, error: () => undefined });
    const card = stripeCharges(ret.id);
    assert.equal(card.length, 1);
    assert.equal(card[0]!.captured, cents(ret.postage));
    assert.equal(await chargeStatus(), 'captured');
  });
}

const settle = () => settleCardCharges({ db: server.services.database.db, clock: server.clock, config: server.config }, pendingStaleMs(server), { info: () => undefined, error: () => undefined });
const cardCharge = (shipmentId: string) => server.services.database.db.selectFrom('card_charges').selectAll().where('shipment_id', '=', shipmentId).executeTakeFirstOrThrow();
/** What the card paid for a label: the captured amounts of its charges, one per attempt that was not declined. */
const paid = (shipmentId: string) => stripeCharges(shipmentId).filter((c) => c.captured > 0).map((c) => c.captured);

/** A USPS return paid on use, of an account whose card declines once the return is made, and its first scan. */
async function declinedAtFirstScan(k: string, card: string): Promise<Json> {
  const ret = await unusedReturn('usps', k);
  billing.stripe.setCardBehaviour(card, 'pm_card_chargeCustomerFail');
  firstScan.usps(ret.tracking_number);
  server.clock.advance(2 * hour);
  // The scan is heard by the worker and by a client asking, at once: it is charged (and declined) once.
  await Promise.all([poll(), poll(), server.request('POST', '/tracking', { key: k, body: { tracking_number: ret.tracking_number } })]);
  return ret;
}

/** The charge_status of each shipment.updated event of a label, oldest first. */
async function chargeUpdates(k: string, shipmentId: string): Promise<unknown[]> {
  const res = await server.request('GET', '/events?type=shipment.updated&limit=100', { key: k });
  assert.equal(res.status, 200, res.text);
  return res.body.data
    .filter((e: Json) => e.data.id === shipmentId)
    .reverse()
    .map((e: Json) => e.data.charge_status);
}

/** A live key of an account of its own, and its card's PaymentMethod: what a test that makes the card decline uses. */
async function ownAccount(): Promise<{ account: string; card: string; key: string }> {
  const account = await server.account();
  const card = await saveCard(server, account);
  return { account, card, key: (await server.key(account, 'live')).secret };
}

for (const fix of ['its bank lets the same card pay again', 'the account saves another card'] as const) {
  test(`a return whose card declines at its first scan is past due, asked again, and charged once when ${fix}`, async () => {
    const { account, card, key: k } = await ownAccount();
    const ret = await declinedAtFirstScan(k, card);
    const postage = cents(ret.postage);

    // The label is on its way whatever the card says: the postage is owed, and the shipment says so.
    assert.deepEqual(await ledger(ret.id), [{ kind: 'charge', amount_cents: postage }]);
    const owed = (await server.request('GET', `/shipments/${ret.id}`, { key: k })).body;
    assert.equal(owed.return_status, 'in_transit');
    assert.equal(owed.charge_status, 'past_due');
    assert.deepEqual(await chargeUpdates(k, ret.id), ['pending', 'past_due']);
    const declined = await cardCharge(ret.id);
    assert.equal(declined.status, 'declined');
    assert.equal(declined.attempts, 1);
    // Asked again a day after the decline (the test's clock runs on meanwhile).
    const retryIn = Date.parse(declined.retry_at!) - Date.parse(declined.updated_at);
    assert.ok(retryIn >= day && retryIn <= day + 60_000, `retried ${retryIn} ms after the decline`);
    assert.deepEqual(paid(ret.id), []);
    const asked = billing.stripe.paymentIntents().length;

    // Not asked again before its time.
    await settle();
    assert.equal(billing.stripe.paymentIntents().length, asked);

    let payer = card;
    if (fix === 'the account saves another card') {
      payer = await saveCard(server, account, 'pm_card_mastercard');
      assert.notEqual(payer, card);
    } else {
      billing.stripe.setCardBehaviour(card, 'pm_card_visa');
      server.clock.advance(day);
    }
    await Promise.all([settle(), settle(), poll()]);
    await settle();
    assert.deepEqual(paid(ret.id), [postage], 'charged once');
    const settled = await cardCharge(ret.id);
    assert.equal(settled.status, 'captured');
    assert.equal(settled.attempts, 2);
    assert.equal(settled.payment_method, payer);
    assert.equal(settled.retry_at, null);
    assert.equal((await server.request('GET', `/shipments/${ret.id}`, { key: k })).body.charge_status, 'paid');
    assert.deepEqual(await chargeUpdates(k, ret.id), ['pending', 'past_due', 'paid']);
    assert.deepEqual(await ledger(ret.id), [{ kind: 'charge', amount_cents: postage }]);

    // Paid, it is asked no more.
    server.clock.advance(30 * day);
    await settle();
    assert.deepEqual(paid(ret.id), [postage]);
  });
}

test('a past-due return whose card keeps declining is asked again on its schedule, then only when a card is saved', async () => {
  const { account, card, key: k } = await ownAccount();
  const ret = await declinedAtFirstScan(k, card);
  const asks = () => billing.stripe.paymentIntents().filter((pi) => (pi.metadata as Record<string, string>).shipd_shipment === ret.id).length;
  assert.equal(asks(), 1);
  // A day, then 2, 4 and 7 days after each decline.
  for (const [wait, attempt] of [
    [1, 2],
    [2, 3],
    [4, 4],
    [7, 5],
  ] as const) {
    server.clock.advance(wait * day - hour);
    await settle();
    assert.equal(asks(), attempt - 1, `not before ${wait} days`);
    server.clock.advance(hour);
    await settle();
    assert.equal(asks(), attempt);
    assert.equal((await cardCharge(ret.id)).attempts, attempt);
  }
  assert.equal((await cardCharge(ret.id)).retry_at, null);
  server.clock.advance(30 * day);
  await settle();
  assert.equal(asks(), 5);
  assert.equal((await server.request('GET', `/shipments/${ret.id}`, { key: k })).body.charge_status, 'past_due');
  assert.deepEqual(await chargeUpdates(k, ret.id), ['pending', 'past_due'], 'one past_due, however many declines');

  await saveCard(server, account, 'pm_card_mastercard');
  await settle();
  assert.deepEqual(paid(ret.id), [cents(ret.postage)]);
  assert.equal((await server.request('GET', `/shipments/${ret.id}`, { key: k })).body.charge_status, 'paid');
});

test("a retry whose request Stripe never received is asked again by the settle job, not taken for the earlier attempt's decline", async () => {
  const { card, key: k } = await ownAccount();
  const ret = await declinedAtFirstScan(k, card);
  billing.stripe.setCardBehaviour(card, 'pm_card_visa');
  server.clock.advance(day);
  billing.stripe.failNext({ method: 'POST', path: '/v1/payment_intents', when: 'before', times: 3 });
  await settle();
  const lost = await cardCharge(ret.id);
  assert.equal(lost.status, 'authorizing');
  assert.equal(lost.attempts, 2);
  assert.deepEqual(paid(ret.id), []);

  server.clock.advance(pendingStaleMs(server) + 1_000);
  await settle();
  assert.deepEqual(paid(ret.id), [cents(ret.postage)]);
  assert.equal((await cardCharge(ret.id)).status, 'captured');
  assert.equal((await server.request('GET', `/shipments/${ret.id}`, { key: k })).body.charge_status, 'paid');
});
