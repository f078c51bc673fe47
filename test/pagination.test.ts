import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { problem, startServer, type Response, type TestServer } from './harness.ts';
import { orderBody } from './fixtures.ts';

// Cursor pagination of GET /orders and GET /events: every item exactly once, newest first, whatever is
// created meanwhile; the page envelope; the limits; the filters; cursors that are not this list's.

let server: TestServer;
/** The key that owns the 250 orders the walk is about. */
let key: string;
/** Their ids, oldest first. */
let originals: string[];

interface Item {
  id: string;
  [field: string]: unknown;
}
interface PageBody {
  object: string;
  data: Item[];
  has_more: boolean;
  next_cursor: string | null;
}

/** Runs `task` for 0..count-1 with at most `width` in flight at once; the results in index order. */
async function bounded<T>(count: number, width: number, task: (i: number) => Promise<T>): Promise<T[]> {
  const results: T[] = new Array(count);
  let next = 0;
  const worker = async () => {
    while (next < count) {
      const i = next++;
      results[i] = await task(i);
    }
  };
  await Promise.all(Array.from({ length: Math.min(width, count) }, worker));
  return results;
}

async function createOrder(k: string, overrides: Record<string, unknown> = {}): Promise<Item> {
  const res = await server.request('POST', '/orders', { key: k, body: orderBody(overrides) });
  assert.equal(res.status, 201, res.text);
  return res.body;
}

function listPath(path: string, params: Record<string, string | number | undefined>): string {
  const q = new URLSearchParams();
  for (const [name, value] of Object.entries(params)) if (value !== undefined) q.set(name, String(value));
  const s = q.toString();
  return s ? `${path}?${s}` : path;
}

/** Checks what every page must satisfy, whatever the list. */
function checkPage(res: Response, limit: number): PageBody {
  assert.equal(res.status, 200, res.text);
  const page: PageBody = res.body;
  assert.deepEqual(Object.keys(page).sort(), ['data', 'has_more', 'next_cursor', 'object']);
  assert.equal(page.object, 'list');
  assert.ok(Array.isArray(page.data));
  assert.ok(page.data.length <= limit, `a page of ${page.data.length} for limit ${limit}`);
  if (page.has_more) {
    assert.equal(page.data.length, limit, 'only the last page may be short');
    assert.equal(typeof page.next_cursor, 'string');
  } else {
    assert.equal(page.next_cursor, null, 'the last page has no next_cursor');
  }
  return page;
}

/**
 * Follows next_cursor from the first page to the last; every item in the order served. `between` runs after
 * each page, before the next is asked for.
 */
async function walk(
  k: string,
  path: string,
  limit: number,
  params: Record<string, string | undefined> = {},
  between?: () => Promise<unknown>,
): Promise<{ items: Item[]; pages: number }> {
  const items: Item[] = [];
  let cursor: string | undefined;
  let pages = 0;
  for (;;) {
    const page = checkPage(await server.request('GET', listPath(path, { ...params, limit, cursor }), { key: k }), limit);
    pages++;
    assert.ok(pages <= 1000, 'the walk does not end');
    items.push(...page.data);
    if (!page.has_more) break;
    cursor = page.next_cursor!;
    if (between) await between();
  }
  return { items, pages };
}

/**
 * Walks `path` while a loop keeps creating orders with key `k`, one after another, until the walk ends. Each
 * page waits until one more order has been created, so creations fall between every pair of pages.
 */
async function walkWhileCreating(k: string, path: string, limit: number): Promise<{ walked: Item[]; createdDuring: string[] }> {
  let walking = true;
  let failure: unknown;
  const createdDuring: string[] = [];
  const writer = (async () => {
    try {
      while (walking) createdDuring.push((await createOrder(k, { order_number: 'during-walk' })).id);
    } catch (error) {
      failure = error;
    }
  })();
  const between = async () => {
    const target = createdDuring.length + 1;
    while (failure === undefined && createdDuring.length < target) await new Promise((r) => setTimeout(r, 1));
  };
  let walked: Item[];
  try {
    ({ items: walked } = await walk(k, path, limit, {}, between));
  } finally {
    walking = false;
    await writer;
  }
  if (failure !== undefined) throw failure;
  return { walked, createdDuring };
}

