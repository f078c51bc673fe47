import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startServer, type TestServer } from '../harness.ts';
import { freePort } from '../shipd-process.ts';
import { payingTestKey } from '../live-billing.ts';
import { startReceiver } from '../webhook-receiver.ts';
import { startProxy, type Proxy } from './proxy.ts';
import { createJobRunner } from '../../src/jobs/index.ts';
import type { JobRunner } from '../../src/jobs/runner.ts';
import { createLogger } from '../../src/http/logger.ts';
import { createShipdClient, ShipdError, unwrap, verifyWebhook, WebhookVerificationError, type components } from '../../clients/typescript/src/index.ts';
import { apiBase } from '../../clients/typescript/src/schema.ts';

type OrderCreate = components['schemas']['OrderCreate'];

const order1042: OrderCreate = {
  order_number: '1042',
  ship_to: { name: 'Ada Lovelace', street1: '415 Mission St', city: 'San Francisco', state: 'CA', zip: '94105' },
  ship_from: { name: 'Warehouse', street1: '1100 Congress Ave', city: 'Austin', state: 'TX', zip: '78701' },
  items: [{ sku: 'MUG-1', name: 'Mug', quantity: 2, unit_price: { amount: '12.50', currency: 'USD' } }],
  parcel: { weight: { value: 2, unit: 'lb' }, dimensions: { length: 10, width: 8, height: 4, unit: 'in' } },
};

let server: TestServer;
let runner: JobRunner;
let key: string;
before(async () => {
  // A port known before it starts, so that the label URLs it answers, on its public address, lead back to it.
  server = await startServer({ env: { PORT: String(await freePort()), SHIPD_WEBHOOKS_ALLOW_INSECURE: 'true' } });
  runner = createJobRunner(server.services, createLogger('silent'), { pollMs: 20, delivery: { pollMs: 20, timeoutMs: 2_000, perEndpoint: 4 } });
  runner.start();
  key = await payingTestKey(server);
});
after(async () => {
  await runner.stop();
  await server.close();
});

/** A client whose every attempt is recorded, as the server got it. */
function recorded(options: { apiKey?: string; baseUrl?: string; retry?: Parameters<typeof createShipdClient>[0]['retry'] } = {}) {
  const sent: { method: string; url: URL; idempotencyKey: string | null; status: number }[] = [];
  const shipd = createShipdClient({
    apiKey: options.apiKey ?? key,
    baseUrl: options.baseUrl ?? server.url,
    retry: options.retry,
    fetch: async (request) => {
      const response = await fetch(request);
      sent.push({ method: request.method, url: new URL(request.url), idempotencyKey: request.headers.get('idempotency-key'), status: response.status });
      return response;
    },
  });
  return { shipd, sent };
}

test("the README's quick start, written with the client: order, rates, label, the shipment, tracking", async () => {
  const { shipd, sent } = recorded();
  const carriers = unwrap(await shipd.GET('/carriers'));
  assert.deepEqual(carriers.data.map((c) => c.id).sort(), ['fedex', 'ups', 'usps']);

  const order = unwrap(await shipd.POST('/orders', { body: order1042 }));
  assert.match(order.id, /^ord_/);
  assert.equal(order.status, 'incomplete');
  const { rates } = unwrap(await shipd.POST('/rates', { body: { order_id: order.id } }));
  assert.ok(rates.length > 0);
  const shipment = unwrap(await shipd.POST('/shipments', { body: { order_id: order.id, rate_id: rates[0]!.id, label_format: 'pdf' } }));
  assert.equal(shipment.status, 'purchased');
  assert.equal(shipment.carrier, rates[0]!.carrier);

  const label = await fetch(shipment.label_url!);
  assert.equal(label.status, 200);
  assert.equal((await label.text()).slice(0, 5), '%PDF-');

  const again = unwrap(await shipd.GET('/shipments/{id}', { params: { path: { id: shipment.id } } }));
  assert.equal(again.tracking_number, shipment.tracking_number);
  const tracker = unwrap(await shipd.POST('/tracking', { body: { order_id: order.id } }));
  assert.equal(tracker.tracking_number, shipment.tracking_number);
  assert.equal(tracker.status, 'pre_transit');
  assert.equal(unwrap(await shipd.GET('/orders/{id}', { params: { path: { id: order.id } } })).status, 'shipped');

  // Every call went to the API's base, and each creating POST carried a key of its own; POST /rates and /tracking take none.
  assert.ok(sent.every((s) => s.url.pathname.startsWith(apiBase + '/')));
  const keyed = sent.filter((s) => s.idempotencyKey !== null).map((s) => `${s.method} ${s.url.pathname.slice(apiBase.length)}`);
  assert.deepEqual(keyed, ['POST /orders', 'POST /shipments']);
  assert.equal(new Set(sent.map((s) => s.idempotencyKey).filter(Boolean)).size, 2);
});

