import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, type TestServer } from '../harness.ts';
import { austin, orderBody } from '../fixtures.ts';
import { setPaymentMethod } from '../../src/domain/billing/payment-methods.ts';
import { addLocation } from '../../src/domain/locations/locations.ts';
import { accountWithUser, DashboardClient, password } from './client.ts';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- tests read whatever JSON came back

// The day's manifests and pickups in the dashboard. The clock is put on a known weekday: Monday 25 November 2030,
// 09:00 in Austin, where the account's default location is, so "today" is a day pickups can be booked for.
const mondayMorning = Date.parse('2030-11-25T15:00:00Z');
const monday = '2030-11-25';
const tuesday = '2030-11-26';

const manifestRows = (html: string) => [...html.matchAll(/data-manifest-id="(man_[0-9a-z_]+)"/g)].map((m) => m[1]!);
const pickupRows = (html: string) => [...html.matchAll(/data-pickup-id="(pku_[0-9a-z_]+)"/g)].map((m) => m[1]!);

describe('the dashboard with the ops helpers on', () => {
  let server: TestServer;
  let client: DashboardClient;
  let key: string;
  let otherKey: string;
  let strangerKey: string;
  let locationId: string;
  let email: string;

  before(async () => {
    server = await startServer({ env: { SHIPD_FEATURES: 'manifests,pickups', SHIPD_RATE_LIMIT_PER_SECOND: '1000000', SHIPD_RATE_LIMIT_BURST: '1000000' } });
    server.clock.advance(mondayMorning - server.clock.now().getTime());
    const db = server.services.database.db;
    const user = await accountWithUser(server);
    const account = user.account;
    email = user.email;
    await setPaymentMethod(db, server.clock, account, 'test', 'pm_test_visa');
    key = (await server.key(account)).secret;
    otherKey = (await server.key(account)).secret;
    locationId = (await addLocation(db, server.clock, account, { name: 'Austin warehouse', address: austin })).id;
    const stranger = await server.account();
    await setPaymentMethod(db, server.clock, stranger, 'test', 'pm_test_visa');
    strangerKey = (await server.key(stranger)).secret;
    client = new DashboardClient(server);
    assert.equal((await client.signIn(email, password)).status, 303);
  });
  after(() => server.close());

  async function label(carrier: string, buyer: string): Promise<Json> {
    const services: Record<string, string> = { ups: '03', usps: 'PRIORITY_MAIL', fedex: 'FEDEX_2_DAY' };
    const order = await server.request('POST', '/orders', { key: buyer, body: orderBody({ requested_service: { carrier, service: services[carrier] } }) });
    assert.equal(order.status, 201, order.text);
    const bought = await server.request('POST', '/shipments', { key: buyer, body: { order_id: order.body.id } });
    assert.equal(bought.status, 201, bought.text);
    return bought.body;
  }

  async function manifest(carrier: string, buyer: string): Promise<Json> {
    const res = await server.request('POST', '/manifests', { key: buyer, body: { carrier, ship_date: monday } });
    assert.equal(res.status, 201, res.text);
    return res.body;
  }

  test("Manifests: the day's manifests of every key of the account, today by default, filtered by day, carrier and status; each one's page and file", { timeout: 120_000 }, async () => {
    const usps = [await label('usps', key), await label('usps', key)];
    await label('ups', otherKey);
    const uspsManifest = await manifest('usps', key);
    const upsManifest = await manifest('ups', otherKey);
    await label('usps', strangerKey);
    const strangers = await manifest('usps', strangerKey);

    const page = await client.get('/dashboard/test/manifests');
    assert.equal(page.status, 200, page.text);
    assert.match(page.text, /<a href="\/dashboard\/test\/manifests" aria-current="page">Manifests<\/a>/);
    assert.match(page.text, /<a href="\/dashboard\/test\/pickups">Pickups<\/a>/);
    assert.match(page.text, new RegExp(`id="f-ship_date" name="ship_date" type="date" value="${monday}"`), 'the day picker shows today');
    assert.deepEqual(manifestRows(page.text), [upsManifest.id, uspsManifest.id], 'both keys\' manifests, newest first; never another account\'s');
    const uspsRow = page.text.slice(page.text.indexOf(`data-manifest-id="${uspsManifest.id}"`)).split('</tr>')[0]!;
    assert.match(uspsRow, /<td data-label="Carrier">USPS<\/td>/);
    assert.match(uspsRow, /<td data-label="Labels">2<\/td>/);
    assert.match(uspsRow, /badge-on">simulated</);
    assert.match(uspsRow, new RegExp(`href="/dashboard/test/manifests/${uspsManifest.id}/form.pdf">Summary \\(PDF\\)`));

    assert.deepEqual(manifestRows((await client.get('/dashboard/test/manifests?carrier=ups')).text), [upsManifest.id]);
    assert.deepEqual(manifestRows((await client.get(`/dashboard/test/manifests?ship_date=${monday}&carrier_manifest=simulated`)).text).sort(), [upsManifest.id, uspsManifest.id].sort());
    const submitted = await client.get('/dashboard/test/manifests?carrier_manifest=submitted');
    assert.deepEqual(manifestRows(submitted.text), []);
    assert.match(submitted.text, /No test manifests match these filters\./);
    const sunday = await client.get('/dashboard/test/manifests?ship_date=2030-11-24');
    assert.deepEqual(manifestRows(sunday.text), []);
    assert.match(sunday.text, /No test manifests for 2030-11-24\./);
    assert.match(sunday.text, new RegExp(`<a href="/dashboard/test/manifests">Today \\(${monday}\\)</a>`));
    for (const bad of ['2030-02-30', 'monday']) {
      const wrong = await client.get(`/dashboard/test/manifests?ship_date=${bad}`);
      assert.equal(wrong.status, 200);
      assert.match(wrong.text, /A date such as 2026-11-23/);
      assert.deepEqual(manifestRows(wrong.text), []);
    }
    assert.match((await client.get('/dashboard/test/manifests?carrier=dhl')).text, /Choose one of ups, usps, fedex/);
    assert.deepEqual(manifestRows((await client.get('/dashboard/live/manifests')).text), [], 'live mode shows no test manifest');

    const one = await client.get(`/dashboard/test/manifests/${uspsManifest.id}`);
    assert.equal(one.status, 200, one.text);
    for (const s of usps) assert.ok(one.text.includes(`href="/dashboard/test/shipments/${s.id}"`), `${s.id} is listed`);
    assert.match(one.text, /<dt>Postage<\/dt><dd>\$\d+\.\d\d<\/dd>/);
    const pdf = await fetch(`${server.url}/dashboard/test/manifests/${uspsManifest.id}/form.pdf`, { headers: { cookie: [...client.cookies].map(([k, v]) => `${k}=${v}`).join('; ') } });
    assert.equal(pdf.status, 200);
    assert.equal(pdf.headers.get('content-type'), 'application/pdf');
    assert.equal(Buffer.from(await pdf.arrayBuffer()).subarray(0, 5).toString('latin1'), '%PDF-');
    // A live manifest whose carrier part failed after a crash says why, as text.
    const db = server.services.database.db;
    await db.updateTable('manifests').set({ carrier_manifest: 'failed', carrier_error: 'USPS refused: <b>already on a SCAN form</b>' }).where('id', '=', upsManifest.id).execute();
    const failed = await client.get(`/dashboard/test/manifests/${upsManifest.id}`);
    assert.match(failed.text, /badge-off">failed</);
    assert.ok(failed.text.includes('<dd class="field-error">USPS refused: &lt;b&gt;already on a SCAN form&lt;/b&gt;</dd>'), 'the carrier\'s problem, escaped');
    assert.deepEqual(manifestRows((await client.get('/dashboard/test/manifests?carrier_manifest=failed')).text), [upsManifest.id]);
    await db.updateTable('manifests').set({ carrier_manifest: 'simulated', carrier_error: null }).where('id', '=', upsManifest.id).execute();
    for (const path of [`/dashboard/test/manifests/${strangers.id}`, `/dashboard/test/manifests/${strangers.id}/form.pdf`, `/dashboard/live/manifests/${uspsManifest.id}`]) {
      assert.equal((await client.get(path)).status, 404, path);
    }
    // Without a session, no manifest's file.
    assert.equal((await fetch(`${server.url}/dashboard/test/manifests/${uspsManifest.id}/form.pdf`, { redirect: 'manual' })).status, 303);

    // Today is the default location's day: at 21:00 in Austin it is already Tuesday in UTC, and still Monday there.
    // A session of its own, as the morning's has gone idle by then.
    server.clock.advance(Date.parse('2030-11-26T03:00:00Z') - server.clock.now().getTime());
    try {
      const later = new DashboardClient(server);
      assert.equal((await later.signIn(email, password)).status, 303);
      const evening = await later.get('/dashboard/test/manifests');
      assert.match(evening.text, new RegExp(`name="ship_date" type="date" value="${monday}"`));
      assert.deepEqual(manifestRows(evening.text).sort(), [upsManifest.id, uspsManifest.id].sort());
    } finally {
      server.clock.advance(mondayMorning - server.clock.now().getTime());
    }
  });

  test("Pickups: the day's pickups of every key of the account, today by default, filtered by day, carrier and status, with window, confirmation number and address", { timeout: 120_000 }, async () => {
    const book = async (body: Json, buyer = key) => {
      const res = await server.request('POST', '/pickups', { key: buyer, body: { ship_from_id: locationId, window: { start: '13:00', end: '17:00' }, ...body } });
      assert.equal(res.status, 201, res.text);
      return res.body as Json;
    };
    const ups = await book({ carrier: 'ups', date: monday, instructions: 'Dock 3 <round the back>' });
    const fedex = await book({ carrier: 'fedex', date: monday }, otherKey);
    const cancelled = await server.request('POST', `/pickups/${fedex.id}/cancel`, { key: otherKey });
    assert.equal(cancelled.status, 200, cancelled.text);
    const usps = await book({ carrier: 'usps', date: tuesday });
    // A fresh session: the first test's ended when its clock went on to the evening.
    client = new DashboardClient(server);
    assert.equal((await client.signIn(email, password)).status, 303);
    const strangerRes = await server.request('POST', '/pickups', { key: strangerKey, body: { carrier: 'ups', address: austin, date: monday, window: { start: '13:00', end: '17:00' } } });
    assert.equal(strangerRes.status, 201, strangerRes.text);

    const page = await client.get('/dashboard/test/pickups');
    assert.equal(page.status, 200, page.text);
    assert.match(page.text, /<a href="\/dashboard\/test\/pickups" aria-current="page">Pickups<\/a>/);
    assert.match(page.text, new RegExp(`id="f-date" name="date" type="date" value="${monday}"`));
    assert.deepEqual(pickupRows(page.text), [fedex.id, ups.id], "today's, of both keys, newest first; never another account's");
    const upsRow = page.text.slice(page.text.indexOf(`data-pickup-id="${ups.id}"`)).split('</tr>')[0]!;
    assert.match(upsRow, /<td data-label="Carrier">UPS<\/td>/);
    assert.match(upsRow, /<td data-label="Window">13:00–17:00<\/td>/);
    assert.match(upsRow, /badge-on">scheduled</);
    assert.ok(upsRow.includes(`<code>${ups.confirmation_number}</code>`), upsRow);
    assert.ok(upsRow.includes('1100 Congress Ave, Austin, TX, 78701'), upsRow);
    assert.ok(upsRow.includes('Dock 3 &lt;round the back&gt;'), 'instructions are escaped');
    // Test-mode pickups name no labels here and the simulators charge nothing: both columns say so.
    assert.match(upsRow, /<td data-label="Parcels">—<\/td>/);
    assert.match(upsRow, /<td data-label="Price">—<\/td>/);
    const fedexRow = page.text.slice(page.text.indexOf(`data-pickup-id="${fedex.id}"`)).split('</tr>')[0]!;
    assert.match(fedexRow, /badge-off">cancelled</);

    assert.deepEqual(pickupRows((await client.get(`/dashboard/test/pickups?date=${tuesday}`)).text), [usps.id]);
    assert.deepEqual(pickupRows((await client.get('/dashboard/test/pickups?status=cancelled')).text), [fedex.id]);
    assert.deepEqual(pickupRows((await client.get(`/dashboard/test/pickups?carrier=ups&date=${monday}`)).text), [ups.id]);
    const none = await client.get('/dashboard/test/pickups?carrier=usps');
    assert.match(none.text, /No test pickups match these filters\./);
    assert.match((await client.get('/dashboard/test/pickups?date=2030-11-31')).text, /A date such as 2026-11-23/);
    assert.match((await client.get('/dashboard/test/pickups?status=lost')).text, /Choose one of scheduled, cancelled/);
    const live = await client.get('/dashboard/live/pickups');
    assert.deepEqual(pickupRows(live.text), []);
    assert.match(live.text, new RegExp(`No live pickups for ${monday}\\.`));
  });
});

describe('the dashboard with the ops helpers off', () => {
  let server: TestServer;
  before(async () => {
    server = await startServer();
  });
  after(() => server.close());

  test('no Manifests or Pickups section, and no such pages', async () => {
    const { email } = await accountWithUser(server);
    const client = new DashboardClient(server);
    assert.equal((await client.signIn(email, password)).status, 303);
    const keys = await client.get('/dashboard/test/keys');
    assert.equal(keys.status, 200);
    assert.match(keys.text, /Trackers<\/a>/);
    assert.doesNotMatch(keys.text, /Manifests|Pickups/);
    for (const path of ['/dashboard/test/manifests', '/dashboard/live/pickups']) assert.equal((await client.get(path)).status, 404, path);
  });
});
