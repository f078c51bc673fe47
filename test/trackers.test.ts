import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomInt } from 'node:crypto';
import { createTestDatabase, problem, startServer, type TestServer } from './harness.ts';
import { orderBody } from './fixtures.ts';
import { startReceiver, verify } from './webhook-receiver.ts';
import { setPaymentMethod } from '../src/domain/billing/payment-methods.ts';
import { fedexTrackingNumber, gs1CheckDigit, s10TrackingNumber, upsTrackingNumber, uspsTrackingNumber } from '../src/carriers/tracking-numbers.ts';
import { chooseCarrier, pollTrackers, trackerPollBatch } from '../src/domain/tracking/trackers.ts';
import { pollTracking } from '../src/domain/tracking/tracking.ts';
import { ApiError } from '../src/kernel/errors.ts';
import { serviceContext } from '../src/services.ts';
import { createJobRunner } from '../src/jobs/index.ts';
import { backfillLabelTrackers } from '../src/db/migrations/026_trackers.ts';
import { createLogger } from '../src/http/logger.ts';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- tests read whatever JSON came back

const digits = (n: number) => Array.from({ length: n }, () => randomInt(10)).join('');
const withGs1 = (body: string) => body + gs1CheckDigit(body);

/** A fresh number in each of the formats tracking-numbers.ts knows, with the carrier it must be told apart as. */
const formats: Record<string, { carrier: string; make: () => string }> = {
  'UPS 1Z': { carrier: 'ups', make: () => upsTrackingNumber(digits(6), '03', digits(7)) },
  'USPS IMpb 22': { carrier: 'usps', make: () => uspsTrackingNumber('001', `9${digits(8)}`, digits(7)) },
  'USPS IMpb 26': { carrier: 'usps', make: () => withGs1(`93${digits(23)}`) },
  'USPS 20': { carrier: 'usps', make: () => withGs1(digits(19)) },
  'USPS S10': { carrier: 'usps', make: () => s10TrackingNumber('CP', digits(8)) },
  'FedEx 12': { carrier: 'fedex', make: () => fedexTrackingNumber(digits(11)) },
  'FedEx 15': { carrier: 'fedex', make: () => withGs1(digits(14)) },
  'FedEx SmartPost 20': {
    carrier: 'fedex',
    make: () => {
      const body = digits(19);
      return body + gs1CheckDigit(`92${body}`);
    },
  },
  'FedEx 96 22': {
    carrier: 'fedex',
    make: () => {
      const covered = digits(14);
      return `96${digits(5)}${covered}${gs1CheckDigit(covered)}`;
    },
  },
  'FedEx 34': { carrier: 'fedex', make: () => digits(22) + fedexTrackingNumber(digits(11)) },
};
const ups = formats['UPS 1Z']!.make;
const fedex = formats['FedEx 12']!.make;

let server: TestServer;
let account: string;
let key: string;
let otherKey: string;

before(async () => {
  server = await startServer({ env: { SHIPD_RATE_LIMIT_PER_SECOND: '1000000', SHIPD_RATE_LIMIT_BURST: '1000000' } });
  account = await server.account();
  await setPaymentMethod(server.services.database.db, server.clock, account, 'test', 'pm_test_visa');
  key = (await server.key(account)).secret;
  otherKey = (await server.key(await server.account())).secret;
});
after(() => server.close());

const post = (path: string, body: unknown, k = key, headers?: Record<string, string>) => server.request('POST', path, { key: k, body, ...(headers && { headers }) });
const get = (path: string, k = key) => server.request('GET', path, { key: k });
/** The trackers worker, until nothing more is due. */
async function poll(): Promise<void> {
  while ((await pollTrackers(serviceContext(server.services, 'test'), { warn: (o) => assert.fail(`warned ${JSON.stringify(o)}`) })) === trackerPollBatch);
}
const newKey = async () => (await server.key(account)).secret;

async function follow(body: Json, k = key): Promise<Json> {
  const res = await post('/trackers', body, k);
  assert.equal(res.status, 201, res.text);
  return res.body;
}

/** The key's tracking.updated events about one tracker, oldest first. */
async function updates(trackerId: string, k = key): Promise<Json[]> {
  const all: Json[] = [];
  let cursor: string | null = null;
  do {
    const page: Json = (await get(`/events?type=tracking.updated&limit=100${cursor ? `&cursor=${cursor}` : ''}`, k)).body;
    all.push(...page.data);
    cursor = page.next_cursor;
  } while (cursor);
  return all.filter((e) => e.data.id === trackerId).reverse();
}

