import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { databaseUnderTest, problem, startServer, type TestServer } from './harness.ts';
import { orderBody } from './fixtures.ts';
import { decodePng, openPdf } from './barcodes.ts';
import { setPaymentMethod } from '../src/domain/billing/payment-methods.ts';
import { newId } from '../src/kernel/ids.ts';
import { localToday } from '../src/domain/shipments/ship-date.ts';
import { sql } from 'kysely';

const postgresOnly = databaseUnderTest === 'postgres' ? false : 'holding a row mid-request needs PostgreSQL: set TEST_DATABASE_URL to run this';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- tests read whatever JSON came back

describe('manifests', () => {
  let server: TestServer;
  let key: string;
  let otherKey: string;
  let account: string;

  before(async () => {
    server = await startServer({ env: { SHIPD_FEATURES: 'manifests' } });
    account = await server.account();
    await setPaymentMethod(server.services.database.db, server.clock, account, 'test', 'pm_test_visa');
    key = (await server.key(account)).secret;
    otherKey = (await server.key(await server.account())).secret;
  });
  after(() => server.close());

  // The labels' ship date: today where they ship from (orderBody's Austin, TX), which is their manifest's day.
  const today = () => localToday({ state: 'TX' }, server.clock.now());

  /** Buys a label of the carrier's cheapest service for a new order; returns the shipment. */
  async function label(carrier: string, zip = '94105', weightLb = 2, buyer = key): Promise<Json> {
    const order = await server.request('POST', '/orders', {
      key: buyer,
      body: orderBody({ ship_to: { name: 'Ada Lovelace', street1: '415 Mission St', city: 'San Francisco', state: 'CA', zip }, parcel: { weight: { value: weightLb, unit: 'lb' } } }),
    });
    assert.equal(order.status, 201, order.text);
    const rates = (await server.request('POST', '/rates', { key: buyer, body: { order_id: order.body.id } })).body.rates as Json[];
    const rate = rates.find((r) => r.carrier === carrier)!;
    const bought = await server.request('POST', '/shipments', { key: buyer, body: { order_id: order.body.id, rate_id: rate.id } });
    assert.equal(bought.status, 201, bought.text);
    return bought.body;
  }

  const form = async (m: Json) => {
    const u = new URL(m.form_url);
    const res = await fetch(`${server.url}${u.pathname}${u.search}`);
    assert.equal(res.status, 200);
    assert.equal(res.headers.get('content-type'), 'application/pdf');
    return openPdf(Buffer.from(await res.arrayBuffer()), 300);
  };

  test("the day's form lists exactly that day's unmanifested outbound labels of the carrier, with totals and a barcode of its id", { timeout: 120_000 }, async () => {
    const yesterday = await label('usps');
    server.clock.advance(24 * 3_600_000);
    const day = today();
    const listed = [await label('usps', '10001', 1.5), await label('usps', '60601', 3), await label('usps', '98101', 4.25)];
    const otherCarrier = await label('ups');
    const voided = await label('usps');
    assert.equal((await server.request('POST', `/shipments/${voided.id}/void`, { key })).status, 200);
    const returned = await server.request('POST', `/shipments/${listed[0]!.order_id}/return`, { key, body: {} });
    assert.equal(returned.status, 201, returned.text);
    assert.equal(returned.body.carrier, 'usps');

    const res = await server.request('POST', '/manifests', { key, headers: { 'idempotency-key': 'close-day' }, body: { carrier: 'usps', ship_date: day } });
    assert.equal(res.status, 201, res.text);
    const m = res.body;
    assert.match(m.id, /^man_[0-9a-z]{26}$/);
    assert.equal(m.object, 'manifest');
    assert.equal(m.carrier, 'usps');
    assert.equal(m.ship_date, day);
    assert.deepEqual([...m.shipment_ids].sort(), listed.map((s) => s.id).sort());
    assert.equal(m.shipment_count, 3);
    assert.deepEqual(m.total_weight, { value: 8.75, unit: 'lb' });
    const postage = listed.reduce((sum, s) => sum + Math.round(Number(s.postage.amount) * 100), 0);
    assert.deepEqual(m.total_postage, { amount: (postage / 100).toFixed(2), currency: 'USD' });
    const replay = await server.request('POST', '/manifests', { key, headers: { 'idempotency-key': 'close-day' }, body: { carrier: 'usps', ship_date: day } });
    assert.equal(replay.body.id, m.id);

    const pdf = await form(m);
    assert.deepEqual([Math.round(pdf.width), Math.round(pdf.height)], [612, 792]);
    assert.match(pdf.text, /USPS SCAN Form/);
    assert.match(pdf.text, /SAMPLE/);
    for (const s of listed) assert.ok(pdf.text.includes(s.tracking_number), `${s.tracking_number} is on the form`);
    for (const zip of ['10001', '60601', '98101']) assert.ok(pdf.text.includes(zip));
    for (const w of ['1.50', '3.00', '4.25', '8.75']) assert.ok(pdf.text.includes(w), `weight ${w}`);
    assert.ok(pdf.text.includes((postage / 100).toFixed(2)));
    assert.match(pdf.text, /Total: 3 packages/);
    for (const s of [yesterday, otherCarrier, voided, returned.body]) assert.ok(!pdf.text.includes(s.tracking_number), `${s.tracking_number} is not on the form`);
    const codes = await decodePng(pdf.raster);
    assert.ok(codes.some((c) => c.text === m.id), JSON.stringify(codes));

    problem(await server.request('POST', '/manifests', { key, body: { carrier: 'usps', ship_date: day } }), 422, 'nothing_to_manifest');
    problem(await server.request('POST', `/shipments/${listed[1]!.id}/void`, { key }), 409, 'label_manifested');
    assert.equal((await server.request('POST', `/shipments/${otherCarrier.id}/void`, { key })).status, 200, 'labels on no manifest still void');

    const earlier = await server.request('POST', '/manifests', { key, body: { carrier: 'usps', ship_date: yesterday.ship_date } });
    assert.equal(earlier.status, 201, earlier.text);
    assert.deepEqual(earlier.body.shipment_ids, [yesterday.id]);

    const got = await server.request('GET', `/manifests/${m.id}`, { key });
    assert.equal(got.status, 200);
    assert.deepEqual(got.body.shipment_ids, m.shipment_ids);
    const list = await server.request('GET', `/manifests?carrier=usps&ship_date=${day}`, { key });
    assert.deepEqual(list.body.data.map((x: Json) => x.id), [m.id]);
    problem(await server.request('GET', `/manifests/${m.id}`, { key: otherKey }), 404, 'not_found');
    assert.equal((await server.request('GET', '/manifests', { key: otherKey })).body.data.length, 0);
  });

  test('shipment_ids: each id that cannot go on the manifest is named', async () => {
    const ups = await label('ups');
    const mine = await label('usps');
    const res = await server.request('POST', '/manifests', { key, body: { carrier: 'usps', ship_date: today(), shipment_ids: [mine.id, ups.id, newId('shp')] } });
    const p = problem(res, 400, 'validation_failed');
    assert.deepEqual(p.errors.map((e: Json) => e.pointer), ['/shipment_ids/1', '/shipment_ids/2']);
    const only = await server.request('POST', '/manifests', { key, body: { carrier: 'usps', ship_date: today(), shipment_ids: [mine.id] } });
    assert.equal(only.status, 201, only.text);
    assert.deepEqual(only.body.shipment_ids, [mine.id]);
    const bad = problem(await server.request('POST', '/manifests', { key, body: { carrier: 'dhl', ship_date: '2026-13-01' } }), 400, 'validation_failed');
    assert.deepEqual(bad.errors.map((e: Json) => e.pointer).sort(), ['/carrier', '/ship_date']);
  });

  test('two manifests at once for one day: every label lands on exactly one of them, the other finds nothing left', async () => {
    // A key of its own: what the other tests leave unmanifested is not its to list.
    const buyer = (await server.key(account)).secret;
    const labels = [await label('fedex', '94105', 2, buyer), await label('fedex', '10001', 3, buyer), await label('fedex', '60601', 1, buyer)];
    const answers = await Promise.all([1, 2, 3].map(() => server.request('POST', '/manifests', { key: buyer, body: { carrier: 'fedex', ship_date: today() } })));
    const made = answers.filter((a) => a.status === 201);
    assert.equal(made.length, 1, answers.map((a) => `${a.status} ${a.text}`).join('\n'));
    for (const a of answers) if (a.status !== 201) problem(a, 422, 'nothing_to_manifest');
    assert.deepEqual([...made[0]!.body.shipment_ids].sort(), labels.map((l) => l.id).sort());
    assert.equal(made[0]!.body.shipment_count, 3);
    const listed = await server.request('GET', `/manifests?carrier=fedex&ship_date=${today()}`, { key: buyer });
    assert.deepEqual(listed.body.data.map((m: Json) => m.id), [made[0]!.body.id]);
    for (const l of labels) problem(await server.request('POST', `/shipments/${l.order_id}/void`, { key: buyer }), 409, 'label_manifested');
    const pages = await form(made[0]!.body);
    for (const l of labels) assert.ok(pages.text.includes(l.tracking_number), `${l.tracking_number} is on the form`);
  });

  // The row is held by the test so that both requests have read the label before either writes: the manifest
  // then claims it first, and the void, which read it free, must not go through. PostgreSQL lets a test hold a
  // row; SQLite serialises writers and offers no such pause.
  test('a void that read the label free before a manifest claimed it is refused, not voided as well', { skip: postgresOnly }, async () => {
    const buyer = (await server.key(account)).secret;
    const bought = await label('ups', '94105', 2, buyer);
    const db = server.services.database.db;
    const waiting = async (n: number) => {
      for (let i = 0; i < 500; i++) {
        const { rows } = await sql<{ n: number }>`select count(*)::int as n from pg_stat_activity where wait_event_type = 'Lock' and datname = current_database()`.execute(db);
        if (rows[0]!.n >= n) return;
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
      assert.fail(`${n} requests never waited on the held label`);
    };
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    let held!: () => void;
    const holding = new Promise<void>((resolve) => (held = resolve));
    const holder = db.transaction().execute(async (trx) => {
      await sql`select id from shipments where id = ${bought.id} for update`.execute(trx);
      held();
      await released;
    });
    await holding;
    const manifest = server.request('POST', '/manifests', { key: buyer, body: { carrier: 'ups', ship_date: today(), shipment_ids: [bought.id] } });
    await waiting(1);
    const voided = server.request('POST', `/shipments/${bought.order_id}/void`, { key: buyer });
    await waiting(2);
    release();
    await holder;
    const made = await manifest;
    assert.equal(made.status, 201, made.text);
    problem(await voided, 409, 'label_manifested');
    const now = (await server.request('GET', `/shipments/${bought.id}`, { key: buyer })).body;
    assert.equal(now.status, 'purchased');
  });

  test('off: the routes answer 404 and the OpenAPI document has no manifests', async () => {
    const off = await startServer();
    try {
      const offKey = (await off.key(await off.account())).secret;
      problem(await off.request('POST', '/manifests', { key: offKey, body: { carrier: 'usps', ship_date: '2026-11-23' } }), 404, 'route_not_found');
      const doc = (await off.request('GET', '/openapi.json')).body;
      assert.ok(!Object.keys(doc.paths).some((p) => p.includes('/manifests')));
      assert.ok(!doc.components.schemas.Manifest);
      const on = (await server.request('GET', '/openapi.json')).body;
      assert.ok(on.paths['/api/integrations/v1/manifests'].post);
      assert.ok(on.components.schemas.Manifest);
    } finally {
      await off.close();
    }
  });
});
