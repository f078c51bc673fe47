import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomInt } from 'node:crypto';
import { problem, startServer, type Response, type TestServer } from './harness.ts';
import { orderBody, sanFrancisco } from './fixtures.ts';

// A key sees and changes only its own orders and events: another key, of the same account or another,
// gets exactly the 404 a made-up id gets. And the state rules of orders, with the one event each change writes.

let server: TestServer;
/** The key that owns the orders the others try. */
let a: string;
/** Another key of A's account. */
let b: string;
/** A key of another account. */
let c: string;
/** A live-mode key of A's account. */
let live: string;

before(async () => {
  server = await startServer();
  const account = await server.account();
  a = (await server.key(account)).secret;
  b = (await server.key(account)).secret;
  c = (await server.key(await server.account())).secret;
  live = (await server.key(account, 'live')).secret;
});
after(() => server.close());

/** The keys are made in before(), after the tests are declared, so each is read when its test runs. */
const others = [
  { name: 'another key of the same account', key: () => b },
  { name: 'a key of another account', key: () => c },
  { name: 'a live key of the same account', key: () => live },
];

interface Item {
  id: string;
  [field: string]: unknown;
}

const crockford = '0123456789abcdefghjkmnpqrstvwxyz';
/** An id of the right form that nobody has. */
const madeUp = (prefix: string) => `${prefix}_${Array.from({ length: 26 }, () => crockford[randomInt(crockford.length)]).join('')}`;

async function createOrder(k: string, overrides: Record<string, unknown> = {}): Promise<Item> {
  const res = await server.request('POST', '/orders', { key: k, body: orderBody(overrides) });
  assert.equal(res.status, 201, res.text);
  return res.body;
}

/** Every item of a list, following next_cursor to the end. */
async function all(k: string, path: string): Promise<Item[]> {
  const items: Item[] = [];
  let cursor: string | null = null;
  do {
    const q = new URLSearchParams({ limit: '100' });
    if (cursor) q.set('cursor', cursor);
    const res: Response = await server.request('GET', `${path}${path.includes('?') ? '&' : '?'}${q}`, { key: k });
    assert.equal(res.status, 200, res.text);
    items.push(...res.body.data);
    cursor = res.body.next_cursor;
  } while (cursor);
  return items;
}

const ids = (items: Item[]) => items.map((i) => i.id);

/**
 * Asserts that the answer about someone else's resource is the same 404 not_found as the answer about a
 * made-up id: same status, content type, fields and values, but for the id itself and the request id.
 */
function sameAsMissing(foreign: Response, foreignId: string, missing: Response, missingId: string): void {
  const f = problem(foreign, 404, 'not_found');
  const m = problem(missing, 404, 'not_found');
  assert.equal(foreign.headers.get('content-type'), missing.headers.get('content-type'));
  const normal = (body: Record<string, unknown>, id: string) =>
    JSON.parse(JSON.stringify({ ...body, request_id: '<request>' }).split(id).join('<id>'));
  assert.deepEqual(normal(f, foreignId), normal(m, missingId), "another key's resource answers differently from a missing one");
  assert.ok(!foreign.text.includes('cancelled') && !foreign.text.includes('incomplete'), 'the answer tells nothing of the order');
}