describe('POST /trackers', () => {
  for (const [format, { carrier, make }] of Object.entries(formats)) {
    test(`a ${format} number is followed as ${carrier}, its carrier told from the number`, async () => {
      const number = make();
      const t = await follow({ tracking_number: number });
      assert.match(t.id, /^trk_[0-9a-z]{26}$/);
      assert.equal(t.object, 'tracker');
      assert.equal(t.tracking_number, number);
      assert.equal(t.carrier, carrier);
      assert.equal(t.origin, 'external');
      assert.deepEqual([t.shipment_id, t.order_id, t.signed_by, t.package], [null, null, null, undefined]);
      assert.equal(t.status, 'pre_transit');
      assert.equal(t.events.length, 1);
      assert.equal(t.events[0].description, 'Shipping label created, awaiting item');
      assert.match(t.estimated_delivery_date, /^\d{4}-\d\d-\d\d$/);
      assert.deepEqual(t.metadata, {});
      assert.equal(t.last_checked_at, t.created_at);
      assert.ok(Date.parse(t.next_check_at) > Date.parse(t.created_at), 'the first scan is awaited');
      assert.deepEqual((await get(`/trackers/${t.id}`)).body, t);
      // The carrier given, when it is the right one, changes nothing.
      assert.equal((await post('/trackers', { tracking_number: number, carrier })).body.id, t.id);
    });
  }

  test('spaces, dashes and letter case are ignored; metadata and an order of the key are kept', async () => {
    const number = ups();
    const order = (await post('/orders', orderBody())).body;
    const written = `${number.slice(0, 6).toLowerCase()} ${number.slice(6, 10)}-${number.slice(10)}`;
    const t = await follow({ tracking_number: written, order_id: order.id, metadata: { marketplace: 'etsy' } });
    assert.equal(t.tracking_number, number);
    assert.equal(t.carrier, 'ups');
    assert.equal(t.order_id, order.id);
    assert.deepEqual(t.metadata, { marketplace: 'etsy' });
    const theirs = (await post('/orders', orderBody(), otherKey)).body;
    problem(await post('/trackers', { tracking_number: ups(), order_id: theirs.id }), 404, 'not_found');
  });

  test('a number in no format is a 400 at /tracking_number; a carrier the number does not fit, a 400 at /carrier', async () => {
    const number = fedex();
    const wrongCheck = number.slice(0, 11) + ((Number(number[11]) + 1) % 10);
    for (const bad of ['12345678', wrongCheck, '1ZXXXXXXXXXXXXXXXX', 'ABCDEFGHIJ']) {
      const p = problem(await post('/trackers', { tracking_number: bad }), 400, 'validation_failed');
      assert.deepEqual(p.errors.map((e: Json) => `${e.in} ${e.pointer}`), ['body /tracking_number'], bad);
    }
    const p = problem(await post('/trackers', { tracking_number: number, carrier: 'usps' }), 400, 'validation_failed');
    assert.deepEqual(p.errors.map((e: Json) => e.pointer), ['/carrier']);
    assert.match(p.detail, /has the form of a FEDEX number/);
    problem(await post('/trackers', { tracking_number: 'no/slash' }), 400, 'validation_failed');
    problem(await post('/trackers', {}), 400, 'validation_failed');
    assert.equal((await get('/trackers?limit=100')).body.data.filter((t: Json) => t.tracking_number === number).length, 0, 'nothing was stored');
  });

  test("a number in several carriers' formats is tracking_number_ambiguous, naming them, until carrier says which", () => {
    // No number is in two carriers' formats today (tracking-numbers.ts), so the rule is shown with a detector that finds two.
    const both = () => ['usps' as const, 'fedex' as const];
    assert.throws(
      () => chooseCarrier('92612927007687119480', undefined, 'test', both),
      (err: unknown) => {
        assert.ok(err instanceof ApiError);
        assert.equal(err.code, 'tracking_number_ambiguous');
        assert.equal(err.status, 400);
        assert.deepEqual(err.errors, [{ in: 'body', pointer: '/carrier', detail: 'must be given: the number fits usps, fedex' }]);
        assert.match(err.detail, /USPS or FEDEX/);
        return true;
      },
    );
    assert.equal(chooseCarrier('92612927007687119480', 'fedex', 'test', both), 'fedex');
    // And with the real formats, each number is one carrier's.
    for (const { carrier, make } of Object.values(formats)) assert.equal(chooseCarrier(make(), undefined, 'test'), carrier);
  });

  test('over HTTP: a number the key follows with two carriers is tracking_number_ambiguous until carrier says which', async () => {
    // A magic number goes to whichever carrier is named, so one key can follow it with two.
    const k = (await server.key(account)).secret;
    const byUps = await follow({ tracking_number: 'SHIPD_TEST_PRE_TRANSIT', carrier: 'ups' }, k);
    const byFedex = await follow({ tracking_number: 'SHIPD_TEST_PRE_TRANSIT', carrier: 'fedex' }, k);
    assert.notEqual(byUps.id, byFedex.id);
    const p = problem(await post('/trackers', { tracking_number: 'SHIPD_TEST_PRE_TRANSIT' }, k), 400, 'tracking_number_ambiguous');
    assert.deepEqual(p.errors.map((e: Json) => e.pointer), ['/carrier']);
    assert.match(p.detail, /UPS or FEDEX|FEDEX or UPS/);
    assert.equal((await post('/trackers', { tracking_number: 'SHIPD_TEST_PRE_TRANSIT', carrier: 'fedex' }, k)).body.id, byFedex.id);
  });

  test('the same number again answers the same tracker; an Idempotency-Key replays the first answer', async () => {
    const number = fedex();
    const first = await follow({ tracking_number: number, metadata: { n: '1' } });
    const again = await post('/trackers', { tracking_number: number, metadata: { n: '2' } });
    assert.equal(again.status, 201);
    assert.deepEqual(again.body, first, 'the tracker the key has, unchanged');
    const idem = { 'idempotency-key': `follow-${number}` };
    const other = fedex();
    const made = await post('/trackers', { tracking_number: other }, key, idem);
    const replay = await post('/trackers', { tracking_number: other }, key, idem);
    assert.equal(replay.headers.get('idempotent-replayed'), 'true');
    assert.deepEqual(replay.body, made.body);
    problem(await post('/trackers', { tracking_number: fedex() }, key, idem), 422, 'idempotency_key_reused');
  });

  test('magic test numbers keep their outcomes; a live key follows no number of a carrier shipd has no credentials for', async () => {
    const delivered = await follow({ tracking_number: 'SHIPD_TEST_DELIVERED' });
    assert.deepEqual([delivered.carrier, delivered.status, delivered.next_check_at], ['usps', 'delivered', null]);
    const returned = await follow({ tracking_number: 'shipd_test_return_to_sender', carrier: 'ups' });
    assert.deepEqual([returned.carrier, returned.status], ['ups', 'return_to_sender']);
    const moving = await follow({ tracking_number: 'SHIPD_TEST_IN_TRANSIT' });
    assert.equal(moving.status, 'in_transit');
    server.clock.advance(3_600_000);
    await poll();
    assert.equal((await get(`/trackers/${moving.id}`)).body.status, 'in_transit', 'a magic number stays where it is');
    assert.deepEqual(await updates(moving.id), []);
    const live = (await server.key(account, 'live')).secret;
    problem(await post('/trackers', { tracking_number: 'SHIPD_TEST_DELIVERED' }, live), 400, 'validation_failed');
    const p = problem(await post('/trackers', { tracking_number: ups() }, live), 422, 'not_supported_by_carrier');
    assert.deepEqual(p.errors.map((e: Json) => e.pointer), ['/tracking_number']);
  });
});

