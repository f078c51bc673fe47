import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { problem, startServer, type TestServer } from './harness.ts';
import { orderBody } from './fixtures.ts';

let server: TestServer;
let a: string;
let sameAccount: string;
let otherAccount: string;

before(async () => {
  server = await startServer();
  const account = await server.account();
  a = (await server.key(account)).secret;
  sameAccount = (await server.key(account)).secret;
  otherAccount = (await server.key(await server.account())).secret;
});
after(() => server.close());

const made = 'ord_01m81wmnea72vpx7xb7ptx4004';
const strip = (body: Record<string, unknown>) => ({ ...body, detail: undefined, request_id: undefined });

test("another key, of the same account or another, can neither see nor touch a key's order or events", async () => {
  const order = (await server.request('POST', '/orders', { key: a, body: orderBody() })).body;
  const events = (await server.request('GET', '/events', { key: a })).body.data;
  assert.equal(events.length, 1);
  for (const other of [sameAccount, otherAccount]) {
    const missing = problem(await server.request('GET', `/orders/${made}`, { key: other }), 404, 'not_found');
    const foreign = problem(await server.request('GET', `/orders/${order.id}`, { key: other }), 404, 'not_found');
    assert.deepEqual(strip(foreign), strip(missing), "another key's order looks exactly like a missing one");
    problem(await server.request('PATCH', `/orders/${order.id}`, { key: other, body: { notes: 'mine now' } }), 404, 'not_found');
    problem(await server.request('POST', `/orders/${order.id}/cancel`, { key: other }), 404, 'not_found');
    problem(await server.request('GET', `/events/${events[0].id}`, { key: other }), 404, 'not_found');
    problem(await server.request('POST', '/rates', { key: other, body: { order_id: order.id } }), 404, 'not_found');
    assert.deepEqual((await server.request('GET', '/orders', { key: other })).body.data, []);
    assert.deepEqual((await server.request('GET', `/orders?order_number=${order.order_number}`, { key: other })).body.data, []);
    assert.deepEqual((await server.request('GET', '/events', { key: other })).body.data, []);
  }
  const after = (await server.request('GET', `/orders/${order.id}`, { key: a })).body;
  assert.deepEqual(after, order, 'nothing the others tried changed it');
  assert.equal((await server.request('GET', '/events', { key: a })).body.data.length, 1, 'and no event was written');
});

test('each successful change writes exactly one event with the order as returned; a refused change writes none', async () => {
  const key = (await server.key(await server.account())).secret;
  const eventsOf = async () => (await server.request('GET', '/events?limit=100', { key })).body.data as { type: string; data: unknown }[];
  const created = (await server.request('POST', '/orders', { key, body: orderBody() })).body;
  assert.deepEqual((await eventsOf()).map((e) => [e.type, e.data]), [['order.created', created]]);
  const patched = (await server.request('PATCH', `/orders/${created.id}`, { key, body: { notes: 'x' } })).body;
  problem(await server.request('PATCH', `/orders/${created.id}`, { key, body: { ship_to: { street1: '1 Main', city: 'X', state: 'ZZ', zip: '12345' } } }), 400, 'validation_failed');
  const cancelled = (await server.request('POST', `/orders/${created.id}/cancel`, { key })).body;
  problem(await server.request('POST', `/orders/${created.id}/cancel`, { key }), 409, 'order_not_cancellable');
  problem(await server.request('PATCH', `/orders/${created.id}`, { key, body: { notes: 'y' } }), 409, 'order_not_editable');
  problem(await server.request('GET', `/orders/${made}`, { key }), 404, 'not_found');
  assert.deepEqual(
    (await eventsOf()).map((e) => [e.type, e.data]),
    [
      ['order.updated', cancelled],
      ['order.updated', patched],
      ['order.created', created],
    ],
  );
});
