import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { problem, startServer, type TestServer } from './harness.ts';

let server: TestServer;
before(async () => {
  server = await startServer({ env: { SHIPD_RATE_LIMIT_PER_SECOND: '1', SHIPD_RATE_LIMIT_BURST: '3' } });
});
after(() => server.close());

test('each key has its own bucket; past it, 429 with Retry-After and the RateLimit fields', async () => {
  const account = await server.account();
  const a = (await server.key(account)).secret;
  const b = (await server.key(account)).secret;
  const first = await server.request('GET', '/carriers', { key: a });
  assert.equal(first.status, 200);
  assert.equal(first.headers.get('ratelimit-policy'), '"per-key";q=3;w=3');
  assert.match(first.headers.get('ratelimit') ?? '', /^"per-key";r=2;t=[12]$/);
  assert.equal((await server.request('GET', '/carriers', { key: a })).status, 200);
  assert.equal((await server.request('GET', '/carriers', { key: a })).status, 200);
  const limited = await server.request('GET', '/carriers', { key: a });
  const p = problem(limited, 429, 'rate_limited');
  assert.equal(limited.headers.get('retry-after'), '1');
  assert.match(limited.headers.get('ratelimit') ?? '', /^"per-key";r=0;t=3$/);
  assert.match(p.detail, /retry in 1 s/);
  assert.equal((await server.request('GET', '/carriers', { key: b })).status, 200, 'another key is not held back');
  await new Promise((r) => setTimeout(r, 1_100));
  assert.equal((await server.request('GET', '/carriers', { key: a })).status, 200, 'a token came back after a second');
});

test('unauthenticated requests are answered 401, not counted against a key', async () => {
  problem(await server.request('GET', '/carriers'), 401, 'missing_api_key');
});