describe("another key can neither see nor touch a key's orders and events", () => {
  for (const { name, key: otherKey } of others) {
    test(`${name}: GET, PATCH and cancel of A's order, GET of A's event, are 404 as for a made-up id`, async () => {
      const other = otherKey();
      const order = await createOrder(a, { notes: 'A only' });
      const [event] = await all(a, `/events?type=order.created`).then((es) => es.filter((e) => (e.data as Item).id === order.id));
      assert.ok(event, 'A has the order.created event');
      const aEventsBefore = await all(a, '/events');
      const otherEventsBefore = await all(other, '/events');
      const missingOrder = madeUp('ord');
      const missingEvent = madeUp('evt');

      const tries: [string, string, unknown?][] = [
        ['GET', '/orders/:id'],
        ['PATCH', '/orders/:id', { notes: 'mine now' }],
        ['PATCH', '/orders/:id', { ship_to: { ...sanFrancisco, name: 'Mallory' }, metadata: { taken: 'yes' } }],
        ['POST', '/orders/:id/cancel'],
      ];
      for (const [method, path, body] of tries) {
        const foreign = await server.request(method, path.replace(':id', order.id), { key: other, body });
        const missing = await server.request(method, path.replace(':id', missingOrder), { key: other, body });
        sameAsMissing(foreign, order.id, missing, missingOrder);
      }
      sameAsMissing(
        await server.request('GET', `/events/${event.id}`, { key: other }),
        event.id,
        await server.request('GET', `/events/${missingEvent}`, { key: other }),
        missingEvent,
      );

      const now = await server.request('GET', `/orders/${order.id}`, { key: a });
      assert.equal(now.status, 200);
      assert.deepEqual(now.body, order, 'nothing the other key tried changed the order');
      assert.deepEqual(await all(a, '/events'), aEventsBefore, 'no event was written for A');
      assert.deepEqual(await all(other, '/events'), otherEventsBefore, 'no event was written for the other key');
      const own = await server.request('GET', `/events/${event.id}`, { key: a });
      assert.equal(own.status, 200);
      assert.deepEqual(own.body, event);
    });

    test(`${name}: a cancelled order of A's is still 404, not 409`, async () => {
      const other = otherKey();
      const order = await createOrder(a);
      assert.equal((await server.request('POST', `/orders/${order.id}/cancel`, { key: a })).status, 200);
      const missing = madeUp('ord');
      sameAsMissing(
        await server.request('PATCH', `/orders/${order.id}`, { key: other, body: { notes: 'x' } }),
        order.id,
        await server.request('PATCH', `/orders/${missing}`, { key: other, body: { notes: 'x' } }),
        missing,
      );
      sameAsMissing(
        await server.request('POST', `/orders/${order.id}/cancel`, { key: other }),
        order.id,
        await server.request('POST', `/orders/${missing}/cancel`, { key: other }),
        missing,
      );
    });
  }

  test("lists: each key's GET /orders and GET /events hold only its own, whatever the filters and cursors", async () => {
    const mine = new Map<string, string[]>();
    for (const [k, n] of [
      [a, 6],
      [b, 3],
      [c, 2],
    ] as const) {
      const made: string[] = [];
      for (let i = 0; i < n; i++) made.push((await createOrder(k, { order_number: 'shared-number' })).id);
      mine.set(k, made);
    }
    const cancelled = mine.get(a)![2]!;
    assert.equal((await server.request('POST', `/orders/${cancelled}/cancel`, { key: a })).status, 200);
    const patched = mine.get(a)![4]!;
    assert.equal((await server.request('PATCH', `/orders/${patched}`, { key: a, body: { notes: 'p' } })).status, 200);

    const everyOrder = new Map<string, Set<string>>();
    for (const k of [a, b, c]) everyOrder.set(k, new Set(ids(await all(k, '/orders'))));
    for (const k of [a, b, c]) {
      const own = everyOrder.get(k)!;
      for (const id of mine.get(k)!) assert.ok(own.has(id), 'a key lists its own orders');
      for (const someoneElse of [a, b, c].filter((x) => x !== k)) {
        for (const id of everyOrder.get(someoneElse)!) assert.ok(!own.has(id), "a key's list holds another key's order");
      }
      assert.deepEqual(ids(await all(k, '/orders?order_number=shared-number')), [...mine.get(k)!].reverse());

      const events = await all(k, '/events');
      assert.ok(events.length > 0);
      for (const e of events) assert.ok(own.has((e.data as Item).id), "a key's events are about its own orders only");
      for (const e of await all(k, '/events?type=order.updated')) assert.ok(own.has((e.data as Item).id));
    }
    for (const k of [b, c]) {
      assert.deepEqual(await all(k, '/orders?status=cancelled'), [], "A's cancelled order is not in another key's list");
      assert.deepEqual(await all(k, '/events?type=order.updated'), [], "A's updates are not in another key's events");
    }

    // A cursor of A's list, used by another key, still gives only that key's own.
    for (const [path, prefix] of [
      ['/orders', 'ord'],
      ['/events', 'evt'],
    ] as const) {
      const first = await server.request('GET', `${path}?limit=1`, { key: a });
      assert.ok(first.body.next_cursor, `A has more than one page of ${path}`);
      assert.ok(first.body.data[0].id.startsWith(prefix));
      for (const k of [b, c]) {
        const res = await server.request('GET', `${path}?limit=100&cursor=${encodeURIComponent(first.body.next_cursor)}`, { key: k });
        assert.equal(res.status, 200, res.text);
        const aOrders = everyOrder.get(a)!;
        for (const item of res.body.data as Item[]) {
          const orderId = path === '/orders' ? item.id : (item.data as Item).id;
          assert.ok(!aOrders.has(orderId), `another key's ${path} page, from A's cursor, holds A's`);
        }
      }
    }
  });
});

