import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { problem, type TestServer } from './harness.ts';
import { austin, orderBody, sanFrancisco } from './fixtures.ts';
import type { CarrierFakes } from './fakes/carriers.ts';
import { startLiveShop, type LiveShop } from './live-billing.ts';
import { openPdf } from './barcodes.ts';
import { isValidTrackingNumber } from '../src/carriers/tracking-numbers.ts';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- tests read whatever JSON came back

const box = (lb: number, reference?: string) => ({
  weight: { value: lb, unit: 'lb' },
  dimensions: { length: 10, width: 8, height: 4 + lb, unit: 'in' },
  ...(reference && { reference }),
});
const threeBoxes = [box(2, 'Box 1: mugs'), box(1.5), box(4, 'Box 3: lamp')];
/** FedEx labels need the shipper's phone live. */
const shipFrom = { ...austin, phone: '512-555-0100' };

describe('several boxes with a live FedEx key (fake FedEx, fake Stripe)', () => {
  let live: LiveShop;
  let server: TestServer;
  let fakes: CarrierFakes;
  let key: string;
  before(async () => {
    live = await startLiveShop();
    ({ server, fakes, key } = live);
  });
  after(() => live.close());

  const post = (path: string, body: unknown) => server.request('POST', path, { key, body });
  const db = () => server.services.database.db;
  const ledger = (shipmentId: string) => db().selectFrom('postage_ledger').select(['kind', 'amount_cents']).where('shipment_id', '=', shipmentId).orderBy('kind').execute();
  const card = (shipmentId: string) => db().selectFrom('card_charges').select(['status', 'captured_cents', 'refund_id']).where('shipment_id', '=', shipmentId).execute();
  const sent = (path: string): Json => fakes.fedex.calls.findLast((c) => c.path === path)!.body as Json;
  const cents = (money: Json) => Math.round(Number(money.amount) * 100);
  /** label_url names SHIPD_PUBLIC_URL's host; the test server listens on a port of its own. */
  const fetchLabel = (labelUrl: string) => {
    const u = new URL(labelUrl);
    return fetch(`${server.url}${u.pathname}${u.search}`);
  };

  async function fedexRate(body: Json, service = 'FEDEX_2_DAY'): Promise<Json> {
    const shop = await post('/rates', { ...body, carriers: ['fedex'], services: [service] });
    assert.equal(shop.status, 200, shop.text);
    assert.ok(shop.body.rates[0], shop.text);
    return shop.body.rates[0];
  }

  test("a 2-box rate is one FedEx quote for the shipment, whose amount covers both boxes", async () => {
    const boxes = threeBoxes.slice(0, 2);
    const [first, second] = await Promise.all(boxes.map((b) => fedexRate({ ship_to: sanFrancisco, ship_from: shipFrom, parcel: b })));
    const order = await post('/orders', orderBody({ order_number: 'fedex-2-boxes', ship_from: shipFrom, parcel: undefined, parcels: boxes }));
    assert.equal(order.status, 201, order.text);
    const before = fakes.fedex.calls.length;
    const rate = await fedexRate({ order_id: order.body.id });
    const rated = fakes.fedex.calls.slice(before).filter((c) => c.path === '/rate/v1/rates/quotes');
    assert.equal(rated.length, 1, 'one rate call for the whole shipment');
    const shipment = (rated[0]!.body as Json).requestedShipment;
    assert.equal(shipment.totalPackageCount, 2);
    assert.deepEqual(shipment.requestedPackageLineItems.map((i: Json) => i.weight.value), [2, 1.5]);
    assert.equal(cents(rate.amount), cents(first!.amount) + cents(second!.amount), 'the shipment costs what its boxes cost one by one');
    const fuel = (r: Json) => cents(r.surcharges.find((s: Json) => s.type === 'fuel').amount);
    assert.ok(Math.abs(fuel(rate) - fuel(first!) - fuel(second!)) <= 1, "the shipment's surcharges are both boxes'");
  });

  test('a 3-box FedEx purchase: a master and three valid numbers, every label and the merged one, charged once; the void cancels all and refunds the whole', async () => {
    const order = await post('/orders', orderBody({ order_number: 'fedex-3-boxes', ship_from: shipFrom, parcel: undefined, parcels: threeBoxes }));
    assert.equal(order.status, 201, order.text);
    const rate = await fedexRate({ order_id: order.body.id });
    const bought = await post('/shipments', { order_id: order.body.id, rate_id: rate.id });
    assert.equal(bought.status, 201, bought.text);
    const shipment = bought.body;
    assert.equal(shipment.mode, 'live');

    // One Create Shipment call with every box, in order, each with its own reference after the order's.
    const asked = sent('/ship/v1/shipments').requestedShipment;
    assert.equal(asked.totalPackageCount, 3);
    assert.deepEqual(asked.requestedPackageLineItems.map((i: Json) => [i.sequenceNumber, i.weight.value]), [[1, 2], [2, 1.5], [3, 4]]);
    assert.deepEqual(asked.requestedPackageLineItems.map((i: Json) => i.customerReferences.map((r: Json) => r.value)), [['fedex-3-boxes', 'Box 1: mugs'], ['fedex-3-boxes'], ['fedex-3-boxes', 'Box 3: lamp']]);

    const master: string = shipment.master_tracking_number;
    assert.ok(isValidTrackingNumber('fedex', master), master);
    const numbers: string[] = shipment.packages.map((p: Json) => p.tracking_number);
    assert.equal(new Set(numbers).size, 3, 'a tracking number per box');
    for (const n of numbers) assert.ok(isValidTrackingNumber('fedex', n), n);
    assert.deepEqual(fakes.fedex.sold.get(master)!.pieces, numbers, "FedEx's pieces, in the order of the boxes");
    assert.equal(shipment.tracking_number, numbers[0]);
    assert.deepEqual(shipment.packages.map((p: Json) => p.reference), ['Box 1: mugs', undefined, 'Box 3: lamp']);

    // Each box's label is FedEx's own for that box; the merged file holds them all, in order.
    for (const p of shipment.packages) {
      const res = await fetchLabel(p.label_url);
      assert.equal(res.status, 200, p.label_url);
      const pdf = await openPdf(Buffer.from(await res.arrayBuffer()), 72);
      assert.equal(pdf.pages, 1);
      assert.ok(pdf.pageTexts[0]!.includes(p.tracking_number), `box ${p.tracking_number}'s label is its own: ${pdf.pageTexts[0]}`);
    }
    const merged = await fetchLabel(shipment.label_url);
    assert.equal(merged.status, 200);
    const pages = await openPdf(Buffer.from(await merged.arrayBuffer()), 72);
    assert.equal(pages.pages, 3, 'the merged label has a page per box');
    numbers.forEach((n, i) => assert.ok(pages.pageTexts[i]!.includes(n), `page ${i + 1} is box ${n}`));

    // FedEx's charge for the whole shipment, charged once: one ledger entry, one card capture.
    const postage = cents(shipment.postage);
    assert.equal(postage, 3 * 2650, "the fake FedEx's shipment total");
    assert.ok(postage <= cents(rate.amount));
    assert.deepEqual(await ledger(shipment.id), [{ kind: 'charge', amount_cents: postage }]);
    assert.deepEqual((await card(shipment.id)).map((c) => [c.status, c.captured_cents]), [['captured', postage]]);
    const stripe = () => live.stripe.charges().filter((c) => c.metadata.shipd_shipment === shipment.id);
    assert.deepEqual(stripe().map((c) => c.captured), [postage], 'one card charge');

    // Tracking asks FedEx about each box.
    const tracked = await post('/tracking', { tracking_number: numbers[1] });
    assert.equal(tracked.status, 200, tracked.text);
    assert.equal(tracked.body.shipment_id, shipment.id);

    const cancels = fakes.fedex.calls.filter((c) => c.path === '/ship/v1/shipments/cancel').length;
    const voided = await post(`/shipments/${order.body.id}/void`, {});
    assert.equal(voided.status, 200, voided.text);
    assert.equal(voided.body.status, 'voided');
    const cancelCalls = fakes.fedex.calls.filter((c) => c.path === '/ship/v1/shipments/cancel').slice(cancels);
    assert.deepEqual(cancelCalls.map((c) => [(c.body as Json).trackingNumber, (c.body as Json).deletionControl]), [[master, 'DELETE_ALL_PACKAGES']], 'one cancel, by the master');
    assert.ok(numbers.every((n) => fakes.fedex.sold.get(n)!.cancelled), 'every box is cancelled at FedEx');
    const money = await ledger(shipment.id);
    assert.equal(money.reduce((sum, l) => sum + l.amount_cents, 0), 0, 'the whole postage is refunded');
    const refunded = await card(shipment.id);
    assert.equal(refunded[0]!.status, 'refunded');
    assert.ok(refunded[0]!.refund_id);
    assert.deepEqual(stripe().map((c) => [c.captured, c.refunded]), [[postage, postage]], 'the card is refunded the whole');
    assert.equal((await fetchLabel(shipment.packages[1].label_url)).status, 410, "a voided shipment's boxes no longer print");
  });

  test('delivery options and insurance on several boxes: every box carries the services and its share of the declared value', async () => {
    const order = await post('/orders', orderBody({ order_number: 'fedex-insured-boxes', ship_from: shipFrom, parcel: undefined, parcels: threeBoxes.slice(0, 2) }));
    assert.equal(order.status, 201, order.text);
    const rate = await fedexRate({ order_id: order.body.id, options: { signature: 'adult' }, insurance: { amount: { amount: '900.01', currency: 'USD' } } });
    const rated = sent('/rate/v1/rates/quotes').requestedShipment;
    const services = { specialServiceTypes: ['SIGNATURE_OPTION'], signatureOptionType: 'ADULT' };
    assert.deepEqual(rated.requestedPackageLineItems.map((i: Json) => [i.declaredValue, i.packageSpecialServices]), [
      [{ amount: 450.01, currency: 'USD' }, services],
      [{ amount: 450, currency: 'USD' }, services],
    ]);
    const bought = await post('/shipments', { order_id: order.body.id, rate_id: rate.id });
    assert.equal(bought.status, 201, bought.text);
    assert.equal(bought.body.packages.length, 2);
    const shipped = sent('/ship/v1/shipments').requestedShipment;
    assert.deepEqual(shipped.totalDeclaredValue, { amount: 900.01, currency: 'USD' });
    assert.deepEqual(shipped.requestedPackageLineItems.map((i: Json) => [i.declaredValue, i.packageSpecialServices]), [
      [{ amount: 450.01, currency: 'USD' }, services],
      [{ amount: 450, currency: 'USD' }, services],
    ]);
  });

  test("a box insured on its own is the only one declared: its line item carries the value, and the shipment's total is that box's", async () => {
    const boxes = [threeBoxes[0], { ...threeBoxes[1], insurance: { amount: { amount: '250.00', currency: 'USD' } } }];
    const order = await post('/orders', orderBody({ order_number: 'fedex-box-insured', ship_from: shipFrom, parcel: undefined, parcels: boxes }));
    assert.equal(order.status, 201, order.text);
    const rate = await fedexRate({ order_id: order.body.id });
    assert.deepEqual(sent('/rate/v1/rates/quotes').requestedShipment.requestedPackageLineItems.map((i: Json) => i.declaredValue), [undefined, { amount: 250, currency: 'USD' }]);
    const bought = await post('/shipments', { order_id: order.body.id, rate_id: rate.id });
    assert.equal(bought.status, 201, bought.text);
    const shipped = sent('/ship/v1/shipments').requestedShipment;
    assert.deepEqual(shipped.requestedPackageLineItems.map((i: Json) => i.declaredValue), [undefined, { amount: 250, currency: 'USD' }]);
    assert.deepEqual(shipped.totalDeclaredValue, { amount: 250, currency: 'USD' });
  });

  test('boxes FedEx takes one by one but not together (a declared total above its five digits of dollars) are a 400 in its own words, not a call to split them', async () => {
    const insured = (lb: number) => ({ ...box(lb), insurance: { amount: { amount: '30000.00', currency: 'USD' } } });
    const refused = await post('/rates', { ship_from: shipFrom, ship_to: sanFrancisco, parcels: [insured(2), insured(3), insured(4), insured(5)], carriers: ['fedex'] });
    const p = problem(refused, 400, 'insurance_above_limit');
    assert.match(p.detail, /together/);
    assert.doesNotMatch(p.detail, /split/);
    assert.deepEqual(p.errors.map((e: Json) => e.pointer), ['/parcels/0/insurance', '/parcels/1/insurance', '/parcels/2/insurance', '/parcels/3/insurance'].map((x) => `${x}/amount`));
  });
});