describe('following a journey', () => {
  test('the worker records each new scan and sends one tracking.updated per scan, as the scan left the tracker, to delivered', async () => {
    const t = await follow({ tracking_number: ups(), metadata: { shop: 'a' } });
    const statuses: string[] = [];
    let now: Json = t;
    for (let step = 0; step < 400 && now.status !== 'delivered'; step++) {
      server.clock.advance(20_000);
      await poll();
      now = (await get(`/trackers/${t.id}`)).body;
      if (statuses.at(-1) !== now.status) statuses.push(now.status);
    }
    assert.equal(now.status, 'delivered');
    assert.deepEqual(statuses, [...new Set(statuses)], 'the status never goes back');
    assert.equal(now.next_check_at, null, 'a delivered parcel is checked no more');
    assert.ok(Date.parse(now.last_checked_at) > Date.parse(t.last_checked_at));
    assert.ok(now.events.length >= 5, `${now.events.length} scans`);
    const cities = new Set(now.events.map((e: Json) => e.location?.city));
    assert.ok(cities.size >= 2, `scans in several places: ${[...cities]}`);
    const sent = await updates(t.id);
    // The scan the tracker was made with is in its creation answer; every later one is sent once.
    assert.deepEqual(sent.map((e) => e.data.events.length), now.events.map((_: unknown, i: number) => i + 1).slice(1));
    for (const e of sent) {
      assert.equal(e.data.status, e.data.events.at(-1).status);
      assert.deepEqual(e.data.metadata, { shop: 'a' });
      assert.equal(e.data.origin, 'external');
    }
    assert.deepEqual(sent.at(-1)!.data.events, now.events);
    const before = (await get(`/trackers/${t.id}`)).body;
    server.clock.advance(86_400_000);
    await poll();
    assert.deepEqual((await get(`/trackers/${t.id}`)).body, before, 'an ended journey is not checked');
  });

  test('POST /tracking answers a number the key follows, asking the carrier now; another key gets 404', async () => {
    const number = fedex();
    const t = await follow({ tracking_number: number });
    server.clock.advance(10 * 60_000);
    const now = await post('/tracking', { tracking_number: number });
    assert.equal(now.status, 200, now.text);
    assert.equal(now.body.id, t.id);
    assert.ok(now.body.events.length > t.events.length, 'the carrier was asked now');
    assert.deepEqual((await get(`/trackers/${t.id}`)).body, now.body, 'and what it said is recorded');
    assert.equal((await updates(t.id)).length, now.body.events.length - 1, 'and reported once');
    problem(await post('/tracking', { tracking_number: number }, otherKey), 404, 'not_found');
  });

  test('two keys following one number each have their own tracker and events, and nothing of the other', async () => {
    const number = ups();
    const a = await follow({ tracking_number: number, metadata: { who: 'a' } });
    const b = await follow({ tracking_number: number, metadata: { who: 'b' } }, otherKey);
    assert.notEqual(a.id, b.id);
    for (let step = 0; step < 30; step++) {
      server.clock.advance(20_000);
      await poll();
    }
    const aSent = await updates(a.id);
    const bSent = await updates(b.id, otherKey);
    assert.ok(aSent.length > 0 && bSent.length > 0);
    assert.deepEqual(await updates(b.id), [], "a's key sees no event of b's tracker");
    assert.deepEqual(await updates(a.id, otherKey), []);
    for (const e of aSent) assert.deepEqual(e.data.metadata, { who: 'a' });
    for (const e of bSent) assert.deepEqual(e.data.metadata, { who: 'b' });
    problem(await get(`/trackers/${a.id}`, otherKey), 404, 'tracker_not_found');
    problem(await server.request('DELETE', `/trackers/${a.id}`, { key: otherKey }), 404, 'tracker_not_found');
    const bList = (await get(`/trackers?limit=100&carrier=ups`, otherKey)).body.data.map((t: Json) => t.id);
    assert.ok(bList.includes(b.id) && !bList.includes(a.id));
    const rows = await server.services.database.db.selectFrom('events').select(['owner_key_id', 'data']).where('resource_id', 'in', [a.id, b.id]).execute();
    assert.equal(new Set(rows.filter((r) => JSON.parse(r.data).id === a.id).map((r) => r.owner_key_id)).size, 1);
  });

  test('DELETE stops the tracker: no more checks or events, deleted in GET, out of lists; the number can be followed anew', async () => {
    const number = fedex();
    const t = await follow({ tracking_number: number });
    const stopped = await server.request('DELETE', `/trackers/${t.id}`, { key });
    assert.equal(stopped.status, 200, stopped.text);
    assert.equal(stopped.body.deleted, true);
    assert.equal(stopped.body.id, t.id);
    assert.equal(stopped.body.next_check_at, null);
    assert.deepEqual((await get(`/trackers/${t.id}`)).body, stopped.body);
    assert.deepEqual((await server.request('DELETE', `/trackers/${t.id}`, { key })).body, stopped.body, 'stopping it again answers the same');
    for (let step = 0; step < 20; step++) {
      server.clock.advance(60_000);
      await poll();
    }
    assert.deepEqual((await get(`/trackers/${t.id}`)).body, stopped.body, 'never checked again');
    assert.deepEqual(await updates(t.id), []);
    assert.ok(!(await get('/trackers?limit=100')).body.data.some((x: Json) => x.id === t.id));
    problem(await post('/tracking', { tracking_number: number }), 404, 'not_found');
    const anew = await follow({ tracking_number: number });
    assert.notEqual(anew.id, t.id);
    assert.equal(anew.deleted, undefined);
  });
});

