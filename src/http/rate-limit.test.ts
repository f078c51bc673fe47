import { test } from 'node:test';
import assert from 'node:assert/strict';
import { MemoryBucketStore, rateLimitHeaders } from './rate-limit.ts';

test('a bucket allows its burst, then refills at its rate', () => {
  const store = new MemoryBucketStore();
  const limit = { perSecond: 10, burst: 5 };
  const t = 1_000_000;
  for (let i = 0; i < 5; i++) assert.equal(store.take('k', t, limit).allowed, true);
  const denied = store.take('k', t, limit);
  assert.equal(denied.allowed, false);
  assert.equal(denied.remaining, 0);
  assert.equal(denied.retryAfterSeconds, 1);
  assert.equal(store.take('k', t + 99, limit).allowed, false, 'not yet a whole token after 99 ms at 10/s');
  assert.equal(store.take('k', t + 100, limit).allowed, true, 'one token after 100 ms');
  assert.equal(store.take('other', t, limit).remaining, 4, 'keys do not share buckets');
});

test('a full bucket never exceeds its burst', () => {
  const store = new MemoryBucketStore();
  const limit = { perSecond: 100, burst: 3 };
  assert.equal(store.take('k', 0, limit).remaining, 2);
  assert.equal(store.take('k', 60_000, limit).remaining, 2);
});

test('buckets of different limits live side by side in one store, each refilling at its own rate', () => {
  const store = new MemoryBucketStore();
  const slow = { perSecond: 1 / 60, burst: 1 };
  assert.equal(store.take('slow', 0, slow).allowed, true);
  assert.equal(store.take('slow', 30_000, slow).allowed, false, 'half a token after 30 s at one a minute');
  assert.equal(store.take('fast', 30_000, { perSecond: 10, burst: 2 }).remaining, 1);
  assert.equal(store.take('slow', 60_000, slow).allowed, true);
});

test('headers follow the RateLimit fields draft', () => {
  const h = rateLimitHeaders({ allowed: true, remaining: 7, resetSeconds: 2, retryAfterSeconds: 0 }, { perSecond: 5, burst: 10 });
  assert.deepEqual(h, { 'RateLimit-Policy': '"per-key";q=10;w=2', RateLimit: '"per-key";r=7;t=2' });
});
