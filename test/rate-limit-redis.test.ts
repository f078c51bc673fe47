import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:net';
import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { problem, startServer, type Response, type TestServer } from './harness.ts';

const redisUrl = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
// Parallel runs (SQLite and PostgreSQL, or two developers) share one Redis; each keeps to its own keys.
const prefix = `shipd-test-${randomBytes(6).toString('hex')}:`;
const perSecond = 1;
const burst = 6;
const env = {
  SHIPD_RATE_LIMIT_PER_SECOND: String(perSecond),
  SHIPD_RATE_LIMIT_BURST: String(burst),
  SHIPD_ADDRESS_RATE_LIMIT_PER_SECOND: String(perSecond),
  SHIPD_ADDRESS_RATE_LIMIT_BURST: String(burst),
  // The test is the trusted proxy, so that X-Forwarded-For gives the address test an address of its own.
  SHIPD_TRUSTED_PROXIES: '127.0.0.1',
  SHIPD_REDIS_PREFIX: prefix,
};

let a: TestServer;
let b: TestServer;
let redis: Redis;
before(async () => {
  a = await startServer({ env: { ...env, REDIS_URL: redisUrl } });
  b = await startServer({ env: { ...env, REDIS_URL: redisUrl }, database: a.db });
  redis = new Redis(redisUrl);
});
after(async () => {
  await b.close();
  await a.close();
  const left = await redis.keys(`${prefix}*`);
  if (left.length) await redis.del(...left);
  await redis.quit();
});

/** A token comes back each second: on a slow machine, requests meant to be at once may span one. */
function tokensEarnedSince(started: number): number {
  return Math.floor(((Date.now() - started) / 1000) * perSecond);
}

async function newKey(server: TestServer): Promise<{ id: string; secret: string }> {
  return server.key(await server.account());
}

test('two instances draw on one bucket per key: taking turns, they allow the burst between them, then both refuse', async () => {
  const key = await newKey(a);
  const responses: { server: TestServer; response: Response }[] = [];
  const started = Date.now();
  for (let i = 0; i < burst + 8; i++) {
    const server = i % 2 ? b : a;
    responses.push({ server, response: await server.request('GET', '/carriers', { key: key.secret }) });
  }
  const earned = tokensEarnedSince(started);
  const allowed = responses.filter((r) => r.response.status === 200).length;
  assert.ok(
    responses.slice(0, burst).every((r) => r.response.status === 200),
    'the first requests, up to the burst, are allowed',
  );
  assert.ok(allowed <= burst + earned, `${allowed} allowed of a burst of ${burst} (+${earned} earned while they ran); apart, each would allow ${burst}`);
  for (const server of [a, b]) {
    const refused = responses.find((r) => r.server === server && r.response.status === 429);
    assert.ok(refused, 'both instances refuse once the shared bucket is empty');
    problem(refused.response, 429, 'rate_limited');
    assert.equal(refused.response.headers.get('retry-after'), '1');
    assert.match(refused.response.headers.get('ratelimit') ?? '', /^"per-key";r=0;t=6$/);
  }

  const ttl = await redis.pttl(`${prefix}ratelimit:${key.id}`);
  assert.ok(ttl > 0 && ttl <= (burst / perSecond) * 1000, `the bucket expires once it would be full again (PTTL ${ttl})`);
  assert.match((await a.request('GET', '/metrics')).text, /^shipd_rate_limit_redis_up 1$/m);
});

test('requests at once through both instances: exactly the burst is allowed, however they interleave', async () => {
  const key = await newKey(b);
  const started = Date.now();
  const statuses = await Promise.all(
    Array.from({ length: 3 * burst }, async (_, i) => (await (i % 2 ? b : a).request('GET', '/carriers', { key: key.secret })).status),
  );
  const earned = tokensEarnedSince(started);
  const allowed = statuses.filter((s) => s === 200).length;
  assert.deepEqual(new Set(statuses), new Set([200, 429]));
  assert.ok(allowed >= burst && allowed <= burst + earned, `${allowed} allowed of a burst of ${burst} (+${earned} earned while they ran)`);
});

test('two instances draw on one bucket per client address for requests without a valid key, sign-ins on another', async () => {
  const from = { 'x-forwarded-for': '192.0.2.44' };
  const started = Date.now();
  const statuses: number[] = [];
  for (let i = 0; i < burst + 4; i++) statuses.push((await (i % 2 ? b : a).request('GET', '/carriers', { headers: from })).status);
  const earned = tokensEarnedSince(started);
  assert.deepEqual(statuses.slice(0, burst), Array(burst).fill(401), 'the first requests, up to the burst, are answered');
  const answered = statuses.filter((s) => s === 401).length;
  assert.ok(answered <= burst + earned, `${answered} answered of a burst of ${burst} (+${earned} earned); apart, each instance would answer ${burst}`);
  for (const server of [a, b]) problem(await server.request('GET', '/openapi.json', { headers: from }), 429, 'address_rate_limited');
  assert.ok((await redis.pttl(`${prefix}ratelimit:addr:192.0.2.44`)) > 0, 'the bucket is in Redis');
  assert.ok((await redis.exists(`${prefix}ratelimit:signin:192.0.2.44`)) === 0, 'sign-ins have buckets of their own');
});

async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise((resolve) => server.close(resolve));
  if (!address || typeof address === 'string') throw new Error('no port');
  return address.port;
}

test('with Redis unreachable, requests are answered: each instance limits keys on its own, warns once, and counts it', async () => {
  const server = await startServer({ env: { ...env, REDIS_URL: `redis://127.0.0.1:${await closedPort()}` } });
  try {
    const key = await newKey(server);
    for (let i = 0; i < burst; i++) assert.equal((await server.request('GET', '/carriers', { key: key.secret })).status, 200);
    problem(await server.request('GET', '/carriers', { key: key.secret }), 429, 'rate_limited');

    const metrics = (await server.request('GET', '/metrics')).text;
    // The key's requests, and the request for /metrics itself, limited by its address.
    assert.match(metrics, new RegExp(`^shipd_rate_limit_local_total ${burst + 2}$`, 'm'));
    assert.match(metrics, /^shipd_rate_limit_redis_up 0$/m);
    const warnings = server.logs.filter((line) => line.includes('Redis does not answer'));
    assert.equal(warnings.length, 1, 'one warning for a stream of failures, not one per request');
    assert.match(warnings[0] ?? '', /"level":40.*ECONNREFUSED/);
  } finally {
    await server.close();
  }
});
