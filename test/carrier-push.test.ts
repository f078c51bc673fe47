import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomInt } from 'node:crypto';
import { createServer } from 'node:net';
import { problem, startServer, type TestServer } from './harness.ts';
import { startUpsFake, upsFakeCredentials, type UpsFake, type UpsPushedScan } from './fakes/ups.ts';
import { fakeUspsCredentials, startUspsFake, type UspsFake } from './fakes/usps.ts';
import { pushFedexTracking } from './fakes/fedex.ts';
import { orderBody } from './fixtures.ts';
import { payingLiveKey, startBilling } from './live-billing.ts';
import { pollTracking } from '../src/domain/tracking/tracking.ts';
import { fedexTrackingNumber, upsTrackingNumber, uspsTrackingNumber } from '../src/carriers/tracking-numbers.ts';
import { carriersFor } from '../src/carriers/registry.ts';
import { externalParcel } from '../src/carriers/sim/external-tracking.ts';
import type { TrackingEvent } from '../src/carriers/carrier.ts';
import { newId } from '../src/kernel/ids.ts';
import { serviceContext } from '../src/services.ts';
import { pollTrackers, scanKey } from '../src/domain/tracking/trackers.ts';
import { carrierEventsPath, subscribeDue, subscribeLater } from '../src/domain/tracking/carrier-subscriptions.ts';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- tests read whatever JSON came back

const upsCredential = 'ups-track-alert-credential-0123456789';
const uspsSecret = 'usps-tracking-secret-0123456789a';
const fedexToken = 'fedex-webhook-security-token-0123';
const digits = (n: number) => Array.from({ length: n }, () => randomInt(10)).join('');
const ups = () => upsTrackingNumber(digits(6), '03', digits(7));
const usps = () => uspsTrackingNumber('001', `9${digits(8)}`, digits(7));
const fedex = () => fedexTrackingNumber(digits(11));

/** A port free now, so that the server's public URL (where the carriers are told to post) is known before it starts. */
async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const port = (probe.address() as { port: number }).port;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}

let server: TestServer;
let upsFake: UpsFake;
let uspsFake: UspsFake;
let billing: Awaited<ReturnType<typeof startBilling>>;
/** Two live keys of two accounts, each following numbers of its own and some of the other's. */
const keys: { id: string; secret: string; account: string }[] = [];

before(async () => {
  upsFake = await startUpsFake();
  uspsFake = await startUspsFake();
  billing = await startBilling();
  const port = await freePort();
  server = await startServer({
    env: {
      PORT: String(port),
      SHIPD_PUBLIC_URL: `http://127.0.0.1:${port}`,
      SHIPD_RATE_LIMIT_PER_SECOND: '1000000',
      SHIPD_RATE_LIMIT_BURST: '1000000',
      UPS_BASE_URL: upsFake.url,
      UPS_CLIENT_ID: upsFakeCredentials.clientId,
      UPS_CLIENT_SECRET: upsFakeCredentials.clientSecret,
      UPS_ACCOUNT_NUMBER: upsFakeCredentials.accountNumber,
      USPS_BASE_URL: uspsFake.url,
      USPS_CLIENT_ID: fakeUspsCredentials.clientId,
      USPS_CLIENT_SECRET: fakeUspsCredentials.clientSecret,
      USPS_ACCOUNT_NUMBER: fakeUspsCredentials.accountNumber,
      USPS_CRID: fakeUspsCredentials.crid,
      USPS_MID: fakeUspsCredentials.mid,
      ...billing.env,
      UPS_TRACK_ALERT_CREDENTIAL: upsCredential,
      USPS_TRACKING_SECRET: uspsSecret,
      USPS_TRACKING_ADMIN_EMAIL: 'ops@example.com',
      FEDEX_WEBHOOK_SECURITY_TOKEN: fedexToken,
    },
  });
  for (let i = 0; i < 2; i++) {
    const account = await server.account();
    keys.push({ ...(await server.key(account, 'live')), account });
  }
});
after(async () => {
  await server.close();
  await upsFake.close();
  await uspsFake.close();
  await billing.stripe.close();
});

const db = () => server.services.database.db;
const deps = () => ({ db: db(), config: server.config, clock: server.clock });
const quiet = { warn: (o: object) => assert.fail(`warned ${JSON.stringify(o)}`) };