const ids = (items: Item[]) => items.map((i) => i.id);
const newestFirst = (list: string[]) => [...list].sort().reverse();

function assertStrictlyDescending(list: string[]): void {
  for (let i = 1; i < list.length; i++) assert.ok(list[i - 1]! > list[i]!, `${list[i - 1]} then ${list[i]}: not newest first`);
}

/** A validation_failed problem with exactly one error, at `pointer` of the query. */
function queryProblem(res: Response, pointer: string): void {
  const p = problem(res, 400, 'validation_failed');
  assert.ok(Array.isArray(p.errors), 'the problem lists the fields at fault');
  assert.deepEqual(
    p.errors.map((e: { in: string; pointer: string }) => ({ in: e.in, pointer: e.pointer })),
    [{ in: 'query', pointer }],
    JSON.stringify(p.errors),
  );
}

const fresh = async () => (await server.key(await server.account())).secret;

before(async () => {
  server = await startServer({ env: { SHIPD_RATE_LIMIT_PER_SECOND: '1000000', SHIPD_RATE_LIMIT_BURST: '1000000' } });
  key = await fresh();
  const made = await bounded(250, 10, (i) => createOrder(key, { order_number: `p-${i}` }));
  originals = ids(made).sort();
  assert.equal(new Set(originals).size, 250);
});
after(() => server.close());

describe('walking GET /orders', () => {
  test('gives each of 250 orders exactly once, newest first, while the same key keeps creating orders', async () => {
    const { walked, createdDuring } = await walkWhileCreating(key, '/orders', 7);
    const seen = ids(walked);
    assert.ok(createdDuring.length >= 35, `only ${createdDuring.length} orders were created during the walk`);
    assert.equal(new Set(seen).size, seen.length, 'an order came twice');
    assertStrictlyDescending(seen);
    const original = new Set(originals);
    assert.deepEqual(seen.filter((id) => original.has(id)), newestFirst(originals), 'every one of the 250, once, newest first');
    const during = new Set(createdDuring);
    assert.deepEqual(seen.filter((id) => !original.has(id) && !during.has(id)), [], 'nothing but the key\'s own orders');
    for (const id of createdDuring) assert.ok(id > originals[originals.length - 1]!, 'orders created later sort newer');
    for (const o of walked) assert.equal(o.object, 'order');

    // A walk started now sees every order there is.
    const everything = ids((await walk(key, '/orders', 100)).items);
    assert.deepEqual(everything, newestFirst([...originals, ...createdDuring]));
  });

  test('the default page is 20; the last page says there is no more, also when the count is a multiple of the limit', async () => {
    const first = checkPage(await server.request('GET', '/orders', { key }), 20);
    assert.equal(first.data.length, 20);
    assert.equal(first.has_more, true);

    const k = await fresh();
    const empty = checkPage(await server.request('GET', '/orders', { key: k }), 20);
    assert.deepEqual(empty, { object: 'list', data: [], has_more: false, next_cursor: null });

    const seven = ids(await bounded(7, 7, () => createOrder(k))).sort().reverse();
    const exact = checkPage(await server.request('GET', '/orders?limit=7', { key: k }), 7);
    assert.deepEqual(ids(exact.data), seven);
    assert.equal(exact.has_more, false);
    assert.equal(exact.next_cursor, null);

    const eighth = (await createOrder(k)).id;
    const one = checkPage(await server.request('GET', '/orders?limit=7', { key: k }), 7);
    assert.deepEqual(ids(one.data), [eighth, ...seven.slice(0, 6)]);
    assert.equal(one.has_more, true);
    const two = checkPage(await server.request('GET', listPath('/orders', { limit: 7, cursor: one.next_cursor! }), { key: k }), 7);
    assert.deepEqual(ids(two.data), [seven[6]]);
    assert.equal(two.has_more, false);
    assert.equal(two.next_cursor, null);

    const single = await walk(k, '/orders', 1);
    assert.deepEqual(ids(single.items), [eighth, ...seven]);
    assert.equal(single.pages, 8);
  });

  test('limit is 1 to 100', async () => {
    const full = checkPage(await server.request('GET', '/orders?limit=100', { key }), 100);
    assert.equal(full.data.length, 100);
    assert.equal(full.has_more, true);
    const one = checkPage(await server.request('GET', '/orders?limit=1', { key }), 1);
    assert.equal(one.data.length, 1);
    for (const bad of ['101', '0', '-1', '1000', '2.5', 'ten', '']) {
      queryProblem(await server.request('GET', `/orders?limit=${bad}`, { key }), '/limit');
      queryProblem(await server.request('GET', `/events?limit=${bad}`, { key }), '/limit');
    }
  });
});

