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
  // Simulated journeys a million times faster than real time: a label is delivered minutes after its first scan.
  server = await startServer({ env: { SHIPD_SIM_TRACKING_SPEED: '1000000' } });
  browser = await launchBrowser();
});
after(async () => {
  await browser?.close();
  await server?.close();
});

async function buyLabel(key: string, orderNumber: string): Promise<{ order: string; shipment: string; tracking: string }> {
  const order = await server.request('POST', '/orders', { key, body: orderBody({ order_number: orderNumber }) });
  assert.equal(order.status, 201, order.text);
  const shipment = await server.request('POST', '/shipments', { key, body: { order_id: order.body.id } });
  assert.equal(shipment.status, 201, shipment.text);
  return { order: order.body.id, shipment: shipment.body.id, tracking: shipment.body.tracking_number };
}

test('in Chromium: labels bought through the API show in the lists with their preview and tracking, void from the page; live mode shows none of it', async () => {
  const { account, email } = await accountWithUser(server);
  await setPaymentMethod(server.services.database.db, server.clock, account, 'test', 'pm_test_visa');
  const key = (await server.key(account)).secret;
  const first = await buyLabel(key, 'A-1001');
  const second = await buyLabel(key, 'A-1002');
  const open = await server.request('POST', '/orders', { key, body: orderBody({ order_number: 'A-1003' }) });
  // Another account's label never shows.
  const stranger = await server.account();
  await setPaymentMethod(server.services.database.db, server.clock, stranger, 'test', 'pm_test_visa');
  await buyLabel((await server.key(stranger)).secret, 'STRANGER-1');

  const page = await (await browser.context()).newPage();
  await signInWith(page, server, email, password);
  await page.getByRole('link', { name: 'Orders' }).click();
  await page.locator(`tr[data-order-id="${open.body.id}"]`).getByText('incomplete').waitFor();
  assert.equal(await page.locator('tr[data-order-id]').count(), 3);
  assert.equal(await page.getByText('STRANGER-1').count(), 0);
  await screenshots(page, 'orders');
  await page.getByLabel('Status').selectOption('shipped');
  await page.getByRole('button', { name: 'Filter' }).click();
  await page.waitForURL(/status=shipped/);
  assert.equal(await page.locator('tr[data-order-id]').count(), 2);
  await page.getByLabel('Created from').fill('2001-01-01');
  await page.getByLabel('Created to').fill('2001-01-02');
  await page.getByRole('button', { name: 'Filter' }).click();
  await page.getByText('No test orders match these filters.').waitFor();
  await screenshots(page, 'orders-filtered-empty');

  await page.getByRole('link', { name: 'Shipments' }).click();
  const row = page.locator(`tr[data-shipment-id="${first.shipment}"]`);
  await row.waitFor();
  assert.equal(await page.locator('tr[data-shipment-id]').count(), 2);
  await screenshots(page, 'shipments');
  await page.getByLabel('Tracking number').fill(second.tracking);
  await page.getByRole('button', { name: 'Filter' }).click();
  await page.locator(`tr[data-shipment-id="${second.shipment}"]`).waitFor();
  assert.equal(await page.locator('tr[data-shipment-id]').count(), 1);

  // The shipment page: the label preview renders, and the tracking timeline fills in as the carrier scans.
  await page.getByRole('link', { name: second.tracking }).click();
  const preview = page.locator('img.label-preview');
  await preview.waitFor();
  // Polled from here: waitForFunction polls by eval inside the page, which the dashboard's CSP forbids whenever the
  // image is not complete at the first look.
  for (let i = 0; i < 200 && !(await page.evaluate<boolean>('document.querySelector("img.label-preview").complete')); i++) {
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  assert.equal(await page.evaluate<number>('document.querySelector("img.label-preview").naturalWidth'), 812, 'the label preview did not load');
  await page.getByText('No scans yet').waitFor();
  // Past the first scan, which never comes sooner than a minute after purchase; well within the session's idle time.
  server.clock.advance(5 * 60_000);
  await page.getByRole('button', { name: 'Check tracking now' }).click();
  await page.getByText('Tracking was checked with the carrier just now.').waitFor();
  assert.ok((await page.locator('ol.timeline li').count()) >= 3, 'no tracking timeline');
  await page.getByText('Delivered', { exact: false }).first().waitFor();
  await screenshots(page, 'shipment-tracking');
  // The list says where a parcel is: a delivered label reads delivered, not purchased.
  await page.goto(`${server.url}/dashboard/test/shipments`);
  assert.equal((await page.locator(`tr[data-shipment-id="${second.shipment}"] .badge`).innerText()).trim(), 'delivered');
  await page.getByRole('link', { name: second.tracking }).click();
  await page.getByRole('button', { name: 'Void label' }).click();
  await page.getByRole('button', { name: 'Void label' }).click();
  await page.getByText('The carrier has scanned', { exact: false }).or(page.getByText('scanned', { exact: false })).first().waitFor();

  // A label not yet scanned can be voided: confirm, and the label is voided through the domain as the API would.
  await buyLabel(key, 'A-1004').then(async (fresh) => {
    await page.goto(`${server.url}/dashboard/test/shipments/${fresh.shipment}`);
    await page.getByRole('button', { name: 'Void label' }).click();
    await page.getByRole('heading', { name: 'Void label' }).waitFor();
    await screenshots(page, 'shipment-void');
    await page.getByRole('button', { name: 'Void label' }).click();
    await page.getByText('The label was voided').waitFor();
    await page.getByText('This label was voided; it must not be printed.').waitFor();
    const api = await server.request('GET', `/shipments/${fresh.shipment}`, { key });
    assert.equal(api.body.status, 'voided');
    await screenshots(page, 'shipment-voided');
  });

  // Live: none of the test data.
  await page.getByRole('link', { name: 'Live', exact: true }).click();
  await page.waitForURL(/\/dashboard\/live\/shipments$/);
  await page.getByText('No live shipments yet').waitFor();
  await screenshots(page, 'live-shipments');
  for (const [section, empty] of [['orders', 'No live orders yet'], ['keys', 'No live keys yet'], ['webhooks', 'No live webhooks yet']] as const) {
    await page.goto(`${server.url}/dashboard/live/${section}`);
    await page.getByText(empty).waitFor();
    assert.equal(await page.getByText('A-1001').count(), 0);
    assert.equal(await page.getByText(first.tracking).count(), 0);
  }
  await screenshots(page, 'live-webhooks');
  const notThere = await page.goto(`${server.url}/dashboard/live/shipments/${first.shipment}`);
  assert.equal(notThere?.status(), 404);
});