/**
 * A live external tracker of the key, written as POST /trackers writes one but already checked, then the subscription
 * hook that creation calls. Its next check is far off, so only pushes move it.
 */
async function liveTracker(key: (typeof keys)[number], carrier: string, trackingNumber: string): Promise<string> {
  const now = server.clock.now();
  const at = now.toISOString();
  const id = newId('trk', now.getTime());
  await db()
    .insertInto('trackers')
    .values({
      id, owner_key_id: key.id, account_id: key.account, mode: 'live', carrier, tracking_number: trackingNumber, origin: 'external', shipment_id: null, package: null,
      order_id: null, status: 'unknown', status_detail: '', events: '[]', estimated_delivery_date: null, signed_by: null, metadata: '{}', last_checked_at: at,
      next_check_at: new Date(now.getTime() + 30 * 86_400_000).toISOString(), created_at: at, updated_at: at, deleted_at: null, proof_of_delivery: null, proof_due_at: null, proof_attempts: 0,
    })
    .execute();
  await subscribeLater(db(), carrier, trackingNumber, at);
  return id;
}

/** The key's tracking.updated events about one tracker, oldest first. */
async function updates(trackerId: string, key = keys[0]!): Promise<Json[]> {
  const all: Json[] = [];
  let cursor: string | null = null;
  do {
    const page: Json = (await server.request('GET', `/events?type=tracking.updated&limit=100${cursor ? `&cursor=${cursor}` : ''}`, { key: key.secret })).body;
    all.push(...page.data);
    cursor = page.next_cursor;
  } while (cursor);
  return all.filter((e) => e.data.id === trackerId).reverse();
}

const tracker = async (id: string, key = keys[0]!) => (await server.request('GET', `/trackers/${id}`, { key: key.secret })).body as Json;
const subscription = (carrier: string, n: string) => db().selectFrom('carrier_subscriptions').selectAll().where('carrier', '=', carrier).where('tracking_number', '=', n).executeTakeFirstOrThrow();
const subscriptionCalls = (n: string) => upsFake.calls.filter((c) => c.path === '/api/track/v1/subscription/standard/package' && JSON.stringify(c.body).includes(n)).length;

const upsScan = (at: Date, over: Partial<UpsPushedScan> = {}): UpsPushedScan => ({
  at, type: 'I', code: 'DP', descriptionCode: '005', description: 'On the Way', city: 'Hickory', state: 'NC', country: 'US', ...over,
});

/** The UPS Track Alert form of a scan as shipd reads it back: the codes of its status, its place. */
function asUpsScan(e: TrackingEvent): UpsPushedScan {
  const codes: Record<string, [string, string, string]> = {
    pre_transit: ['M', 'MP', '003'], in_transit: ['I', 'DP', '005'], out_for_delivery: ['I', 'OT', '021'], delivered: ['D', 'FS', '011'],
  };
  const [type, code, descriptionCode] = codes[e.status]!;
  return { at: e.occurredAt, type, code, descriptionCode, description: 'On the Way', city: e.location?.city ?? '', state: e.location?.state ?? '', country: e.location?.country || 'US', postalCode: e.location?.zip ?? '' };
}