const clientDir = join(import.meta.dirname, '..', '..', 'clients', 'typescript');

test("the client README's order-to-label flow is examples/quick-start.ts, and it runs: a label saved, bought and tracked", async () => {
  const example = readFileSync(join(clientDir, 'examples', 'quick-start.ts'), 'utf8');
  const readme = readFileSync(join(clientDir, 'README.md'), 'utf8');
  const shown = /```ts\n(import \{ writeFile \}[\s\S]*?)```/.exec(readme)?.[1];
  assert.equal(shown, example.replace("'../src/index.ts'", "'@shipd/client'"), 'the README shows the example as a user imports it');
  assert.ok(example.split('\n').length <= 32, 'about 30 lines');

  const cwd = mkdtempSync(join(tmpdir(), 'shipd-client-example-'));
  try {
    const child = spawn(process.execPath, ['--import', import.meta.resolve('tsx'), join(clientDir, 'examples', 'quick-start.ts')], {
      cwd,
      env: { PATH: process.env.PATH ?? '', SHIPD_KEY: key, SHIPD_URL: server.url },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c));
    child.stderr.on('data', (c: Buffer) => (stderr += c));
    const code = await new Promise((resolve) => child.on('close', resolve));
    assert.equal(code, 0, stderr);
    assert.match(stdout, /^.+ \S+: \d+\.\d\d USD\npurchased; pre_transit: .+\n$/);
    assert.equal(readFileSync(join(cwd, 'label.pdf')).subarray(0, 5).toString(), '%PDF-');
  } finally {
    rmSync(cwd, { recursive: true, force: true });
  }
});

test('an Idempotency-Key given by the caller is sent as given', async () => {
  const { shipd, sent } = recorded();
  const headers = new Headers({ 'x-request-id': 'client-test-1' });
  const tagged = await createShipdClient({ apiKey: key, baseUrl: server.url, headers }).GET('/carriers');
  assert.equal(tagged.response.headers.get('x-request-id'), 'client-test-1', 'headers given to the client go with every call');
  const first = await shipd.POST('/orders', { body: order1042, params: { header: { 'idempotency-key': 'order-1042-mine' } } });
  const second = await shipd.POST('/orders', { body: order1042, params: { header: { 'idempotency-key': 'order-1042-mine' } } });
  assert.deepEqual(sent.map((s) => s.idempotencyKey), ['order-1042-mine', 'order-1042-mine']);
  assert.equal(unwrap(second).id, unwrap(first).id);
  assert.equal(second.response.headers.get('idempotent-replayed'), 'true');
});