describe('filters of GET /orders', () => {
  test('status=cancelled gives exactly the cancelled orders, and paginates', async () => {
    const chosen = [originals[0]!, originals[57]!, originals[124]!, originals[200]!, originals[249]!];
    for (const id of chosen) {
      const res = await server.request('POST', `/orders/${id}/cancel`, { key });
      assert.equal(res.status, 200, res.text);
    }
    const cancelled = (await walk(key, '/orders', 2, { status: 'cancelled' })).items;
    assert.deepEqual(ids(cancelled), newestFirst(chosen));
    assert.ok(cancelled.every((o) => o.status === 'cancelled'));

    const incomplete = (await walk(key, '/orders', 100, { status: 'incomplete' })).items;
    assert.ok(incomplete.every((o) => o.status === 'incomplete'));
    const all = ids((await walk(key, '/orders', 100)).items);
    assert.deepEqual(newestFirst([...ids(incomplete), ...chosen]), all, 'cancelled and incomplete together are all of them');
    assert.deepEqual((await walk(key, '/orders', 10, { status: 'shipped' })).items, []);
    queryProblem(await server.request('GET', '/orders?status=lost', { key }), '/status');
  });

  test('order_number matches exactly, and paginates', async () => {
    const one = checkPage(await server.request('GET', '/orders?order_number=p-42', { key }), 20);
    assert.equal(one.data.length, 1);
    assert.equal(one.data[0]!.order_number, 'p-42');
    assert.ok(originals.includes(one.data[0]!.id));
    assert.deepEqual(checkPage(await server.request('GET', '/orders?order_number=p-4', { key }), 20).data.map((o) => o.order_number), ['p-4']);
    assert.deepEqual(checkPage(await server.request('GET', '/orders?order_number=nope', { key }), 20).data, []);

    const twins = ids(await bounded(5, 5, () => createOrder(key, { order_number: 'twin' })));
    const walked = await walk(key, '/orders', 2, { order_number: 'twin' });
    assert.deepEqual(ids(walked.items), newestFirst(twins));
    assert.equal(walked.pages, 3);
    queryProblem(await server.request('GET', `/orders?order_number=${'x'.repeat(101)}`, { key }), '/order_number');
  });

  test('created_after is inclusive, created_before exclusive, by the server clock', async () => {
    const k = await fresh();
    const early = await createOrder(k);
    server.clock.advance(60_000);
    const middle = [await createOrder(k), await createOrder(k), await createOrder(k)];
    server.clock.advance(60_000);
    const late = await createOrder(k);
    const at = (o: Item) => o.created_at as string;
    assert.ok(at(early) < at(middle[0]!) && at(middle[2]!) < at(late), 'the clock moved the creation times');
    const window = async (params: Record<string, string>, limit = 2) => ids((await walk(k, '/orders', limit, params)).items);
    const all = newestFirst(ids([early, ...middle, late]));

    assert.deepEqual(await window({ created_after: at(middle[0]!) }), newestFirst(ids([...middle, late])));
    assert.deepEqual(await window({ created_before: at(middle[0]!) }), [early.id]);
    assert.deepEqual(await window({ created_after: at(middle[0]!), created_before: at(late) }), newestFirst(ids(middle)));
    assert.deepEqual(await window({ created_after: at(middle[0]!), created_before: at(late) }, 1), newestFirst(ids(middle)));
    assert.deepEqual(await window({ created_after: at(early), created_before: new Date(Date.parse(at(late)) + 1).toISOString() }), all);
    assert.deepEqual(await window({ created_after: new Date(Date.parse(at(late)) + 1).toISOString() }), []);
    assert.deepEqual(await window({ created_before: at(early) }), []);
    assert.deepEqual(await window({ created_after: at(late), created_before: at(early) }), []);

    // The same instant written with an offset means the same thing.
    const offset = new Date(Date.parse(at(late)) + 2 * 3600_000).toISOString().replace('Z', '+02:00');
    assert.deepEqual(await window({ created_after: offset }), [late.id]);
    assert.deepEqual(await window({ created_before: offset }), newestFirst(ids([early, ...middle])));

    // Filters combine with each other.
    const cancelled = await server.request('POST', `/orders/${middle[1]!.id}/cancel`, { key: k });
    assert.equal(cancelled.status, 200);
    assert.deepEqual(await window({ status: 'incomplete', created_after: at(middle[0]!), created_before: at(late) }), newestFirst(ids([middle[0]!, middle[2]!])));

    queryProblem(await server.request('GET', '/orders?created_after=yesterday', { key: k }), '/created_after');
    queryProblem(await server.request('GET', '/orders?created_before=2026-13-01T00:00:00Z', { key: k }), '/created_before');

    // A leap second is a date-time too: the second after :59 (it once answered 500).
    assert.deepEqual(await window({ created_after: '2016-12-31T23:59:60Z' }), all);
    assert.deepEqual(await window({ created_before: '2016-12-31T23:59:60Z' }), []);
    for (const path of ['/orders', '/events', '/shipments']) {
      const res = await server.request('GET', `${path}?created_before=2016-12-31T23%3A59%3A60Z&created_after=2016-12-31T23%3A59%3A60.5%2B00%3A00`, { key: k });
      assert.equal(res.status, 200, `${path}: ${res.text}`);
    }
  });
});