describe('subscriptions', () => {
  test('a live UPS number is subscribed with Track Alert once, off the request, to the carrier-events URL with the configured credential', async () => {
    const n = ups();
    await liveTracker(keys[0]!, 'ups', n);
    await liveTracker(keys[1]!, 'ups', n);
    assert.equal((await subscription('ups', n)).state, 'pending');
    await subscribeDue(deps(), quiet);
    const sub = upsFake.subscriptions.get(n);
    assert.deepEqual(sub, { url: `${server.url}${carrierEventsPath('ups')}`, credentialType: 'Bearer', credential: upsCredential });
    const row = await subscription('ups', n);
    assert.equal(row.state, 'subscribed');
    const lasts = Date.parse(row.expires_at!) - server.clock.now().getTime();
    assert.ok(Math.abs(lasts - 14 * 86_400_000) < 5_000, `UPS's subscriptions last 14 days, not ${lasts} ms`);
    assert.equal(Date.parse(row.next_attempt_at!), Date.parse(row.expires_at!) - 86_400_000, 'renewed a day before it lapses');
    // Following it again (another key, or the same number again) subscribes nothing more.
    await subscribeLater(db(), 'ups', n, server.clock.now().toISOString());
    await subscribeDue(deps(), quiet);
    assert.equal(subscriptionCalls(n), 1);
    assert.deepEqual(upsFake.contractRefusals, []);
  });

  test('DELETE of the last live tracker of a USPS number ends its subscription (GET for the ETag, DELETE with If-Match); following it again subscribes anew', async () => {
    const n = usps();
    const mine = await liveTracker(keys[0]!, 'usps', n);
    const theirs = await liveTracker(keys[1]!, 'usps', n);
    await subscribeDue(deps(), quiet);
    const { subscriptionId } = uspsFake.subscriptions.get(n)!;
    const stop = async (key: (typeof keys)[number], id: string) => assert.equal((await server.request('DELETE', `/trackers/${id}`, { key: key.secret })).status, 200);
    await stop(keys[0]!, mine);
    await subscribeDue(deps(), quiet);
    assert.ok(!uspsFake.unsubscribed.includes(subscriptionId), "the other key's tracker still follows it");
    assert.equal((await subscription('usps', n)).state, 'subscribed');
    await stop(keys[1]!, theirs);
    await subscribeDue(deps(), quiet);
    assert.deepEqual(uspsFake.unsubscribed.filter((id) => id === subscriptionId), [subscriptionId]);
    const deleted = uspsFake.calls.filter((c) => c.method === 'DELETE' && c.path.endsWith(`/subscriptions/${subscriptionId}`));
    assert.equal(deleted.length, 1);
    assert.ok(typeof deleted[0]!.headers['if-match'] === 'string', 'with the ETag the GET gave');
    const row = await subscription('usps', n);
    assert.deepEqual([row.state, row.subscription_id, row.next_attempt_at], ['unsubscribed', null, null]);
    // Pushes that still come for it reach nobody, and following it again subscribes it again.
    await liveTracker(keys[0]!, 'usps', n);
    await subscribeDue(deps(), quiet);
    assert.equal((await subscription('usps', n)).state, 'subscribed');
    assert.notEqual(uspsFake.subscriptions.get(n)?.subscriptionId, undefined);
  });

  test('DELETE of the last live tracker of a UPS number: Track Alert has no call to end one number, so it is left to lapse and not renewed', async () => {
    const n = ups();
    const mine = await liveTracker(keys[0]!, 'ups', n);
    await subscribeDue(deps(), quiet);
    const calls = upsFake.calls.length;
    assert.equal((await server.request('DELETE', `/trackers/${mine}`, { key: keys[0]!.secret })).status, 200);
    await subscribeDue(deps(), quiet);
    assert.equal(upsFake.calls.length, calls, 'UPS is not called');
    const row = await subscription('ups', n);
    assert.deepEqual([row.state, row.next_attempt_at], ['subscribed', null], 'not renewed');
    assert.match(row.last_error!, /UPS publishes no call to end one number's subscription, so it lapses at /);
  });

  test('a live USPS number gets a tracking-number subscription with the listener URL and the 32-character secret', async () => {
    const n = usps();
    await liveTracker(keys[0]!, 'usps', n);
    await subscribeDue(deps(), quiet);
    const sub = uspsFake.subscriptions.get(n);
    assert.ok(sub, 'subscribed');
    assert.equal(sub.listenerURL, `${server.url}${carrierEventsPath('usps')}`);
    assert.equal(sub.secret, uspsSecret);
    const row = await subscription('usps', n);
    assert.deepEqual([row.state, row.subscription_id, row.next_attempt_at], ['subscribed', sub.subscriptionId, null]);
    assert.deepEqual(uspsFake.violations, []);
  });

  test('FedEx publishes no API to subscribe a number: its numbers are marked unsupported and polled as before', async () => {
    const n = fedex();
    await liveTracker(keys[0]!, 'fedex', n);
    await subscribeDue(deps(), quiet);
    const row = await subscription('fedex', n);
    assert.deepEqual([row.state, row.next_attempt_at], ['unsupported', null]);
    assert.match(row.last_error!, /no API to subscribe/);
  });

  test('a carrier that fails is tried again later, and a number nobody follows any more is not subscribed', async () => {
    const n = ups();
    const id = await liveTracker(keys[0]!, 'ups', n);
    upsFake.failNext({ kind: 'server_error' }, '/api/track/v1/subscription');
    const warned: object[] = [];
    await subscribeDue(deps(), { warn: (o) => warned.push(o) });
    let row = await subscription('ups', n);
    assert.deepEqual([row.state, row.attempts], ['pending', 1]);
    assert.ok(Date.parse(row.next_attempt_at!) > server.clock.now().getTime(), 'later');
    assert.equal(warned.length, 1);
    server.clock.advance(120_000);
    await subscribeDue(deps(), quiet);
    assert.equal((await subscription('ups', n)).state, 'subscribed');

    const gone = ups();
    const goneId = await liveTracker(keys[0]!, 'ups', gone);
    assert.equal((await server.request('DELETE', `/trackers/${goneId}`, { key: keys[0]!.secret })).status, 200);
    await subscribeDue(deps(), quiet);
    row = await subscription('ups', gone);
    assert.deepEqual([row.state, row.next_attempt_at], ['pending', null]);
    assert.equal(upsFake.subscriptions.has(gone), false);
    assert.ok(id);
  });
});

describe('POST /carrier-events/{carrier}', () => {
  test('UPS: the credential header admits a message; none, a wrong one or a malformed body is a 401 problem, logged without the secret', async () => {
    const n = ups();
    const id = await liveTracker(keys[0]!, 'ups', n);
    await subscribeDue(deps(), quiet);
    const ok = await upsFake.pushScan(n, upsScan(new Date('2026-03-02T22:10:00Z')));
    assert.equal(ok.status, 200, ok.text);
    assert.deepEqual(JSON.parse(ok.text), { received: true });
    assert.equal((await tracker(id)).events.length, 1);

    for (const credential of [null, 'not-the-credential', upsCredential.slice(0, -1)]) {
      const res = await upsFake.pushScan(n, upsScan(new Date('2026-03-03T06:30:00Z')), { credential });
      assert.equal(res.status, 401, res.text);
      assert.equal(JSON.parse(res.text).code, 'carrier_event_unverified');
    }
    assert.equal((await tracker(id)).events.length, 1, 'nothing refused was applied');
    const malformed = await server.raw('POST', carrierEventsPath('ups'), { headers: { 'content-type': 'application/json', credential: upsCredential }, body: '{"trackingNumber": "1Z' });
    problem(malformed, 401, 'carrier_event_unverified');
    const notAScan = await server.raw('POST', carrierEventsPath('ups'), { headers: { 'content-type': 'application/json', credential: upsCredential }, body: JSON.stringify({ trackingNumber: n }) });
    problem(notAScan, 401, 'carrier_event_unverified');
    const refusals = server.logs.filter((l) => l.includes('carrier event refused'));
    assert.ok(refusals.length >= 5, `${refusals.length} refusals logged`);
    for (const line of refusals) {
      assert.equal(JSON.parse(line).level, 40, 'at warn');
      assert.match(JSON.parse(line).request_id, /^req_/, "by the request's logger, bound to its id");
      assert.ok(!line.includes(upsCredential) && !line.includes(uspsSecret), 'no secret in the log');
    }
  });

  test('USPS: X-HMAC over timestamp and payload admits a notification; none or another secret is a 401', async () => {
    const n = usps();
    const id = await liveTracker(keys[0]!, 'usps', n);
    await subscribeDue(deps(), quiet);
    const events = [
      { at: new Date('2026-03-02T15:00:00Z'), code: 'GX', type: 'Shipping Label Created, USPS Awaiting Item', city: 'SAN FRANCISCO', state: 'CA', zip: '94105' },
      { at: new Date('2026-03-02T20:00:00Z'), code: '03', type: 'USPS picked up item', city: 'SAN FRANCISCO', state: 'CA', zip: '94105' },
    ];
    for (const secret of [null, 'another-secret-of-32-characters!']) {
      const res = await uspsFake.pushEvents(n, events, { secret });
      assert.equal(res.status, 401, res.text);
      assert.equal(JSON.parse(res.text).code, 'carrier_event_unverified');
    }
    const res = await uspsFake.pushEvents(n, events);
    assert.equal(res.status, 200, res.text);
    const t = await tracker(id);
    assert.deepEqual(t.events.map((e: Json) => [e.occurred_at, e.status]), [['2026-03-02T15:00:00.000Z', 'pre_transit'], ['2026-03-02T20:00:00.000Z', 'in_transit']]);
    assert.equal(t.status, 'in_transit');
    assert.equal((await updates(id)).length, 2);
    // The notification told again, and again with one more scan: only the new scan is news.
    assert.equal((await uspsFake.pushEvents(n, events)).status, 200);
    const more = [...events, { at: new Date('2026-03-03T09:00:00Z'), code: '10', type: 'Arrived at USPS Regional Origin Facility', city: 'OAKLAND', state: 'CA', zip: '94621' }];
    assert.equal((await uspsFake.pushEvents(n, more)).status, 200);
    const sent = await updates(id);
    assert.deepEqual(sent.map((e) => e.data.events.length), [1, 2, 3]);
  });

  test('FedEx: fdx-signature over the body admits a push; none or a wrong one is a 401', async () => {
    const n = fedex();
    const id = await liveTracker(keys[0]!, 'fedex', n);
    const url = `${server.url}${carrierEventsPath('fedex')}`;
    const scans = [{ at: new Date('2026-03-02T15:00:00Z'), eventType: 'PU', derivedStatusCode: 'PU', description: 'Picked up', city: 'MEMPHIS', state: 'TN', postalCode: '38118' }];
    for (const token of [null, 'a-wrong-security-token-for-fedex']) {
      const res = await pushFedexTracking(url, token, n, scans);
      assert.equal(res.status, 401, res.text);
      assert.equal(JSON.parse(res.text).code, 'carrier_event_unverified');
    }
    const res = await pushFedexTracking(url, fedexToken, n, scans);
    assert.equal(res.status, 200, res.text);
    const t = await tracker(id);
    assert.deepEqual([t.status, t.events.length, t.events[0].location.city], ['in_transit', 1, 'MEMPHIS']);
  });

  test('an unknown carrier is a 404; a body over 1 MiB a 413', async () => {
    problem(await server.raw('POST', `${carrierEventsPath('ups').replace('/ups', '/dhl')}`, { headers: { 'content-type': 'application/json' }, body: '{}' }), 404, 'route_not_found');
    const big = JSON.stringify({ pad: 'x'.repeat(1_100_000) });
    problem(await server.raw('POST', carrierEventsPath('ups'), { headers: { 'content-type': 'application/json', credential: upsCredential }, body: big }), 413, 'payload_too_large');
  });
});

describe('applying pushed scans', () => {
  test('one scan pushed gives one tracking.updated to each key following the number, each about its own tracker only', async () => {
    const n = ups();
    const mine = await liveTracker(keys[0]!, 'ups', n);
    const theirs = await liveTracker(keys[1]!, 'ups', n);
    await subscribeDue(deps(), quiet);
    const scan = upsScan(new Date('2026-03-03T06:30:00Z'), { city: 'Charlotte' });
    assert.equal((await upsFake.pushScan(n, scan)).status, 200);
    const [a, b] = [await updates(mine, keys[0]), await updates(theirs, keys[1])];
    assert.deepEqual([a.length, b.length], [1, 1]);
    assert.deepEqual([a[0]!.data.status, a[0]!.data.events[0].location.city], ['in_transit', 'Charlotte']);
    // Neither key sees the other's tracker, by its events or by its id.
    assert.deepEqual(await updates(theirs, keys[0]), []);
    assert.deepEqual(await updates(mine, keys[1]), []);
    problem(await server.request('GET', `/trackers/${theirs}`, { key: keys[0]!.secret }), 404, 'tracker_not_found');

    // The same scan pushed again is no news.
    assert.equal((await upsFake.pushScan(n, scan)).status, 200);
    assert.deepEqual([(await updates(mine, keys[0])).length, (await updates(theirs, keys[1])).length], [1, 1]);
    assert.equal((await tracker(mine)).events.length, 1);
  });

  test('a scan pushed and then polled with the whole journey, or polled and then pushed, is one event; events stay in time order', async () => {
    const n = ups();
    upsFake.addPackage(n, 'out_for_delivery');
    const id = await liveTracker(keys[0]!, 'ups', n);
    await subscribeDue(deps(), quiet);
    // What a poll answers for this number: the trackers worker asks UPS (here its fake) about live external numbers.
    const journey = await carriersFor('live', server.config, server.clock).ups.track(externalParcel(n, server.clock.now()), new AbortController().signal);
    assert.ok(journey.ok, JSON.stringify(journey));
    const scans = journey.value.events;
    assert.ok(scans.length >= 3, `${scans.length} scans so far`);
    // A later scan pushed first, then the poll telling the whole journey.
    assert.equal((await upsFake.pushScan(n, asUpsScan(scans[1]!))).status, 200);
    assert.equal((await updates(id)).length, 1);
    await db().updateTable('trackers').set({ next_check_at: server.clock.now().toISOString() }).where('id', '=', id).execute();
    // Only this tracker is due: others of this file are far off, so a pass asks UPS about this number alone.
    await pollTrackers(serviceContext(server.services, 'test'), quiet);
    const t = await tracker(id);
    assert.equal(t.events.length, scans.length, 'each scan once');
    // Track Alert tells times to the second; the scan keeps the time it was first told with.
    const second = (iso: string) => iso.slice(0, 19);
    assert.deepEqual(t.events.map((e: Json) => second(e.occurred_at)), scans.map((e) => second(e.occurredAt.toISOString())), 'in time order');
    assert.equal(new Set(t.events.map(scanKey)).size, t.events.length);
    assert.equal((await updates(id)).length, scans.length, 'one tracking.updated per scan');

    // Polled first, pushed after: the push adds nothing.
    assert.equal((await upsFake.pushScan(n, asUpsScan(scans.at(-1)!))).status, 200);
    assert.equal((await updates(id)).length, scans.length);
    assert.equal((await tracker(id)).events.length, scans.length);
  });

  test('a stopped tracker gets nothing from a push', async () => {
    const n = ups();
    const id = await liveTracker(keys[0]!, 'ups', n);
    await subscribeDue(deps(), quiet);
    assert.equal((await server.request('DELETE', `/trackers/${id}`, { key: keys[0]!.secret })).status, 200);
    assert.equal((await upsFake.pushScan(n, upsScan(new Date('2026-03-03T06:30:00Z')))).status, 200);
    const t = await tracker(id);
    assert.deepEqual([t.deleted, t.events.length], [true, 0]);
    assert.deepEqual(await updates(id), []);
  });
});

describe('a live label', () => {
  test("its number is subscribed at purchase; a push makes the label checked at once, and its tracker gets the scans", async () => {
    const key = await payingLiveKey(server);
    const post = (path: string, body: unknown) => server.request('POST', path, { key, body });
    const order = await post('/orders', orderBody({ order_number: `push-${randomInt(1e6)}` }));
    assert.equal(order.status, 201, order.text);
    const rates = await post('/rates', { order_id: order.body.id, carriers: ['usps'] });
    assert.equal(rates.status, 200, rates.text);
    const bought = await post('/shipments', { order_id: order.body.id, rate_id: rates.body.rates[0].id });
    assert.equal(bought.status, 201, bought.text);
    const n: string = bought.body.tracking_number;
    const trackerId = `trk_${bought.body.id.slice(4)}`;
    assert.equal((await subscription('usps', n)).state, 'pending', 'subscribed in the purchase, by the worker after');
    await subscribeDue(deps(), quiet);
    assert.ok(uspsFake.subscriptions.has(n));

    // Checked once (nothing scanned yet), the label's next check is an hour off, as a live label's is.
    await pollTracking(serviceContext(server.services, 'test'), quiet);
    const later = await db().selectFrom('shipments').select('tracking_next_check_at').where('id', '=', bought.body.id).executeTakeFirstOrThrow();
    assert.ok(Date.parse(later.tracking_next_check_at!) > server.clock.now().getTime() + 60_000, `next check ${later.tracking_next_check_at}`);
    // USPS scans the parcel and pushes: the label's next check becomes now.
    uspsFake.scan(n, 'in_transit');
    const pushed = await uspsFake.pushEvents(n, [{ at: new Date('2025-01-06T15:00:00Z'), code: 'GX', type: 'Shipping Label Created', city: 'SAN FRANCISCO', state: 'CA', zip: '94105' }]);
    assert.equal(pushed.status, 200, pushed.text);
    const due = await db().selectFrom('shipments').select('tracking_next_check_at').where('id', '=', bought.body.id).executeTakeFirstOrThrow();
    assert.ok(Date.parse(due.tracking_next_check_at!) <= server.clock.now().getTime(), 'due now');
    await pollTracking(serviceContext(server.services, 'test'), quiet);
    const t = (await server.request('GET', `/trackers/${trackerId}`, { key })).body as Json;
    assert.equal(t.status, 'in_transit');
    assert.ok(t.events.length >= 2, `${t.events.length} scans`);
  });
});
