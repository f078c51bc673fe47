import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { sql, type Kysely } from 'kysely';
import { databaseUnderTest, problem, startServer, type TestServer } from './harness.ts';
import { orderBody, sanFrancisco } from './fixtures.ts';
import { setPaymentMethod } from '../src/domain/billing/payment-methods.ts';
import { pollTracking } from '../src/domain/tracking/tracking.ts';
import { serviceContext } from '../src/services.ts';
import type { DB } from '../src/db/schema.ts';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- tests read whatever JSON came back

let server: TestServer;
let key: string;
let otherKey: string;

before(async () => {
  server = await startServer();
  const account = await server.account();
  await setPaymentMethod(server.services.database.db, server.clock, account, 'test', 'pm_test_visa');
  key = (await server.key(account)).secret;
  otherKey = (await server.key(await server.account())).secret;
});
after(() => server.close());

async function shipped(overrides: Record<string, unknown> = {}): Promise<{ order: Json; shipment: Json }> {
  const order = await server.request('POST', '/orders', { key, body: orderBody(overrides) });
  assert.equal(order.status, 201, order.text);
  const shipment = await server.request('POST', '/shipments', { key, body: { order_id: order.body.id } });
  assert.equal(shipment.status, 201, shipment.text);
  return { order: order.body, shipment: shipment.body };
}

const track = (body: Json, k = key) => server.request('POST', '/tracking', { key: k, body });
const day = 24 * 3_600_000;

