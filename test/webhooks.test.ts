import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { problem, startServer, type TestServer } from './harness.ts';
import { orderBody } from './fixtures.ts';
import { startReceiver, verify, type Receiver } from './webhook-receiver.ts';
import { setPaymentMethod } from '../src/domain/billing/payment-methods.ts';
import { revokeApiKey } from '../src/domain/accounts/api-keys.ts';
import { recordEvent } from '../src/domain/webhooks/events.ts';
import { updateWebhook } from '../src/domain/webhooks/webhooks.ts';
import { asOwner } from '../src/domain/dashboard/account-view.ts';
import { serviceContext } from '../src/services.ts';
import type { ApiError } from '../src/kernel/errors.ts';
import { createJobRunner } from '../src/jobs/index.ts';
import { createLogger } from '../src/http/logger.ts';
import type { JobRunner } from '../src/jobs/runner.ts';
import { openWebhookSecret, sealPlaintextStoredAnswers, sealPlaintextWebhookSecrets, sealWebhookSecret } from '../src/events/webhook-secrets.ts';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- tests read whatever JSON came back

let server: TestServer;
let runner: JobRunner;
let account: string;
let key: string;

before(async () => {
  server = await startServer({ env: { SHIPD_WEBHOOKS_ALLOW_INSECURE: 'true' } });
  runner = createJobRunner(server.services, createLogger('silent'), { pollMs: 20, delivery: { pollMs: 20, timeoutMs: 2_000, perEndpoint: 4 } });
  runner.start();
  account = await server.account();
  await setPaymentMethod(server.services.database.db, server.clock, account, 'test', 'pm_test_visa');
  key = (await server.key(account)).secret;
});
after(async () => {
  await runner.stop();
  await server.close();
});

async function register(receiver: Receiver, events: string[], k = key): Promise<Json> {
  const res = await server.request('POST', '/webhooks', { key: k, body: { url: receiver.url, events } });
  assert.equal(res.status, 201, res.text);
  return res.body;
}

async function newOrder(k = key, overrides: Record<string, unknown> = {}): Promise<Json> {
  const res = await server.request('POST', '/orders', { key: k, body: orderBody(overrides) });
  assert.equal(res.status, 201, res.text);
  return res.body;
}

async function deliveries(webhookId: string, k = key): Promise<Json[]> {
  const res = await server.request('GET', `/webhooks/${webhookId}/deliveries?limit=100`, { key: k });
  assert.equal(res.status, 200, res.text);
  return res.body.data;
}

/** Reads until the value is as wanted (the worker records asynchronously), for up to 4 s; returns the last read. */
async function eventually<T>(read: () => Promise<T>, done: (value: T) => boolean): Promise<T> {
  let value = await read();
  for (let i = 0; i < 200 && !done(value); i++) {
    await new Promise((r) => setTimeout(r, 20));
    value = await read();
  }
  return value;
}

/** Waits until the webhook's newest delivery has this many attempts on record. */
async function recorded(webhookId: string, attempts: number): Promise<void> {
  const log = await eventually(() => deliveries(webhookId), (l) => l[0]?.attempt_count === attempts);
  if (log[0]?.attempt_count !== attempts) throw new Error(`delivery never had ${attempts} attempts on record`);
}

/** A webhook on a receiver that answers 500, once its first failed attempt at an order.created is on record. */
async function failedOnce(): Promise<{ receiver: Receiver; webhook: Json }> {
  const receiver = await startReceiver();
  receiver.answer = () => ({ status: 500 });
  const webhook = await register(receiver, ['order.created']);
  await newOrder();
  await receiver.waitFor((r) => r.length === 1);
  await recorded(webhook.id, 1);
  return { receiver, webhook };
}

const stored = (id: string) => server.services.database.db.selectFrom('webhooks').select(['secret', 'previous_secret']).where('id', '=', id).executeTakeFirstOrThrow();

const webhookNow = async (id: string): Promise<Json> => (await server.request('GET', `/webhooks/${id}`, { key })).body;

const types = (receiver: Receiver, secret: string) => receiver.received.filter((r) => r.status === 204).map((r) => verify(secret, r).type);

