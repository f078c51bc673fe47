import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, type TestServer } from './harness.ts';
import { launchBrowser, screenshots, type TestBrowser } from './dashboard/browser.ts';

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

test('in Chromium with no network beyond shipd: /docs shows every operation, and "Test Request" with the key typed in calls the API', async () => {
  const secret = (await server.key(await server.account())).secret;
  const doc = (await server.request('GET', '/openapi.json')).body as { paths: Record<string, Record<string, { operationId: string; summary: string }>> };

  const context = await browser.context();
  // Anything the page asks of another origin is refused and remembered: the page must work without it.
  const outside: string[] = [];
  const origin = new URL(server.url).origin;
  await context.route('**/*', (route) => {
    const url = new URL(route.request().url());
    if (url.origin === origin || url.protocol === 'data:' || url.protocol === 'blob:') return route.continue();
    outside.push(url.href);
    return route.abort('blockedbyclient');
  });
  await context.routeWebSocket(/.*/, (ws) => {
    outside.push(ws.url());
    return ws.close();
  });
  // What the page's Content-Security-Policy stops never reaches the network, so it is counted apart. Zod probes
  // whether it may eval (Function('')) and does without when it may not.
  await context.addInitScript(`
    window.cspViolations = [];
    document.addEventListener('securitypolicyviolation', (e) => window.cspViolations.push(e.effectiveDirective + ' ' + e.blockedURI));
  `);
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));

  await page.goto(`${server.url}/docs`);
  assert.equal(new URL(page.url()).pathname, '/docs/');
  await page.getByText('List carriers and their services').first().waitFor();
  // The sidebar lists an operation once its tag is opened.
  const closed = page.getByRole('button', { name: /^Open Group - / });
  while ((await closed.count()) > 0) await closed.first().click();
  const links = await page.locator('a[href^="#tag/"]').evaluateAll((anchors) => anchors.map((a) => ({ href: a.getAttribute('href')!, text: a.textContent ?? '' })));
  const missing: string[] = [];
  let operations = 0;
  for (const [path, item] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(item)) {
      operations++;
      const shown = links.find((l) => l.href.endsWith(`/${method.toUpperCase()}${path}`));
      if (!shown || !shown.text.includes(op.summary)) missing.push(`${op.operationId} (${method.toUpperCase()} ${path}: ${op.summary})`);
    }
  }
  assert.ok(operations > 40, `only ${operations} operations in the document`);
  assert.deepEqual(missing, [], `not shown: ${missing.join(', ')}`);
  await screenshots(page, 'api-reference');

  // The key goes in once, on the page, and "Test Request" sends it to this server.
  await page.getByPlaceholder('Token').first().fill(secret);
  const section = page.locator('section', { has: page.getByRole('heading', { name: 'List carriers and their services' }) }).first();
  await section.getByRole('button', { name: /Test Request/ }).first().click();
  const answered = page.waitForResponse((res) => new URL(res.url()).pathname === '/api/integrations/v1/carriers');
  await page.getByRole('button', { name: /^Send/ }).first().click();
  const response = await answered;
  assert.equal(response.status(), 200);
  assert.equal(response.request().headers().authorization, `Bearer ${secret}`);
  assert.equal(new URL(response.url()).origin, origin);
  await page.getByText('200 OK').first().waitFor();
  await screenshots(page, 'api-reference-test-request');

  assert.deepEqual(outside, [], `the page reached outside shipd: ${outside.join(', ')}`);
  const blocked = (await page.evaluate<string[]>('window.cspViolations')).filter((v) => v !== 'script-src eval');
  assert.deepEqual(blocked, [], `the Content-Security-Policy blocked: ${blocked.join(', ')}`);
  assert.deepEqual(errors, []);
  // persistAuth is off: the key lives in the page alone, never in the browser's storage.
  assert.equal(await page.evaluate<string>('JSON.stringify({ ...localStorage })').then((s) => s.includes(secret)), false, 'the key was stored');
  await context.close();
});