describe('POST /tracking', () => {
  test('a new label is pre_transit, by order id and by tracking number alike', async () => {
    const { order, shipment } = await shipped();
    const byOrder = await track({ order_id: order.id });
    assert.equal(byOrder.status, 200, byOrder.text);
    const t = byOrder.body;
    assert.equal(t.object, 'tracker');
    assert.equal(t.id, `trk_${shipment.id.slice(4)}`);
    assert.equal(t.shipment_id, shipment.id);
    assert.equal(t.order_id, order.id);
    assert.equal(t.tracking_number, shipment.tracking_number);
    assert.equal(t.carrier, shipment.carrier);
    assert.equal(t.status, 'pre_transit');
    assert.equal(t.events.length, 1);
    assert.equal(t.events[0].location.state, 'TX');

    const spaced = shipment.tracking_number.toLowerCase().replace(/(.{4})/g, '$1 ').trim();
    const byNumber = await track({ tracking_number: spaced });
    assert.equal(byNumber.status, 200, byNumber.text);
    assert.deepEqual(byNumber.body, t);
    const withCarrier = await track({ tracking_number: shipment.tracking_number, carrier: shipment.carrier });
    assert.equal(withCarrier.status, 200);
    const wrongCarrier = shipment.carrier === 'ups' ? 'fedex' : 'ups';
    problem(await track({ tracking_number: shipment.tracking_number, carrier: wrongCarrier }), 404, 'not_found');
  });

  test('moves with the clock through real cities to delivered; the order becomes delivered, each scan reported once', async () => {
    const { order, shipment } = await shipped();
    const seen: string[] = [];
    let t: Json = {};
    for (let i = 0; i < 40 && t.status !== 'delivered'; i++) {
      server.clock.advance(day / 4);
      const res = await track({ order_id: order.id });
      assert.equal(res.status, 200, res.text);
      t = res.body;
      if (seen.at(-1) !== t.status) seen.push(t.status);
    }
    assert.deepEqual(seen, [...new Set(seen)], 'the status never goes back');
    assert.deepEqual(
      seen.filter((s) => ['pre_transit', 'in_transit', 'out_for_delivery', 'delivered'].includes(s)),
      seen,
      `unexpected statuses ${seen}`,
    );
    assert.equal(t.status, 'delivered');
    const cities = new Set(t.events.filter((e: Json) => e.status === 'in_transit' && e.location).map((e: Json) => `${e.location.city}, ${e.location.state}`));
    assert.ok(cities.size >= 3, `scans in several cities: ${[...cities]}`);
    assert.equal(t.events.at(-1).location.zip, sanFrancisco.zip);
    const times = t.events.map((e: Json) => Date.parse(e.occurred_at));
    assert.deepEqual(times, [...times].sort((a, b) => a - b));
    assert.ok(times.at(-1) <= server.clock.now().getTime(), 'no scan in the future');

    assert.equal((await server.request('GET', `/orders/${order.id}`, { key })).body.status, 'delivered');
    const updates = (await server.request('GET', '/events?type=tracking.updated&limit=100', { key })).body.data.filter((e: Json) => e.data.shipment_id === shipment.id);
    assert.equal(updates.length, t.events.length, 'one tracking.updated per scan');
    assert.deepEqual(
      updates.map((e: Json) => e.data.events.length).sort((a: number, b: number) => a - b),
      t.events.map((_: unknown, i: number) => i + 1),
    );
    const delivered = (await server.request('GET', '/events?type=order.updated&limit=100', { key })).body.data.filter(
      (e: Json) => e.data.id === order.id && e.data.status === 'delivered',
    );
    assert.equal(delivered.length, 1);
    problem(await server.request('POST', `/shipments/${order.id}/void`, { key }), 409, 'label_in_transit');
  });

  test('magic recipient names end the journey their way', async () => {
    for (const [name, ending] of [
      ['Return to sender', 'return_to_sender'],
      ['Delivery failure', 'failure'],
      ['Pickup at facility', 'available_for_pickup'],
    ]) {
      const { order } = await shipped({ ship_to: { ...sanFrancisco, name } });
      server.clock.advance(20 * day);
      const t = (await track({ order_id: order.id })).body;
      assert.equal(t.status, ending, name);
      assert.equal((await server.request('GET', `/orders/${order.id}`, { key })).body.status, 'shipped');
    }
  });

  test('a voided label tracks as cancelled', async () => {
    const { order, shipment } = await shipped();
    assert.equal((await server.request('POST', `/shipments/${order.id}/void`, { key })).status, 200);
    const t = (await track({ tracking_number: shipment.tracking_number })).body;
    assert.equal(t.status, 'cancelled');
    assert.equal((await track({ order_id: order.id })).body.status, 'cancelled');
  });

  test('magic test numbers give fixed outcomes, in test mode only', async () => {
    for (const [number, status] of [
      ['SHIPD_TEST_DELIVERED', 'delivered'],
      ['SHIPD_TEST_RETURN_TO_SENDER', 'return_to_sender'],
      ['SHIPD_TEST_FAILURE', 'failure'],
      ['SHIPD_TEST_AVAILABLE_FOR_PICKUP', 'available_for_pickup'],
      ['shipd_test_in_transit', 'in_transit'],
    ]) {
      const res = await track({ tracking_number: number });
      assert.equal(res.status, 200, res.text);
      assert.equal(res.body.status, status);
      assert.equal(res.body.carrier, 'usps');
      assert.equal(res.body.shipment_id, null);
      assert.ok(res.body.events.length > 0);
    }
    assert.equal((await track({ tracking_number: 'SHIPD_TEST_DELIVERED', carrier: 'fedex' })).body.carrier, 'fedex');
    const live = (await server.key(await server.account(), 'live')).secret;
    problem(await track({ tracking_number: 'SHIPD_TEST_DELIVERED' }, live), 404, 'not_found');
  });

  test("another key's label, order or number is 404; bad requests are 400; an order without a label is 409", async () => {
    const { order, shipment } = await shipped();
    problem(await track({ order_id: order.id }, otherKey), 404, 'not_found');
    const res = problem(await track({ tracking_number: shipment.tracking_number }, otherKey), 404, 'not_found');
    assert.match(res.detail, /has the form of a (UPS|USPS|FEDEX)/);
    problem(await track({}), 400, 'validation_failed');
    problem(await track({ order_id: order.id, tracking_number: shipment.tracking_number }), 400, 'validation_failed');
    problem(await track({ order_id: order.id, carrier: 'ups' }), 400, 'validation_failed');
    problem(await track({ tracking_number: 'no/slashes' }), 400, 'validation_failed');
    const fresh = await server.request('POST', '/orders', { key, body: orderBody() });
    problem(await track({ order_id: fresh.body.id }), 409, 'order_not_shipped');
  });
});

