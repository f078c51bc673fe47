import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { problem, type TestServer } from './harness.ts';
import { austin, orderBody } from './fixtures.ts';
import { connectOwnUps, type CarrierFakes } from './fakes/carriers.ts';
import type { FakeStripe } from './fakes/stripe.ts';
import { startLiveShop, type LiveShop } from './live-billing.ts';
import { settleCardCharges } from '../src/domain/billing/card-charges.ts';
import { pendingStaleMs } from '../src/domain/shipments/purchase.ts';
import { evenShares } from '../src/kernel/shares.ts';

// Voiding one box of a live shipment of several: UPS voids the package under its shipment's number, USPS cancels the
// box's own label, and FedEx, whose API cancels whole shipments only, is refused. The box's share comes back to the
// ledger and, paid by card, to the card as a partial refund; the last box left voids the shipment and refunds the rest.

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- tests read whatever JSON came back

const box = (lb: number) => ({ weight: { value: lb, unit: 'lb' }, dimensions: { length: 10, width: 8, height: 4 + lb, unit: 'in' } });
const threeBoxes = [box(2), box(1.5), box(4)];
/** FedEx labels need the shipper's phone live. */
const shipFrom = { ...austin, phone: '512-555-0100' };
const services = { ups: '03', usps: 'PRIORITY_MAIL', fedex: 'FEDEX_2_DAY' } as const;

const cents = (money: Json) => Math.round(Number(money.amount) * 100);
const sum = (lines: { amount_cents: number }[]) => lines.reduce((s, l) => s + l.amount_cents, 0);
// The settle job's failures are shown: none is expected here.
const settleLog = { info() {}, error(o: object) { console.error('settle error', o); } };

