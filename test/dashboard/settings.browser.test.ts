import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, type TestServer } from '../harness.ts';
import { startUpsFake, upsFakeCredentials, type UpsFake } from '../fakes/ups.ts';
import { launchBrowser, screenshots, signInWith, type TestBrowser } from './browser.ts';
import { accountWithUser, password } from './client.ts';
import { sanFrancisco } from '../fixtures.ts';
import { freePort } from '../shipd-process.ts';
import { startBilling } from '../live-billing.ts';

let server: TestServer;
let ups: UpsFake;
let browser: TestBrowser;
const billing = await startBilling();

before(async () => {
  ups = await startUpsFake();
  // Stripe's page sends the browser back to SHIPD_PUBLIC_URL: the server's own address, known before it starts.
  const port = await freePort();
  server = await startServer({ env: { UPS_BASE_URL: ups.url, PORT: String(port), SHIPD_PUBLIC_URL: `http://127.0.0.1:${port}`, ...billing.env } });
  browser = await launchBrowser();
});
after(async () => {
  await browser?.close();
  await server?.close();
  await ups?.close();
  await billing.stripe.close();
});

test('in Chromium: billing per mode, locations, packages and carrier accounts, each error beside its field', async () => {
  const { account, email } = await accountWithUser(server);
  const testKey = (await server.key(account)).secret;
  const page = await (await browser.context()).newPage();
  await signInWith(page, server, email, password);

  // Billing: test and live each have their own method.
  await page.getByRole('link', { name: 'Billing' }).click();
  await page.getByText('No test payment method').waitFor();
  await page.getByLabel('Test payment method').selectOption('pm_test_declined');
  await page.getByRole('button', { name: 'Save payment method' }).click();
  await page.getByText('The payment method was saved.').waitFor();
  assert.equal(await page.locator('[data-payment-method]').textContent(), 'pm_test_declined');
  await screenshots(page, 'billing');
  await page.getByRole('link', { name: 'Live', exact: true }).click();
  await page.getByText('No live payment method').waitFor();
  // A live card is saved on Stripe's page, and the browser comes back with it saved.
  await page.getByRole('button', { name: 'Add a card with Stripe' }).click();
  await page.getByRole('heading', { name: 'Save a card for later payments' }).waitFor();
  assert.ok(page.url().startsWith(billing.stripe.url), page.url());
  await page.getByLabel(/pm_card_mastercard \(/).check();
  await page.getByRole('button', { name: 'Save card' }).click();
  await page.getByText('The payment method was saved.').waitFor();
  assert.match((await page.locator('[data-card]').textContent())!, /^mastercard •••• 4444, expires \d\d\/\d{4}$/);
  assert.match((await page.locator('[data-payment-method]').textContent())!, /^pm_/);
  await screenshots(page, 'billing-live-card');
  await page.getByRole('link', { name: 'Test', exact: true }).click();
  assert.equal(await page.locator('[data-payment-method]').textContent(), 'pm_test_declined');

  // Locations: the error stands beside the field; edit; make default; the API sees it.
  await page.getByRole('link', { name: 'Locations' }).click();
  await page.getByText('No locations yet').waitFor();
  const fillLocation = async (name: string, zip: string) => {
    await page.getByLabel('Name').fill(name);
    await page.getByLabel('Street').fill('1100 Congress Ave');
    await page.getByLabel('City').fill('Austin');
    await page.getByLabel('State').fill('TX');
    await page.getByLabel('ZIP').fill(zip);
  };
  await fillLocation('Warehouse', '787');
  await page.getByRole('button', { name: 'Add location' }).click();
  await page.locator('#f-zip-error').waitFor();
  assert.equal(await page.getByLabel('City').inputValue(), 'Austin');
  await screenshots(page, 'locations-error');
  await fillLocation('Warehouse', '78701');
  await page.getByRole('button', { name: 'Add location' }).click();
  await page.getByText('The location was saved.').waitFor();
  await fillLocation('Shop', '78701');
  await page.getByRole('button', { name: 'Add location' }).click();
  const shop = page.locator('tr', { hasText: 'Shop' });
  await shop.getByRole('link', { name: 'Edit' }).click();
  await page.getByLabel('Name').fill('Downtown shop');
  await page.getByRole('button', { name: 'Save location' }).click();
  await page.locator('tr', { hasText: 'Downtown shop' }).getByRole('button', { name: 'Make default' }).click();
  await page.getByText('The default location was changed.').waitFor();
  await screenshots(page, 'locations');
  const shipFrom = await server.request('GET', '/ship-from', { key: testKey });
  assert.equal(shipFrom.body.data[0].name, 'Downtown shop');
  assert.equal(shipFrom.body.data[0].is_default, true);

  // Packages.
  await page.getByRole('link', { name: 'Packages' }).click();
  await page.getByText('No custom boxes yet').waitFor();
  await page.getByLabel('Name').fill('Mailer');
  await page.getByLabel('Length').fill('-3');
  await page.getByRole('button', { name: 'Add box' }).click();
  await page.locator('#f-length-error').getByText('Enter a number above 0').waitFor();
  await screenshots(page, 'packages-error');
  await page.getByLabel('Length').fill('12');
  await page.getByLabel('Width').fill('9');
  await page.getByLabel('Height').fill('3');
  await page.getByLabel('Max weight', { exact: true }).fill('5');
  await page.getByRole('button', { name: 'Add box' }).click();
  await page.getByText('The package was saved.').waitFor();
  await page.locator('tr', { hasText: 'Mailer' }).getByRole('link', { name: 'Edit' }).click();
  await page.getByLabel('Height').fill('4');
  await page.getByRole('button', { name: 'Save box' }).click();
  await page.getByText('12 × 9 × 4 in').waitFor();
  await page.locator('tr', { hasText: 'Mailer' }).getByRole('button', { name: 'Make default' }).click();
  await page.getByText('The default package was changed.').waitFor();
  await page.locator('tr', { hasText: 'Mailer' }).getByText('Default', { exact: true }).waitFor();
  await screenshots(page, 'packages');
  const boxes = await server.request('GET', '/packages?kind=custom', { key: testKey });
  assert.deepEqual(boxes.body.data[0].dimensions, { length: 12, width: 9, height: 4, unit: 'in' });
  assert.equal(boxes.body.data[0].is_default, true);
  const order = await server.request('POST', '/orders', { key: testKey, body: { ship_to: sanFrancisco, parcel: { weight: { value: 1, unit: 'lb' } } } });
  assert.equal(order.body.package_id, boxes.body.data[0].id);

  // Carrier accounts: nothing to connect in test mode; in live mode connect UPS and test the connection.
  await page.getByRole('link', { name: 'Carrier accounts' }).click();
  await page.getByText("Test keys use shipd's simulated").waitFor();
  await page.getByRole('link', { name: 'Live', exact: true }).click();
  await page.getByText('No carrier account connected').waitFor();
  await page.getByLabel('Client id').fill(upsFakeCredentials.clientId);
  await page.getByLabel('USPS MID').fill('123456');
  await page.getByRole('button', { name: 'Connect' }).click();
  // Every field that is wrong is shown at once, each beside its field.
  await page.locator('#f-client_secret-error').waitFor();
  await page.locator('#f-mid-error').getByText('Only USPS accounts have one').waitFor();
  await page.getByLabel('Client id').fill(upsFakeCredentials.clientId);
  await page.getByLabel('Client secret').fill(upsFakeCredentials.clientSecret);
  await page.getByLabel('Account number').fill(upsFakeCredentials.accountNumber);
  await page.getByLabel('USPS MID').fill('');
  await page.getByRole('button', { name: 'Connect' }).click();
  await page.getByText('The carrier account was connected.').waitFor();
  await page.locator('tr[data-carrier="ups"]').getByRole('button', { name: 'Test connection' }).click();
  await page.locator('[data-test-result]').getByText('UPS accepted the credentials').waitFor();
  await screenshots(page, 'carriers');
  assert.ok(ups.tokenRequests >= 1, 'the fake UPS was never asked for a token');
  const html = await page.content();
  assert.deepEqual([upsFakeCredentials.clientId, upsFakeCredentials.clientSecret].filter((value) => html.includes(value)), [], 'the credentials are never shown again');
});