describe('registering webhooks', () => {
  test('the secret is shown at creation only; list, get, update and both kinds of delete work', async () => {
    const receiver = await startReceiver();
    const created = await register(receiver, ['order.created']);
    assert.match(created.id, /^whk_/);
    assert.match(created.secret, /^whsec_[A-Za-z0-9+/]+=*$/);
    assert.equal(created.status, 'enabled');
    const got = await server.request('GET', `/webhooks/${created.id}`, { key });
    assert.equal(got.status, 200);
    assert.equal(got.body.secret, undefined);
    const listed = await server.request('GET', '/webhooks', { key });
    assert.ok(listed.body.data.some((w: Json) => w.id === created.id && w.secret === undefined));

    const patched = await server.request('PATCH', `/webhooks/${created.id}`, { key, body: { events: ['order.created', 'order.updated'], description: 'orders' } });
    assert.equal(patched.status, 200, patched.text);
    assert.deepEqual(patched.body.events, ['order.created', 'order.updated']);

    const second = await register(receiver, ['shipment.created']);
    const byUrl = await server.request('DELETE', `/webhooks?url=${encodeURIComponent(receiver.url)}`, { key });
    assert.equal(byUrl.status, 200, byUrl.text);
    assert.deepEqual(byUrl.body.data.map((w: Json) => w.id).sort(), [created.id, second.id].sort());
    assert.equal((await server.request('GET', `/webhooks/${created.id}`, { key })).status, 404);
    problem(await server.request('DELETE', `/webhooks?url=${encodeURIComponent(receiver.url)}`, { key }), 404, 'not_found');

    const third = await register(receiver, ['order.created']);
    const removed = await server.request('DELETE', `/webhooks/${third.id}`, { key });
    assert.equal(removed.status, 200);
    problem(await server.request('DELETE', `/webhooks/${third.id}`, { key }), 404, 'not_found');
    await receiver.close();
  });

  test('the database holds each signing secret sealed under SHIPD_SECRET, never the secret itself', async () => {
    const receiver = await startReceiver();
    const created = await register(receiver, ['order.created']);
    const rotated = (await server.request('POST', `/webhooks/${created.id}/rotate-secret`, { key })).body;
    const row = await stored(created.id);
    for (const plain of [created.secret, rotated.secret]) {
      assert.ok(![row.secret, row.previous_secret].some((v) => v?.includes(plain.slice(6, 30))), 'no part of a secret is stored as it is');
    }
    assert.equal(openWebhookSecret(server.services.config.secret, row.secret), rotated.secret);
    assert.equal(openWebhookSecret(server.services.config.secret, row.previous_secret!), created.secret);
    assert.equal(openWebhookSecret('another SHIPD_SECRET', row.secret), null);
    await receiver.close();
  });

  test('an Idempotency-Key keeps the answer with its secret sealed, and replays the secret only while it is current', async () => {
    const receiver = await startReceiver();
    after(() => receiver.close());
    const idem = (k: string) => ({ key, headers: { 'idempotency-key': k } });
    const body = { url: receiver.url, events: ['order.created'] };
    const createKey = `create-${Date.now()}`;
    const created = (await server.request('POST', '/webhooks', { ...idem(createKey), body })).body;
    const rotateKey = `rotate-${Date.now()}`;
    const rotatePath = `/webhooks/${created.id}/rotate-secret`;
    const rotated = (await server.request('POST', rotatePath, idem(rotateKey))).body;

    const answers = await server.services.database.db.selectFrom('idempotency_keys').select('response_body').where('idem_key', 'in', [createKey, rotateKey]).execute();
    assert.equal(answers.length, 2);
    for (const plain of [created.secret, rotated.secret]) {
      assert.ok(!answers.some((a) => a.response_body!.includes(plain.slice(6, 30))), 'no stored answer holds a secret as it is');
    }

    assert.equal(rotated.secret_withheld, null);
    const current = await server.request('POST', rotatePath, idem(rotateKey));
    assert.equal(current.headers.get('idempotent-replayed'), 'true');
    assert.equal(current.body.secret, rotated.secret, 'the current secret is replayed');
    const superseded = await server.request('POST', '/webhooks', { ...idem(createKey), body });
    assert.equal(superseded.headers.get('idempotent-replayed'), 'true');
    assert.equal(superseded.body.id, created.id);
    assert.equal(superseded.body.secret, null, 'a rotated-away secret is never replayed');
    assert.equal(superseded.body.secret_withheld, 'rotated');

    assert.equal((await server.request('DELETE', `/webhooks/${created.id}`, { key })).status, 200);
    const gone = await server.request('POST', rotatePath, idem(rotateKey));
    assert.equal(gone.body.secret, null, "a removed webhook's secret is never replayed");
    assert.equal(gone.body.secret_withheld, 'deleted');

    // An answer an older version stored with the secret as it is gets sealed at start.
    const older = await register(receiver, ['order.created']);
    const olderKey = `older-${Date.now()}`;
    await server.request('POST', `/webhooks/${older.id}/rotate-secret`, idem(olderKey));
    const [answer] = await server.services.database.db.selectFrom('idempotency_keys').select(['response_body']).where('idem_key', '=', olderKey).execute();
    const plain = { ...JSON.parse(answer!.response_body!), secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw' };
    await server.services.database.db.updateTable('idempotency_keys').set({ response_body: JSON.stringify(plain) }).where('idem_key', '=', olderKey).execute();
    assert.ok((await sealPlaintextStoredAnswers(server.services.database.db, server.services.config.secret)) >= 1);
    const resealed = await server.services.database.db.selectFrom('idempotency_keys').select(['response_body']).where('idem_key', '=', olderKey).executeTakeFirstOrThrow();
    assert.ok(!resealed.response_body!.includes('MfKQ9r8GKYqrTwjUPD8'));
    assert.equal(openWebhookSecret(server.services.config.secret, JSON.parse(resealed.response_body!).secret), plain.secret);
  });

  test('an unknown event name is a 400 that lists the valid ones', async () => {
    const res = await server.request('POST', '/webhooks', { key, body: { url: 'https://example.com/hook', events: ['order.created', 'order.shipped'] } });
    const body = problem(res, 400, 'validation_failed');
    const detail = JSON.stringify(body.errors);
    for (const valid of ['order.created', 'order.updated', 'shipment.created', 'shipment.voided', 'tracking.updated']) assert.ok(detail.includes(valid), detail);
    problem(await server.request('POST', '/webhooks', { key, body: { url: 'https://example.com/hook', events: [] } }), 400, 'validation_failed');
  });

  test("another key's webhook answers 404 everywhere", async () => {
    const receiver = await startReceiver();
    const mine = await register(receiver, ['order.created']);
    const other = (await server.key(await server.account())).secret;
    for (const [method, path] of [
      ['GET', `/webhooks/${mine.id}`],
      ['DELETE', `/webhooks/${mine.id}`],
      ['GET', `/webhooks/${mine.id}/deliveries`],
      ['POST', `/webhooks/${mine.id}/test`],
      ['POST', `/webhooks/${mine.id}/rotate-secret`],
    ] as const) {
      problem(await server.request(method, path, { key: other }), 404, 'not_found');
    }
    await receiver.close();
  });
});

describe('delivering events', () => {
  test('the spec test procedure: order.created, shipment.created, shipment.voided, then tracking.updated to delivered; every delivery verifies', async () => {
    const receiver = await startReceiver();
    const webhook = await register(receiver, ['order.created', 'order.updated', 'shipment.created', 'shipment.voided', 'tracking.updated']);
    const order = await newOrder();
    await receiver.waitFor(() => types(receiver, webhook.secret).includes('order.created'));

    const bought = await server.request('POST', '/shipments', { key, body: { order_id: order.id } });
    assert.equal(bought.status, 201, bought.text);
    await receiver.waitFor(() => types(receiver, webhook.secret).includes('shipment.created'));
    const voided = await server.request('POST', `/shipments/${order.id}/void`, { key });
    assert.equal(voided.status, 200, voided.text);
    await receiver.waitFor(() => types(receiver, webhook.secret).includes('shipment.voided'));

    const again = await server.request('POST', '/shipments', { key, body: { order_id: order.id } });
    assert.equal(again.status, 201, again.text);
    // The simulated carrier moves a day a minute by default; days of the test clock go by in a few steps.
    for (let day = 0; day < 12; day++) {
      server.clock.advance(24 * 3_600_000);
      await new Promise((r) => setTimeout(r, 150));
    }
    await receiver.waitFor(() =>
      receiver.received.some((r) => {
        const e = verify(webhook.secret, r);
        return e.type === 'order.updated' && e.data.status === 'delivered';
      }),
    );
    const all = receiver.received.map((r) => verify(webhook.secret, r));
    const tracking = all.filter((e) => e.type === 'tracking.updated' && e.data.shipment_id === again.body.id).map((e) => e.data.status as string);
    for (const status of ['pre_transit', 'in_transit', 'out_for_delivery', 'delivered']) assert.ok(tracking.includes(status), `no ${status} in ${tracking}`);
    assert.equal(tracking.at(-1), 'delivered');
    assert.ok(tracking.filter((s) => s === 'in_transit').length >= 2, 'several in-transit scans');
    for (const e of all) assert.ok(e.timestamp && e.data, 'Standard Webhooks body: type, timestamp, data');
    const orderNow = await server.request('GET', `/orders/${order.id}`, { key });
    assert.equal(orderNow.body.status, 'delivered');

    // Every delivery's webhook-id is its event's id, and each event came once.
    const ids = receiver.received.map((r) => String(r.headers['webhook-id']));
    assert.equal(new Set(ids).size, ids.length);
    const logged = await server.request('GET', `/events/${ids[0]}`, { key });
    assert.equal(logged.status, 200);
    await receiver.close();
  });

  test('a secret stored as plaintext by an older version is sealed at start, and goes on signing', async () => {
    const receiver = await startReceiver();
    const webhook = await register(receiver, ['order.created']);
    await server.services.database.db.updateTable('webhooks').set({ secret: webhook.secret }).where('id', '=', webhook.id).execute();
    assert.ok((await sealPlaintextWebhookSecrets(server.services.database.db, server.services.config.secret)) >= 1);
    const row = await stored(webhook.id);
    assert.notEqual(row.secret, webhook.secret);
    assert.equal(await sealPlaintextWebhookSecrets(server.services.database.db, server.services.config.secret), 0, 'nothing is sealed twice');
    await newOrder();
    await receiver.waitFor(() => types(receiver, webhook.secret).includes('order.created'));
    await receiver.close();
  });

  test('a secret sealed under another SHIPD_SECRET is not sent at all, and the attempt says why', async () => {
    const receiver = await startReceiver();
    const webhook = await register(receiver, ['order.created']);
    await server.services.database.db.updateTable('webhooks').set({ secret: sealWebhookSecret('the SHIPD_SECRET of another install', webhook.secret) }).where('id', '=', webhook.id).execute();
    await newOrder();
    await recorded(webhook.id, 1);
    const [delivery] = await deliveries(webhook.id);
    assert.match(delivery!.attempts[0].error, /SHIPD_SECRET/);
    assert.equal(receiver.received.length, 0);
    await receiver.close();
  });

  test('a tampered body, a wrong secret or a stale timestamp do not verify', async () => {
    const receiver = await startReceiver();
    const webhook = await register(receiver, ['order.created']);
    await newOrder();
    await receiver.waitFor((r) => r.length >= 1);
    const got = receiver.received[0]!;
    assert.equal(verify(webhook.secret, got).type, 'order.created');
    assert.throws(() => verify(webhook.secret, { ...got, body: got.body.replace('order.created', 'order.updated') }));
    const other = await register(receiver, ['order.created']);
    assert.throws(() => verify(other.secret, got));
    assert.throws(() => verify(webhook.secret, { ...got, headers: { ...got.headers, 'webhook-timestamp': String(Math.floor(Date.now() / 1000) - 3600) } }));
    await receiver.close();
  });

  test('receiver down for 3 attempts, then up: delivered on the 4th with the same webhook-id, every attempt logged', async () => {
    const receiver = await startReceiver();
    receiver.answer = () => (receiver.received.length < 3 ? { status: 503 } : { status: 204 });
    const webhook = await register(receiver, ['order.created']);
    const order = await newOrder();
    await receiver.waitFor((r) => r.length === 1);
    // Retries wait 5 s, 5 min, 30 min (±10%): move the clock past each, once the attempt before is on record (a
    // jump past the send lease before that would let the worker take over its own attempt).
    for (const wait of [6_000, 6 * 60_000, 35 * 60_000]) {
      const before = receiver.received.length;
      await recorded(webhook.id, before);
      server.clock.advance(wait);
      await receiver.waitFor((r) => r.length === before + 1);
    }
    assert.deepEqual(receiver.received.map((r) => r.status), [503, 503, 503, 204]);
    assert.equal(new Set(receiver.received.map((r) => r.headers['webhook-id'])).size, 1);
    for (const r of receiver.received) assert.equal(verify(webhook.secret, r).data.id, order.id);

    const log = await eventually(() => deliveries(webhook.id), (l) => l[0]?.status === 'succeeded');
    assert.equal(log.length, 1);
    const [delivery] = log as [Json];
    assert.equal(delivery.status, 'succeeded');
    assert.equal(delivery.attempt_count, 4);
    assert.deepEqual(delivery.attempts.map((a: Json) => a.status_code), [503, 503, 503, 204]);
    assert.equal(delivery.attempts[0].error, 'answered 503');
    assert.ok(delivery.attempts[0].next_attempt_at, 'the log shows when the retry was due');
    assert.equal(delivery.next_attempt_at, null);
    await receiver.close();
  });

  test('a delivery waiting for its retry survives a worker restart', async () => {
    const { receiver, webhook } = await failedOnce();
    await runner.stop();
    receiver.answer = () => ({ status: 204 });
    runner = createJobRunner(server.services, createLogger('silent'), { pollMs: 20, delivery: { pollMs: 20, timeoutMs: 2_000, perEndpoint: 4 } });
    runner.start();
    server.clock.advance(6_000);
    await receiver.waitFor((r) => r.length === 2);
    assert.equal(receiver.received[0]!.headers['webhook-id'], receiver.received[1]!.headers['webhook-id']);
    verify(webhook.secret, receiver.received[1]!);
    await receiver.close();
  });

  test('Retry-After is honoured; a 410 disables the webhook, and PATCH enables it again', async () => {
    const receiver = await startReceiver();
    receiver.answer = () => ({ status: 429, headers: { 'retry-after': '120' } });
    const webhook = await register(receiver, ['order.created']);
    await newOrder();
    await receiver.waitFor((r) => r.length === 1);
    const log = await eventually(() => deliveries(webhook.id), (l) => Boolean(l[0]?.next_attempt_at) && l[0]!.attempts.length > 0);
    const due = Date.parse(log[0]!.next_attempt_at) - Date.parse(log[0]!.attempts[0].attempted_at);
    assert.equal(due, 120_000);

    receiver.answer = () => ({ status: 410 });
    server.clock.advance(121_000);
    await receiver.waitFor((r) => r.length === 2);
    const hook = await eventually(() => webhookNow(webhook.id), (h) => h.status === 'disabled');
    assert.equal(hook.status, 'disabled');
    assert.match(hook.disabled_reason, /410/);
    const [last] = await eventually(() => deliveries(webhook.id), (l) => l[0]?.status === 'failed');
    assert.equal(last!.status, 'failed');
    await newOrder();
    await new Promise((r) => setTimeout(r, 300));
    assert.equal(receiver.received.length, 2, 'a disabled webhook gets nothing');
    problem(await server.request('POST', `/webhooks/${webhook.id}/test`, { key }), 409, 'webhook_disabled');

    receiver.answer = () => ({ status: 204 });
    const enabled = await server.request('PATCH', `/webhooks/${webhook.id}`, { key, body: { status: 'enabled' } });
    assert.equal(enabled.body.status, 'enabled');
    assert.equal(enabled.body.disabled_reason, null);
    await newOrder();
    await receiver.waitFor((r) => r.length === 3);
    await receiver.close();
  });

  test('an endpoint that fails for 5 days is disabled, and says so', async () => {
    const { receiver, webhook } = await failedOnce();
    server.clock.advance(3 * 24 * 3_600_000);
    await newOrder();
    await receiver.waitFor((r) => r.length >= 2);
    assert.equal((await webhookNow(webhook.id)).status, 'enabled', 'three days of failures are not enough');
    server.clock.advance(2 * 24 * 3_600_000 + 60_000);
    await newOrder();
    const hook = await eventually(() => webhookNow(webhook.id), (h) => h.status === 'disabled');
    assert.equal(hook.status, 'disabled');
    assert.match(hook.disabled_reason, /5 days/);
    await receiver.close();
  });

  test("revoking a key disables its webhooks, and a revoked key's events are never fanned out", async () => {
    const receiver = await startReceiver();
    after(() => receiver.close());
    const owner = await server.key(account);
    const webhook = await register(receiver, ['order.created', 'order.updated', 'tracking.updated'], owner.secret);
    const order = await newOrder(owner.secret);
    await receiver.waitFor((r) => r.length === 1);

    const db = server.services.database.db;
    const revoked = await revokeApiKey({ db, kind: server.services.database.kind, clock: server.clock }, owner.id);
    assert.equal(revoked.webhooksDisabled, 1);
    const row = await db.selectFrom('webhooks').select(['status', 'disabled_reason']).where('id', '=', webhook.id).executeTakeFirstOrThrow();
    assert.equal(row.status, 'disabled');
    assert.match(row.disabled_reason!, /revoked/);

    // Nor can the dashboard, which acts as the owning key, enable it again.
    const asRevokedOwner = asOwner(serviceContext(server.services, 'req_test'), { accountId: account, plan: 'api', mode: 'test' }, owner.id);
    await assert.rejects(updateWebhook(asRevokedOwner, webhook.id, { status: 'enabled' }), (err: ApiError) => err.code === 'webhook_disabled' && /revoked/.test(err.message));

    // Even a webhook enabled again behind the API's back gets nothing of the revoked key: its events stay unsent.
    await db.updateTable('webhooks').set({ status: 'enabled', disabled_reason: null }).where('id', '=', webhook.id).execute();
    const at = server.clock.now().toISOString();
    const eventId = await db.transaction().execute((trx) => recordEvent(trx, { principal: { keyId: owner.id, accountId: account, mode: 'test' } }, 'order.updated', { id: order.id as string }, at));
    const event = await eventually(
      () => db.selectFrom('events').select('dispatched_at').where('id', '=', eventId).executeTakeFirstOrThrow(),
      (e) => e.dispatched_at !== null,
    );
    assert.notEqual(event.dispatched_at, null);
    const queued = await db.selectFrom('webhook_deliveries').select('id').where('event_id', '=', eventId).execute();
    assert.deepEqual(queued, []);
    assert.equal(receiver.received.length, 1);
  });

  test('test, retry and rotate-secret: the rotated webhook signs with both secrets for 24 hours', async () => {
    const receiver = await startReceiver();
    const webhook = await register(receiver, ['order.created']);
    const ping = await server.request('POST', `/webhooks/${webhook.id}/test`, { key });
    assert.equal(ping.status, 201, ping.text);
    await receiver.waitFor((r) => r.length === 1);
    assert.equal(verify(webhook.secret, receiver.received[0]!).type, 'webhook.test');

    const retried = await server.request('POST', `/webhooks/${webhook.id}/deliveries/${ping.body.id}/retry`, { key });
    assert.equal(retried.status, 200, retried.text);
    await receiver.waitFor((r) => r.length === 2);
    assert.equal(receiver.received[1]!.headers['webhook-id'], receiver.received[0]!.headers['webhook-id']);
    problem(await server.request('POST', `/webhooks/${webhook.id}/deliveries/dlv_01jf3k4m5n6p7q8r9s0t1v2w3x/retry`, { key }), 404, 'not_found');

    const rotated = await server.request('POST', `/webhooks/${webhook.id}/rotate-secret`, { key });
    assert.equal(rotated.status, 200, rotated.text);
    assert.notEqual(rotated.body.secret, webhook.secret);
    await newOrder();
    await receiver.waitFor((r) => r.length === 3);
    const signed = receiver.received[2]!;
    assert.equal(String(signed.headers['webhook-signature']).split(' ').length, 2);
    verify(rotated.body.secret, signed);
    verify(webhook.secret, signed);

    server.clock.advance(25 * 3_600_000);
    await newOrder();
    await receiver.waitFor((r) => r.length === 4);
    verify(rotated.body.secret, receiver.received[3]!);
    assert.throws(() => verify(webhook.secret, receiver.received[3]!), 'the old secret stops signing after 24 hours');
    await receiver.close();
  });

  test('two keys with webhooks on the same URL each receive only their own events, tracking.updated included', async () => {
    const receiver = await startReceiver();
    const otherAccount = await server.account();
    await setPaymentMethod(server.services.database.db, server.clock, otherAccount, 'test', 'pm_test_visa');
    const otherKey = (await server.key(otherAccount)).secret;
    const all = ['order.created', 'order.updated', 'shipment.created', 'tracking.updated'];
    const mine = await register(receiver, all);
    const theirs = await register(receiver, all, otherKey);
    const orders = new Map<string, string>();
    for (const [k, who] of [
      [key, 'mine'],
      [otherKey, 'theirs'],
    ] as const) {
      const order = await newOrder(k);
      orders.set(order.id, who);
      const bought = await server.request('POST', '/shipments', { key: k, body: { order_id: order.id } });
      assert.equal(bought.status, 201, bought.text);
      orders.set(bought.body.id, who);
    }
    server.clock.advance(2 * 24 * 3_600_000);
    await receiver.waitFor((r) => r.filter((x) => x.body.includes('tracking.updated')).length >= 4);
    for (const r of receiver.received) {
      let owner: string | undefined;
      let data: Json = {};
      try {
        data = verify(mine.secret, r).data;
        owner = 'mine';
      } catch {
        data = verify(theirs.secret, r).data;
        owner = 'theirs';
      }
      const resource = (data.object === 'tracker' ? data.shipment_id : data.id) as string;
      assert.equal(orders.get(resource), owner, `${resource} went to the wrong key`);
    }
    await receiver.close();
  });

  test('a key gets the events recorded while it has an enabled webhook; one without is written already fanned out', async () => {
    const fresh = (await server.key(account)).secret;
    const db = server.services.database.db;
    const event = (resource: string) => db.selectFrom('events').select(['id', 'created_at', 'dispatched_at']).where('resource_id', '=', resource).executeTakeFirstOrThrow();
    const early = await newOrder(fresh);
    const unsent = await event(early.id);
    assert.equal(unsent.dispatched_at, unsent.created_at, 'no webhook to send it to, so no look of the delivery worker needed');

    const receiver = await startReceiver();
    const webhook = await register(receiver, ['order.created'], fresh);
    const later = await newOrder(fresh);
    await receiver.waitFor((r) => r.length >= 1);
    await eventually(() => deliveries(webhook.id, fresh), (l) => l[0]?.attempt_count === 1);
    assert.deepEqual(
      receiver.received.map((r) => verify(webhook.secret, r).data.id),
      [later.id],
    );

    const disabled = await server.request('PATCH', `/webhooks/${webhook.id}`, { key: fresh, body: { status: 'disabled' } });
    assert.equal(disabled.status, 200, disabled.text);
    const whileDisabled = await newOrder(fresh);
    const skipped = await event(whileDisabled.id);
    assert.equal(skipped.dispatched_at, skipped.created_at);
    assert.equal((await deliveries(webhook.id, fresh)).length, 1);
    await receiver.close();
  });

  test('a slow endpoint does not hold up deliveries to another', async () => {
    const slow = await startReceiver();
    slow.answer = () => 'hang';
    const fast = await startReceiver();
    const slowHook = await register(slow, ['order.created']);
    await register(fast, ['order.created']);
    const started = Date.now();
    for (let i = 0; i < 20; i++) await newOrder();
    await fast.waitFor((r) => r.length === 20, 5_000);
    assert.ok(Date.now() - started < 5_000);
    // The slow one holds at most its share of connections (4 here), whatever is queued for it.
    assert.ok(slow.received.length <= 4, `slow endpoint had ${slow.received.length} in flight`);
    await server.request('DELETE', `/webhooks/${slowHook.id}`, { key });
    await slow.close();
    await fast.close();
  });
});

describe('the SSRF guard', () => {
  let strict: TestServer;
  let strictKey: string;
  before(async () => {
    strict = await startServer();
    strictKey = (await strict.key(await strict.account())).secret;
  });
  after(() => strict.close());

  test('refuses http, private, loopback, link-local and mapped addresses, and names that resolve to them', async () => {
    for (const url of [
      'http://example.com/hook',
      'https://127.0.0.1/hook',
      'https://10.1.2.3/hook',
      'https://169.254.169.254/latest/meta-data',
      'https://[::1]/hook',
      'https://[::ffff:127.0.0.1]/hook',
      'https://2130706433/hook',
      'https://localhost/hook',
      'https://192.168.0.10:8443/hook',
    ]) {
      const res = await strict.request('POST', '/webhooks', { key: strictKey, body: { url, events: ['order.created'] } });
      const body = problem(res, 400, 'webhook_url_not_allowed');
      assert.equal(body.errors[0].pointer, '/url', url);
    }
  });

  test('allows ports 443 and 8443 only, at registration and at delivery', async () => {
    for (const url of ['https://93.184.216.34/hook', 'https://93.184.216.34:8443/hook']) {
      const res = await strict.request('POST', '/webhooks', { key: strictKey, body: { url, events: ['order.created'] } });
      assert.equal(res.status, 201, res.text);
    }
    for (const url of ['https://93.184.216.34:8080/hook', 'https://93.184.216.34:22/hook']) {
      const body = problem(await strict.request('POST', '/webhooks', { key: strictKey, body: { url, events: ['order.created'] } }), 400, 'webhook_url_not_allowed');
      assert.match(body.detail, /port 443 or 8443/, url);
    }
    const id = 'whk_01jf3k4m5n6p7q8r9s0t1v2w3z';
    const attempt = await firstAttempt(id, await storedWebhook(id, 'https://93.184.216.34:9000/hook'));
    assert.match(attempt.error, /not sent: .*port 443 or 8443/);
  });

  /** A webhook stored as it is, past the checks made at registration; returns its owner's key. */
  async function storedWebhook(id: string, url: string): Promise<string> {
    const accountId = await strict.account();
    const owner = await strict.key(accountId);
    const now = strict.clock.now().toISOString();
    await strict.services.database.db
      .insertInto('webhooks')
      .values({
        id,
        owner_key_id: owner.id,
        account_id: accountId,
        mode: 'test',
        url,
        events: '["order.created"]',
        description: null,
        secret: sealWebhookSecret(strict.services.config.secret, 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw'),
        previous_secret: null,
        previous_secret_expires_at: null,
        status: 'enabled',
        disabled_reason: null,
        failing_since: null,
        created_at: now,
        updated_at: now,
      })
      .execute();
    return owner.secret;
  }

  /** The first attempt of the delivery of a new order to the webhook, made by a worker of the strict server. */
  async function firstAttempt(id: string, strictKey: string): Promise<Json> {
    const strictRunner = createJobRunner(strict.services, createLogger('silent'), { pollMs: 20, delivery: { pollMs: 20 } });
    strictRunner.start();
    try {
      const order = await strict.request('POST', '/orders', { key: strictKey, body: orderBody() });
      assert.equal(order.status, 201);
      const log: Json[] = await eventually(
        async () => (await strict.request('GET', `/webhooks/${id}/deliveries`, { key: strictKey })).body.data,
        (l: Json[]) => l[0]?.attempts?.length > 0,
      );
      return log[0]!.attempts[0];
    } finally {
      await strictRunner.stop();
    }
  }

  test('a webhook whose address turns private after registration is not delivered to', async () => {
    // As if a public name had been re-pointed at a loopback address after it passed registration.
    const id = 'whk_01jf3k4m5n6p7q8r9s0t1v2w3x';
    const attempt = await firstAttempt(id, await storedWebhook(id, 'https://127.0.0.1/hook'));
    assert.match(attempt.error, /127\.0\.0\.1.*loopback/);
    assert.equal(attempt.status_code, null);
  });

  test('a plain http URL saved while insecure URLs were allowed is not delivered to once they are not', async () => {
    const id = 'whk_01jf3k4m5n6p7q8r9s0t1v2w3y';
    const attempt = await firstAttempt(id, await storedWebhook(id, 'http://example.com/hook'));
    assert.match(attempt.error, /not sent: webhook URLs must use https/);
    assert.equal(attempt.status_code, null);
  });
});