describe('GET /trackers', () => {
  test('filters by status, carrier, creation and update times, and walks every page with cursors', async () => {
    const k = await newKey();
    const made: Json[] = [];
    for (let i = 0; i < 4; i++) made.push(await follow({ tracking_number: ups() }, k));
    for (let i = 0; i < 3; i++) made.push(await follow({ tracking_number: fedex() }, k));
    const delivered = await follow({ tracking_number: 'SHIPD_TEST_DELIVERED' }, k);
    made.push(delivered);
    const all = made.map((t) => t.id).reverse();

    const page1 = (await get('/trackers?limit=3', k)).body;
    assert.deepEqual(page1.data.map((t: Json) => t.id), all.slice(0, 3), 'newest first');
    assert.equal(page1.has_more, true);
    const walked: string[] = [];
    let cursor: string | null = null;
    do {
      const page: Json = (await get(`/trackers?limit=3${cursor ? `&cursor=${cursor}` : ''}`, k)).body;
      walked.push(...page.data.map((t: Json) => t.id));
      cursor = page.next_cursor;
    } while (cursor);
    assert.deepEqual(walked, all);
    problem(await get('/trackers?cursor=bm9wZQ', k), 400, 'validation_failed');

    const ids = async (query: string) => (await get(`/trackers?limit=100&${query}`, k)).body.data.map((t: Json) => t.id);
    assert.deepEqual(await ids('carrier=fedex'), made.slice(4, 7).map((t) => t.id).reverse());
    assert.deepEqual(await ids('carrier=usps'), [delivered.id]);
    assert.deepEqual(await ids('status=delivered'), [delivered.id]);
    assert.equal((await ids('status=pre_transit')).length, 7);
    assert.deepEqual(await ids(`created_after=${encodeURIComponent(made[4]!.created_at)}`), all.slice(0, 4));
    assert.deepEqual(await ids(`created_before=${encodeURIComponent(made[4]!.created_at)}`), all.slice(4));

    // The UPS ones move on; updated_after finds exactly those that changed since.
    const mark = server.clock.now().toISOString();
    server.clock.advance(5 * 60_000);
    await poll();
    const moved = await ids(`updated_after=${encodeURIComponent(mark)}`);
    assert.ok(moved.length >= 7, `${moved.length} moved`);
    assert.ok(!moved.includes(delivered.id), 'the delivered one has not changed');
    assert.deepEqual(await ids(`updated_before=${encodeURIComponent(mark)}`), [delivered.id]);
    assert.deepEqual(await ids('status=pre_transit'), [], 'the statuses as they are now');
    problem(await get('/trackers?status=lost', k), 400, 'validation_failed');
    problem(await get('/trackers?updated_after=yesterday', k), 400, 'validation_failed');
  });
});

