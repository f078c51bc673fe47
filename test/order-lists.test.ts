import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { problem, startServer, type TestServer } from './harness.ts';
import { orderBody } from './fixtures.ts';

let server: TestServer;
let key: string;
const created: string[] = [];

before(async () => {
  server = await startServer({ env: { SHIPD_RATE_LIMIT_PER_SECOND: '100000', SHIPD_RATE_LIMIT_BURST: '100000' } });
  key = (await server.key(await server.account())).secret;
  for (let batch = 0; batch < 25; batch++) {
    const answers = await Promise.all(
      Array.from({ length: 10 }, (_, i) => server.request('POST', '/orders', { key, body: orderBody({ order_number: `n-${batch * 10 + i}` }) })),
    );
    for (const a of answers) {
      assert.equal(a.status, 201);
      created.push(a.body.id);
    }
  }
});
after(() => server.close());

type Page = { data: { id: string }[]; has_more: boolean; next_cursor: string | null };

async function walk(path: string, limit: number): Promise<string[]> {
  const seen: string[] = [];
  let cursor: string | null = null;
  do {
    const sep = path.includes('?') ? '&' : '?';
    const res: { status: number; body: Page } = await server.request('GET', `${path}${sep}limit=${limit}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`, { key });
    assert.equal(res.status, 200);
    assert.ok(res.body.data.length <= limit);
    seen.push(...res.body.data.map((o) => o.id));
    if (!res.body.has_more) assert.equal(res.body.next_cursor, null);
    cursor = res.body.next_cursor;
  } while (cursor);
  return seen;
}

describe('walking the list', () => {
  test('every one of 250 orders exactly once, newest first, while more are being created', async () => {
    let writing = true;
    const writes: Promise<unknown>[] = [];
    const writer = (async () => {
      while (writing) {
        const p = server.request('POST', '/orders', { key, body: orderBody({ order_number: 'during-walk' }) });
        writes.push(p);
        await p;
      }
    })();
    const seen = await walk('/orders', 7);
    writing = false;
    await writer;
    await Promise.all(writes);
    assert.ok(writes.length > 0, 'orders were created during the walk');
    assert.equal(new Set(seen).size, seen.length, 'no order twice');
    const original = new Set(created);
    assert.deepEqual(seen.filter((id) => original.has(id)).sort(), [...created].sort(), 'none of the 250 missed');
    assert.deepEqual(seen, [...seen].sort().reverse(), 'newest first');
  });

  test('limits: 100 at most, 1 at least', async () => {
    const full = await server.request('GET', '/orders?limit=100', { key });
    assert.equal(full.body.data.length, 100);
    assert.equal(full.body.has_more, true);
    for (const bad of ['101', '0', '-1', 'ten']) {
      const p = problem(await server.request('GET', `/orders?limit=${bad}`, { key }), 400, 'validation_failed');
      assert.deepEqual(p.errors.map((e: { in: string; pointer: string }) => `${e.in}${e.pointer}`), ['query/limit']);
    }
  });

  test('a cursor that is not one of this list is a 400 naming it', async () => {
    const eventCursor = Buffer.from('evt_01m81wmnea72vpx7xb7ptx4004').toString('base64url');
    for (const cursor of ['garbage!!', eventCursor, Buffer.from('ord_short').toString('base64url')]) {
      const p = problem(await server.request('GET', `/orders?cursor=${encodeURIComponent(cursor)}`, { key }), 400, 'validation_failed');
      assert.deepEqual(p.errors, [{ in: 'query', pointer: '/cursor', detail: 'is not a cursor of this list' }]);
    }
  });
});

describe('filters', () => {
  test('status', async () => {
    const cancel = created.slice(0, 3);
    for (const id of cancel) assert.equal((await server.request('POST', `/orders/${id}/cancel`, { key })).status, 200);
    const cancelled = await walk('/orders?status=cancelled', 2);
    assert.deepEqual(cancelled.sort(), [...cancel].sort());
    problem(await server.request('GET', '/orders?status=lost', { key }), 400, 'validation_failed');
  });

  test('order_number', async () => {
    const res = await server.request('GET', '/orders?order_number=n-42', { key });
    assert.deepEqual(res.body.data.map((o: { id: string }) => o.id), [created[42]]);
  });

  test('created_after and created_before', async () => {
    server.clock.advance(3_600_000);
    const start = server.clock.now().toISOString();
    const inside = (await server.request('POST', '/orders', { key, body: orderBody() })).body.id;
    server.clock.advance(3_600_000);
    const end = server.clock.now().toISOString();
    const later = (await server.request('POST', '/orders', { key, body: orderBody() })).body.id;
    const window = await walk(`/orders?created_after=${start}&created_before=${end}`, 10);
    assert.deepEqual(window, [inside]);
    const since = await walk(`/orders?created_after=${start}`, 10);
    assert.deepEqual(since, [later, inside]);
    problem(await server.request('GET', '/orders?created_after=yesterday', { key }), 400, 'validation_failed');
  });
});

describe('events list', () => {
  test('pages the same way, and filters by type', async () => {
    const all = await walk('/events', 9);
    assert.equal(new Set(all).size, all.length);
    assert.ok(all.length >= 253);
    const updates = await walk('/events?type=order.updated', 2);
    assert.equal(updates.length, 3, 'one per cancelled order');
    problem(await server.request('GET', '/events?type=order.deleted', { key }), 400, 'validation_failed');
  });
});
