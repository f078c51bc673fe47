import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomInt } from 'node:crypto';
import { startServer, type TestServer } from '../harness.ts';
import { orderBody } from '../fixtures.ts';
import { setPaymentMethod } from '../../src/domain/billing/payment-methods.ts';
import { fedexTrackingNumber, upsTrackingNumber } from '../../src/carriers/tracking-numbers.ts';
import { accountWithUser, DashboardClient, password } from './client.ts';

const digits = (n: number) => Array.from({ length: n }, () => randomInt(10)).join('');
const ups = () => upsTrackingNumber(digits(6), '03', digits(7));
const fedex = () => fedexTrackingNumber(digits(11));

let server: TestServer;

before(async () => {
  server = await startServer({ env: { SHIPD_RATE_LIMIT_PER_SECOND: '1000000', SHIPD_RATE_LIMIT_BURST: '1000000' } });
});
after(() => server.close());

async function signedIn(): Promise<{ client: DashboardClient; account: string; key: string }> {
  const { account, email } = await accountWithUser(server);
  const client = new DashboardClient(server);
  assert.equal((await client.signIn(email, password)).status, 303);
  return { client, account, key: (await server.key(account)).secret };
}

const rowsOf = (html: string) => [...html.matchAll(/data-tracker-id="(trk_[0-9a-z_]+)"/g)].map((m) => m[1]!);

test('the list: every key of the account, both origins, newest first, filtered, paged with cursors; never another account\'s', async () => {
  const { client, account, key } = await signedIn();
  const otherKey = (await server.key(account)).secret;
  await setPaymentMethod(server.services.database.db, server.clock, account, 'test', 'pm_test_visa');
  const made: string[] = [];
  for (let i = 0; i < 27; i++) {
    const res = await server.request('POST', '/trackers', { key: i % 2 ? key : otherKey, body: { tracking_number: i < 3 ? fedex() : ups() } });
    assert.equal(res.status, 201, res.text);
    made.push(res.body.id);
  }
  const order = await server.request('POST', '/orders', { key, body: orderBody() });
  const label = await server.request('POST', '/shipments', { key, body: { order_id: order.body.id } });
  assert.equal(label.status, 201, label.text);
  const labelTracker = `trk_${label.body.id.slice(4)}`;
  const stranger = await server.request('POST', '/trackers', { key: (await server.key(await server.account())).secret, body: { tracking_number: ups() } });

  const first = await client.get('/dashboard/test/trackers');
  assert.equal(first.status, 200);
  assert.match(first.text, /<a href="\/dashboard\/test\/trackers" aria-current="page">Trackers<\/a>/);
  const page1 = rowsOf(first.text);
  assert.equal(page1.length, 25);
  assert.equal(page1[0], labelTracker, "the label's tracker, newest, first");
  const next = /<a href="([^"]+)">Older →<\/a>/.exec(first.text)![1]!.replaceAll('&amp;', '&');
  const page2 = rowsOf((await client.get(`/dashboard/test/trackers${next}`)).text);
  assert.deepEqual([...page1, ...page2].sort(), [...made, labelTracker].sort(), 'every tracker once, of both keys');
  assert.ok(![...page1, ...page2].includes(stranger.body.id));

  const fedexOnly = rowsOf((await client.get('/dashboard/test/trackers?carrier=fedex')).text);
  assert.deepEqual(fedexOnly.sort(), made.slice(0, 3).sort());
  const preTransit = rowsOf((await client.get(`/dashboard/test/trackers?status=pre_transit&carrier=${label.body.carrier}`)).text);
  assert.ok(preTransit.includes(labelTracker), `${preTransit}`);
  const wrong = await client.get('/dashboard/test/trackers?status=lost');
  assert.equal(wrong.status, 200);
  assert.match(wrong.text, /Choose one of unknown, pre_transit/);
  assert.deepEqual(rowsOf(wrong.text), []);
  const none = await client.get('/dashboard/test/trackers?tracking_number=1Z0000');
  assert.match(none.text, /No test trackers match these filters\./);
  // Live mode shows none of the test trackers.
  const live = await client.get('/dashboard/live/trackers');
  assert.deepEqual(rowsOf(live.text), []);
  assert.match(live.text, /No live trackers yet/);
});

