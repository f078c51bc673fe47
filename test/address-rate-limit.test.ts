import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { problem, startServer, type Response, type TestServer } from './harness.ts';
import { accountWithUser, DashboardClient, password } from './dashboard/client.ts';
import { orderBody } from './fixtures.ts';
import { setPaymentMethod } from '../src/domain/billing/payment-methods.ts';

const burst = 5;
const limits = { SHIPD_ADDRESS_RATE_LIMIT_PER_SECOND: '1', SHIPD_ADDRESS_RATE_LIMIT_BURST: String(burst) };

// The test is the trusted proxy: X-Forwarded-For gives each test an address of its own.
let server: TestServer;
before(async () => {
  server = await startServer({ env: { ...limits, SHIPD_TRUSTED_PROXIES: '127.0.0.1' } });
});
after(() => server.close());

let nextAddress = 1;
const newAddress = () => ({ 'x-forwarded-for': `203.0.113.${nextAddress++}` });

/** Sends `burst` requests, each answered `status`, then one more, answered 429 `address_rate_limited` with Retry-After. */
async function limitedAfterBurst(send: () => Promise<Response>, status: number): Promise<void> {
  for (let i = 0; i < burst; i++) assert.equal((await send()).status, status, `request ${i + 1}`);
  const refused = await send();
  const p = problem(refused, 429, 'address_rate_limited');
  assert.equal(refused.headers.get('retry-after'), '1');
  assert.match(p.detail, /retry in 1 s/);
}

test('requests with a refused API key are limited by address; a valid key from the same address is not held back', async () => {
  const from = newAddress();
  const key = await server.key(await server.account());
  const unknown = `svc_test_${'A'.repeat(32)}`;
  await limitedAfterBurst(() => server.request('GET', '/carriers', { key: unknown, headers: from }), 401);
  problem(await server.request('GET', '/carriers', { headers: from }), 429, 'address_rate_limited');
  assert.equal((await server.request('GET', '/carriers', { key: key.secret, headers: from })).status, 200, 'a valid key was refused for its address');
  problem(await server.request('GET', '/carriers', { key: unknown, headers: newAddress() }), 401, 'invalid_api_key_checksum');
});

test('label downloads with a refused link are limited by address; links the token signs are not held back', async () => {
  const from = newAddress();
  const account = await server.account();
  await setPaymentMethod(server.services.database.db, server.clock, account, 'test', 'pm_test_visa');
  const key = (await server.key(account)).secret;
  const order = await server.request('POST', '/orders', { key, body: orderBody() });
  const label = await server.request('POST', '/shipments', { key, body: { order_id: order.body.id } });
  assert.equal(label.status, 201, label.text);
  const url = new URL(label.body.label_url);
  for (let i = 0; i < 3 * burst; i++) assert.equal((await server.request('GET', `${url.pathname.replace(/^.*\/labels\//, '/labels/')}${url.search}`, { headers: from })).status, 200, `download ${i + 1}`);
  await limitedAfterBurst(() => server.request('GET', `/labels/shp_01jf3k4m5n6p7q8r9s0t1v2w3x.pdf?token=forged`, { headers: from }), 403);
  problem(await server.request('GET', '/labels/not-a-label.pdf?token=x', { headers: from }), 429, 'address_rate_limited');
});

test('/metrics is limited by address', async () => {
  const from = newAddress();
  // A request through the proxy is not one made on this machine: 403, and counted all the same.
  await limitedAfterBurst(() => server.request('GET', '/metrics', { headers: from }), 403);
});

test('the dashboard sign-in page is limited by address, signed-in pages are not, and health checks never are', async () => {
  const from = newAddress();
  const { email } = await accountWithUser(server);
  const client = new DashboardClient(server);
  assert.equal((await client.signIn(email, password, from)).status, 303);
  for (let i = 0; i < 3 * burst; i++) assert.equal((await client.send('GET', '/dashboard/test/keys', undefined, from)).status, 200, `page view ${i + 1}`);
  for (let i = 0; i < burst - 2; i++) assert.equal((await client.send('GET', '/dashboard/login', undefined, from)).status, 303);
  const refused = await new DashboardClient(server).send('GET', '/dashboard/login', undefined, from);
  assert.equal(refused.status, 429);
  assert.match(refused.text, /Too many requests without a valid API key from your address/);
  for (let i = 0; i < 3 * burst; i++) {
    assert.equal((await server.request('GET', '/healthz', { headers: from })).status, 200);
    assert.equal((await server.request('GET', '/readyz', { headers: from })).status, 200);
  }
});

test('without a trusted proxy, X-Forwarded-For is ignored: every request counts against the socket address', async () => {
  const untrusted = await startServer({ env: limits });
  try {
    let n = 0;
    await limitedAfterBurst(() => untrusted.request('GET', '/carriers', { headers: { 'x-forwarded-for': `198.51.100.${++n}` } }), 401);
  } finally {
    await untrusted.close();
  }
});
