import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, type TestServer } from '../harness.ts';
import { austin, orderBody } from '../fixtures.ts';
import { setPaymentMethod } from '../../src/domain/billing/payment-methods.ts';
import { addLocation } from '../../src/domain/locations/locations.ts';
import { launchBrowser, screenshots, signInWith, type TestBrowser } from './browser.ts';
import { accountWithUser, password } from './client.ts';

// Monday 25 November 2030, 09:00 in Austin: a day pickups can be booked for, the same day in UTC.
const mondayMorning = Date.parse('2030-11-25T15:00:00Z');
const monday = '2030-11-25';
const tuesday = '2030-11-26';

let server: TestServer;
let browser: TestBrowser;

before(async () => {
  server = await startServer({ env: { SHIPD_FEATURES: 'manifests,pickups' } });
  server.clock.advance(mondayMorning - server.clock.now().getTime());
  browser = await launchBrowser();
});
after(async () => {
  await browser?.close();
  await server?.close();
});

test("in Chromium: Manifests and Pickups in the nav, today's by default, another day picked, a manifest's page and its file", { timeout: 120_000 }, async () => {
  const { account, email } = await accountWithUser(server);
  const db = server.services.database.db;
  await setPaymentMethod(db, server.clock, account, 'test', 'pm_test_visa');
  const key = (await server.key(account)).secret;
  const location = await addLocation(db, server.clock, account, { name: 'Austin warehouse', address: austin });
  const order = await server.request('POST', '/orders', { key, body: orderBody({ requested_service: { carrier: 'usps', service: 'PRIORITY_MAIL' } }) });
  const label = await server.request('POST', '/shipments', { key, body: { order_id: order.body.id } });
  assert.equal(label.status, 201, label.text);
  const manifest = await server.request('POST', '/manifests', { key, body: { carrier: 'usps', ship_date: monday } });
  assert.equal(manifest.status, 201, manifest.text);
  const window = { start: '13:00', end: '17:00' };
  const today = await server.request('POST', '/pickups', { key, body: { carrier: 'ups', ship_from_id: location.id, date: monday, window } });
  const later = await server.request('POST', '/pickups', { key, body: { carrier: 'fedex', ship_from_id: location.id, date: tuesday, window } });
  assert.equal(later.status, 201, later.text);

  const page = await (await browser.context()).newPage();
  await signInWith(page, server, email, password);
  await page.getByRole('link', { name: 'Manifests' }).click();
  await page.waitForURL(/\/dashboard\/test\/manifests$/);
  await page.locator(`tr[data-manifest-id="${manifest.body.id}"]`).waitFor();
  assert.equal(await page.getByLabel('Ship date').inputValue(), monday);
  await screenshots(page, 'manifests');
  await page.getByLabel('Ship date').fill(tuesday);
  await page.getByRole('button', { name: 'Show' }).click();
  await page.waitForURL(new RegExp(`ship_date=${tuesday}`));
  assert.equal(await page.locator('tr[data-manifest-id]').count(), 0);
  await page.getByRole('link', { name: `Today (${monday})` }).click();
  await page.locator(`tr[data-manifest-id="${manifest.body.id}"]`).waitFor();
  await page.getByRole('link', { name: manifest.body.id }).click();
  await page.waitForURL(new RegExp(`/manifests/${manifest.body.id}$`));
  await page.getByRole('link', { name: label.body.id }).waitFor();
  const file = await page.request.get(`${server.url}/dashboard/test/manifests/${manifest.body.id}/form.pdf`);
  assert.equal(file.status(), 200);
  assert.equal(file.headers()['content-type'], 'application/pdf');

  await page.getByRole('link', { name: 'Pickups' }).click();
  await page.waitForURL(/\/dashboard\/test\/pickups$/);
  await page.locator(`tr[data-pickup-id="${today.body.id}"]`).waitFor();
  assert.equal(await page.locator('tr[data-pickup-id]').count(), 1);
  await page.getByLabel('Pickup date').fill(tuesday);
  await page.getByRole('button', { name: 'Show' }).click();
  await page.locator(`tr[data-pickup-id="${later.body.id}"]`).waitFor();
  assert.match(await page.locator(`tr[data-pickup-id="${later.body.id}"]`).innerText(), new RegExp(later.body.confirmation_number));
  await screenshots(page, 'pickups');
});