describe('cursors', () => {
  const b64 = (s: string) => Buffer.from(s, 'utf8').toString('base64url');

  test('a cursor that is not one GET /orders gave out is a 400 naming /cursor', async () => {
    const event = checkPage(await server.request('GET', '/events?limit=1', { key }), 1).data[0]!;
    const bad = [
      'garbage!!',
      'not-a-cursor',
      b64(event.id),
      b64('ord_short'),
      b64(`ord_${'0'.repeat(25)}!`),
      b64(`key_${originals[0]!.slice(4)}`),
      b64(` ${originals[0]}`),
      b64(`${originals[0]}x`),
      originals[0]!,
      'x'.repeat(201),
      '',
    ];
    for (const cursor of bad) {
      queryProblem(await server.request('GET', listPath('/orders', { cursor }), { key }), '/cursor');
    }
  });

  test('the cursors GET /orders and GET /events give out are not each other\'s', async () => {
    const orders = checkPage(await server.request('GET', '/orders?limit=1', { key }), 1);
    const events = checkPage(await server.request('GET', '/events?limit=1', { key }), 1);
    queryProblem(await server.request('GET', listPath('/events', { cursor: orders.next_cursor! }), { key }), '/cursor');
    queryProblem(await server.request('GET', listPath('/orders', { cursor: events.next_cursor! }), { key }), '/cursor');
    for (const cursor of ['garbage!!', b64('evt_short'), 'x'.repeat(201)]) {
      queryProblem(await server.request('GET', listPath('/events', { cursor }), { key }), '/cursor');
    }
  });
});