describe('retries', () => {
  let proxy: Proxy;
  before(async () => {
    proxy = await startProxy(server.url);
  });
  after(() => proxy.close());
  const shipmentsPost = (r: { method: string; path: string }) => r.method === 'POST' && r.path === `${apiBase}/shipments`;

  test('a label whose answer was lost is asked for again with the same key, and bought once', async () => {
    proxy.seen.length = 0;
    let dropped = false;
    proxy.decide = (r) => {
      if (!shipmentsPost(r) || dropped) return 'forward';
      dropped = true;
      return 'forward-and-drop';
    };
    const shipd = createShipdClient({ apiKey: key, baseUrl: proxy.url, retry: { baseDelayMs: 10 } });
    const order = unwrap(await shipd.POST('/orders', { body: { ...order1042, order_number: 'retry-1' } }));
    const { rates } = unwrap(await shipd.POST('/rates', { body: { order_id: order.id } }));
    const bought = await shipd.POST('/shipments', { body: { order_id: order.id, rate_id: rates[0]!.id } });
    const shipment = unwrap(bought);

    const posts = proxy.seen.filter(shipmentsPost);
    assert.equal(posts.length, 2, 'the lost answer was retried once');
    assert.ok(posts[0]!.headers['idempotency-key']);
    assert.equal(posts[1]!.headers['idempotency-key'], posts[0]!.headers['idempotency-key']);
    assert.equal(bought.response.headers.get('idempotent-replayed'), 'true', 'the retry got the first purchase back');
    const labels = unwrap(await shipd.GET('/shipments', { params: { query: { order_id: order.id } } }));
    assert.deepEqual(labels.data.map((s) => s.id), [shipment.id]);
  });

  test('a 409 idempotency_key_in_use is waited out with the same key, to get the first request\'s answer', async () => {
    proxy.seen.length = 0;
    const inUse = { type: 'about:blank', title: 'A request with this Idempotency-Key is still running', status: 409, detail: 'still running', code: 'idempotency_key_in_use', request_id: 'req-409' };
    proxy.decide = (_r, i) => (i === 0 ? { status: 409, body: JSON.stringify(inUse) } : 'forward');
    const shipd = createShipdClient({ apiKey: key, baseUrl: proxy.url, retry: { baseDelayMs: 10 } });
    const order = unwrap(await shipd.POST('/orders', { body: order1042 }));
    assert.match(order.id, /^ord_/);
    assert.equal(proxy.seen.length, 2);
    assert.equal(proxy.seen[1]!.headers['idempotency-key'], proxy.seen[0]!.headers['idempotency-key']);

    // Any other 409 is the answer.
    proxy.seen.length = 0;
    proxy.decide = () => ({ status: 409, body: JSON.stringify({ ...inUse, code: 'order_already_shipped' }) });
    assert.equal((await shipd.POST('/orders', { body: order1042 })).error?.code, 'order_already_shipped');
    assert.equal(proxy.seen.length, 1);
  });

  test('a POST without an Idempotency-Key is not sent again after a lost answer', async () => {
    proxy.seen.length = 0;
    const order = unwrap(await createShipdClient({ apiKey: key, baseUrl: server.url }).POST('/orders', { body: order1042 }));
    proxy.decide = (r) => (r.path === `${apiBase}/rates` ? 'forward-and-drop' : 'forward');
    const shipd = createShipdClient({ apiKey: key, baseUrl: proxy.url, retry: { baseDelayMs: 10 } });
    await assert.rejects(shipd.POST('/rates', { body: { order_id: order.id } }), TypeError);
    assert.equal(proxy.seen.length, 1);
  });

  test('any request is tried again while its connection is refused, a POST without a key too', async () => {
    const order = unwrap(await createShipdClient({ apiKey: key, baseUrl: server.url }).POST('/orders', { body: order1042 }));
    const port = await freePort();
    const shipd = createShipdClient({ apiKey: key, baseUrl: `http://127.0.0.1:${port}`, retry: { baseDelayMs: 200 } });
    const rated = shipd.POST('/rates', { body: { order_id: order.id } });
    await new Promise((resolve) => setTimeout(resolve, 50));
    const late = await startProxy(server.url, port);
    try {
      assert.ok(unwrap(await rated).rates.length > 0);
      assert.equal(late.seen.length, 1);
    } finally {
      await late.close();
    }
  });

  test('a 503 is retried after its Retry-After, not sooner', async () => {
    proxy.seen.length = 0;
    proxy.decide = (_r, i) => (i === 0 ? { status: 503, headers: { 'retry-after': '1' }, body: '{}' } : 'forward');
    const shipd = createShipdClient({ apiKey: key, baseUrl: proxy.url, retry: { baseDelayMs: 1 } });
    const carriers = unwrap(await shipd.GET('/carriers'));
    assert.equal(carriers.object, 'list');
    assert.equal(proxy.seen.length, 2);
    assert.ok(proxy.seen[1]!.at - proxy.seen[0]!.at >= 990, `retried after ${proxy.seen[1]!.at - proxy.seen[0]!.at} ms`);
  });

  test('attempts are bounded: the last 503 is thrown as a ShipdError; a Retry-After past the longest wait ends them at once', async () => {
    proxy.seen.length = 0;
    const unavailable = { type: 'about:blank', title: 'The service is temporarily unavailable', status: 503, detail: 'down', code: 'service_unavailable', request_id: 'req-503' };
    proxy.decide = () => ({ status: 503, body: JSON.stringify(unavailable) });
    const shipd = createShipdClient({ apiKey: key, baseUrl: proxy.url, retry: { maxAttempts: 3, baseDelayMs: 5 } });
    const err = await shipd.GET('/carriers').then(unwrap).then(() => assert.fail('no error'), (e: unknown) => e);
    assert.ok(err instanceof ShipdError);
    assert.equal(err.status, 503);
    assert.equal(err.code, 'service_unavailable');
    assert.equal(err.requestId, 'req-503');
    assert.equal(proxy.seen.length, 3);

    proxy.seen.length = 0;
    proxy.decide = () => ({ status: 503, headers: { 'retry-after': '60' }, body: JSON.stringify(unavailable) });
    const impatient = createShipdClient({ apiKey: key, baseUrl: proxy.url, retry: { maxDelayMs: 1_000 } });
    assert.equal((await impatient.GET('/carriers')).response.status, 503);
    assert.equal(proxy.seen.length, 1);
  });

  test("shipd's own 429 is waited out as its Retry-After says", async () => {
    const limited = await startServer({ database: server.db, env: { SHIPD_RATE_LIMIT_PER_SECOND: '1', SHIPD_RATE_LIMIT_BURST: '1' } });
    try {
      const apiKey = (await limited.key(await limited.account())).secret;
      const { shipd, sent } = recorded({ apiKey, baseUrl: limited.url, retry: { baseDelayMs: 1 } });
      unwrap(await shipd.GET('/carriers'));
      const started = Date.now();
      unwrap(await shipd.GET('/carriers'));
      assert.deepEqual(sent.map((s) => s.status), [200, 429, 200]);
      assert.ok(Date.now() - started >= 900, `waited ${Date.now() - started} ms`);
    } finally {
      await limited.close();
    }
  });
});

