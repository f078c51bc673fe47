import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { problem, startServer, type TestServer } from './harness.ts';
import { orderBody } from './fixtures.ts';
import { setPaymentMethod } from '../src/domain/billing/payment-methods.ts';
import { decodePng, openPdf } from './barcodes.ts';
import { isValidTrackingNumber } from '../src/carriers/tracking-numbers.ts';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- tests read whatever JSON came back

const box = (lb: number, reference?: string) => ({
  weight: { value: lb, unit: 'lb' },
  dimensions: { length: 10, width: 8, height: 4 + lb, unit: 'in' },
  ...(reference && { reference }),
});
const threeBoxes = [box(2, 'Box 1: mugs'), box(1.5, 'Box 2: saucers'), box(4)];

/** label_url names SHIPD_PUBLIC_URL's host; the test server listens on a port of its own. */
async function download(server: TestServer, labelUrl: string): Promise<Buffer> {
  const u = new URL(labelUrl);
  const res = await fetch(`${server.url}${u.pathname}${u.search}`);
  assert.equal(res.status, 200, labelUrl);
  return Buffer.from(await res.arrayBuffer());
}

describe('several boxes in one shipment (test mode)', () => {
  let server: TestServer;
  let key: string;
  let account: string;

  before(async () => {
    // The box-by-box tracking test polls as fast as the server answers; on a fast machine that passes the default 100 a second.
    server = await startServer({ env: { SHIPD_RATE_LIMIT_PER_SECOND: '1000000', SHIPD_RATE_LIMIT_BURST: '1000000' } });
    account = await server.account();
    await setPaymentMethod(server.services.database.db, server.clock, account, 'test', 'pm_test_visa');
    key = (await server.key(account)).secret;
  });
  after(() => server.close());

  const post = (path: string, body: unknown, headers?: Record<string, string>) => server.request('POST', path, { key, body, ...(headers && { headers }) });
  const ledger = (shipmentId: string) =>
    server.services.database.db.selectFrom('postage_ledger').select(['kind', 'amount_cents']).where('shipment_id', '=', shipmentId).orderBy('kind').execute();

  async function buyThreeBoxes(carrier: 'ups' | 'fedex', service: string): Promise<{ order: Json; rate: Json; shipment: Json }> {
    const order = await post('/orders', orderBody({ order_number: `boxes-${carrier}`, parcel: undefined, parcels: threeBoxes }));
    assert.equal(order.status, 201, order.text);
    assert.equal(order.body.parcels.length, 3);
    assert.deepEqual(order.body.parcel, order.body.parcels[0]);
    const shop = await post('/rates', { order_id: order.body.id, carriers: [carrier], services: [service] });
    const rate = shop.body.rates?.[0];
    assert.ok(rate, shop.text);
    const bought = await post('/shipments', { order_id: order.body.id, rate_id: rate.id });
    assert.equal(bought.status, 201, bought.text);
    return { order: order.body, rate, shipment: bought.body };
  }

  for (const [carrier, service] of [
    ['ups', '03'],
    ['fedex', 'GROUND_HOME_DELIVERY'],
  ] as const) {
    test(`a 3-box ${carrier.toUpperCase()} shipment: one price for all, a master and a number per box, every label scans, one void voids all`, async () => {
      // Each box alone, to compare: the shipment's rate is their sum.
      const alone = await Promise.all(
        threeBoxes.map(async (b) => {
          const shop = await post('/rates', { ship_to: orderBody().ship_to, ship_from: orderBody().ship_from, parcel: { weight: b.weight, dimensions: b.dimensions }, carriers: [carrier], services: [service] });
          return Math.round(Number(shop.body.rates[0].amount.amount) * 100);
        }),
      );
      const { rate, shipment } = await buyThreeBoxes(carrier, service);
      assert.equal(Math.round(Number(rate.amount.amount) * 100), alone.reduce((a, b) => a + b, 0), 'the shipment costs what its boxes cost one by one');

      assert.equal(shipment.packages.length, 3);
      const numbers = shipment.packages.map((p: Json) => p.tracking_number);
      assert.equal(new Set(numbers).size, 3, 'a tracking number per box');
      for (const n of numbers) assert.ok(isValidTrackingNumber(carrier, n), `${n} is a valid ${carrier} number`);
      assert.equal(shipment.master_tracking_number, numbers[0], "the master is the first box's number");
      assert.equal(shipment.tracking_number, numbers[0]);
      assert.deepEqual(shipment.packages.map((p: Json) => p.reference), ['Box 1: mugs', 'Box 2: saucers', undefined]);
      assert.deepEqual(shipment.packages.map((p: Json) => p.weight), [{ value: 2, unit: 'lb' }, { value: 1.5, unit: 'lb' }, { value: 4, unit: 'lb' }]);

      // Each box's own label scans as its own number; the merged file has a page per box.
      for (const p of shipment.packages) {
        const pdf = await openPdf(await download(server, p.label_url), 203);
        assert.equal(pdf.pages, 1);
        const scanned = await decodePng(pdf.raster);
        assert.ok(scanned.some((d) => d.text.includes(p.tracking_number)), `box ${p.tracking_number}'s label scans: ${JSON.stringify(scanned)}`);
      }
      const merged = await openPdf(await download(server, shipment.label_url), 72);
      assert.equal(merged.pages, 3, 'the merged label has one page per box');
      assert.ok(merged.pageTexts[1]!.includes('Box 2: saucers'), "box 2's page prints its reference");
      const zpl = (await download(server, shipment.label_url.replace('.pdf?', '.zpl?'))).toString();
      assert.equal(zpl.match(/\^XA/g)?.length, 3, 'the merged ZPL holds a format per box');

      assert.deepEqual(await ledger(shipment.id), [{ kind: 'charge', amount_cents: Math.round(Number(rate.amount.amount) * 100) }]);
      const voided = await post(`/shipments/${shipment.order_id}/void`, {});
      assert.equal(voided.status, 200, voided.text);
      assert.equal(voided.body.status, 'voided');
      assert.equal(voided.body.packages.length, 3);
      const money = await ledger(shipment.id);
      assert.equal(money.reduce((sum, l) => sum + l.amount_cents, 0), 0, 'the whole postage is refunded');
      const box2 = await fetch(`${server.url}${new URL(shipment.packages[1].label_url).pathname}${new URL(shipment.packages[1].label_url).search}`);
      assert.equal(box2.status, 410, "a voided shipment's boxes no longer print");
      assert.equal((await server.request('GET', `/orders/${shipment.order_id}`, { key })).body.status, 'incomplete');
    });
  }

  test('a 3-box UPS shipment is tracked box by box: each number answers its box, box 2 reports as itself, delivered once every box is', async () => {
    const { order, shipment } = await buyThreeBoxes('ups', '03');
    const numbers: string[] = shipment.packages.map((p: Json) => p.tracking_number);
    const track = (body: Json) => post('/tracking', body);
    const journey = ['pre_transit', 'in_transit', 'out_for_delivery', 'delivered'];
    const boxStatuses = async () => {
      const row = await server.services.database.db.selectFrom('shipments').select('packages').where('id', '=', shipment.id).executeTakeFirstOrThrow();
      return JSON.parse(row.packages!).map((b: Json) => b.tracking_status) as string[];
    };
    let whole: Json = {};
    let partly = false;
    // Test servers run journeys at 1440× (a carrier day a minute): the boxes' three hours apart are 7.5 s apart here.
    for (let step = 0; step < 600 && whole.status !== 'delivered'; step++) {
      server.clock.advance(2_000);
      for (const [i, n] of numbers.entries()) {
        const res = await track({ tracking_number: n });
        assert.equal(res.status, 200, res.text);
        assert.equal(res.body.tracking_number, n);
        assert.equal(res.body.shipment_id, shipment.id);
        // The first box's number is the shipment's own (UPS's master): it answers the whole shipment's tracker.
        assert.equal(res.body.package, i === 0 ? undefined : i);
      }
      // The boxes as this request recorded them (the test clock also runs in real time, so a later read could differ).
      whole = (await track({ order_id: order.id })).body;
      assert.equal(whole.package, undefined);
      const boxes = await boxStatuses();
      const least = boxes.reduce((x, y) => (journey.indexOf(y) < journey.indexOf(x) ? y : x));
      assert.equal(whole.status, least, `the shipment is as far as its least advanced box: ${boxes}`);
      if (boxes.includes('delivered') && whole.status !== 'delivered') partly = true;
    }
    assert.ok(partly, 'some box was delivered before the whole shipment was');
    assert.equal(whole.status, 'delivered');
    assert.equal((await server.request('GET', `/orders/${order.id}`, { key })).body.status, 'delivered', 'the order is delivered with its last box');
    const updates = (await server.request('GET', '/events?type=tracking.updated&limit=100', { key })).body.data.filter((e: Json) => e.data.shipment_id === shipment.id);
    const box2 = updates.filter((e: Json) => e.data.package === 1);
    assert.ok(box2.length >= 4, `box 2's scans are reported: ${box2.length}`);
    for (const e of box2) assert.equal(e.data.tracking_number, numbers[1]);
    assert.ok(updates.some((e: Json) => e.data.package === undefined && e.data.status === 'delivered'), "the shipment's own tracker reports its delivery");
    assert.deepEqual(await boxStatuses(), ['delivered', 'delivered', 'delivered']);
  });

  test('a USPS 2-box purchase: no master, a label and a valid number per box, PNG labels stacked in one image', async () => {
    const order = await post('/orders', orderBody({ order_number: 'boxes-usps', parcel: undefined, parcels: [box(2), box(3)], requested_service: { carrier: 'usps', service: 'USPS_GROUND_ADVANTAGE' } }));
    assert.equal(order.status, 201, order.text);
    const bought = await post('/shipments', { order_id: order.body.id, label_format: 'png' });
    assert.equal(bought.status, 201, bought.text);
    const s = bought.body;
    assert.equal(s.carrier, 'usps');
    assert.equal(s.master_tracking_number, null);
    assert.equal(s.packages.length, 2);
    for (const p of s.packages) {
      assert.ok(isValidTrackingNumber('usps', p.tracking_number), p.tracking_number);
      const scanned = await decodePng(await download(server, p.label_url));
      assert.ok(scanned.some((d) => d.text.includes(p.tracking_number)), `${p.tracking_number}: ${JSON.stringify(scanned)}`);
    }
    const one = await decodePng(await download(server, s.packages[0].label_url));
    const both = await decodePng(await download(server, s.label_url));
    assert.ok(both.length > one.length, 'the merged PNG holds both labels');
    for (const p of s.packages) assert.ok(both.some((d) => d.text.includes(p.tracking_number)), `the merged PNG scans ${p.tracking_number}`);
  });

  test('a USPS box the carrier refuses: nothing bought, nothing charged, the order still incomplete', async () => {
    const order = await post('/orders', orderBody({ ship_to: { ...orderBody().ship_to as Json, name: 'Box 2 fails USPS' }, parcel: undefined, parcels: [box(2), box(3)], requested_service: { carrier: 'usps', service: 'USPS_GROUND_ADVANTAGE' } }));
    const bought = await post('/shipments', { order_id: order.body.id });
    assert.match(problem(bought, 502, 'carrier_error').detail, /box 2 of 2/);
    assert.equal((await server.request('GET', `/orders/${order.body.id}`, { key })).body.status, 'incomplete');
    const rows = await server.services.database.db.selectFrom('shipments').select(['id', 'status']).where('order_id', '=', order.body.id).execute();
    assert.deepEqual(rows.map((r) => r.status), ['failed']);
    assert.deepEqual(await ledger(rows[0]!.id), []);
  });

  test('parcel and parcels together are a 400 pointing at parcels; 21 boxes are a 400; nothing is stored', async () => {
    const orders = () => server.services.database.db.selectFrom('orders').select('id').execute();
    const before = (await orders()).length;
    const both = await post('/orders', orderBody({ parcels: [box(1)] }));
    assert.deepEqual(problem(both, 400, 'validation_failed').errors.map((e: Json) => e.pointer), ['/parcels']);
    const many = await post('/orders', orderBody({ parcel: undefined, parcels: Array.from({ length: 21 }, () => box(1)) }));
    assert.ok(problem(many, 400, 'validation_failed').errors.some((e: Json) => e.pointer === '/parcels'), many.text);
    const rateBoth = await post('/rates', { ship_to: orderBody().ship_to, ship_from: orderBody().ship_from, parcel: box(1), parcels: [box(1)] });
    assert.deepEqual(problem(rateBoth, 400, 'validation_failed').errors.map((e: Json) => e.pointer), ['/parcels']);
    const heavy = await post('/orders', orderBody({ parcel: undefined, parcels: [box(1), { weight: { value: 151, unit: 'lb' } }] }));
    assert.deepEqual(problem(heavy, 400, 'validation_failed').errors.map((e: Json) => e.pointer), ['/parcels/1/weight/value']);
    assert.equal((await orders()).length, before, 'no order was stored');
  });

  test('a rate is bound to every box: changing one box after the quote refuses the rate', async () => {
    const order = await post('/orders', orderBody({ order_number: 'boxes-bound', parcel: undefined, parcels: [box(2), box(3)] }));
    const shop = await post('/rates', { order_id: order.body.id, carriers: ['ups'] });
    const patched = await server.request('PATCH', `/orders/${order.body.id}`, { key, body: { parcels: [box(2), box(5)] } });
    assert.equal(patched.status, 200, patched.text);
    problem(await post('/shipments', { order_id: order.body.id, rate_id: shop.body.rates[0].id }), 409, 'rate_not_for_order');
  });

  test('a one-box order looks as before, with packages holding its one box and no master number', async () => {
    const order = await post('/orders', orderBody({ order_number: 'one-box' }));
    assert.deepEqual(order.body.parcels, [order.body.parcel]);
    const bought = await post('/shipments', { order_id: order.body.id });
    assert.equal(bought.status, 201, bought.text);
    const s = bought.body;
    assert.equal(s.master_tracking_number, null);
    assert.equal(s.packages.length, 1);
    assert.equal(s.packages[0].tracking_number, s.tracking_number);
    assert.deepEqual(s.packages[0].dimensions, { length: 10, width: 8, height: 4, unit: 'in' });
    const pdf = await openPdf(await download(server, s.label_url), 72);
    assert.equal(pdf.pages, 1);
    const shipments = await server.services.database.db.selectFrom('shipments').select(['packages', 'master_tracking_number']).where('id', '=', s.id).execute();
    assert.deepEqual(shipments, [{ packages: null, master_tracking_number: null }], 'a one-box label is stored as it always was');
  });
});