describe('walking GET /events', () => {
  test('gives each event exactly once, newest first, while more are written; type filters', async () => {
    const k = await fresh();
    const made = await bounded(40, 10, (i) => createOrder(k, { order_number: `e-${i}` }));
    const patched: Item[] = [];
    for (const o of made.slice(0, 6)) {
      const res = await server.request('PATCH', `/orders/${o.id}`, { key: k, body: { notes: `patched ${o.order_number}` } });
      assert.equal(res.status, 200, res.text);
      patched.push(res.body);
    }
    for (const o of made.slice(30, 33)) {
      const res = await server.request('POST', `/orders/${o.id}/cancel`, { key: k });
      assert.equal(res.status, 200, res.text);
      patched.push(res.body);
    }
    const before = (await walk(k, '/events', 100)).items;
    assert.equal(before.length, 49, '40 created, 9 updated');
    const beforeIds = ids(before);
    assertStrictlyDescending(beforeIds);

    const { walked, createdDuring } = await walkWhileCreating(k, '/events', 4);
    const seen = ids(walked);
    assert.ok(createdDuring.length >= 10, `only ${createdDuring.length} orders were created during the walk`);
    assert.equal(new Set(seen).size, seen.length, 'an event came twice');
    assertStrictlyDescending(seen);
    const old = new Set(beforeIds);
    assert.deepEqual(seen.filter((id) => old.has(id)), beforeIds, 'every earlier event, once, newest first');
    const during = new Set(createdDuring);
    for (const e of walked.filter((e) => !old.has(e.id))) {
      assert.equal(e.type, 'order.created');
      assert.ok(during.has((e.data as Item).id), 'a new event is about an order created during the walk');
    }
    for (const e of walked) {
      assert.equal(e.object, 'event');
      const one = await server.request('GET', `/events/${e.id}`, { key: k });
      assert.equal(one.status, 200);
      assert.deepEqual(one.body, e, 'GET /events/:id answers what the list did');
    }

    const allOrders = ids((await walk(k, '/orders', 100)).items);
    const creations = (await walk(k, '/events', 3, { type: 'order.created' })).items;
    assert.ok(creations.every((e) => e.type === 'order.created'));
    assertStrictlyDescending(ids(creations));
    // Concurrent creations may write their events in another order than their ids, so compare as sets.
    assert.deepEqual(creations.map((e) => (e.data as Item).id).sort(), [...allOrders].sort(), 'one order.created per order');
    const updates = (await walk(k, '/events', 2, { type: 'order.updated' })).items;
    assert.ok(updates.every((e) => e.type === 'order.updated'));
    assert.deepEqual(updates.map((e) => e.data), [...patched].reverse(), 'one order.updated per change, carrying the order as returned');
    assert.deepEqual((await walk(k, '/events', 10, { type: 'shipment.created' })).items, []);
    queryProblem(await server.request('GET', '/events?type=order.deleted', { key: k }), '/type');
  });

  test('created_after and created_before filter events too', async () => {
    const k = await fresh();
    await createOrder(k);
    server.clock.advance(60_000);
    const start = server.clock.now().toISOString();
    const inside = await createOrder(k);
    const cancel = await server.request('POST', `/orders/${inside.id}/cancel`, { key: k });
    assert.equal(cancel.status, 200);
    server.clock.advance(60_000);
    const end = server.clock.now().toISOString();
    await createOrder(k);
    const window = (await walk(k, '/events', 1, { created_after: start, created_before: end })).items;
    assert.deepEqual(
      window.map((e) => [e.type, e.data]),
      [
        ['order.updated', cancel.body],
        ['order.created', inside],
      ],
    );
    assert.deepEqual(ids((await walk(k, '/events', 1, { type: 'order.created', created_after: start, created_before: end })).items), [window[1]!.id]);
    queryProblem(await server.request('GET', '/events?created_before=soon', { key: k }), '/created_before');
  });
});