describe('POST /trackers/batch', () => {
  test('each number gets its tracker or its problem, pointed into its item; the refused leave the others followed', async () => {
    const k = await newKey();
    const known = await follow({ tracking_number: fedex() }, k);
    const order = (await post('/orders', orderBody(), k)).body;
    const theirOrder = (await post('/orders', orderBody(), otherKey)).body;
    const a = ups();
    const items = [
      { tracking_number: a, metadata: { row: '0' } },
      { tracking_number: '12345678' },
      { tracking_number: fedex(), carrier: 'ups' },
      { tracking_number: known.tracking_number },
      { tracking_number: a },
      { tracking_number: fedex(), order_id: order.id },
      { tracking_number: fedex(), order_id: theirOrder.id },
      { tracking_number: 'SHIPD_TEST_FAILURE' },
    ];
    const res = await post('/trackers/batch', { trackers: items }, k);
    assert.equal(res.status, 200, res.text);
    assert.equal(res.body.object, 'tracker_batch');
    const r = res.body.results as Json[];
    assert.deepEqual(r.map((x) => x.tracking_number), items.map((i) => i.tracking_number));
    assert.deepEqual(r.map((x) => (x.tracker ? 'tracker' : x.error.code)), ['tracker', 'validation_failed', 'validation_failed', 'tracker', 'tracker', 'tracker', 'not_found', 'tracker']);
    assert.deepEqual(r[1]!.error.errors.map((e: Json) => e.pointer), ['/trackers/1/tracking_number']);
    assert.deepEqual(r[2]!.error.errors.map((e: Json) => e.pointer), ['/trackers/2/carrier']);
    assert.equal(r[3]!.tracker.id, known.id, 'a number the key follows answers its tracker');
    assert.equal(r[4]!.tracker.id, r[0]!.tracker.id, 'a number twice in one batch is one tracker');
    assert.equal(r[5]!.tracker.order_id, order.id);
    assert.equal(r[7]!.tracker.status, 'failure');
    for (const x of r.filter((x) => x.tracker)) assert.deepEqual((await get(`/trackers/${x.tracker.id}`, k)).body, x.tracker);
    assert.equal((await get('/trackers?limit=100', k)).body.data.length, 4);

    const many = Array.from({ length: 1000 }, () => ({ tracking_number: fedex() }));
    const big = await post('/trackers/batch', { trackers: many }, k);
    assert.equal(big.status, 200, big.text.slice(0, 300));
    assert.equal(big.body.results.filter((x: Json) => x.tracker).length, 1000);
    problem(await post('/trackers/batch', { trackers: [...many, { tracking_number: fedex() }] }, k), 400, 'validation_failed');
    problem(await post('/trackers/batch', { trackers: [] }, k), 400, 'validation_failed');
  });
});