test("a tracker's page: its timeline newest first on local clocks, signed-by, checks, metadata escaped; another account's is a 404", async () => {
  const { client, key } = await signedIn();
  const made = await server.request('POST', '/trackers', { key, body: { tracking_number: 'SHIPD_TEST_DELIVERED', metadata: { note: '<script>alert(1)</script>' } } });
  assert.equal(made.status, 201, made.text);
  const t = made.body;
  const res = await client.get(`/dashboard/test/trackers/${t.id}`);
  assert.equal(res.status, 200, res.text);
  assert.ok(!res.text.includes('<script>alert(1)</script>'));
  assert.ok(res.text.includes('&lt;script&gt;alert(1)&lt;/script&gt;'));
  assert.match(res.text, /<dd class="signed-by">LOVELACE<\/dd>/);
  const proofs = /<dd class="proof-of-delivery">(.*?)<\/dd>/.exec(res.text)?.[1] ?? '';
  if (t.proof_of_delivery.length === 0) assert.match(proofs, /not given by the carrier \(yet\)/);
  else assert.equal((proofs.match(/<a href=/g) ?? []).length, t.proof_of_delivery.length, proofs);
  const times = [...res.text.matchAll(/<time datetime="([^"]+)">([^<]+)<\/time>/g)].map((m) => [m[1], m[2]]);
  assert.equal(times.length, t.events.length);
  assert.deepEqual(times.map(([iso]) => iso), t.events.map((e: { occurred_at: string }) => e.occurred_at).reverse(), 'newest first');
  // The delivery, in San Francisco: its local time with the offset and zone, not UTC.
  const delivered = t.events.at(-1);
  const local = new Date(Date.parse(delivered.occurred_at) + (delivered.utc_offset === '-07:00' ? -7 : -8) * 3_600_000).toISOString();
  assert.equal(times[0]![1], `${local.slice(0, 10)} ${local.slice(11, 16)} (${delivered.utc_offset}, America/Los_Angeles)`);
  assert.match(res.text, /SAN FRANCISCO, CA, 94105/);
  assert.match(res.text, /Next check<\/dt><dd>none: the journey has ended/);

  const stranger = await accountWithUser(server);
  const other = new DashboardClient(server);
  await other.signIn(stranger.email, password);
  assert.equal((await other.get(`/dashboard/test/trackers/${t.id}`)).status, 404);
  assert.equal((await client.get(`/dashboard/live/trackers/${t.id}`)).status, 404);
  assert.equal((await client.get('/dashboard/test/trackers/trk_01jf3k4m5n6p7q8r9s0t1v2w3x')).status, 404);
  // A stopped tracker's page says so; the list leaves it out.
  assert.equal((await server.request('DELETE', `/trackers/${t.id}`, { key })).status, 200);
  assert.match((await client.get(`/dashboard/test/trackers/${t.id}`)).text, /This tracker was stopped/);
  assert.ok(!rowsOf((await client.get('/dashboard/test/trackers')).text).includes(t.id));
});

test("a label's page links to its tracker, whose page links back", async () => {
  const { client, account, key } = await signedIn();
  await setPaymentMethod(server.services.database.db, server.clock, account, 'test', 'pm_test_visa');
  const order = await server.request('POST', '/orders', { key, body: orderBody() });
  const label = await server.request('POST', '/shipments', { key, body: { order_id: order.body.id } });
  assert.equal(label.status, 201, label.text);
  const trackerId = `trk_${label.body.id.slice(4)}`;
  const shipmentPage = await client.get(`/dashboard/test/shipments/${label.body.id}`);
  assert.match(shipmentPage.text, new RegExp(`href="/dashboard/test/trackers/${trackerId}"`));
  const trackerPage = await client.get(`/dashboard/test/trackers/${trackerId}`);
  assert.equal(trackerPage.status, 200);
  assert.match(trackerPage.text, new RegExp(`href="/dashboard/test/shipments/${label.body.id}"`));
  assert.match(trackerPage.text, /<dd class="signed-by">—<\/dd>/, 'nobody has signed before delivery');
});