describe('state rules, and the one event each change writes', () => {
  let k: string;
  before(async () => {
    k = (await server.key(await server.account())).secret;
  });

  const events = () => all(k, '/events');

  /** Asserts that exactly one event was written since `before`: of `type`, carrying `order`. */
  async function oneNewEvent(before: Item[], type: string, order: Item): Promise<Item> {
    const now = await events();
    const known = new Set(ids(before));
    const added = now.filter((e) => !known.has(e.id));
    assert.equal(added.length, 1, `${added.length} events written: ${JSON.stringify(added.map((e) => e.type))}`);
    assert.equal(now.length, before.length + 1);
    const event = added[0]!;
    assert.equal(event.id, now[0]!.id, 'the newest event');
    assert.equal(event.object, 'event');
    assert.equal(event.type, type);
    assert.deepEqual(event.data, order, 'the event carries the order as the call returned it');
    assert.equal(event.created_at, order.updated_at, 'the event happened when the order changed');
    const byType = await all(k, `/events?type=${type}`);
    assert.deepEqual(byType[0], event, 'and is the newest of its type');
    const one = await server.request('GET', `/events/${event.id}`, { key: k });
    assert.equal(one.status, 200);
    assert.deepEqual(one.body, event);
    return event;
  }

  async function noNewEvent(before: Item[]): Promise<void> {
    assert.deepEqual(await events(), before, 'a refused call wrote an event');
  }

  test('create, PATCH and cancel each write one event; refused calls write none; a cancelled order can change no more', async () => {
    let seen = await events();
    assert.deepEqual(seen, []);

    // Refused creates.
    problem(await server.request('POST', '/orders', { key: k, body: orderBody({ ship_to: { ...sanFrancisco, state: 'ZZ' } }) }), 400, 'validation_failed');
    problem(await server.request('POST', '/orders', { key: k, body: orderBody({ colour: 'red' }) }), 400, 'validation_failed');
    problem(await server.request('POST', '/orders', { key: k, body: orderBody({ parcel: { weight: { value: 200, unit: 'lb' } } }) }), 400, 'validation_failed');
    await noNewEvent(seen);
    assert.deepEqual(await all(k, '/orders'), [], 'and no order');

    const created = await server.request('POST', '/orders', { key: k, body: orderBody({ metadata: { a: '1' } }) });
    assert.equal(created.status, 201);
    await oneNewEvent(seen, 'order.created', created.body);
    seen = await events();
    const id = created.body.id;

    server.clock.advance(1_000);
    const patched = await server.request('PATCH', `/orders/${id}`, { key: k, body: { notes: 'leave at door', metadata: { b: '2' } } });
    assert.equal(patched.status, 200, patched.text);
    assert.equal(patched.body.notes, 'leave at door');
    assert.deepEqual(patched.body.metadata, { a: '1', b: '2' });
    await oneNewEvent(seen, 'order.updated', patched.body);
    seen = await events();

    // Refused changes of an incomplete order.
    problem(await server.request('PATCH', `/orders/${id}`, { key: k, body: { ship_to: { ...sanFrancisco, state: 'ZZ' } } }), 400, 'validation_failed');
    problem(await server.request('PATCH', `/orders/${id}`, { key: k, body: { parcel: { weight: { value: 200, unit: 'lb' } } } }), 400, 'validation_failed');
    problem(await server.request('PATCH', `/orders/${id}`, { key: k, body: {} }), 400, 'validation_failed');
    problem(await server.request('PATCH', `/orders/${id}`, { key: k, body: { status: 'cancelled' } }), 400, 'validation_failed');
    problem(await server.request('PATCH', `/orders/${madeUp('ord')}`, { key: k, body: { notes: 'x' } }), 404, 'not_found');
    problem(await server.request('POST', `/orders/${madeUp('ord')}/cancel`, { key: k }), 404, 'not_found');
    await noNewEvent(seen);
    assert.deepEqual((await server.request('GET', `/orders/${id}`, { key: k })).body, patched.body, 'the refused changes changed nothing');

    server.clock.advance(1_000);
    const cancelled = await server.request('POST', `/orders/${id}/cancel`, { key: k });
    assert.equal(cancelled.status, 200, cancelled.text);
    assert.equal(cancelled.body.status, 'cancelled');
    assert.deepEqual({ ...cancelled.body, status: undefined, updated_at: undefined }, { ...patched.body, status: undefined, updated_at: undefined });
    await oneNewEvent(seen, 'order.updated', cancelled.body);
    seen = await events();

    // A cancelled order can be neither changed nor cancelled again.
    server.clock.advance(1_000);
    const notEditable = problem(await server.request('PATCH', `/orders/${id}`, { key: k, body: { notes: 'too late' } }), 409, 'order_not_editable');
    assert.match(notEditable.detail, /cancelled/);
    problem(await server.request('PATCH', `/orders/${id}`, { key: k, body: { metadata: { c: '3' } } }), 409, 'order_not_editable');
    const notCancellable = problem(await server.request('POST', `/orders/${id}/cancel`, { key: k }), 409, 'order_not_cancellable');
    assert.match(notCancellable.detail, /cancelled/);
    await noNewEvent(seen);
    assert.deepEqual((await server.request('GET', `/orders/${id}`, { key: k })).body, cancelled.body, 'the order is as cancel left it');

    assert.deepEqual(
      (await events()).map((e) => [e.type, e.data]),
      [
        ['order.updated', cancelled.body],
        ['order.updated', patched.body],
        ['order.created', created.body],
      ],
    );
    assert.deepEqual((await all(k, '/events?type=order.created')).map((e) => e.data), [created.body]);
    assert.deepEqual((await all(k, '/events?type=order.updated')).map((e) => e.data), [cancelled.body, patched.body]);
  });

  test('concurrent cancels of one order: one succeeds and writes one event, the rest are 409 and write none', async () => {
    const order = await createOrder(k);
    const seen = await events();
    const answers = await Promise.all(Array.from({ length: 8 }, () => server.request('POST', `/orders/${order.id}/cancel`, { key: k })));
    const ok = answers.filter((r) => r.status === 200);
    assert.equal(ok.length, 1, `statuses ${answers.map((r) => r.status).join(',')}`);
    for (const r of answers.filter((r) => r.status !== 200)) problem(r, 409, 'order_not_cancellable');
    await oneNewEvent(seen, 'order.updated', ok[0]!.body);
  });
});