describe('errors', () => {
  test('a 400 is a ShipdError with its code and a pointer to each field at fault', async () => {
    const shipd = createShipdClient({ apiKey: key, baseUrl: server.url });
    const result = await shipd.POST('/orders', { body: { ...order1042, parcel: { weight: { value: -2, unit: 'lb' } }, ship_to: { ...order1042.ship_to, city: '' } } });
    // Without unwrap, the error is the problem document, typed from the OpenAPI document.
    assert.equal(result.error?.code, 'validation_failed');
    const err = (() => {
      try {
        unwrap(result);
      } catch (e) {
        return e;
      }
      assert.fail('no error');
    })();
    assert.ok(err instanceof ShipdError);
    assert.equal(err.status, 400);
    assert.equal(err.code, 'validation_failed');
    assert.equal(err.title, 'The request is not valid');
    assert.ok(err.detail.length > 0);
    assert.deepEqual([...new Set(err.errors.map((e) => `${e.in} ${e.pointer}`))].sort(), ['body /parcel/weight/value', 'body /ship_to/city']);
    assert.equal(err.requestId, result.response.headers.get('x-request-id'));
    assert.match(err.message, /^validation_failed: /);
  });

  test('a 404 is a ShipdError not_found, without field errors', async () => {
    const shipd = createShipdClient({ apiKey: key, baseUrl: server.url });
    const err = await shipd
      .GET('/orders/{id}', { params: { path: { id: 'ord_00000000000000000000000000' } } })
      .then(unwrap)
      .then(() => assert.fail('no error'), (e: unknown) => e);
    assert.ok(err instanceof ShipdError);
    assert.equal(err.status, 404);
    assert.equal(err.code, 'not_found');
    assert.deepEqual(err.errors, []);
    assert.ok(err.requestId);
  });
});