describe('the tracking worker', () => {
  test('lets requests in between the labels of a pass', async () => {
    const bought = [];
    for (let i = 0; i < 24; i++) bought.push((await shipped()).shipment.id);
    server.clock.advance(day);
    let turns = 0;
    let done = false;
    const pass = pollTracking(serviceContext(server.services, 'test'), { warn: () => undefined }).finally(() => (done = true));
    const count = () => {
      if (done) return;
      turns++;
      setImmediate(count);
    };
    setImmediate(count);
    assert.ok((await pass) >= bought.length);
    // A pass run as one task (as SQLite's synchronous driver makes it without a yield) lets no turn in at all; the
    // worker's eight lanes take a label each per turn.
    assert.ok(turns >= bought.length / 8, `${turns} turns of the event loop during a pass of ${bought.length} labels`);
    const rows = await server.services.database.db.selectFrom('shipments').select('tracking_status').where('id', 'in', bought).execute();
    assert.ok(rows.every((r) => r.tracking_status !== 'pre_transit'), 'every label moved on');
  });

  test('records the progress of twenty labels in one transaction', async () => {
    const bought = [];
    for (let i = 0; i < 45; i++) bought.push((await shipped()).shipment.id);
    server.clock.advance(day);
    const db = server.services.database.db;
    let transactions = 0;
    const counted = new Proxy(db, {
      get(target, property) {
        if (property === 'transaction') transactions++;
        const value = Reflect.get(target, property, target);
        return typeof value === 'function' ? value.bind(target) : value;
      },
    });
    const asked = await pollTracking({ ...serviceContext(server.services, 'test'), db: counted }, { warn: () => undefined });
    assert.ok(asked >= bought.length);
    assert.equal(transactions, Math.ceil(asked / 20));
    const rows = await db.selectFrom('shipments').select('tracking_status').where('id', 'in', bought).execute();
    assert.ok(rows.every((r) => r.tracking_status !== 'pre_transit'), 'every label moved on');
  });

  test('a label whose progress cannot be recorded does not hold up the others of its group', async () => {
    const bought = [];
    for (let i = 0; i < 5; i++) bought.push((await shipped()).shipment.id);
    const refused = bought[2]!;
    const db = server.services.database.db;
    await refuseTrackingUpdates(db, refused);
    try {
      server.clock.advance(day);
      const warned: string[] = [];
      await pollTracking(serviceContext(server.services, 'test'), { warn: (o: { shipment_id?: string }) => void warned.push(o.shipment_id ?? '') });
      assert.deepEqual(warned, [refused]);
      const rows = await db.selectFrom('shipments').select(['id', 'tracking_status']).where('id', 'in', bought).execute();
      for (const row of rows) assert.equal(row.tracking_status === 'pre_transit', row.id === refused, row.id);
    } finally {
      await sql`drop trigger refuse_tracking on shipments`.execute(db).catch(() => sql`drop trigger refuse_tracking`.execute(db));
    }
  });
});

/** A trigger that fails every tracking update of one label, as a database fault would. */
async function refuseTrackingUpdates(db: Kysely<DB>, shipmentId: string): Promise<void> {
  if (databaseUnderTest === 'postgres') {
    await sql`create or replace function refuse_tracking() returns trigger language plpgsql as $$ begin raise exception 'refused'; end $$`.execute(db);
    await sql`create trigger refuse_tracking before update of tracking_events on shipments for each row when (new.id = ${sql.lit(shipmentId)}) execute function refuse_tracking()`.execute(db);
  } else {
    await sql`create trigger refuse_tracking before update of tracking_events on shipments when new.id = ${sql.lit(shipmentId)} begin select raise(abort, 'refused'); end`.execute(db);
  }
}
