// The delivery worker and receivers that answer oddly, or webhooks that change while deliveries wait: one
// receiver's answer must never cost another's outcome nor hide what its own answers mean, and a webhook removed or
// re-pointed gets nothing more at its old address.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { startServer, type TestServer } from './harness.ts';
import { orderBody } from './fixtures.ts';
import { createJobRunner } from '../src/jobs/index.ts';
import type { JobRunner } from '../src/jobs/runner.ts';
import { createLogger } from '../src/http/logger.ts';
import { claimDue } from '../src/events/delivery-claim.ts';
import { recordOutcomes } from '../src/events/delivery-record.ts';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- tests read whatever JSON came back

let server: TestServer;
let key: string;

before(async () => {
  server = await startServer({ env: { SHIPD_WEBHOOKS_ALLOW_INSECURE: 'true' } });
  key = (await server.key(await server.account())).secret;
});
after(() => server.close());

async function register(url: string): Promise<Json> {
  const res = await server.request('POST', '/webhooks', { key, body: { url, events: ['order.created'] } });
  assert.equal(res.status, 201, res.text);
  return res.body;
}

/** A receiver that answers every delivery with this status and body. */
async function answering(status: number, body: string, contentType = 'text/plain'): Promise<{ url: string; close(): Promise<void> }> {
  const receiver = createServer((req, res) => {
    req.resume();
    req.on('end', () => res.writeHead(status, { 'content-type': contentType }).end(body));
  });
  await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
  const { port } = receiver.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}/hooks`,
    close: () => new Promise<void>((r) => receiver.close(() => r())),
  };
}

const deliveries = async (webhookId: string): Promise<Json[]> => (await server.request('GET', `/webhooks/${webhookId}/deliveries?limit=100`, { key })).body.data;

/** Reads until the value is as wanted (the worker records asynchronously), for up to 10 s; returns the last read. */
async function eventually<T>(read: () => Promise<T>, done: (value: T) => boolean): Promise<T> {
  const deadline = Date.now() + 10_000;
  let value = await read();
  while (!done(value) && Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, 50));
    value = await read();
  }
  return value;
}

test('a receiver answering with a NUL character has its attempt recorded, and the other receivers theirs', async () => {
  const hostile = await answering(200, 'ok\u0000');
  const fine = await answering(204, '');
  const bad = await register(hostile.url);
  const good = await register(fine.url);
  const runner: JobRunner = createJobRunner(server.services, createLogger('silent'), { pollMs: 20 });
  runner.start();
  try {
    assert.equal((await server.request('POST', '/orders', { key, body: orderBody() })).status, 201);
    const both = await eventually(
      async () => [...(await deliveries(bad.id)), ...(await deliveries(good.id))],
      (b) => b.length === 2 && b.every((d) => d.attempt_count === 1),
    );
    assert.deepEqual(both.map((d) => [d.status, d.attempt_count]), [['succeeded', 1], ['succeeded', 1]], JSON.stringify(both));
    const [attempt] = (await server.services.database.db.selectFrom('webhook_attempts').select('response_excerpt').where('webhook_id', '=', bad.id).execute());
    assert.equal(attempt?.response_excerpt, 'ok\uFFFD');
  } finally {
    await runner.stop();
    await hostile.close();
    await fine.close();
  }
});

test("the delivery log keeps the status and a short, text-only excerpt of a receiver's answer", async () => {
  const page = await answering(500, `<html>\n  <body>${'internal details '.repeat(100)}</body>\n</html>`, 'text/html');
  const binary = await answering(500, 'PK\u0003\u0004 a zip archive', 'application/zip');
  const hooks = [await register(page.url), await register(binary.url)];
  const runner: JobRunner = createJobRunner(server.services, createLogger('silent'), { pollMs: 20 });
  runner.start();
  try {
    assert.equal((await server.request('POST', '/orders', { key, body: orderBody() })).status, 201);
    const [html, zip] = await eventually(
      async () => (await Promise.all(hooks.map(async (h) => (await deliveries(h.id))[0]?.attempts?.[0]))).filter(Boolean) as Json[],
      (a) => a.length === 2,
    );
    assert.equal(html!.status_code, 500);
    assert.ok(html!.response_excerpt.length <= 100, html!.response_excerpt);
    assert.match(html!.response_excerpt, /^<html> <body>internal details/);
    assert.equal(zip!.status_code, 500);
    assert.equal(zip!.response_excerpt, null, 'an answer that is not text is not kept');
  } finally {
    await runner.stop();
    await page.close();
    await binary.close();
  }
});

test('a 410 disables the webhook even when a later failure of the same webhook is recorded with it', async () => {
  const webhook = await register('http://127.0.0.1:9/hooks');
  for (let i = 0; i < 2; i++) assert.equal((await server.request('POST', '/orders', { key, body: orderBody() })).status, 201);
  const { claimed } = await claimDue(server.services.database, server.clock.now(), { room: 10, saturated: [], leaseMs: 60_000, held: () => 0, holdLimit: () => 10 });
  const mine = claimed.filter((c) => c.webhookId === webhook.id);
  assert.equal(mine.length, 2);
  const at = server.clock.now();
  const outcome = (c: (typeof mine)[number], statusCode: number) => ({ claimed: c, attemptedAt: at, latencyMs: 5, statusCode, error: `answered ${statusCode}`, excerpt: '', retryAfterMs: null });
  await recordOutcomes(server.services.database, server.clock, createLogger('silent'), [outcome(mine[0]!, 410), outcome(mine[1]!, 503)], []);
  const now = (await server.request('GET', `/webhooks/${webhook.id}`, { key })).body;
  assert.equal(now.status, 'disabled');
  assert.match(now.disabled_reason, /410/);
});

for (const how of ['deleted', 'disabled', 're-pointed'] as const) {
  test(`a webhook ${how} while its deliveries wait in the worker's queue gets none of them at the old address`, async () => {
    const arrivals: number[] = [];
    // Each answer takes a second: four go out at once, the other four wait in the worker's queue.
    const slow = createServer((req, res) => {
      arrivals.push(Date.now());
      req.resume();
      setTimeout(() => res.writeHead(204).end(), 1_000);
    });
    await new Promise<void>((r) => slow.listen(0, '127.0.0.1', r));
    const elsewhere = await answering(204, '');
    const webhook = await register(`http://127.0.0.1:${(slow.address() as { port: number }).port}/hooks`);
    const runner = createJobRunner(server.services, createLogger('silent'), { pollMs: 20, delivery: { pollMs: 20, timeoutMs: 5_000, perEndpoint: 4 } });
    runner.start();
    try {
      for (let i = 0; i < 8; i++) assert.equal((await server.request('POST', '/orders', { key, body: orderBody() })).status, 201);
      const deadline = Date.now() + 5_000;
      while (arrivals.length < 4 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
      assert.equal(arrivals.length, 4, 'four in flight, the rest queued');
      const change =
        how === 'deleted'
          ? await server.request('DELETE', `/webhooks/${webhook.id}`, { key })
          : await server.request('PATCH', `/webhooks/${webhook.id}`, { key, body: how === 'disabled' ? { status: 'disabled' } : { url: elsewhere.url } });
      assert.equal(change.status, 200, change.text);
      await new Promise((r) => setTimeout(r, 2_500));
      assert.equal(arrivals.length, 4, `${arrivals.length - 4} deliveries reached the old address after the webhook was ${how}`);
    } finally {
      await runner.stop();
      slow.closeAllConnections();
      await new Promise<void>((r) => slow.close(() => r()));
      await elsewhere.close();
    }
  });
}

