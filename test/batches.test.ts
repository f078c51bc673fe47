import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { inParallel, problem, startServer, type TestServer } from './harness.ts';
import { orderBody, torontoOrderBody } from './fixtures.ts';
import { openPdf } from './barcodes.ts';
import { bootstrapKey, freePort, processDatabase, startShipd } from './shipd-process.ts';
import { setPaymentMethod } from '../src/domain/billing/payment-methods.ts';
import { createJobRunner } from '../src/jobs/index.ts';
import type { JobRunner } from '../src/jobs/runner.ts';
import { createLogger } from '../src/http/logger.ts';
import { newId } from '../src/kernel/ids.ts';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- tests read whatever JSON came back

/** A URL the API handed out, pointed at the server under test (SHIPD_PUBLIC_URL names another port). */
const at = (base: string, url: string) => {
  const u = new URL(url);
  return `${base}${u.pathname}${u.search}`;
};

async function poll<T>(what: string, look: () => Promise<T | undefined>, timeoutMs = 90_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const found = await look();
    if (found !== undefined) return found;
    assert.ok(Date.now() < deadline, `timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe('batches', () => {
  let server: TestServer;
  let runner: JobRunner;
  let account: string;
  let key: string;
  let keyId: string;
  let otherKey: string;

  before(async () => {
    server = await startServer({ env: { SHIPD_FEATURES: 'batches' } });
    account = await server.account();
    await setPaymentMethod(server.services.database.db, server.clock, account, 'test', 'pm_test_visa');
    ({ secret: key, id: keyId } = await server.key(account));
    const other = await server.account();
    await setPaymentMethod(server.services.database.db, server.clock, other, 'test', 'pm_test_visa');
    otherKey = (await server.key(other)).secret;
    runner = createJobRunner(server.services, createLogger('silent'), { pollMs: 20 });
    runner.start();
  });
  after(async () => {
    await runner.stop();
    await server.close();
  });

  const newOrder = async (overrides: Record<string, unknown> = {}, k = key): Promise<Json> => {
    const res = await server.request('POST', '/orders', { key: k, body: orderBody(overrides) });
    assert.equal(res.status, 201, res.text);
    return res.body;
  };

  const finished = (id: string, k = key) =>
    poll(`batch ${id}`, async () => {
      const res = await server.request('GET', `/batches/${id}`, { key: k });
      assert.equal(res.status, 200, res.text);
      return res.body.status === 'completed' ? (res.body as Json) : undefined;
    });

  test('200 orders, 10 of them invalid: 190 labels, 10 problems naming why, one PDF of 190 pages, and the usual events', { timeout: 180_000 }, async () => {
    const valid = await inParallel(190, 8, (i) => newOrder({ order_number: `B-${i}` }));
    const cancelled = await inParallel(3, 8, async (i) => {
      const order = await newOrder({ order_number: `B-cancelled-${i}` });
      assert.equal((await server.request('POST', `/orders/${order.id}/cancel`, { key })).status, 200);
      return order;
    });
    const unserved = await inParallel(2, 8, (i) => newOrder({ order_number: `B-nozip-${i}`, ship_to: { name: 'Nobody', street1: '1 Main St', city: 'Nowhere', state: 'CA', zip: '99999' } }));
    const someoneElses = await inParallel(2, 8, (i) => newOrder({ order_number: `B-other-${i}` }, otherKey));
    const missing = [newId('ord'), newId('ord'), 'not-an-order-id'];
    const invalid = new Map<string, string>([
      ...cancelled.map((o) => [o.id, 'order_not_purchasable'] as const),
      ...unserved.map((o) => [o.id, 'no_rate_available'] as const),
      ...someoneElses.map((o) => [o.id, 'not_found'] as const),
      ...missing.map((id) => [id, 'not_found'] as const),
    ]);
    assert.equal(invalid.size, 10);
    // The bad ones spread through the batch, so good orders come after each of them.
    const orderIds = valid.map((o) => o.id as string);
    [...invalid.keys()].forEach((id, i) => orderIds.splice(i * 20 + 7, 0, id));

    const send = () => server.request('POST', '/batches', { key, headers: { 'idempotency-key': 'batch-200' }, body: { order_ids: orderIds, label_format: 'pdf' } });
    const created = await send();
    assert.equal(created.status, 201, created.text);
    assert.match(created.body.id, /^bat_[0-9a-z]{26}$/);
    assert.equal(created.body.object, 'batch');
    assert.equal(created.body.status, 'queued');
    assert.equal(created.body.selection, 'requested');
    assert.deepEqual(created.body.counts, { total: 200, pending: 200, purchased: 0, failed: 0 });
    assert.deepEqual(created.body.results.map((r: Json) => r.order_id), orderIds);
    assert.equal(created.body.label_url, null);
    const replay = await send();
    assert.equal(replay.headers.get('idempotent-replayed'), 'true');
    assert.equal(replay.body.id, created.body.id);

    const batch = await finished(created.body.id);
    assert.deepEqual(batch.counts, { total: 200, pending: 0, purchased: 190, failed: 10 });
    assert.ok(batch.completed_at);
    for (const r of batch.results) {
      const why = invalid.get(r.order_id);
      if (why) {
        assert.equal(r.status, 'failed');
        assert.equal(r.shipment_id, null);
        assert.equal(r.error.code, why, JSON.stringify(r));
        assert.ok(r.error.detail.length > 0);
        assert.equal(r.error.status, why === 'not_found' ? 404 : why === 'no_rate_available' ? 422 : 409);
      } else {
        assert.equal(r.status, 'purchased', JSON.stringify(r));
        assert.match(r.shipment_id, /^shp_/);
        assert.equal(r.error, null);
      }
    }

    const db = server.services.database.db;
    const shipments = await db.selectFrom('shipments').select(['id', 'order_id', 'status', 'postage_cents']).where('owner_key_id', '=', keyId).execute();
    assert.equal(shipments.length, 190, 'one label per valid order, none for the others');
    assert.equal(new Set(shipments.map((s) => s.order_id)).size, 190);
    const charges = await db.selectFrom('postage_ledger').select(['shipment_id', 'amount_cents']).where('account_id', '=', account).execute();
    assert.equal(charges.length, 190);
    assert.equal(
      charges.reduce((s, c) => s + c.amount_cents, 0),
      shipments.reduce((s, c) => s + (c.postage_cents ?? 0), 0),
    );
    const shipped = await db.selectFrom('orders').select('id').where('status', '=', 'shipped').where('id', 'in', valid.map((o) => o.id)).execute();
    assert.equal(shipped.length, 190);

    const events = async (type: string) => {
      const seen: Json[] = [];
      let cursor: string | undefined;
      do {
        const res = await server.request('GET', `/events?type=${type}&limit=100${cursor ? `&cursor=${cursor}` : ''}`, { key });
        seen.push(...res.body.data);
        cursor = res.body.next_cursor ?? undefined;
      } while (cursor);
      return seen;
    };
    assert.equal((await events('shipment.created')).length, 190);
    const completed = await events('batch.completed');
    assert.equal(completed.length, 1);
    assert.equal(completed[0]!.data.id, batch.id);
    assert.deepEqual(completed[0]!.data.counts, batch.counts);

    const file = await fetch(at(server.url, batch.label_url));
    assert.equal(file.status, 200);
    assert.equal(file.headers.get('content-type'), 'application/pdf');
    const pdf = await openPdf(Buffer.from(await file.arrayBuffer()), 72);
    assert.equal(pdf.pages, 190);
    assert.deepEqual([Math.round(pdf.width), Math.round(pdf.height)], [288, 432]);
    assert.match(pdf.text, /SAMPLE/);

    const list = await server.request('GET', '/batches', { key });
    assert.equal(list.status, 200);
    assert.equal(list.body.data[0].id, batch.id);
    assert.equal(list.body.data[0].results, undefined, 'lists leave the per-order results out');
  });

  test("a PDF batch of parcels abroad prints each label's customs documents right after it", async () => {
    const toronto = await newOrder(torontoOrderBody({ requested_service: { carrier: 'usps', service: 'FIRST-CLASS_PACKAGE_INTERNATIONAL_SERVICE' } }));
    const domestic = await newOrder();
    const created = await server.request('POST', '/batches', { key, body: { order_ids: [toronto.id, domestic.id] } });
    assert.equal(created.status, 201, created.text);
    const batch = await finished(created.body.id);
    assert.equal(batch.counts.purchased, 2, JSON.stringify(batch.results));
    const abroad = (await server.request('GET', `/shipments/${batch.results[0].shipment_id}`, { key })).body;
    assert.deepEqual(abroad.documents.map((d: Json) => d.type), ['cn22']);
    const pdf = await openPdf(Buffer.from(await (await fetch(at(server.url, batch.label_url))).arrayBuffer()), 72);
    // The label abroad, its CN 22 (one 4×6 page), then the domestic label.
    assert.equal(pdf.pages, 3);
    assert.match(pdf.pageTexts[1]!, /CN ?22/);
    assert.match(pdf.pageTexts[1]!, /6912/);
  });

  test('selection cheapest ignores the requested service; a ZPL batch merges into one ZPL stream', async () => {
    const orders = await inParallel(3, 8, () => newOrder({ requested_service: { carrier: 'ups', service: '01' } }));
    const created = await server.request('POST', '/batches', { key, body: { order_ids: orders.map((o) => o.id), selection: 'cheapest', label_format: 'zpl' } });
    assert.equal(created.status, 201, created.text);
    const batch = await finished(created.body.id);
    assert.equal(batch.counts.purchased, 3);
    for (const r of batch.results) {
      const shipment = (await server.request('GET', `/shipments/${r.shipment_id}`, { key })).body;
      const rates = (await server.request('POST', '/rates', { key, body: { order_id: r.order_id } })).body.rates as Json[];
      const cheapest = Math.min(...rates.map((x) => Number(x.amount.amount)));
      assert.equal(Number(shipment.postage.amount), cheapest, `${shipment.carrier} ${shipment.service} is the cheapest rate`);
      assert.equal(shipment.label_format, 'zpl');
    }
    const zpl = await (await fetch(at(server.url, batch.label_url))).text();
    assert.equal(zpl.match(/\^XA/g)?.length, 3);
    assert.equal(zpl.match(/\^XZ/g)?.length, 3);
    assert.match(batch.label_url, /\.zpl\?token=/);
  });

  test('selection requested buys the requested service; a PNG batch merges into a PDF of its images', async () => {
    const orders = await inParallel(2, 8, () => newOrder({ requested_service: { carrier: 'usps', service: 'PRIORITY_MAIL' } }));
    const created = await server.request('POST', '/batches', { key, body: { order_ids: orders.map((o) => o.id), selection: 'requested', label_format: 'png' } });
    const batch = await finished(created.body.id);
    for (const r of batch.results) {
      const shipment = (await server.request('GET', `/shipments/${r.shipment_id}`, { key })).body;
      assert.deepEqual([shipment.carrier, shipment.service, shipment.label_format], ['usps', 'PRIORITY_MAIL', 'png']);
    }
    const pdf = await openPdf(Buffer.from(await (await fetch(at(server.url, batch.label_url))).arrayBuffer()), 72);
    assert.equal(pdf.pages, 2);
  });

  test('label_size, label_resolution and ship_date apply to every label; PNG 4×8 labels merge onto 4×8 pages', async () => {
    const orders = await inParallel(2, 8, () => newOrder());
    const monday = new Date(server.clock.now().getTime() + 3 * 86_400_000).toISOString().slice(0, 10);
    const created = await server.request('POST', '/batches', { key, body: { order_ids: orders.map((o) => o.id), selection: 'cheapest', label_format: 'png', label_size: '4x8', ship_date: monday } });
    assert.equal(created.status, 201, created.text);
    assert.deepEqual([created.body.label_size, created.body.label_resolution, created.body.ship_date], ['4x8', null, monday]);
    const batch = await finished(created.body.id);
    assert.equal(batch.counts.purchased, 2, JSON.stringify(batch.results));
    for (const r of batch.results) {
      const shipment = (await server.request('GET', `/shipments/${r.shipment_id}`, { key })).body;
      // Only FedEx prints 4×8 PNG labels, so the cheapest rate that can be bought is FedEx's.
      assert.deepEqual([shipment.carrier, shipment.label_size, shipment.ship_date], ['fedex', '4x8', monday]);
    }
    const pdf = await openPdf(Buffer.from(await (await fetch(at(server.url, batch.label_url))).arrayBuffer()), 72);
    assert.deepEqual([pdf.pages, pdf.width, pdf.height], [2, 288, 576]);

    const zpl = await server.request('POST', '/batches', { key, body: { order_ids: [(await newOrder()).id], label_format: 'zpl', label_size: '4x8', label_resolution: 300, selection: 'cheapest' } });
    const zplBatch = await finished(zpl.body.id);
    assert.deepEqual([zplBatch.label_size, zplBatch.label_resolution, zplBatch.ship_date], ['4x8', 300, null]);
    const label = (await server.request('GET', `/shipments/${zplBatch.results[0].shipment_id}`, { key })).body;
    assert.deepEqual([label.label_size, label.label_resolution], ['4x8', 300]);
  });

  test('a ship date past or too far ahead everywhere, or a size ZPL has not, is refused before anything is written', async () => {
    const order = await newOrder();
    const day = (days: number) => new Date(server.clock.now().getTime() + days * 86_400_000).toISOString().slice(0, 10);
    for (const [body, code, pointer] of [
      [{ ship_date: day(-2) }, 'ship_date_out_of_range', '/ship_date'],
      [{ ship_date: day(9) }, 'ship_date_out_of_range', '/ship_date'],
      [{ label_format: 'zpl', label_size: 'letter' }, 'validation_failed', '/label_size'],
      [{ label_format: 'pdf', label_resolution: 300 }, 'validation_failed', '/label_resolution'],
    ] as const) {
      const res = await server.request('POST', '/batches', { key, body: { order_ids: [order.id], ...body } });
      assert.equal(problem(res, 400, code).errors[0].pointer, pointer, res.text);
    }
    const list = await server.request('GET', '/batches?limit=100', { key });
    assert.ok(!list.body.data.some((b: Json) => b.ship_date === day(-2) || b.ship_date === day(9)), 'nothing was stored');
  });

  test('options apply to every label; an order whose requested service cannot do one fails alone; contradictions are refused up front', async () => {
    const plain = await inParallel(2, 8, () => newOrder());
    const ground = await newOrder({ requested_service: { carrier: 'usps', service: 'USPS_GROUND_ADVANTAGE' } });
    const options = { signature: 'adult', saturday_delivery: true };
    const created = await server.request('POST', '/batches', { key, body: { order_ids: [...plain.map((o) => o.id), ground.id], options } });
    assert.equal(created.status, 201, created.text);
    assert.deepEqual(created.body.options, options);
    const batch = await finished(created.body.id);
    assert.deepEqual(batch.counts, { total: 3, pending: 0, purchased: 2, failed: 1 }, JSON.stringify(batch.results));
    for (const r of batch.results.slice(0, 2)) {
      const shipment = (await server.request('GET', `/shipments/${r.shipment_id}`, { key })).body;
      assert.deepEqual(shipment.options, options);
      const types = shipment.surcharges.map((x: Json) => x.type);
      assert.ok(types.includes('saturday_delivery') && types.some((t: string) => t.includes('signature')), `the options are priced: ${types}`);
    }
    const refused = batch.results[2].error;
    assert.match(refused.detail, /saturday/i, JSON.stringify(refused));
    assert.equal((await server.request('GET', `/orders/${ground.id}`, { key })).body.status, 'incomplete');

    const contradiction = await server.request('POST', '/batches', { key, body: { order_ids: [plain[0]!.id], options: { signature: 'standard', delivery_confirmation: true } } });
    assert.equal(problem(contradiction, 400, 'validation_failed').errors[0].pointer, '/options/delivery_confirmation', contradiction.text);
    const unknown = await server.request('POST', '/batches', { key, body: { order_ids: [plain[0]!.id], options: { signature: 'loud' } } });
    assert.equal(problem(unknown, 400, 'validation_failed').errors[0].pointer, '/options/signature', unknown.text);
  });

  test('a batch whose orders all fail completes with no file', async () => {
    const created = await server.request('POST', '/batches', { key, body: { order_ids: [newId('ord')] } });
    const batch = await finished(created.body.id);
    assert.deepEqual(batch.counts, { total: 1, pending: 0, purchased: 0, failed: 1 });
    assert.equal(batch.label_url, null);
  });

  test('a label voided after the batch completed leaves its file; when all are voided the file is gone', async () => {
    const orders = await inParallel(3, 8, () => newOrder());
    const created = await server.request('POST', '/batches', { key, body: { order_ids: orders.map((o) => o.id) } });
    const batch = await finished(created.body.id);
    const pages = async () => {
      const res = await fetch(at(server.url, batch.label_url));
      return res.status === 200 ? (await openPdf(Buffer.from(await res.arrayBuffer()), 72)).pages : res.status;
    };
    assert.equal(await pages(), 3);
    const [first, ...rest] = batch.results.map((r: Json) => r.shipment_id as string);
    assert.equal((await server.request('POST', `/shipments/${first}/void`, { key })).status, 200);
    assert.equal(await pages(), 2);
    assert.equal(await pages(), 2, 'the remade file is kept');
    for (const id of rest) assert.equal((await server.request('POST', `/shipments/${id}/void`, { key })).status, 200);
    assert.equal(await pages(), 410);
    assert.equal(await pages(), 410, 'the old file is never served again');
  });

  test('no payment method: 402 before anything is written; with one, the same request is accepted', async () => {
    const poor = await server.account();
    const poorKey = (await server.key(poor)).secret;
    const order = await newOrder({}, poorKey);
    const send = () => server.request('POST', '/batches', { key: poorKey, headers: { 'idempotency-key': 'poor-1' }, body: { order_ids: [order.id] } });
    problem(await send(), 402, 'payment_method_required');
    assert.equal((await server.request('GET', '/batches', { key: poorKey })).body.data.length, 0);
    await setPaymentMethod(server.services.database.db, server.clock, poor, 'test', 'pm_test_visa');
    const ok = await send();
    assert.equal(ok.status, 201, ok.text);
    assert.equal((await finished(ok.body.id, poorKey)).counts.purchased, 1);
  });

  test('order_ids must be 1 to 500 distinct ids: each mistake names its field', async () => {
    const empty = problem(await server.request('POST', '/batches', { key, body: { order_ids: [] } }), 400, 'validation_failed');
    assert.equal(empty.errors[0].pointer, '/order_ids');
    const many = problem(await server.request('POST', '/batches', { key, body: { order_ids: Array.from({ length: 501 }, () => newId('ord')) } }), 400, 'validation_failed');
    assert.equal(many.errors[0].pointer, '/order_ids');
    const twice = newId('ord');
    const dup = problem(await server.request('POST', '/batches', { key, body: { order_ids: [twice, twice] } }), 400, 'validation_failed');
    assert.equal(dup.errors[0].pointer, '/order_ids');
    const selection = problem(await server.request('POST', '/batches', { key, body: { order_ids: [twice], selection: 'fastest' } }), 400, 'validation_failed');
    assert.equal(selection.errors[0].pointer, '/selection');
  });

  test("another key's batch and its file link are not found; lists hold only the key's own", async () => {
    const order = await newOrder();
    const created = await server.request('POST', '/batches', { key, body: { order_ids: [order.id] } });
    const batch = await finished(created.body.id);
    problem(await server.request('GET', `/batches/${batch.id}`, { key: otherKey }), 404, 'not_found');
    const theirs = (await server.request('GET', '/batches?limit=100', { key: otherKey })).body.data as Json[];
    assert.ok(theirs.every((b) => b.id !== batch.id));
    const forged = new URL(batch.label_url);
    forged.pathname = forged.pathname.replace(batch.id, newId('bat'));
    problem(await server.raw('GET', forged.pathname + forged.search), 403, 'invalid_label_token');
  });
});

describe('the batches feature switch', () => {
  test('off: the routes answer 404 and the OpenAPI document has no batches; on: both are there', async () => {
    const off = await startServer();
    const on = await startServer({ env: { SHIPD_FEATURES: 'batches', SHIPD_WEBHOOKS_ALLOW_INSECURE: 'true' } });
    try {
      const offKey = (await off.key(await off.account())).secret;
      problem(await off.request('POST', '/batches', { key: offKey, body: { order_ids: [newId('ord')] } }), 404, 'route_not_found');
      problem(await off.request('GET', '/batches', { key: offKey }), 404, 'route_not_found');
      const offDoc = (await off.request('GET', '/openapi.json')).body;
      assert.ok(!Object.keys(offDoc.paths).some((p) => p.includes('/batches')));
      assert.ok(!Object.keys(offDoc.components.schemas).some((s) => s.startsWith('Batch')));
      // Nor its event: no webhook can subscribe to what this server never sends.
      assert.ok(!offDoc.components.schemas.WebhookEventType.enum.includes('batch.completed'));
      const subscribe = (server: TestServer, key: string) =>
        server.request('POST', '/webhooks', { key, body: { url: 'http://127.0.0.1:9/hooks', events: ['order.created', 'batch.completed'] } });
      assert.equal(problem(await subscribe(off, offKey), 400, 'validation_failed').errors[0].pointer, '/events/1');

      const onKey = (await on.key(await on.account())).secret;
      assert.equal((await on.request('GET', '/batches', { key: onKey })).status, 200);
      const onDoc = (await on.request('GET', '/openapi.json')).body;
      assert.ok(onDoc.paths['/api/integrations/v1/batches'].post);
      assert.ok(onDoc.paths['/api/integrations/v1/batches/{id}'].get);
      assert.ok(onDoc.components.schemas.Batch);
      assert.ok(onDoc.components.schemas.WebhookEventType.enum.includes('batch.completed'));
      assert.equal((await subscribe(on, onKey)).status, 201);
    } finally {
      await off.close();
      await on.close();
    }
  });
});

describe('a batch across a crash', () => {
  const shared = processDatabase();

  test('the worker killed mid-batch and started again: 190 labels, 10 problems, nothing bought twice, a 190-page PDF', { timeout: 180_000 }, async () => {
    const db = shared.db();
    const env = {
      ...shared.env(),
      SHIPD_FEATURES: 'batches',
      // A crashed worker's batch is taken over once its lease lapses; keep the wait short.
      SHIPD_JOB_LEASE_MS: '2000',
      SHIPD_BATCH_CONCURRENCY: '2',
      // Short, so purchases cut off by the kill are stale soon; long enough for a loaded machine's simulated carrier.
      SHIPD_CARRIER_TIMEOUT_MS: '3000',
    };
    const port = await freePort();
    let shipd = await startShipd(port, env);
    const key = bootstrapKey(shipd);
    assert.ok(key, shipd.stdout());
    const api = `${shipd.url}/api/integrations/v1`;
    const headers = { authorization: `Bearer ${key}`, 'content-type': 'application/json' };
    const call = async (method: string, path: string, body?: unknown) => {
      const res = await fetch(api + path, { method, headers, ...(body !== undefined && { body: JSON.stringify(body) }) });
      return { status: res.status, body: (await res.json()) as Json };
    };

    const orders = await inParallel(190, 8, async (i) => (await call('POST', '/orders', orderBody({ order_number: `K-${i}` }))).body.id as string);
    const invalid = Array.from({ length: 10 }, () => newId('ord'));
    const orderIds = [...orders];
    invalid.forEach((id, i) => orderIds.splice(i * 19 + 3, 0, id));
    const created = await call('POST', '/batches', { order_ids: orderIds });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    const id = created.body.id as string;

    const before = await poll('the first labels', async () => {
      const b = (await call('GET', `/batches/${id}`)).body;
      return b.counts.purchased >= 10 ? b : undefined;
    });
    shipd.child.kill('SIGKILL');
    await shipd.closed;
    assert.ok(before.counts.pending > 50, `killed mid-batch (${JSON.stringify(before.counts)})`);

    shipd = await startShipd(port, env);
    try {
      const batch = await poll('the batch to complete after the restart', async () => {
        const b = (await call('GET', `/batches/${id}`)).body;
        return b.status === 'completed' ? b : undefined;
      });
      assert.deepEqual(batch.counts, { total: 200, pending: 0, purchased: 190, failed: 10 });
      for (const r of batch.results) assert.equal(r.status, invalid.includes(r.order_id) ? 'failed' : 'purchased', JSON.stringify(r));

      const active = await db.selectFrom('shipments').select(['id', 'order_id', 'postage_cents']).where('status', 'in', ['pending', 'purchased']).execute();
      assert.equal(active.length, 190, 'exactly one label per valid order');
      assert.equal(new Set(active.map((s) => s.order_id)).size, 190);
      assert.deepEqual(new Set(batch.results.filter((r: Json) => r.shipment_id).map((r: Json) => r.shipment_id)), new Set(active.map((s) => s.id)));
      const charges = await db.selectFrom('postage_ledger').select(['shipment_id', 'amount_cents']).execute();
      assert.equal(charges.length, 190, 'each label charged once');
      assert.equal(charges.reduce((s, c) => s + c.amount_cents, 0), active.reduce((s, c) => s + (c.postage_cents ?? 0), 0));
      const everBought = await db.selectFrom('shipments').select('id').where('status', '!=', 'failed').execute();
      assert.equal(everBought.length, 190, 'no label was bought and dropped');

      const file = await fetch(at(shipd.url, batch.label_url));
      const pdf = await openPdf(Buffer.from(await file.arrayBuffer()), 72);
      assert.equal(pdf.pages, 190);
    } finally {
      shipd.child.kill('SIGTERM');
      await shipd.closed;
    }
  });
});

describe('a batch whose key is revoked before the worker reaches it', () => {
  let server: TestServer;
  before(async () => {
    server = await startServer({ env: { SHIPD_FEATURES: 'batches' } });
  });
  after(() => server.close());

  test('buys nothing: each order fails with revoked_api_key and nothing is charged', async () => {
    const account = await server.account();
    await setPaymentMethod(server.services.database.db, server.clock, account, 'test', 'pm_test_visa');
    const k = await server.key(account);
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) ids.push((await server.request('POST', '/orders', { key: k.secret, body: orderBody() })).body.id);
    const created = await server.request('POST', '/batches', { key: k.secret, body: { order_ids: ids } });
    assert.equal(created.status, 201, created.text);
    const out = await server.cli(['keys', 'revoke', k.id]);
    assert.equal(out.code, 0, out.stderr);
    const runner = createJobRunner(server.services, createLogger('silent'), { pollMs: 20 });
    runner.start();
    const db = server.services.database.db;
    try {
      await poll('the batch completed', async () => {
        const row = await db.selectFrom('batches').select('status').where('id', '=', created.body.id).executeTakeFirst();
        return row?.status === 'completed' ? row : undefined;
      });
    } finally {
      await runner.stop();
    }
    const items = await db.selectFrom('batch_items').select(['status', 'error']).where('batch_id', '=', created.body.id).execute();
    assert.deepEqual(items.map((i) => [i.status, JSON.parse(i.error ?? '{}').code]), ids.map(() => ['failed', 'revoked_api_key']));
    assert.equal((await db.selectFrom('shipments').select('id').where('owner_key_id', '=', k.id).execute()).length, 0);
    assert.equal((await db.selectFrom('postage_ledger').select('id').where('account_id', '=', account).execute()).length, 0);
  });
});
