import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { startServer, type TestServer } from './harness.ts';

let server: TestServer;
before(async () => {
  server = await startServer();
});
after(() => server.close());

test('the root links the reference; /docs leads to the page, which reaches nothing but shipd', async () => {
  const root = (await (await fetch(`${server.url}/`)).json()) as { docs: string };
  assert.equal(root.docs, '/docs/');
  const bare = await fetch(`${server.url}/docs`, { redirect: 'manual' });
  assert.equal(bare.status, 301);
  assert.equal(new URL(bare.headers.get('location')!, `${server.url}/docs`).href, `${server.url}/docs/`);

  const page = await fetch(`${server.url}${root.docs}`);
  assert.equal(page.status, 200);
  assert.equal(page.headers.get('content-type'), 'text/html; charset=utf-8');
  const html = await page.text();
  assert.match(html, /<script src="js\/scalar\.js"><\/script>/);
  assert.match(html, /"url": "\.\.\/openapi\.json"/);
  assert.match(html, /"withDefaultFonts": false/);
  assert.match(html, /"telemetry": false/);
  assert.doesNotMatch(html, /https?:\/\//, 'every address in the page is relative');
  const csp = page.headers.get('content-security-policy') ?? '';
  for (const directive of ["default-src 'self'", "connect-src 'self'", "font-src 'self' data:", "frame-ancestors 'none'"]) assert.ok(csp.includes(directive), `${directive} in ${csp}`);
  assert.equal(page.headers.get('x-content-type-options'), 'nosniff');
});

test('the script comes from node_modules, compressed when the browser takes it, and a revalidation is a 304', async () => {
  const { version } = JSON.parse(readFileSync(new URL('../node_modules/@scalar/fastify-api-reference/package.json', import.meta.url), 'utf8')) as { version: string };
  const plain = await server.raw('GET', '/docs/js/scalar.js');
  assert.equal(plain.status, 200);
  assert.equal(plain.headers['content-type'], 'application/javascript; charset=utf-8');
  assert.equal(plain.headers['content-encoding'], undefined);
  assert.ok(plain.text.length > 1_000_000, `${plain.text.length} characters`);
  assert.ok(plain.text.includes(`@scalar/api-reference@${version}`), 'the bundle of the installed version');

  // fetch asks for gzip and unpacks it.
  const zipped = await fetch(`${server.url}/docs/js/scalar.js`);
  assert.equal(zipped.headers.get('content-encoding'), 'gzip');
  assert.ok(Number(zipped.headers.get('content-length')) < plain.text.length / 2, `${zipped.headers.get('content-length')} bytes sent`);
  assert.equal(await zipped.text(), plain.text);

  const etag = String(plain.headers.etag);
  assert.equal(zipped.headers.get('etag'), etag);
  assert.equal(plain.headers['cache-control'], 'no-cache');
  const again = await server.raw('GET', '/docs/js/scalar.js', { headers: { 'if-none-match': etag } });
  assert.equal(again.status, 304);
  assert.equal(again.text, '');
});

test('the page is no operation of the API: it is not in the OpenAPI document, and needs no key', async () => {
  const doc = (await server.request('GET', '/openapi.json')).body as { paths: Record<string, unknown> };
  assert.deepEqual(Object.keys(doc.paths).filter((p) => p.includes('docs')), []);
  assert.equal((await fetch(`${server.url}/docs/`, { headers: { authorization: 'Bearer svc_test_nonsense' } })).status, 200);
});
