import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomInt } from 'node:crypto';
import { startServer, type TestServer } from './harness.ts';
import { orderBody } from './fixtures.ts';
import { setPaymentMethod } from '../src/domain/billing/payment-methods.ts';
import { upsTrackingNumber } from '../src/carriers/tracking-numbers.ts';
import { zoneOfState } from '../src/carriers/time-zones.ts';
import { pollTrackers, trackerPollBatch } from '../src/domain/tracking/trackers.ts';
import { pollTracking } from '../src/domain/tracking/tracking.ts';
import { serviceContext } from '../src/services.ts';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- tests read whatever JSON came back

const digits = (n: number) => Array.from({ length: n }, () => randomInt(10)).join('');
const ups = () => upsTrackingNumber(digits(6), '03', digits(7));

let server: TestServer;
let key: string;

before(async () => {
  server = await startServer({ env: { SHIPD_RATE_LIMIT_PER_SECOND: '1000000', SHIPD_RATE_LIMIT_BURST: '1000000' } });
  const account = await server.account();
  await setPaymentMethod(server.services.database.db, server.clock, account, 'test', 'pm_test_visa');
  key = (await server.key(account)).secret;
});
after(() => server.close());

const post = (path: string, body: unknown) => server.request('POST', path, { key, body });
const get = (path: string) => server.request('GET', path, { key });
const warnFails = { warn: (o: object) => assert.fail(`warned ${JSON.stringify(o)}`) };

/** Each scan's local clock: an offset, and the zone of its state, whose offset it was at that instant. */
function assertLocalClocks(events: Json[]): void {
  assert.ok(events.length > 0);
  for (const e of events) {
    assert.match(e.utc_offset, /^[+-]\d{2}:\d{2}$/, JSON.stringify(e));
    assert.equal(e.time_zone, zoneOfState(e.location.state), JSON.stringify(e));
    const zoned = new Intl.DateTimeFormat('en-US', { timeZone: e.time_zone, timeZoneName: 'longOffset' }).formatToParts(new Date(e.occurred_at));
    const gmt = zoned.find((p) => p.type === 'timeZoneName')!.value;
    assert.equal(gmt.replace('GMT', ''), e.utc_offset, `${e.occurred_at} in ${e.time_zone}`);
    assert.match(e.occurred_at, /Z$/, 'occurred_at stays in UTC');
  }
}

test('an external tracker: every scan with its offset and zone, and signed_by once delivered, not before', async () => {
  const made = await post('/trackers', { tracking_number: ups() });
  assert.equal(made.status, 201, made.text);
  assertLocalClocks(made.body.events);
  assert.equal(made.body.signed_by, null);
  let now: Json = made.body;
  for (let step = 0; step < 400 && now.status !== 'delivered'; step++) {
    server.clock.advance(20_000);
    while ((await pollTrackers(serviceContext(server.services, 'test'), warnFails)) === trackerPollBatch);
    now = (await get(`/trackers/${made.body.id}`)).body;
    if (now.status !== 'delivered') assert.equal(now.signed_by, null, `signed for while ${now.status}`);
  }
  assert.equal(now.status, 'delivered');
  assertLocalClocks(now.events);
  // The simulator's recipients of parcels bought elsewhere: a surname in capitals, the same for the same number.
  assert.match(now.signed_by, /^[A-Z]+$/);
  const listed = (await get('/trackers?status=delivered&limit=100')).body.data.find((t: Json) => t.id === made.body.id);
  assert.equal(listed.signed_by, now.signed_by);
});

test("a label's tracker: signed by the recipient on delivery, in its tracking.updated events too; a magic number signs as well", async () => {
  const order = await post('/orders', orderBody({ order_number: `SIGN-${digits(6)}` }));
  assert.equal(order.status, 201, order.text);
  const shipment = await post('/shipments', { order_id: order.body.id });
  assert.equal(shipment.status, 201, shipment.text);
  const id = `trk_${shipment.body.id.slice(4)}`;
  for (let step = 0; step < 60; step++) {
    server.clock.advance(30_000);
    await pollTracking(serviceContext(server.services, 'test'), warnFails);
  }
  const t = (await get(`/trackers/${id}`)).body;
  assert.equal(t.status, 'delivered');
  // orderBody ships to Ada Lovelace.
  assert.equal(t.signed_by, 'LOVELACE');
  assertLocalClocks(t.events);
  assert.equal(t.events[0].time_zone, 'America/Chicago', 'the label is made in Austin');
  assert.equal(t.events.at(-1).time_zone, 'America/Los_Angeles', 'and delivered in San Francisco');
  const events = await server.request('GET', '/events?type=tracking.updated&limit=100', { key });
  const last = events.body.data.filter((e: Json) => e.data.id === id)[0];
  assert.equal(last.data.signed_by, 'LOVELACE');
  assert.deepEqual((await post('/tracking', { order_id: order.body.id })).body.signed_by, 'LOVELACE');

  const magic = await post('/tracking', { tracking_number: 'SHIPD_TEST_DELIVERED' });
  assert.equal(magic.status, 200, magic.text);
  assert.equal(magic.body.signed_by, 'LOVELACE');
  assertLocalClocks(magic.body.events);
  assert.equal((await post('/tracking', { tracking_number: 'SHIPD_TEST_OUT_FOR_DELIVERY' })).body.signed_by, null);
});

test('scans stored before they had a clock are answered with null offset and zone, in the same shape', async () => {
  const made = await post('/trackers', { tracking_number: ups() });
  assert.equal(made.status, 201, made.text);
  const old = made.body.events.map(({ utc_offset: _o, time_zone: _z, ...rest }: Json) => rest);
  await server.services.database.db.updateTable('trackers').set({ events: JSON.stringify(old) }).where('id', '=', made.body.id).execute();
  const read = (await get(`/trackers/${made.body.id}`)).body;
  assert.deepEqual(
    read.events,
    old.map((e: Json) => ({ occurred_at: e.occurred_at, utc_offset: null, time_zone: null, status: e.status, description: e.description, location: e.location })),
  );
});
