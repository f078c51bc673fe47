import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { problem, startServer, type TestServer } from '../harness.ts';
import { launchBrowser, screenshots, signInWith, type TestBrowser } from './browser.ts';
import { accountWithUser, password } from './client.ts';

let server: TestServer;
let browser: TestBrowser;

before(async () => {
  server = await startServer();
  browser = await launchBrowser();
});
after(async () => {
  await browser?.close();
  await server?.close();
});

test('in Chromium: sign in, create a key, use it against the API, see it used, revoke it, and it stops at once', async () => {
  const { email } = await accountWithUser(server);
  const context = await browser.context();
  const page = await context.newPage();

  await page.goto(`${server.url}/dashboard/test/keys`);
  await page.waitForURL(/\/dashboard\/login\?next=/);
  await screenshots(page, 'login');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill('wrong password, surely');
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByText('The email or the password is wrong.').waitFor();
  await screenshots(page, 'login-error');
  await signInWith(page, server, email, password);
  await page.getByText('No test keys yet').waitFor();
  assert.equal(await page.getByRole('link', { name: 'API reference' }).getAttribute('href'), '/docs/');
  await screenshots(page, 'keys-empty');

  await page.getByLabel('Name').fill('Production store');
  await page.getByRole('button', { name: 'Create key' }).click();
  const secret = (await page.locator('[data-secret]').textContent())!.trim();
  assert.match(secret, /^svc_test_[A-Za-z0-9]{32}$/);
  await page.getByRole('button', { name: 'Copy' }).click();
  await page.getByRole('button', { name: 'Copied' }).waitFor();
  assert.equal(await page.evaluate<string>('navigator.clipboard.readText()'), secret);
  await screenshots(page, 'keys-created');

  // The key works against the API the moment it is shown.
  const carriers = await server.request('GET', '/carriers', { key: secret });
  assert.equal(carriers.status, 200, carriers.text);
  await page.goto(`${server.url}/dashboard/test/keys`);
  assert.equal(await page.locator('[data-secret]').count(), 0, 'the secret is shown again');
  const row = page.locator('tr', { hasText: 'Production store' });
  await row.getByText(/\d{4}-\d\d-\d\d \d\d:\d\d UTC/).nth(1).waitFor();
  assert.match((await row.textContent())!, new RegExp(`${secret.slice(0, 13)}…${secret.slice(-4)}`));

  await row.getByRole('link', { name: 'Roll' }).click();
  await screenshots(page, 'keys-roll');
  await page.goBack();
  await row.getByRole('link', { name: 'Revoke' }).click();
  await page.getByRole('heading', { name: 'Revoke key' }).waitFor();
  await screenshots(page, 'keys-revoke');
  await page.getByRole('button', { name: 'Revoke key' }).click();
  await page.getByText('The key was revoked').waitFor();
  problem(await server.request('GET', '/carriers', { key: secret }), 401, 'revoked_api_key');
  await page.locator('tr', { hasText: 'Production store' }).getByText('Revoked').waitFor();
  await screenshots(page, 'keys-revoked');

  await page.getByRole('button', { name: 'Sign out' }).click();
  await page.waitForURL(/\/dashboard\/login$/);
  await page.goto(`${server.url}/dashboard/test/keys`);
  await page.waitForURL(/\/dashboard\/login\?next=/);
  await context.close();
});
