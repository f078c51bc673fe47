import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomInt } from 'node:crypto';
import { startServer, type TestServer } from './harness.ts';
import { startCarrierFakes, type CarrierFakes } from './fakes/carriers.ts';
import { startReceiver, verify, type Receiver } from './webhook-receiver.ts';
import { fedexTrackingNumber, upsTrackingNumber, uspsTrackingNumber } from '../src/carriers/tracking-numbers.ts';
import { pollTrackers, trackerPollBatch } from '../src/domain/tracking/trackers.ts';
import { liveCheckEveryMs } from '../src/domain/tracking/schedule.ts';
import { serviceContext } from '../src/services.ts';
import { createJobRunner } from '../src/jobs/index.ts';
import { createLogger } from '../src/http/logger.ts';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- tests read whatever JSON came back

const digits = (n: number) => Array.from({ length: n }, () => randomInt(10)).join('');
const ups = () => upsTrackingNumber(digits(6), '03', digits(7));
const usps = () => uspsTrackingNumber('001', `9${digits(8)}`, digits(7));
const fedex = () => fedexTrackingNumber(digits(11));
const minute = 60_000;
const hour = 60 * minute;

describe('live trackers: the worker asks the carriers (fake UPS, USPS and FedEx) about numbers shipd did not sell', () => {
  let server: TestServer;
  let fakes: CarrierFakes;
  let receiver: Receiver;
  let key: string;
  let hookSecret: string;
  const warnings: Json[] = [];

  before(async () => {
    fakes = await startCarrierFakes();
    receiver = await startReceiver('/hooks/live-trackers');
    server = await startServer({ env: { ...fakes.env(['ups', 'usps', 'fedex']), SHIPD_WEBHOOKS_ALLOW_INSECURE: 'true' } });
    key = (await server.key(await server.account(), 'live')).secret;
    const hook = await server.request('POST', '/webhooks', { key, body: { url: receiver.url, events: ['tracking.updated'] } });
    assert.equal(hook.status, 201, hook.text);
    hookSecret = hook.body.secret;
  });
  after(async () => {
    await server.close();
    await fakes.close();
    await receiver.close();
  });

  const get = (path: string) => server.request('GET', path, { key });
  async function follow(body: Json): Promise<Json> {
    const res = await server.request('POST', '/trackers', { key, body });
    assert.equal(res.status, 201, res.text);
    return res.body;
  }
  /** One pass of the trackers worker, its warnings kept. */
  const pass = () => pollTrackers(serviceContext(server.services, 'test'), { warn: (o) => void warnings.push(o) });
  async function poll(): Promise<void> {
    while ((await pass()) === trackerPollBatch);
  }
  const tracker = async (id: string): Promise<Json> => (await get(`/trackers/${id}`)).body;
  const trackCalls = () => ({
    ups: fakes.ups.calls.filter((c) => c.path.startsWith('/api/track/')).length,
    usps: fakes.usps.calls.filter((c) => c.path.startsWith('/tracking/')).length,
    fedex: fakes.fedex.calls.filter((c) => c.path === '/track/v1/trackingnumbers').length,
  });

  test('a live tracker for each carrier is made unknown, then the worker asks each carrier and sends tracking.updated per scan, to delivered', async () => {
    const numbers = { ups: ups(), usps: usps(), fedex: fedex() };
    fakes.ups.addPackage(numbers.ups, 'in_transit');
    fakes.usps.addParcel(numbers.usps, 'in_transit');
    fakes.fedex.parcels.set(numbers.fedex, '568838414941');
    const before = trackCalls();
    const made: Record<string, Json> = {};
    for (const [carrier, tracking_number] of Object.entries(numbers)) {
      const t = await follow({ tracking_number });
      assert.equal(t.carrier, carrier);
      assert.equal(t.status, 'unknown');
      assert.equal(t.last_checked_at, null, 'the carrier is asked by the worker, many numbers a call');
      assert.ok(Date.parse(t.next_check_at) - server.clock.now().getTime() <= minute);
      made[carrier] = t;
    }
    assert.deepEqual(trackCalls(), before, 'making a tracker asks no carrier');

    const jobs = createJobRunner(server.services, createLogger('silent'), { pollMs: 20, delivery: { pollMs: 20, timeoutMs: 2_000, perEndpoint: 4 } });
    jobs.start();
    try {
      server.clock.advance(minute + 1_000);
      const ids = new Set(Object.values(made).map((t) => t.id));
      // UPS's package has 3 scans, USPS's parcel 3, FedEx's 3.
      await receiver.waitFor((got) => got.filter((r) => ids.has(verify(hookSecret, r).data.id)).length >= 9);
      for (const [carrier, t] of Object.entries(made)) {
        const now = await tracker(t.id);
        assert.equal(now.status, 'in_transit', `${carrier}: ${now.status_detail}`);
        assert.ok(now.events.length >= 2, `${carrier}: ${now.events.length} scans`);
        assert.ok(now.last_checked_at !== null);
        const wait = Date.parse(now.next_check_at) - Date.parse(now.last_checked_at);
        assert.ok(wait >= 20 * minute && wait <= liveCheckEveryMs.in_transit! * 1.25, `${carrier}: next check in ${wait / minute} min`);
        const sent = receiver.received.map((r) => verify(hookSecret, r)).filter((e) => e.data.id === t.id);
        assert.deepEqual(sent.map((e) => (e.data as Json).events.length).sort(), now.events.map((_: unknown, i: number) => i + 1));
        assert.ok(sent.every((e) => e.type === 'tracking.updated'));
      }
    } finally {
      await jobs.stop();
    }
    const after = trackCalls();
    assert.deepEqual([after.ups - before.ups, after.usps - before.usps, after.fedex - before.fedex], [1, 1, 1]);
    const asked = fakes.usps.calls.findLast((c) => c.path === '/tracking/v3r2/tracking')!;
    assert.deepEqual(asked.body, [{ trackingNumber: numbers.usps }], 'USPS is asked with tracking v3r2');
    assert.deepEqual(fakes.usps.violations, []);

    fakes.ups.setStage(numbers.ups, 'delivered');
    server.clock.advance(3 * hour);
    await poll();
    const delivered = await tracker(made.ups!.id);
    assert.equal(delivered.status, 'delivered');
    assert.equal(delivered.next_check_at, null, 'a delivered parcel is asked about no more');
    const events = (await get('/events?type=tracking.updated&limit=100')).body.data.filter((e: Json) => e.data.id === made.ups!.id);
    assert.equal(events[0].data.status, 'delivered');
  });

  test('45 FedEx numbers are asked about in 2 calls, 30 and 15, each number answered on its own', async () => {
    const numbers = Array.from({ length: 45 }, fedex);
    for (const n of numbers.slice(0, 5)) fakes.fedex.parcels.set(n, '039813852990618');
    const batch = await server.request('POST', '/trackers/batch', { key, body: { trackers: numbers.map((tracking_number) => ({ tracking_number })) } });
    assert.equal(batch.status, 200, batch.text);
    assert.ok(batch.body.results.every((r: Json) => r.tracker?.status === 'unknown'));
    const from = fakes.fedex.calls.length;
    server.clock.advance(minute + 1_000);
    await poll();
    const calls = fakes.fedex.calls.slice(from).filter((c) => c.path === '/track/v1/trackingnumbers');
    assert.deepEqual(calls.map((c) => (c.body as Json).trackingInfo.length), [30, 15]);
    const asked = calls.flatMap((c) => (c.body as Json).trackingInfo.map((i: Json) => i.trackingNumberInfo.trackingNumber));
    assert.deepEqual(asked.sort(), [...numbers].sort());
    const trackers = await Promise.all(batch.body.results.map((r: Json) => tracker(r.tracker.id)));
    assert.deepEqual(trackers.slice(0, 5).map((t) => t.status), Array(5).fill('out_for_delivery'));
    for (const t of trackers.slice(5)) {
      assert.equal(t.status, 'unknown');
      assert.match(t.status_detail, /cannot be found/, 'what FedEx said of a number it does not know');
      assert.ok(t.last_checked_at !== null);
      assert.ok(Date.parse(t.next_check_at) - Date.parse(t.last_checked_at) >= liveCheckEveryMs.unknown! * 0.75);
    }
  });

  test('a UPS that answers 429 is left alone for its Retry-After while FedEx and USPS are asked in the same pass', async () => {
    const upsNumbers = [ups(), ups()];
    for (const n of upsNumbers) fakes.ups.addPackage(n, 'in_transit');
    const others = [fedex(), usps()];
    fakes.fedex.parcels.set(others[0]!, '568838414941');
    fakes.usps.addParcel(others[1]!, 'accepted');
    const upsTrackers = await Promise.all(upsNumbers.map((tracking_number) => follow({ tracking_number })));
    const otherTrackers = await Promise.all(others.map((tracking_number) => follow({ tracking_number })));
    fakes.ups.failNext({ kind: 'throttled', retryAfterSeconds: 120 }, '/api/track/');
    const before = trackCalls();
    warnings.length = 0;
    server.clock.advance(minute + 1_000);
    const passedAt = server.clock.now().getTime();
    await pass();
    const mid = trackCalls();
    assert.equal(mid.ups - before.ups, 1, 'one UPS call, throttled; the other UPS number is not sent after it');
    assert.ok(warnings.some((w) => w.carrier === 'ups' && w.error?.retryAfterMs === 120_000), JSON.stringify(warnings));
    for (const t of otherTrackers) {
      const now = await tracker(t.id);
      assert.ok(now.last_checked_at !== null, `${t.carrier} was asked in the same pass`);
      assert.notEqual(now.status, 'unknown');
    }
    for (const t of upsTrackers) {
      const now = await tracker(t.id);
      assert.equal(now.last_checked_at, null);
      assert.ok(Date.parse(now.next_check_at) >= passedAt + 120_000, `put back until UPS may be asked again: ${now.next_check_at}`);
    }
    server.clock.advance(minute);
    await poll();
    assert.equal(trackCalls().ups, mid.ups, 'UPS is not asked before its Retry-After');
    server.clock.advance(2 * minute);
    await poll();
    assert.equal(trackCalls().ups - mid.ups, 2, 'then each UPS number is asked, one per call');
    for (const t of upsTrackers) assert.equal((await tracker(t.id)).status, 'in_transit');
  });

  test("POST /tracking of a live number keeps to the carrier's pace: a throttled carrier is not asked again before its Retry-After, and the last known state is answered", async () => {
    const number = ups();
    fakes.ups.addPackage(number, 'in_transit');
    const t = await follow({ tracking_number: number });
    server.clock.advance(5 * minute);
    const asked = await server.request('POST', '/tracking', { key, body: { tracking_number: number } });
    assert.equal(asked.status, 200, asked.text);
    assert.equal(asked.body.id, t.id);
    assert.equal(asked.body.status, 'in_transit', 'UPS was asked now');
    const known = await tracker(t.id);

    fakes.ups.failNext({ kind: 'throttled', retryAfterSeconds: 300 }, '/api/track/');
    server.clock.advance(minute);
    const throttled = await server.request('POST', '/tracking', { key, body: { tracking_number: number } });
    assert.equal(throttled.status, 502, throttled.text);
    const calls = trackCalls().ups;
    fakes.ups.setStage(number, 'out_for_delivery');
    server.clock.advance(minute);
    const held = await server.request('POST', '/tracking', { key, body: { tracking_number: number } });
    assert.equal(held.status, 200, held.text);
    assert.deepEqual(held.body, known, 'the tracker as last checked, while UPS is backed off');
    assert.equal(trackCalls().ups, calls, 'UPS is not asked within its Retry-After, by a request or the worker');
    await poll();
    assert.equal(trackCalls().ups, calls);

    server.clock.advance(5 * minute);
    const after = await server.request('POST', '/tracking', { key, body: { tracking_number: number } });
    assert.equal(after.status, 200, after.text);
    assert.equal(after.body.status, 'out_for_delivery', 'asked again once the Retry-After has passed');
  });

  test('a number the carrier has not known for 7 days is given up, saying why, with no tracking.updated', async () => {
    const t = await follow({ tracking_number: usps() });
    server.clock.advance(minute + 1_000);
    await poll();
    const first = await tracker(t.id);
    assert.equal(first.status, 'unknown');
    assert.match(first.status_detail, /not yet available/, 'what USPS said');
    assert.ok(first.next_check_at !== null);
    // Checked every few hours for a week; the check after the seventh day stops it.
    for (let day = 0; day < 7; day++) {
      server.clock.advance(24 * hour);
      await poll();
    }
    const stopped = await tracker(t.id);
    assert.equal(stopped.status, 'unknown');
    assert.equal(stopped.next_check_at, null);
    assert.match(stopped.status_detail, /no record of this number for the 7 days since it was followed; shipd stopped asking/);
    const events = (await get('/events?type=tracking.updated&limit=100')).body.data.filter((e: Json) => e.data.id === t.id);
    assert.deepEqual(events, []);
    const askedOf = () => fakes.usps.calls.filter((c) => JSON.stringify(c.body ?? null).includes(t.tracking_number)).length;
    const calls = askedOf();
    server.clock.advance(24 * hour);
    await poll();
    assert.equal(askedOf(), calls, 'a stopped tracker costs no call');
  });
});
