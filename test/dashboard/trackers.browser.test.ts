import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, type TestServer } from '../harness.ts';
import { orderBody } from '../fixtures.ts';
import { setPaymentMethod } from '../../src/domain/billing/payment-methods.ts';
import { launchBrowser, screenshots, signInWith, type TestBrowser } from './browser.ts';
import { accountWithUser, password } from './client.ts';

let server: TestServer;
let browser: TestBrowser;

before(async () => {
  server = await startServer({ env: { SHIPD_SIM_TRACKING_SPEED: '1000000' } });
  browser = await launchBrowser();
});
after(async () => {
  await browser?.close();
  await server?.close();
});

test('in Chromium: Trackers in the nav, the list filtered by status, a tracker with its timeline, and from a label to its tracker', async () => {
  const { account, email } = await accountWithUser(server);
  await setPaymentMethod(server.services.database.db, server.clock, account, 'test', 'pm_test_visa');
  const key = (await server.key(account)).secret;
  const delivered = await server.request('POST', '/trackers', { key, body: { tracking_number: 'SHIPD_TEST_DELIVERED', metadata: { shop: '<b>mugs</b>' } } });
  const moving = await server.request('POST', '/trackers', { key, body: { tracking_number: 'SHIPD_TEST_IN_TRANSIT' } });
  assert.equal(delivered.status, 201, delivered.text);
  const order = await server.request('POST', '/orders', { key, body: orderBody({ order_number: 'T-1' }) });
  const label = await server.request('POST', '/shipments', { key, body: { order_id: order.body.id } });
  assert.equal(label.status, 201, label.text);

  const page = await (await browser.context()).newPage();
  await signInWith(page, server, email, password);
  await page.getByRole('link', { name: 'Trackers' }).click();
  await page.waitForURL(/\/dashboard\/test\/trackers$/);
  await page.locator(`tr[data-tracker-id="${delivered.body.id}"]`).waitFor();
  assert.equal(await page.locator('tr[data-tracker-id]').count(), 3);
  await screenshots(page, 'trackers');
  await page.getByLabel('Status').selectOption('delivered');
  await page.getByRole('button', { name: 'Filter' }).click();
  await page.waitForURL(/status=delivered/);
  assert.equal(await page.locator('tr[data-tracker-id]').count(), 1);
  assert.equal(await page.locator(`tr[data-tracker-id="${moving.body.id}"]`).count(), 0);

  await page.getByRole('link', { name: 'SHIPD_TEST_DELIVERED' }).click();
  await page.locator('ol.timeline li').first().waitFor();
  assert.equal(await page.locator('ol.timeline li').count(), delivered.body.events.length);
  assert.equal(await page.locator('ol.timeline li').first().getAttribute('data-status'), 'delivered', 'newest first');
  assert.match(await page.locator('ol.timeline li').first().innerText(), /America\/Los_Angeles/);
  assert.equal((await page.locator('dd.signed-by').innerText()).trim(), 'LOVELACE');
  // Metadata is shown as text, never as markup.
  await page.getByText('<b>mugs</b>').waitFor();
  await screenshots(page, 'tracker');

  await page.goto(`${server.url}/dashboard/test/shipments/${label.body.id}`);
  await page.getByRole('link', { name: 'Its tracker, with the whole timeline' }).click();
  await page.waitForURL(new RegExp(`/dashboard/test/trackers/trk_${label.body.id.slice(4)}$`));
  await page.getByRole('link', { name: label.body.id }).waitFor();
});