test('one hanging receiver behind many webhooks holds at most one endpoint\'s share of the worker: another account is served at once', async () => {
  let hanging = 0;
  const held: import('node:http').ServerResponse[] = [];
  const hangs = createServer((req, res) => {
    hanging++;
    req.resume();
    held.push(res);
  });
  await new Promise<void>((r) => hangs.listen(0, '127.0.0.1', r));
  const hostile = `http://127.0.0.1:${(hangs.address() as { port: number }).port}/hooks`;
  const hostileKey = (await server.key(await server.account())).secret;
  for (let i = 0; i < 11; i++) {
    const res = await server.request('POST', '/webhooks', { key: hostileKey, body: { url: hostile, events: ['order.created'] } });
    assert.equal(res.status, 201, res.text);
  }
  const fine = await answering(204, '');
  const victim = await register(fine.url);
  const runner = createJobRunner(server.services, createLogger('silent'), { pollMs: 20, delivery: { pollMs: 20, timeoutMs: 10_000, perEndpoint: 10, concurrency: 100 } });
  runner.start();
  try {
    for (let i = 0; i < 10; i++) assert.equal((await server.request('POST', '/orders', { key: hostileKey, body: orderBody() })).status, 201);
    await new Promise((r) => setTimeout(r, 1_000));
    assert.equal(hanging, 10, 'ten attempts at the hanging address, over all eleven webhooks');
    assert.equal((await server.request('POST', '/orders', { key, body: orderBody() })).status, 201);
    const deadline = Date.now() + 2_000;
    let done: Json[] = [];
    while (Date.now() < deadline) {
      done = (await deliveries(victim.id)).filter((d) => d.status === 'succeeded');
      if (done.length > 0) break;
      await new Promise((r) => setTimeout(r, 20));
    }
    assert.equal(done.length, 1, 'the other account\'s endpoint was served within 2 s');
  } finally {
    for (const res of held) res.destroy();
    hangs.closeAllConnections();
    await new Promise<void>((r) => hangs.close(() => r()));
    await runner.stop();
    await fine.close();
  }
});