describe('voiding one box of a live shipment (fake UPS, USPS, FedEx and Stripe)', () => {
  let live: LiveShop;
  let server: TestServer;
  let fakes: CarrierFakes;
  let stripe: FakeStripe;
  let key: string;
  before(async () => {
    live = await startLiveShop();
    ({ server, fakes, stripe, key } = live);
  });
  after(async () => {
    assert.deepEqual(fakes.ups.contractRefusals, [], 'every request shipd sent UPS kept its published contract');
    assert.deepEqual(fakes.usps.violations, [], 'every request shipd sent USPS kept its published contract');
    await live.close();
  });

  const post = (path: string, body: unknown, as = key) => server.request('POST', path, { key: as, body });
  const db = () => server.services.database.db;
  const ledger = (shipmentId: string) => db().selectFrom('postage_ledger').select(['kind', 'amount_cents']).where('shipment_id', '=', shipmentId).orderBy('created_at').orderBy('kind').execute();
  const card = (shipmentId: string) => db().selectFrom('card_charges').select(['status', 'captured_cents']).where('shipment_id', '=', shipmentId).executeTakeFirst();
  const boxRefunds = (shipmentId: string) =>
    db().selectFrom('card_box_refunds').select(['box', 'amount_cents', 'status', 'last_error']).where('shipment_id', '=', shipmentId).orderBy('box').execute();
  const chargeOf = (shipmentId: string) => {
    const charges = stripe.charges().filter((c) => c.metadata.shipd_shipment === shipmentId);
    assert.equal(charges.length, 1, 'one card charge for the shipment');
    return charges[0]!;
  };
  /** Stripe's refunds of the shipment's charge, oldest first: the box each was for (none for the whole label's), and its amount. */
  const refundsOf = (shipmentId: string) =>
    stripe
      .refunds()
      .filter((r) => r.payment_intent === chargeOf(shipmentId).paymentIntent)
      .map((r) => [(r.metadata as Record<string, string>).shipd_box ?? null, Number(r.amount)]);
  const refundPosts = () => stripe.calls.filter((c) => c.method === 'POST' && c.path === '/v1/refunds').length;
  const orderStatus = async (orderId: string) => (await server.request('GET', `/orders/${orderId}`, { key })).body.status;

  /** Runs the settle job as the worker would once a step's time is over. */
  async function settle(): Promise<void> {
    server.clock.advance(pendingStaleMs(server) + 1_000);
    await settleCardCharges({ db: db(), clock: server.clock, config: server.config }, pendingStaleMs(server), settleLog);
  }

  async function buy(carrier: keyof typeof services, parcels: unknown[], orderNumber: string, as = key): Promise<Json> {
    const order = await post('/orders', orderBody({ order_number: orderNumber, ship_from: shipFrom, parcel: undefined, parcels }), as);
    assert.equal(order.status, 201, order.text);
    const shop = await post('/rates', { order_id: order.body.id, carriers: [carrier], services: [services[carrier]] }, as);
    assert.equal(shop.status, 200, shop.text);
    assert.ok(shop.body.rates[0], shop.text);
    const bought = await post('/shipments', { order_id: order.body.id, rate_id: shop.body.rates[0].id }, as);
    assert.equal(bought.status, 201, bought.text);
    assert.equal(bought.body.mode, 'live');
    return bought.body;
  }

  async function voidBox(shipment: Json, index: number, as = key): Promise<Json> {
    const voided = await post(`/shipments/${shipment.id}/void`, { package: index }, as);
    assert.equal(voided.status, 200, voided.text);
    return voided.body;
  }

  test('UPS, 3 boxes: box 2 alone is voided at UPS and refunded its share to the ledger and the card; a void of the rest voids the other two and refunds what is left', async () => {
    const shipment = await buy('ups', threeBoxes, 'live-void-box-ups');
    const numbers: string[] = shipment.packages.map((p: Json) => p.tracking_number);
    const master: string = shipment.master_tracking_number;
    const postage = cents(shipment.postage);
    const shares = evenShares(postage, 3);
    const voids = () => fakes.ups.calls.filter((c) => c.method === 'DELETE').map((c) => [c.path, c.query]);
    const voidsBefore = voids().length;

    const one = await voidBox(shipment, 1);
    assert.equal(one.status, 'purchased', 'the shipment ships on with its other boxes');
    assert.deepEqual(one.packages.map((p: Json) => p.status), ['purchased', 'voided', 'purchased']);
    assert.deepEqual(voids().slice(voidsBefore), [[`/api/shipments/v2409/void/cancel/${master}`, { trackingnumber: numbers[1] }]], "one void of that package, under the shipment's number");
    assert.deepEqual(numbers.map((n) => fakes.ups.isVoided(n)), [false, true, false], 'UPS voided that package alone');
    assert.deepEqual(await ledger(shipment.id), [{ kind: 'charge', amount_cents: postage }, { kind: 'refund_box2', amount_cents: -shares[1]! }]);
    assert.deepEqual(await boxRefunds(shipment.id), [{ box: 1, amount_cents: shares[1], status: 'refunded', last_error: null }]);
    assert.deepEqual(refundsOf(shipment.id), [['2', shares[1]]], "the card gets the box's share back, and no more");
    assert.deepEqual([chargeOf(shipment.id).captured, chargeOf(shipment.id).refunded], [postage, shares[1]]);
    assert.equal((await card(shipment.id))?.status, 'captured', 'the charge stands for the boxes that ship');
    assert.equal(await orderStatus(shipment.order_id), 'shipped');
    problem(await post(`/shipments/${shipment.id}/void`, { package: 1 }), 409, 'shipment_already_voided');

    const rest = await post(`/shipments/${shipment.id}/void`, {});
    assert.equal(rest.status, 200, rest.text);
    assert.equal(rest.body.status, 'voided');
    const left = JSON.stringify([numbers[0], numbers[2]]);
    assert.deepEqual(voids().slice(voidsBefore + 1), [[`/api/shipments/v2409/void/cancel/${master}`, { trackingnumber: left }]], 'the two packages left, by their numbers');
    assert.deepEqual(numbers.map((n) => fakes.ups.isVoided(n)), [true, true, true]);
    const lines = await ledger(shipment.id);
    assert.deepEqual(lines.at(-1), { kind: 'refund', amount_cents: -(shares[0]! + shares[2]!) });
    assert.equal(sum(lines), 0, 'the ledger gives the postage back exactly');
    assert.deepEqual(refundsOf(shipment.id), [['2', shares[1]], [null, shares[0]! + shares[2]!]], 'the whole refund gives back what was left');
    assert.deepEqual([chargeOf(shipment.id).captured, chargeOf(shipment.id).refunded], [postage, postage]);
    assert.equal((await card(shipment.id))?.status, 'refunded');
    assert.equal(await orderStatus(shipment.order_id), 'incomplete');
  });

  test('UPS, 3 boxes voided one by one: each refunds its share, and the last takes the shipment with it', async () => {
    const shipment = await buy('ups', threeBoxes, 'live-void-box-ups-each');
    const numbers: string[] = shipment.packages.map((p: Json) => p.tracking_number);
    const postage = cents(shipment.postage);
    const shares = evenShares(postage, 3);
    for (const i of [2, 0]) await voidBox(shipment, i);
    assert.deepEqual(numbers.map((n) => fakes.ups.isVoided(n)), [true, false, true]);
    const last = await voidBox(shipment, 1);
    assert.equal(last.status, 'voided', 'the last box left voids the shipment');
    assert.deepEqual(fakes.ups.calls.filter((c) => c.method === 'DELETE').at(-1)?.query, { trackingnumber: numbers[1] });
    assert.deepEqual(numbers.map((n) => fakes.ups.isVoided(n)), [true, true, true]);
    assert.deepEqual((await ledger(shipment.id)).map((l) => [l.kind, l.amount_cents]).sort(), [['charge', postage], ['refund', -shares[1]!], ['refund_box1', -shares[0]!], ['refund_box3', -shares[2]!]]);
    assert.deepEqual(refundsOf(shipment.id), [['3', shares[2]], ['1', shares[0]], [null, shares[1]]]);
    assert.deepEqual([chargeOf(shipment.id).captured, chargeOf(shipment.id).refunded], [postage, postage]);
    assert.equal(await orderStatus(shipment.order_id), 'incomplete');
  });

  test("USPS, 2 boxes: the first box's own label is cancelled and its own price refunded; the box left is then cancelled by its own number", async () => {
    const shipment = await buy('usps', [box(2), box(5)], 'live-void-box-usps');
    const numbers: string[] = shipment.packages.map((p: Json) => p.tracking_number);
    const postage = cents(shipment.postage);
    const own = (await db().selectFrom('shipments').select('packages').where('id', '=', shipment.id).executeTakeFirstOrThrow()).packages;
    const prices: number[] = JSON.parse(own!).map((b: Json) => b.postage_cents);
    assert.equal(prices[0]! + prices[1]!, postage, 'USPS sold each box at its own price');
    const cancels = () => fakes.usps.calls.filter((c) => c.method === 'DELETE').map((c) => decodeURIComponent(c.path.split('/').at(-1)!));
    const before = cancels().length;

    const one = await voidBox(shipment, 0);
    assert.deepEqual(one.packages.map((p: Json) => p.status), ['voided', 'purchased']);
    assert.deepEqual(cancels().slice(before), [numbers[0]]);
    assert.deepEqual(numbers.map((n) => fakes.usps.cancelOf(n)), ['CANCELED', null], 'the other label stands');
    assert.deepEqual(await ledger(shipment.id), [{ kind: 'charge', amount_cents: postage }, { kind: 'refund_box1', amount_cents: -prices[0]! }]);
    assert.deepEqual(refundsOf(shipment.id), [['1', prices[0]]]);

    const last = await voidBox(shipment, 1);
    assert.equal(last.status, 'voided');
    assert.deepEqual(cancels().slice(before), numbers, "the box left is cancelled by its own number, not the shipment's first");
    assert.deepEqual(numbers.map((n) => fakes.usps.cancelOf(n)), ['CANCELED', 'CANCELED']);
    assert.equal(sum(await ledger(shipment.id)), 0);
    assert.deepEqual(refundsOf(shipment.id), [['1', prices[0]], [null, prices[1]]]);
    assert.deepEqual([chargeOf(shipment.id).captured, chargeOf(shipment.id).refunded], [postage, postage]);
  });

  test("USPS: a box USPS has scanned is refused 409 label_in_transit, and nothing is cancelled or refunded", async () => {
    const shipment = await buy('usps', [box(2), box(3)], 'live-void-box-usps-scanned');
    fakes.usps.scan(shipment.packages[1].tracking_number, 'accepted');
    const cancels = fakes.usps.calls.filter((c) => c.method === 'DELETE').length;
    const refused = problem(await post(`/shipments/${shipment.id}/void`, { package: 1 }), 409, 'label_in_transit');
    assert.match(refused.detail, /USPS has scanned box 2 of 2/);
    assert.equal(fakes.usps.calls.filter((c) => c.method === 'DELETE').length, cancels);
    assert.deepEqual((await ledger(shipment.id)).map((l) => l.kind), ['charge']);
    assert.deepEqual(await boxRefunds(shipment.id), []);
  });

  test("UPS, 4 boxes, box 3 picked up: the void of the rest is 409 label_in_transit, yet boxes 1 and 2, which UPS did void, are voided and refunded their shares", async () => {
    const shipment = await buy('ups', [...threeBoxes, box(3)], 'live-void-partly-ups');
    const numbers: string[] = shipment.packages.map((p: Json) => p.tracking_number);
    const postage = cents(shipment.postage);
    const shares = evenShares(postage, 4);
    // Box 4 voided on its own first: the void of the rest names the packages left, which UPS answers one by one.
    await voidBox(shipment, 3);
    fakes.ups.setStage(numbers[2]!, 'in_transit');
    const updates = async () => (await db().selectFrom('events').select('type').where('resource_id', '=', shipment.id).execute()).filter((e) => e.type === 'shipment.updated').length;
    const updatesBefore = await updates();

    const refused = problem(await post(`/shipments/${shipment.id}/void`, {}), 409, 'label_in_transit');
    assert.match(refused.detail, new RegExp(`UPS did not void ${numbers[2]}`));
    assert.match(refused.detail, new RegExp(`box 1 \\(${numbers[0]}\\), box 2 \\(${numbers[1]}\\) voided and refunded their shares; box 3 \\(${numbers[2]}\\) still to ship`));
    assert.deepEqual(numbers.map((n) => fakes.ups.isVoided(n)), [true, true, false, true]);
    const now = (await server.request('GET', `/shipments/${shipment.id}`, { key })).body;
    assert.equal(now.status, 'purchased', 'the shipment ships on with box 3');
    assert.deepEqual(now.packages.map((p: Json) => p.status), ['voided', 'voided', 'purchased', 'voided']);
    const lines = await ledger(shipment.id);
    assert.deepEqual(lines.map((l) => [l.kind, l.amount_cents]).sort(), [['charge', postage], ['refund_box1', -shares[0]!], ['refund_box2', -shares[1]!], ['refund_box4', -shares[3]!]]);
    assert.equal(sum(lines), shares[2], "what stays charged is box 3's share");
    assert.deepEqual((await boxRefunds(shipment.id)).map((r) => [r.box, r.amount_cents, r.status]), [[0, shares[0], 'refunded'], [1, shares[1], 'refunded'], [3, shares[3], 'refunded']]);
    assert.deepEqual(refundsOf(shipment.id).sort(), [['1', shares[0]], ['2', shares[1]], ['4', shares[3]]], "the card gets each box's share back, and no more");
    assert.equal((await card(shipment.id))?.status, 'captured');
    assert.equal(await orderStatus(shipment.order_id), 'shipped');
    assert.equal(await updates(), updatesBefore + 1, 'one shipment.updated for the boxes voided');

    // Asked again, UPS keeps box 3 and voids nothing more: nothing changes.
    problem(await post(`/shipments/${shipment.id}/void`, {}), 409, 'label_in_transit');
    assert.deepEqual(await ledger(shipment.id), lines);
    assert.equal(await updates(), updatesBefore + 1);
  });

  test("USPS, 2 boxes, box 2's cancel refused after box 1's was made: 409 label_in_transit, box 1 voided and refunded its own price, box 2 ships on", async () => {
    const shipment = await buy('usps', [box(2), box(5)], 'live-void-partly-usps');
    const numbers: string[] = shipment.packages.map((p: Json) => p.tracking_number);
    const postage = cents(shipment.postage);
    const own = (await db().selectFrom('shipments').select('packages').where('id', '=', shipment.id).executeTakeFirstOrThrow()).packages;
    const prices: number[] = JSON.parse(own!).map((b: Json) => b.postage_cents);
    // USPS took box 2 in before its tracking showed it: the check before cancelling lets it through, its cancel not.
    fakes.usps.scanUntracked(numbers[1]!, 'accepted');

    const refused = problem(await post(`/shipments/${shipment.id}/void`, {}), 409, 'label_in_transit');
    assert.match(refused.detail, /^box 2 of 2: .*cannot be submitted/);
    assert.match(refused.detail, new RegExp(`box 1 \\(${numbers[0]}\\) voided and refunded its share; box 2 \\(${numbers[1]}\\) still to ship`));
    assert.deepEqual(numbers.map((n) => fakes.usps.cancelOf(n)), ['CANCELED', null]);
    const now = (await server.request('GET', `/shipments/${shipment.id}`, { key })).body;
    assert.equal(now.status, 'purchased');
    assert.deepEqual(now.packages.map((p: Json) => p.status), ['voided', 'purchased']);
    assert.deepEqual(await ledger(shipment.id), [{ kind: 'charge', amount_cents: postage }, { kind: 'refund_box1', amount_cents: -prices[0]! }]);
    assert.deepEqual(await boxRefunds(shipment.id), [{ box: 0, amount_cents: prices[0], status: 'refunded', last_error: null }]);
    assert.deepEqual(refundsOf(shipment.id), [['1', prices[0]]]);
    assert.equal(await orderStatus(shipment.order_id), 'shipped');
  });

  test('FedEx, 3 boxes: one box is 422 not_supported_by_carrier (its API cancels whole shipments), nothing is cancelled; the whole void still works', async () => {
    const shipment = await buy('fedex', threeBoxes, 'live-void-box-fedex');
    const cancels = () => fakes.fedex.calls.filter((c) => c.path === '/ship/v1/shipments/cancel').length;
    const before = cancels();
    const refused = problem(await post(`/shipments/${shipment.id}/void`, { package: 1 }), 422, 'not_supported_by_carrier');
    assert.deepEqual(refused.errors.map((e: Json) => e.pointer), ['/package']);
    assert.match(refused.detail, /FedEx voids whole shipments only: .*DELETE_ALL_PACKAGES/);
    assert.equal(cancels(), before, 'FedEx was not asked');
    assert.deepEqual((await ledger(shipment.id)).map((l) => l.kind), ['charge']);
    const whole = await post(`/shipments/${shipment.id}/void`, {});
    assert.equal(whole.status, 200, whole.text);
    assert.equal(whole.body.status, 'voided');
    assert.ok(shipment.packages.every((p: Json) => fakes.fedex.sold.get(p.tracking_number)!.cancelled));
  });

  test("the box's refund made at Stripe but its answer lost: the settle job finds it by its metadata rather than refunding twice", async () => {
    const shipment = await buy('ups', threeBoxes.slice(0, 2), 'live-void-box-lost-refund');
    const shares = evenShares(cents(shipment.postage), 2);
    // The first try and the library's two retries (each answered from the key) all lose their answer.
    stripe.failNext({ method: 'POST', path: '/v1/refunds', when: 'after', times: 3 });
    const posts = refundPosts();
    const voided = await voidBox(shipment, 1);
    assert.deepEqual(voided.packages.map((p: Json) => p.status), ['purchased', 'voided'], 'the box is voided whatever Stripe answers');
    const [due] = await boxRefunds(shipment.id);
    assert.equal(due?.status, 'due');
    assert.match(due?.last_error ?? '', /Stripe did not refund the box/);
    assert.deepEqual(refundsOf(shipment.id), [['2', shares[1]]], 'Stripe made it');

    await settle();
    assert.deepEqual((await boxRefunds(shipment.id)).map((r) => [r.status, r.last_error]), [['refunded', null]]);
    assert.equal(refundPosts(), posts + 3, 'found among the refunds, not asked for again');
    assert.deepEqual(refundsOf(shipment.id), [['2', shares[1]]]);
  });

  test('a box voided before its hold was captured: the settle job captures the whole, then refunds the box', async () => {
    // Stripe out of reach for the capture after the purchase and again after the box's void (three tries each).
    stripe.failNext({ method: 'POST', path: /\/capture$/, when: 'before', times: 6 });
    const shipment = await buy('ups', threeBoxes.slice(0, 2), 'live-void-box-before-capture');
    const postage = cents(shipment.postage);
    const shares = evenShares(postage, 2);
    assert.equal((await card(shipment.id))?.status, 'authorized');
    await voidBox(shipment, 0);
    assert.deepEqual((await boxRefunds(shipment.id)).map((r) => [r.box, r.amount_cents, r.status]), [[0, shares[0], 'due']], 'waiting for the capture');
    assert.equal(chargeOf(shipment.id).captured, 0);

    await settle();
    assert.deepEqual([(await card(shipment.id))?.status, (await card(shipment.id))?.captured_cents], ['captured', postage]);
    assert.equal((await boxRefunds(shipment.id))[0]?.status, 'refunded');
    assert.deepEqual(refundsOf(shipment.id), [['1', shares[0]]]);
    assert.deepEqual([chargeOf(shipment.id).captured, chargeOf(shipment.id).refunded], [postage, shares[0]]);
  });

  test("Stripe out of reach for a box's refund, then the last box voided: the whole refund gives everything back and covers the box's", async () => {
    const shipment = await buy('usps', [box(2), box(3)], 'live-void-box-covered');
    const postage = cents(shipment.postage);
    stripe.failNext({ method: 'POST', path: '/v1/refunds', when: 'before', times: 3 });
    await voidBox(shipment, 0);
    assert.equal((await boxRefunds(shipment.id))[0]?.status, 'due');
    assert.deepEqual(refundsOf(shipment.id), [], 'Stripe refunded nothing yet');

    const last = await voidBox(shipment, 1);
    assert.equal(last.status, 'voided');
    assert.deepEqual(refundsOf(shipment.id), [[null, postage]], 'one refund of all that was charged');
    assert.equal((await card(shipment.id))?.status, 'refunded');
    assert.deepEqual((await boxRefunds(shipment.id)).map((r) => [r.status, r.last_error]), [['covered', null]]);
    await settle();
    assert.deepEqual([chargeOf(shipment.id).captured, chargeOf(shipment.id).refunded], [postage, postage], 'never more than the charge');
    assert.equal(sum(await ledger(shipment.id)), 0);
  });

  test("paid through the merchant's own UPS account: UPS voids the box, and nothing was charged here to refund", async () => {
    const account = await server.account('own-ups-box-void');
    await connectOwnUps(server, 'own-ups-box-void');
    const own = (await server.key(account, 'live')).secret;
    const shipment = await buy('ups', threeBoxes, 'live-void-box-own-ups', own);
    assert.equal(shipment.payment, 'carrier_account');
    const voided = await voidBox(shipment, 2, own);
    assert.deepEqual(voided.packages.map((p: Json) => p.status), ['purchased', 'purchased', 'voided']);
    assert.deepEqual(shipment.packages.map((p: Json) => fakes.ups.isVoided(p.tracking_number)), [false, false, true]);
    assert.deepEqual(await ledger(shipment.id), []);
    assert.equal(await card(shipment.id), undefined);
    assert.deepEqual(await boxRefunds(shipment.id), []);
  });
});