describe('lists', () => {
  test('list() walks every page of a cursor list, newest first, one request a page', async () => {
    const apiKey = (await server.key(await server.account())).secret;
    const { shipd, sent } = recorded({ apiKey });
    const created: string[] = [];
    for (let i = 0; i < 7; i++) created.push(unwrap(await shipd.POST('/orders', { body: { ...order1042, order_number: `page-${i}` } })).id);
    sent.length = 0;
    const listed: string[] = [];
    for await (const order of shipd.list('/orders', { params: { query: { limit: 3 } } })) listed.push(order.id);
    assert.deepEqual(listed, [...created].reverse());
    assert.equal(sent.length, 3, 'pages of 3, 3 and 1');
    assert.deepEqual(sent.map((s) => s.url.searchParams.get('limit')), ['3', '3', '3']);
    assert.equal(sent[0]!.url.searchParams.get('cursor'), null);
    assert.ok(sent[1]!.url.searchParams.get('cursor'));

    // Filters go with every page.
    const filtered: string[] = [];
    for await (const order of shipd.list('/orders', { params: { query: { limit: 1, order_number: 'page-4' } } })) filtered.push(order.id);
    assert.deepEqual(filtered, [created[4]]);
  });

  test('list() reads a list of one page, and one below a path with parameters', async () => {
    const shipd = createShipdClient({ apiKey: key, baseUrl: server.url });
    const carriers: string[] = [];
    for await (const carrier of shipd.list('/carriers')) carriers.push(carrier.id);
    assert.deepEqual(carriers.sort(), ['fedex', 'ups', 'usps']);

    const receiver = await startReceiver();
    try {
      const webhook = unwrap(await shipd.POST('/webhooks', { body: { url: receiver.url, events: ['order.created'] } }));
      unwrap(await shipd.POST('/webhooks/{id}/test', { params: { path: { id: webhook.id } } }));
      const deliveries = [];
      for await (const delivery of shipd.list('/webhooks/{id}/deliveries', { params: { path: { id: webhook.id }, query: { limit: 1 } } })) deliveries.push(delivery);
      assert.deepEqual(deliveries.map((d) => d.event_type), ['webhook.test']);
      unwrap(await shipd.DELETE('/webhooks/{id}', { params: { path: { id: webhook.id } } }));
    } finally {
      await receiver.close();
    }
  });

  test('a page that fails throws a ShipdError from the iterator', async () => {
    const shipd = createShipdClient({ apiKey: key, baseUrl: server.url });
    const walk = async () => {
      for await (const order of shipd.list('/orders', { params: { query: { cursor: 'bm90IGEgY3Vyc29y' } } })) assert.fail(`listed ${order.id}`);
    };
    await assert.rejects(walk(), (err: unknown) => err instanceof ShipdError && err.code === 'validation_failed' && err.errors[0]?.pointer === '/cursor');
  });
});

test('verifyWebhook accepts a delivery from shipd as the typed event, and refuses one tampered with or under another secret', async () => {
  const receiver = await startReceiver();
  try {
    const apiKey = (await server.key(await server.account())).secret;
    const shipd = createShipdClient({ apiKey, baseUrl: server.url });
    const webhook = unwrap(await shipd.POST('/webhooks', { body: { url: receiver.url, events: ['order.created'] } }));
    const order = unwrap(await shipd.POST('/orders', { body: order1042 }));
    await receiver.waitFor((r) => r.length === 1);
    const delivery = receiver.received[0]!;

    const secret = webhook.secret;
    assert.ok(secret, 'the secret is shown at creation');
    const event = verifyWebhook(delivery.body, delivery.headers, secret);
    assert.equal(event.type, 'order.created');
    assert.equal(event.id, delivery.headers['webhook-id']);
    if (event.type !== 'order.created') return;
    // The data is typed by the event's type: an order here.
    assert.equal(event.data.id, order.id);
    assert.equal(event.data.order_number, '1042');
    // A Uint8Array body and fetch's Headers work as well as Node's string and header object.
    const headers = new Headers(Object.entries(delivery.headers).map(([k, v]) => [k, String(v)]));
    assert.equal(verifyWebhook(new TextEncoder().encode(delivery.body), headers, secret).id, event.id);

    const tampered = delivery.body.replace(order.id, 'ord_00000000000000000000000000');
    assert.notEqual(tampered, delivery.body);
    assert.throws(() => verifyWebhook(tampered, delivery.headers, secret), WebhookVerificationError);
    const otherSecret = unwrap(await shipd.POST('/webhooks', { body: { url: receiver.url, events: ['order.created'] } })).secret;
    assert.ok(otherSecret);
    assert.throws(() => verifyWebhook(delivery.body, delivery.headers, otherSecret), WebhookVerificationError);
  } finally {
    await receiver.close();
  }
});
