import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, type TestServer } from '../harness.ts';
import { orderBody } from '../fixtures.ts';
import { startReceiver, verify, type Receiver } from '../webhook-receiver.ts';
import { createJobRunner } from '../../src/jobs/index.ts';
import { createLogger } from '../../src/http/logger.ts';
import type { JobRunner } from '../../src/jobs/runner.ts';
import { launchBrowser, screenshots, signInWith, type TestBrowser } from './browser.ts';
import { accountWithUser, password } from './client.ts';

let server: TestServer;
let runner: JobRunner;
let receiver: Receiver;
let browser: TestBrowser;

before(async () => {
  server = await startServer({ env: { SHIPD_WEBHOOKS_ALLOW_INSECURE: 'true' } });
  runner = createJobRunner(server.services, createLogger('silent'), { pollMs: 20, delivery: { pollMs: 20, timeoutMs: 2_000, perEndpoint: 4 } });
  runner.start();
  receiver = await startReceiver();
  browser = await launchBrowser();
});
after(async () => {
  await browser?.close();
  await receiver?.close();
  await runner?.stop();
  await server?.close();
});

test('in Chromium: register a webhook on a local receiver, see its deliveries in the log, send a test event, replay one, rotate the secret', async () => {
  const { account, email } = await accountWithUser(server);
  const key = await server.key(account);
  const page = await (await browser.context()).newPage();
  await signInWith(page, server, email, password);
  // The key in use, not a newer key nobody has called the API with, is the one a new webhook listens to by default.
  assert.equal((await server.request('GET', '/carriers', { key: key.secret })).status, 200);
  await server.key(account);
  await page.getByRole('link', { name: 'Webhooks' }).click();
  await page.getByText('No test webhooks yet').waitFor();
  for (let i = 0; i < 20 && (await page.locator('#f-key').inputValue()) !== key.id; i++) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    await page.reload();
  }
  assert.equal(await page.locator('#f-key').inputValue(), key.id);

  // A field's error is shown beside that field, and what was typed stays.
  await page.getByLabel('URL').fill(receiver.url);
  await page.getByRole('button', { name: 'Register webhook' }).click();
  await page.getByText('Choose at least one event').waitFor();
  assert.equal(await page.getByLabel('URL').inputValue(), receiver.url);
  await screenshots(page, 'webhooks-error');

  await page.getByLabel('order.created').check();
  await page.getByLabel('shipment.created').check();
  await page.getByLabel('Description').fill('Local receiver');
  await page.getByRole('button', { name: 'Register webhook' }).click();
  const secret = (await page.locator('[data-secret]').textContent())!.trim();
  assert.match(secret, /^whsec_/);
  await screenshots(page, 'webhooks-created');
  // The list names the key by its name or masked secret, not by its id.
  assert.doesNotMatch(await page.locator('td[data-label="Key"]').first().innerText(), /^key_/);

  const order = await server.request('POST', '/orders', { key: key.secret, body: orderBody() });
  assert.equal(order.status, 201, order.text);
  await receiver.waitFor((r) => r.length >= 1);
  assert.equal(verify(secret, receiver.received[0]!).type, 'order.created');

  await page.getByRole('link', { name: 'Open the webhook and its delivery log' }).click();
  const delivery = page.locator('tr[data-delivery-id]', { hasText: 'order.created' });
  await delivery.getByText('succeeded').waitFor();
  assert.match((await delivery.textContent())!, /HTTP 204/);
  await delivery.getByText('Body sent').click();
  assert.match((await delivery.locator('pre').first().textContent())!, new RegExp(order.body.id));
  await screenshots(page, 'webhook-log');

  // A receiver that fails shows its status and its answer's body in the log.
  receiver.answer = () => ({ status: 503 });
  await page.getByRole('button', { name: 'Send test event' }).click();
  await page.getByText('A webhook.test event is on its way').waitFor();
  await receiver.waitFor((r) => r.some((x) => x.status === 503));
  const ping = page.locator('tr[data-delivery-id]', { hasText: 'webhook.test' });
  for (let i = 0; i < 50 && !/HTTP 503/.test((await ping.textContent()) ?? ''); i++) {
    await new Promise((r) => setTimeout(r, 100));
    await page.reload();
  }
  assert.match((await ping.textContent())!, /HTTP 503/);
  await ping.getByText('Response body').click();
  await ping.getByText('not now').waitFor();
  await screenshots(page, 'webhook-log-failed');

  receiver.answer = () => ({ status: 204 });
  const before = receiver.received.length;
  await delivery.getByRole('button', { name: 'Replay' }).click();
  await page.getByText('The delivery was queued to be sent again now.').waitFor();
  await receiver.waitFor((r) => r.slice(before).some((x) => x.status === 204 && x.headers['webhook-id'] === receiver.received[0]!.headers['webhook-id']));

  await page.getByRole('button', { name: 'Rotate secret' }).click();
  await page.getByRole('heading', { name: 'Rotate signing secret' }).waitFor();
  await screenshots(page, 'webhook-rotate');
  await page.getByRole('button', { name: 'Rotate secret' }).click();
  const rotated = (await page.locator('[data-secret]').textContent())!.trim();
  assert.notEqual(rotated, secret);
  const next = receiver.received.length;
  await server.request('POST', '/orders', { key: key.secret, body: orderBody() });
  await receiver.waitFor((r) => r.length > next);
  // Both secrets sign during the overlap.
  assert.equal(verify(rotated, receiver.received[next]!).type, 'order.created');
  assert.equal(verify(secret, receiver.received[next]!).type, 'order.created');
});