describe("labels' trackers", () => {
  async function buy(body: Json = orderBody()): Promise<Json> {
    const order = await post('/orders', body);
    assert.equal(order.status, 201, order.text);
    const shipment = await post('/shipments', { order_id: order.body.id });
    assert.equal(shipment.status, 201, shipment.text);
    return shipment.body;
  }
  const pollLabels = () => pollTracking(serviceContext(server.services, 'test'), { warn: (o) => assert.fail(`warned ${JSON.stringify(o)}`) });

  test('a label bought through shipd has its tracker from the purchase, listed as any other, written with its tracking', async () => {
    const shipment = await buy();
    const id = `trk_${shipment.id.slice(4)}`;
    const t = (await get(`/trackers/${id}`)).body;
    assert.equal(t.origin, 'label');
    assert.equal(t.shipment_id, shipment.id);
    assert.equal(t.order_id, shipment.order_id);
    assert.equal(t.tracking_number, shipment.tracking_number);
    assert.equal(t.carrier, shipment.carrier);
    assert.equal(t.status, 'pre_transit');
    assert.equal(t.last_checked_at, null);
    assert.ok((await get('/trackers?limit=100')).body.data.some((x: Json) => x.id === id));
    assert.equal((await post('/trackers', { tracking_number: shipment.tracking_number })).body.id, id, 'following its number answers it');
    problem(await server.request('DELETE', `/trackers/${id}`, { key }), 409, 'resource_in_use');

    for (let step = 0; step < 60; step++) {
      server.clock.advance(30_000);
      await pollLabels();
    }
    const now = (await get(`/trackers/${id}`)).body;
    assert.equal(now.status, 'delivered');
    assert.ok(now.last_checked_at !== null, 'the worker checked it');
    const tracked = (await post('/tracking', { tracking_number: shipment.tracking_number })).body;
    assert.deepEqual(tracked, now, 'POST /tracking answers the same tracker');
    const sent = await updates(id);
    assert.equal(sent.length, now.events.length, "one tracking.updated per scan, as a label's always had");
    assert.deepEqual(sent.at(-1)!.data, now);
  });

  test('labels bought before trackers get theirs from the migration, with the status last recorded', async () => {
    const one = await buy();
    const voided = await buy();
    assert.equal((await post(`/shipments/${voided.order_id}/void`, {})).status, 200);
    const box = (lb: number) => ({ weight: { value: lb, unit: 'lb' }, dimensions: { length: 10, width: 8, height: 6, unit: 'in' } });
    const several = await buy(orderBody({ parcel: undefined, parcels: [box(2), box(3)], requested_service: { carrier: 'ups', service: '03' } }));
    const ids = [one.id, voided.id, several.id];
    const db = server.services.database.db;
    const made = await db.selectFrom('trackers').selectAll().where('shipment_id', 'in', ids).orderBy('id').execute();
    assert.equal(made.length, 4);
    await db.deleteFrom('trackers').where('shipment_id', 'in', ids).execute();
    await backfillLabelTrackers(db as never);
    await backfillLabelTrackers(db as never);
    const back = await db.selectFrom('trackers').selectAll().where('shipment_id', 'in', ids).orderBy('id').execute();
    const shape = (t: (typeof made)[number]) => [t.id, t.tracking_number, t.carrier, t.origin, t.shipment_id, t.package, t.order_id, t.owner_key_id, t.status, t.next_check_at];
    assert.deepEqual(back.map(shape), made.map(shape));
    assert.deepEqual(back.map((t) => t.status), ['pre_transit', 'cancelled', 'pre_transit', 'pre_transit']);
  });

  test("a label's tracker is cancelled with its void and checked no more", async () => {
    const shipment = await buy();
    assert.equal((await post(`/shipments/${shipment.order_id}/void`, {})).status, 200);
    const t = (await get(`/trackers/trk_${shipment.id.slice(4)}`)).body;
    assert.deepEqual([t.status, t.status_detail, t.next_check_at], ['cancelled', 'The label was voided', null]);
  });

  test("a shipment of several boxes: the shipment's tracker, and one for each later box whose events carry its own id", async () => {
    const box = (lb: number) => ({ weight: { value: lb, unit: 'lb' }, dimensions: { length: 10, width: 8, height: 6, unit: 'in' } });
    const shipment = await buy(orderBody({ parcel: undefined, parcels: [box(2), box(3), box(4)], requested_service: { carrier: 'ups', service: '03' } }));
    const listed = (await get('/trackers?limit=100')).body.data.filter((t: Json) => t.shipment_id === shipment.id);
    assert.deepEqual(listed.map((t: Json) => [t.tracking_number, t.package]).sort(), shipment.packages.map((p: Json, i: number) => [p.tracking_number, i === 0 ? undefined : i]).sort());
    const box2 = listed.find((t: Json) => t.package === 1)!;
    for (let step = 0; step < 60; step++) {
      server.clock.advance(30_000);
      await pollLabels();
    }
    const now = (await get(`/trackers/${box2.id}`)).body;
    assert.equal(now.status, 'delivered');
    assert.deepEqual((await post('/tracking', { tracking_number: box2.tracking_number })).body, (await get(`/trackers/${box2.id}`)).body);
    const sent = await updates(box2.id);
    assert.equal(sent.length, now.events.length);
    for (const e of sent) assert.deepEqual([e.data.package, e.data.tracking_number], [1, box2.tracking_number]);
    assert.equal((await get(`/trackers/trk_${shipment.id.slice(4)}`)).body.status, 'delivered');
  });
});

