import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { problem, startServer, type TestServer } from './harness.ts';
import { orderBody } from './fixtures.ts';
import { setPaymentMethod } from '../src/domain/billing/payment-methods.ts';
import { openPdf } from './barcodes.ts';
import { accountWithUser, DashboardClient, password } from './dashboard/client.ts';
import { createJobRunner } from '../src/jobs/index.ts';
import { createLogger } from '../src/http/logger.ts';
import { evenShares } from '../src/kernel/shares.ts';

// Voiding one box of a shipment of several, in test mode: the box alone is voided and refunded its share, the
// others print and track on, and the last box left voids the shipment as a whole void does.

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- tests read whatever JSON came back

const box = (lb: number, reference: string) => ({ weight: { value: lb, unit: 'lb' }, dimensions: { length: 10, width: 8, height: 4 + lb, unit: 'in' }, reference });
const threeBoxes = [box(2, 'Box 1: mugs'), box(1.5, 'Box 2: saucers'), box(4, 'Box 3: teapot')];

describe('voiding one box of several (test mode)', () => {
  let server: TestServer;
  let key: string;
  let account: string;
  let email: string;

  before(async () => {
    // The tracking test polls as fast as the server answers.
    server = await startServer({ env: { SHIPD_RATE_LIMIT_PER_SECOND: '1000000', SHIPD_RATE_LIMIT_BURST: '1000000', SHIPD_FEATURES: 'batches' } });
    ({ account, email } = await accountWithUser(server));
    await setPaymentMethod(server.services.database.db, server.clock, account, 'test', 'pm_test_visa');
    key = (await server.key(account)).secret;
  });
  after(() => server.close());

  const post = (path: string, body?: unknown) => server.request('POST', path, { key, ...(body !== undefined && { body }) });
  const get = (path: string) => server.request('GET', path, { key });
  const ledger = (shipmentId: string) =>
    server.services.database.db.selectFrom('postage_ledger').select(['kind', 'amount_cents']).where('shipment_id', '=', shipmentId).orderBy('created_at').orderBy('kind').execute();
  const sum = (lines: { amount_cents: number }[]) => lines.reduce((s, l) => s + l.amount_cents, 0);
  /** label_url names SHIPD_PUBLIC_URL's host; the test server listens on a port of its own. */
  const fetchLabel = (labelUrl: string) => {
    const u = new URL(labelUrl);
    return fetch(`${server.url}${u.pathname}${u.search}`);
  };
  const orderStatus = async (orderId: string) => (await get(`/orders/${orderId}`)).body.status;
  const events = async (type: string, shipmentId: string) => (await get(`/events?type=${type}&limit=100`)).body.data.filter((e: Json) => e.data.id === shipmentId);

  async function buy(carrier: 'ups' | 'usps' | 'fedex', service: string, parcels: unknown[], orderNumber: string): Promise<Json> {
    const order = await post('/orders', orderBody({ order_number: orderNumber, parcel: undefined, parcels, requested_service: { carrier, service } }));
    assert.equal(order.status, 201, order.text);
    const bought = await post('/shipments', { order_id: order.body.id });
    assert.equal(bought.status, 201, bought.text);
    return bought.body;
  }

  test('UPS, 3 boxes: box 2 voided alone (its label 410, the others print and track, its share refunded, the order still shipped), then the other two void the shipment', async () => {
    const shipment = await buy('ups', '03', threeBoxes, 'void-box-ups');
    assert.deepEqual(
      shipment.packages.map((p: Json) => [p.status, p.voided_at, p.tracking_status]),
      Array.from({ length: 3 }, () => ['purchased', null, 'pre_transit']),
    );
    const [charge] = await ledger(shipment.id);
    assert.equal(charge!.kind, 'charge');
    const shares = evenShares(charge!.amount_cents, 3);

    const voided = await post(`/shipments/${shipment.order_id}/void`, { package: 1 });
    assert.equal(voided.status, 200, voided.text);
    const s = voided.body;
    assert.equal(s.status, 'purchased', 'the shipment ships on with its other boxes');
    assert.equal(s.voided_at, null);
    assert.deepEqual(s.packages.map((p: Json) => p.status), ['purchased', 'voided', 'purchased']);
    assert.deepEqual(s.packages.map((p: Json) => p.tracking_status), ['pre_transit', 'cancelled', 'pre_transit']);
    assert.match(s.packages[1].voided_at, /^\d{4}-\d{2}-\d{2}T/);
    assert.equal(s.packages[0].voided_at, null);
    // Links are signed when drawn, so only their token can differ across a second boundary.
    const unsigned = (packages: Json[]) => packages.map((p) => ({ ...p, label_url: p.label_url.split('?')[0] }));
    assert.deepEqual(unsigned((await get(`/shipments/${shipment.id}`)).body.packages), unsigned(s.packages), 'GET shows the same boxes');

    const box2 = await fetchLabel(shipment.packages[1].label_url);
    assert.equal(box2.status, 410);
    assert.equal(((await box2.json()) as Json).code, 'label_voided');
    for (const i of [0, 2]) assert.equal((await fetchLabel(shipment.packages[i].label_url)).status, 200, `box ${i + 1} still prints`);
    const merged = await openPdf(Buffer.from(await (await fetchLabel(s.label_url)).arrayBuffer()), 72);
    assert.equal(merged.pages, 2, 'the merged label holds the two boxes left');
    assert.ok(merged.pageTexts[0]!.includes('Box 1: mugs') && merged.pageTexts[1]!.includes('Box 3: teapot'), merged.pageTexts.join(' | '));
    assert.ok(!merged.pageTexts.some((t) => t.includes('Box 2: saucers')), 'the voided box is not in it');

    assert.deepEqual(await ledger(shipment.id), [
      { kind: 'charge', amount_cents: charge!.amount_cents },
      { kind: 'refund_box2', amount_cents: -shares[1]! },
    ]);
    assert.equal(await orderStatus(shipment.order_id), 'shipped');
    const updated = await events('shipment.updated', shipment.id);
    assert.equal(updated.length, 1);
    assert.equal(updated[0].data.packages[1].status, 'voided');
    assert.deepEqual(await events('shipment.voided', shipment.id), []);

    // The boxes left track; the voided one is no longer asked about.
    const whole = await post('/tracking', { order_id: shipment.order_id });
    assert.equal(whole.status, 200, whole.text);
    assert.equal(whole.body.status, 'pre_transit');
    const tracked2 = await post('/tracking', { tracking_number: shipment.packages[1].tracking_number });
    assert.deepEqual([tracked2.body.package, tracked2.body.status], [1, 'cancelled']);
    const tracked3 = await post('/tracking', { tracking_number: shipment.packages[2].tracking_number });
    assert.deepEqual([tracked3.body.package, tracked3.body.status], [2, 'pre_transit']);

    problem(await post(`/shipments/${shipment.order_id}/void`, { package: 1 }), 409, 'shipment_already_voided');

    const first = await post(`/shipments/${shipment.order_id}/void`, { package: 0 });
    assert.equal(first.status, 200, first.text);
    assert.deepEqual(first.body.packages.map((p: Json) => p.status), ['voided', 'voided', 'purchased']);
    assert.equal(first.body.status, 'purchased');
    assert.equal(await orderStatus(shipment.order_id), 'shipped');

    const last = await post(`/shipments/${shipment.order_id}/void`, { package: 2 });
    assert.equal(last.status, 200, last.text);
    assert.equal(last.body.status, 'voided', 'the last box takes the shipment with it');
    assert.ok(last.body.voided_at);
    assert.deepEqual(last.body.packages.map((p: Json) => [p.status, p.tracking_status]), Array.from({ length: 3 }, () => ['voided', 'cancelled']));
    assert.equal(last.body.packages[2].voided_at, last.body.voided_at);
    const money = await ledger(shipment.id);
    assert.deepEqual(
      money.map((l) => l.kind),
      ['charge', 'refund_box2', 'refund_box1', 'refund'],
    );
    assert.equal(money.at(-1)!.amount_cents, -shares[2]!, 'the last box gets back what was left');
    assert.equal(sum(money), 0, 'the whole postage is refunded, exactly');
    assert.equal(await orderStatus(shipment.order_id), 'incomplete');
    assert.equal((await events('shipment.voided', shipment.id)).length, 1);
    assert.equal((await fetchLabel(shipment.label_url)).status, 410);
    assert.equal((await fetchLabel(shipment.packages[2].label_url)).status, 410);
    problem(await post(`/shipments/${shipment.order_id}/void`, { package: 2 }), 409, 'shipment_already_voided');
    problem(await post(`/shipments/${shipment.id}/void`, { package: 2 }), 409, 'shipment_already_voided');
    problem(await post(`/shipments/${shipment.id}/void`), 409, 'shipment_already_voided');
  });

  test("USPS, 2 boxes (a label each): a box voided alone gets back its own label's price; the other then voids the shipment", async () => {
    const shipment = await buy('usps', 'USPS_GROUND_ADVANTAGE', [box(2, 'Box 1: mugs'), box(7, 'Box 2: teapot')], 'void-box-usps');
    assert.equal(shipment.master_tracking_number, null);
    const row = await server.services.database.db.selectFrom('shipments').select('packages').where('id', '=', shipment.id).executeTakeFirstOrThrow();
    const prices = JSON.parse(row.packages!).map((b: Json) => b.postage_cents) as number[];
    const [charge] = await ledger(shipment.id);
    assert.equal(prices.reduce((a, b) => a + b, 0), charge!.amount_cents, "the boxes' own prices add up to the postage charged");

    const voided = await post(`/shipments/${shipment.order_id}/void`, { package: 0 });
    assert.equal(voided.status, 200, voided.text);
    assert.deepEqual(voided.body.packages.map((p: Json) => p.status), ['voided', 'purchased']);
    assert.deepEqual(await ledger(shipment.id), [
      { kind: 'charge', amount_cents: charge!.amount_cents },
      { kind: 'refund_box1', amount_cents: -prices[0]! },
    ]);
    assert.equal((await fetchLabel(shipment.packages[0].label_url)).status, 410);
    assert.equal((await fetchLabel(shipment.packages[1].label_url)).status, 200);
    const merged = await openPdf(Buffer.from(await (await fetchLabel(voided.body.label_url)).arrayBuffer()), 72);
    assert.equal(merged.pages, 1);
    assert.ok(merged.pageTexts[0]!.includes('Box 2: teapot'));
    assert.equal(await orderStatus(shipment.order_id), 'shipped');

    const last = await post(`/shipments/${shipment.order_id}/void`, { package: 1 });
    assert.equal(last.status, 200, last.text);
    assert.equal(last.body.status, 'voided');
    const money = await ledger(shipment.id);
    assert.deepEqual(money.at(-1), { kind: 'refund', amount_cents: -prices[1]! });
    assert.equal(sum(money), 0);
    assert.equal(await orderStatus(shipment.order_id), 'incomplete');
  });

  test('refusals: a box the label does not have (400 at /package), a box the carrier scanned (409 label_in_transit); a one-box label voided by its box 0 is voided whole', async () => {
    const shipment = await buy('ups', '03', threeBoxes, 'void-box-errors');
    for (const n of [3, 19]) {
      const refused = problem(await post(`/shipments/${shipment.order_id}/void`, { package: n }), 400, 'validation_failed');
      assert.deepEqual(refused.errors.map((e: Json) => [e.in, e.pointer]), [['body', '/package']], JSON.stringify(refused));
      assert.match(refused.errors[0].detail, /3 box\(es\), numbered 0 to 2/);
    }
    for (const n of [-1, 20, 1.5, '1']) {
      const refused = problem(await post(`/shipments/${shipment.order_id}/void`, { package: n }), 400, 'validation_failed');
      assert.ok(refused.errors.some((e: Json) => e.pointer === '/package'), JSON.stringify(refused));
    }
    problem(await post(`/shipments/${shipment.order_id}/void`, { package: 0, box: 1 }), 400, 'validation_failed');

    // Picked up: every box is in the carrier's hands.
    let status = 'pre_transit';
    for (let step = 0; step < 100 && status === 'pre_transit'; step++) {
      server.clock.advance(10_000);
      status = (await post('/tracking', { order_id: shipment.order_id })).body.status;
    }
    assert.equal(status, 'in_transit');
    const scanned = problem(await post(`/shipments/${shipment.order_id}/void`, { package: 1 }), 409, 'label_in_transit');
    assert.match(scanned.detail, new RegExp(shipment.packages[1].tracking_number));
    assert.deepEqual((await get(`/shipments/${shipment.id}`)).body.packages.map((p: Json) => p.status), ['purchased', 'purchased', 'purchased']);
    assert.deepEqual((await ledger(shipment.id)).map((l) => l.kind), ['charge'], 'nothing refunded');
    assert.deepEqual((await get(`/shipments/${shipment.id}`)).body.packages.map((p: Json) => p.tracking_status), ['in_transit', 'in_transit', 'in_transit']);

    const order = await post('/orders', orderBody({ order_number: 'void-box-one' }));
    const one = await post('/shipments', { order_id: order.body.id });
    assert.equal(one.status, 201, one.text);
    problem(await post(`/shipments/${order.body.id}/void`, { package: 1 }), 400, 'validation_failed');
    const voided = await post(`/shipments/${order.body.id}/void`, { package: 0 });
    assert.equal(voided.status, 200, voided.text);
    assert.equal(voided.body.status, 'voided');
    assert.deepEqual(voided.body.packages.map((p: Json) => [p.status, p.tracking_status]), [['voided', 'cancelled']]);
    assert.equal(sum(await ledger(one.body.id)), 0);
    assert.equal(await orderStatus(order.body.id), 'incomplete');
  });

  test('each box shows its tracking status as tracking advances; the voided box stays cancelled and the order is delivered with the boxes left', async () => {
    const shipment = await buy('ups', '03', threeBoxes, 'void-box-tracking');
    assert.equal((await post(`/shipments/${shipment.order_id}/void`, { package: 2 })).status, 200);
    const seen = new Set<string>();
    let whole: Json = {};
    for (let step = 0; step < 600 && whole.status !== 'delivered'; step++) {
      server.clock.advance(2_000);
      whole = (await post('/tracking', { order_id: shipment.order_id })).body;
      const packages: Json[] = (await get(`/shipments/${shipment.id}`)).body.packages;
      assert.equal(packages[2]!.tracking_status, 'cancelled');
      seen.add(`${packages[0]!.tracking_status}/${packages[1]!.tracking_status}`);
    }
    assert.equal(whole.status, 'delivered', 'delivered once the two boxes left are');
    assert.ok(seen.has('in_transit/in_transit'), [...seen].join(', '));
    assert.ok(seen.has('delivered/out_for_delivery') || seen.has('delivered/in_transit'), `box 1 is delivered before box 2: ${[...seen].join(', ')}`);
    const final = (await get(`/shipments/${shipment.id}`)).body.packages.map((p: Json) => p.tracking_status);
    assert.deepEqual(final, ['delivered', 'delivered', 'cancelled']);
    assert.equal(await orderStatus(shipment.order_id), 'delivered');
    const boxEvents = (await get('/events?type=tracking.updated&limit=100')).body.data.filter((e: Json) => e.data.shipment_id === shipment.id && e.data.package === 2);
    assert.deepEqual(boxEvents.filter((e: Json) => e.data.status !== 'pre_transit'), [], 'nothing is reported of the voided box once voided');
  });

  test('the dashboard lists the boxes: number, tracking number, weight, reference, label link, tracking status, voided', async () => {
    const shipment = await buy('ups', '03', threeBoxes, 'void-box-dashboard');
    assert.equal((await post(`/shipments/${shipment.order_id}/void`, { package: 1 })).status, 200);
    const client = new DashboardClient(server);
    assert.equal((await client.signIn(email, password)).status, 303);
    const page = await client.get(`/dashboard/test/shipments/${shipment.id}`);
    assert.equal(page.status, 200, page.text);
    assert.match(page.text, /<h2>Boxes<\/h2>/);
    const rows = [...page.text.matchAll(/<tr data-box="(\d+)">([\s\S]*?)<\/tr>/g)].map((m) => ({
      n: m[1],
      cells: Object.fromEntries([...m[2]!.matchAll(/<td data-label="([^"]+)">([\s\S]*?)<\/td>/g)].map((c) => [c[1], c[2]!.replace(/<code>|<\/code>/g, '').trim()])),
    }));
    assert.deepEqual(rows.map((r) => r.n), ['1', '2', '3']);
    assert.deepEqual(rows.map((r) => r.cells['Tracking number']), shipment.packages.map((p: Json) => p.tracking_number));
    assert.deepEqual(rows.map((r) => r.cells.Weight), ['2 lb', '1.5 lb', '4 lb']);
    assert.deepEqual(rows.map((r) => r.cells.Reference), ['Box 1: mugs', 'Box 2: saucers', 'Box 3: teapot']);
    assert.deepEqual(rows.map((r) => r.cells.Tracking), ['pre transit', 'cancelled', 'pre transit']);
    assert.equal(rows[0]!.cells.Voided, 'no');
    assert.match(rows[1]!.cells.Voided!, /^voided \d{4}-\d{2}-\d{2} \d{2}:\d{2} UTC$/);
    const link = /<a href="([^"]+)">PDF<\/a>/.exec(rows[0]!.cells.Label!)?.[1]?.replaceAll('&amp;', '&');
    assert.ok(link, rows[0]!.cells.Label);
    assert.equal(link.split('?')[0], shipment.packages[0].label_url.split('?')[0], "box 1's signed label link");
    assert.equal((await fetchLabel(link)).status, 200, 'it downloads without the session');
    assert.doesNotMatch(rows[1]!.cells.Label!, /<a /, 'a voided box has no label link');

    const single = await post('/orders', orderBody({ order_number: 'void-box-dashboard-one' }));
    const one = await post('/shipments', { order_id: single.body.id });
    assert.doesNotMatch((await client.get(`/dashboard/test/shipments/${one.body.id}`)).text, /<h2>Boxes<\/h2>/, 'a one-box label lists no boxes');
  });

  test("a carrier without single-box voids (FedEx, whose API cancels whole shipments) refuses one box with 422 not_supported_by_carrier, and voids the whole", async () => {
    const shipment = await buy('fedex', 'GROUND_HOME_DELIVERY', threeBoxes, 'void-box-unsupported');
    const refused = problem(await post(`/shipments/${shipment.order_id}/void`, { package: 1 }), 422, 'not_supported_by_carrier');
    assert.deepEqual(refused.errors.map((e: Json) => e.pointer), ['/package']);
    assert.match(refused.detail, /voids whole shipments only/);
    assert.deepEqual((await get(`/shipments/${shipment.id}`)).body.packages.map((p: Json) => p.status), ['purchased', 'purchased', 'purchased']);
    assert.deepEqual((await ledger(shipment.id)).map((l) => l.kind), ['charge']);
    const whole = await post(`/shipments/${shipment.order_id}/void`);
    assert.equal(whole.status, 200, whole.text);
    assert.equal(whole.body.status, 'voided');
    assert.equal(sum(await ledger(shipment.id)), 0);
  });

  test('a return of two boxes paid on use, one box voided before the first scan: the scan charges the box left only', async () => {
    const outbound = await buy('ups', '03', [box(2, 'Box 1: mugs'), box(3, 'Box 2: bowls')], 'void-box-return');
    const made = await post(`/shipments/${outbound.order_id}/return`, { charge: 'on_use' });
    assert.equal(made.status, 201, made.text);
    const ret = made.body;
    assert.equal(ret.packages.length, 2);
    const voided = await post(`/shipments/${ret.id}/void`, { package: 1 });
    assert.equal(voided.status, 200, voided.text);
    assert.deepEqual(voided.body.packages.map((p: Json) => p.status), ['purchased', 'voided']);
    assert.deepEqual(await ledger(ret.id), [], 'nothing charged, nothing refunded');
    assert.equal(await orderStatus(outbound.order_id), 'shipped');

    let status = 'unused';
    for (let step = 0; step < 100 && status === 'unused'; step++) {
      server.clock.advance(10_000);
      await post('/tracking', { tracking_number: ret.tracking_number });
      status = (await get(`/shipments/${ret.id}`)).body.return_status;
    }
    assert.equal(status, 'in_transit');
    const postage = Math.round(Number(ret.postage.amount) * 100);
    assert.deepEqual(await ledger(ret.id), [{ kind: 'charge', amount_cents: evenShares(postage, 2)[0]! }], "box 1's share only");
    problem(await post(`/shipments/${ret.id}/void`, { package: 0 }), 409, 'label_in_transit');
  });

  test("a batch's merged labels leave out a box voided since they were made", async () => {
    const runner = createJobRunner(server.services, createLogger('silent'), { pollMs: 20 });
    runner.start();
    try {
      const order = await post('/orders', orderBody({ order_number: 'void-box-batch', parcel: undefined, parcels: threeBoxes, requested_service: { carrier: 'ups', service: '03' } }));
      const single = await post('/orders', orderBody({ order_number: 'void-box-batch-one' }));
      const created = await post('/batches', { order_ids: [order.body.id, single.body.id], selection: 'requested', label_format: 'pdf' });
      assert.equal(created.status, 201, created.text);
      let batch: Json = created.body;
      for (let i = 0; i < 600 && batch.status !== 'completed'; i++) {
        await new Promise((r) => setTimeout(r, 50));
        batch = (await get(`/batches/${batch.id}`)).body;
      }
      assert.equal(batch.status, 'completed', JSON.stringify(batch));
      const pages = async () => (await openPdf(Buffer.from(await (await fetchLabel(batch.label_url)).arrayBuffer()), 72)).pageTexts;
      assert.equal((await pages()).length, 4, 'three boxes and the one-box label');
      assert.equal((await post(`/shipments/${order.body.id}/void`, { package: 1 })).status, 200);
      const after = await pages();
      assert.equal(after.length, 3);
      assert.ok(!after.some((t) => t.includes('Box 2: saucers')), after.join(' | '));
    } finally {
      await runner.stop();
    }
  });

  test('MCP: void_label takes the same optional package', async () => {
    const shipment = await buy('ups', '03', threeBoxes.slice(0, 2), 'void-box-mcp');
    const client = new Client({ name: 'shipd-test', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${server.url}/api/integrations/v1/mcp`), { requestInit: { headers: { Authorization: `Bearer ${key}` } } }));
    try {
      const tool = (await client.listTools()).tools.find((t) => t.name === 'void_label')!;
      const input = tool.inputSchema.properties as Json;
      assert.deepEqual([input.package.type, input.package.minimum, input.package.maximum], ['integer', 0, 19]);
      assert.deepEqual(tool.inputSchema.required, ['order_id']);
      const voided = (await client.callTool({ name: 'void_label', arguments: { order_id: shipment.order_id, package: 1 } })) as CallToolResult;
      assert.ok(!voided.isError, JSON.stringify(voided));
      assert.deepEqual((voided.structuredContent as Json).packages.map((p: Json) => p.status), ['purchased', 'voided']);
      const out = (await client.callTool({ name: 'void_label', arguments: { order_id: shipment.order_id, package: 5 } })) as CallToolResult;
      assert.ok(out.isError);
      assert.equal((out.structuredContent as Json).code, 'validation_failed');
      assert.deepEqual((out.structuredContent as Json).errors.map((e: Json) => e.pointer), ['/package']);
    } finally {
      await client.close();
    }
  });
});
