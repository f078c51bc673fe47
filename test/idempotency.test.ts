import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { fingerprint, idempotencyTtlMs } from '../src/domain/core/idempotency.ts';
import { problem, startServer, type TestServer } from './harness.ts';
import { orderBody } from './fixtures.ts';

let server: TestServer;
let keyA: { id: string; secret: string };
let keyB: { id: string; secret: string };

before(async () => {
  server = await startServer({ idempotencyWaitMs: 600 });
  const account = await server.account();
  keyA = await server.key(account);
  keyB = await server.key(account);
});
after(() => server.close());

const post = (idem: string, body: unknown, key = keyA.secret) =>
  server.request('POST', '/orders', { key, body, headers: { 'idempotency-key': idem } });

async function countOrders(key = keyA.secret): Promise<number> {
  let n = 0;
  let cursor: string | null = null;
  do {
    const page: { body: { data: unknown[]; next_cursor: string | null } } = await server.request('GET', `/orders?limit=100${cursor ? `&cursor=${cursor}` : ''}`, { key });
    n += page.body.data.length;
    cursor = page.body.next_cursor;
  } while (cursor);
  return n;
}

describe('Idempotency-Key on POST /orders', () => {
  test('50 concurrent requests with one key and body create one order, and all 50 answers carry it', async () => {
    const before = await countOrders();
    const body = orderBody({ order_number: 'concurrent-50' });
    const answers = await Promise.all(Array.from({ length: 50 }, () => post('concurrent-50', body)));
    assert.deepEqual([...new Set(answers.map((a) => a.status))], [201]);
    const ids = new Set(answers.map((a) => a.body.id));
    assert.equal(ids.size, 1, `answers carried ${ids.size} different orders`);
    assert.equal(new Set(answers.map((a) => a.text)).size, 1, 'every answer is the same bytes');
    assert.equal(answers.filter((a) => a.headers.get('idempotent-replayed') === 'true').length, 49);
    assert.equal(await countOrders(), before + 1);
    const events = (await server.request('GET', '/events?type=order.created&limit=100', { key: keyA.secret })).body.data;
    assert.equal(events.filter((e: { data: { id: string } }) => ids.has(e.data.id)).length, 1, 'one order.created');
  });

  test('a replay after completion returns the stored status and body byte for byte', async () => {
    const body = orderBody({ order_number: 'replay' });
    const first = await post('replay-1', body);
    assert.equal(first.status, 201);
    assert.equal(first.headers.get('idempotent-replayed'), null);
    server.clock.advance(60_000);
    const again = await post('replay-1', body);
    assert.equal(again.status, 201);
    assert.equal(again.text, first.text);
    assert.equal(again.headers.get('content-type'), first.headers.get('content-type'));
    assert.equal(again.headers.get('idempotent-replayed'), 'true');
  });

  test('the same key with another body is 422, and creates nothing', async () => {
    await post('reuse-1', orderBody({ order_number: 'a' }));
    const before = await countOrders();
    problem(await post('reuse-1', orderBody({ order_number: 'b' })), 422, 'idempotency_key_reused');
    assert.equal(await countOrders(), before);
  });

  test('the order of fields does not make a different body', async () => {
    const body = orderBody({ order_number: 'order-of-keys' });
    const reversed = Object.fromEntries(Object.entries(body).reverse());
    const first = await post('key-order', body);
    const second = await post('key-order', reversed);
    assert.equal(second.status, 201);
    assert.equal(second.body.id, first.body.id);
    assert.equal(fingerprint({ a: 1, b: [{ c: 2, d: 3 }] }), fingerprint({ b: [{ d: 3, c: 2 }], a: 1 }));
  });

  test('a validation failure is not stored: the corrected request with the same key goes through', async () => {
    const bad = orderBody({ ship_to: { street1: '1 Main', city: 'X', state: 'ZZ', zip: '12345' } });
    problem(await post('fix-me', bad), 400, 'validation_failed');
    problem(await post('fix-me', orderBody({ colour: 'red' })), 400, 'validation_failed');
    const fixed = await post('fix-me', orderBody({ order_number: 'fixed' }));
    assert.equal(fixed.status, 201);
    assert.equal(fixed.headers.get('idempotent-replayed'), null);
  });

  test('keys are scoped to the API key: another key with the same Idempotency-Key gets its own order', async () => {
    const body = orderBody({ order_number: 'scoped' });
    const a = await post('scoped-1', body, keyA.secret);
    const b = await post('scoped-1', body, keyB.secret);
    assert.equal(b.status, 201);
    assert.notEqual(b.body.id, a.body.id);
    assert.equal(b.headers.get('idempotent-replayed'), null);
    problem(await server.request('GET', `/orders/${a.body.id}`, { key: keyB.secret }), 404, 'not_found');
  });

  test('a quoted key is the same key as the bare one', async () => {
    const body = orderBody({ order_number: 'quoted' });
    const bare = await post('quoted-1', body);
    const quoted = await post('"quoted-1"', body);
    assert.equal(quoted.body.id, bare.body.id);
  });

  test('malformed keys are 400 invalid_idempotency_key and nothing is created', async () => {
    const before = await countOrders();
    // (HTTP itself trims spaces around a header value, so those are not tried.)
    for (const bad of ['x'.repeat(256), 'x'.repeat(258), 'x'.repeat(5_000), 'tab\there', 'caf\u00e9']) {
      const res = await server.raw('POST', '/api/integrations/v1/orders', {
        headers: { authorization: `Bearer ${keyA.secret}`, 'content-type': 'application/json', 'idempotency-key': Buffer.from(bad, 'latin1').toString('latin1') },
        body: JSON.stringify(orderBody()),
      });
      assert.equal(res.status, 400, bad);
      assert.equal(JSON.parse(res.text).code, 'invalid_idempotency_key', `${bad.length} characters: ${res.text}`);
    }
    assert.equal(await countOrders(), before);
  });

  test('without the header every request creates its own order', async () => {
    const body = orderBody({ order_number: 'no-key' });
    const a = await server.request('POST', '/orders', { key: keyA.secret, body });
    const b = await server.request('POST', '/orders', { key: keyA.secret, body });
    assert.notEqual(a.body.id, b.body.id);
  });

  test('while the first request still runs, a duplicate waits and then answers 409', async () => {
    // As validated, with the schema's defaults filled in: that is what the fingerprint is of.
    const body = orderBody({ order_number: 'running' });
    for (const side of ['ship_to', 'ship_from'] as const) body[side] = { ...(body[side] as object), country: 'US' };
    const now = server.clock.now();
    await server.services.database.db
      .insertInto('idempotency_keys')
      .values({
        owner_key_id: keyA.id,
        method: 'POST',
        path: '/api/integrations/v1/orders',
        idem_key: 'still-running',
        fingerprint: fingerprint(body),
        status: 'running',
        response_status: null,
        response_type: null,
        response_body: null,
        locked_until: new Date(now.getTime() + 60_000).toISOString(),
        created_at: now.toISOString(),
        expires_at: new Date(now.getTime() + idempotencyTtlMs).toISOString(),
      })
      .execute();
    const started = Date.now();
    problem(await post('still-running', body), 409, 'idempotency_key_in_use');
    assert.ok(Date.now() - started >= 500, 'it waited for the first request before giving up');
    // A claim abandoned by a crash is taken over once its lease is over.
    server.clock.advance(61_000);
    const taken = await post('still-running', body);
    assert.equal(taken.status, 201);
    assert.equal((await post('still-running', body)).text, taken.text);
  });

  test('after 7 days the key is free again', async () => {
    const body = orderBody({ order_number: 'week' });
    const first = await post('week-1', body);
    server.clock.advance(idempotencyTtlMs + 1_000);
    const later = await post('week-1', body);
    assert.equal(later.status, 201);
    assert.notEqual(later.body.id, first.body.id);
    assert.equal(later.headers.get('idempotent-replayed'), null);
  });
});