test('a tracker is followed across a restart: the worker of the new server checks it and its webhook hears of it', async () => {
  const database = await createTestDatabase();
  const receiver = await startReceiver('/hooks/restart');
  const env = { SHIPD_WEBHOOKS_ALLOW_INSECURE: 'true' };
  let first: TestServer | undefined = await startServer({ database, env });
  let second: TestServer | undefined;
  const runner: { stop(): Promise<void> } = { stop: async () => undefined };
  try {
    const k = (await first.key(await first.account())).secret;
    const hook = await first.request('POST', '/webhooks', { key: k, body: { url: receiver.url, events: ['tracking.updated'] } });
    assert.equal(hook.status, 201, hook.text);
    const t = (await first.request('POST', '/trackers', { key: k, body: { tracking_number: fedex() } })).body;
    await first.close();
    first = undefined;

    second = await startServer({ database, env });
    const jobs = createJobRunner(second.services, createLogger('silent'), { pollMs: 20, delivery: { pollMs: 20, timeoutMs: 2_000, perEndpoint: 4 } });
    runner.stop = () => jobs.stop();
    jobs.start();
    second.clock.advance(5 * 60_000);
    await receiver.waitFor((got) => got.length >= 2);
    const sent = receiver.received.map((r) => verify(hook.body.secret, r));
    for (const e of sent) {
      assert.equal(e.type, 'tracking.updated');
      assert.equal(e.data.id, t.id);
    }
    const now = (await second.request('GET', `/trackers/${t.id}`, { key: k })).body;
    assert.ok(now.events.length > t.events.length);
    assert.ok(Date.parse(now.last_checked_at) > Date.parse(t.last_checked_at));
  } finally {
    await runner.stop();
    await first?.close();
    await second?.close();
    await receiver.close();
    await database.drop();
  }
});
