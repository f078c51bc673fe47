import { test } from 'node:test';
import assert from 'node:assert/strict';
import { MemoryBucketStore, rateLimitHeaders } from './rate-limit.ts';

test('a bucket allows its burst, then refills at its rate', () => {
  const store = new MemoryBucketStore(10, 5);
  const t = 1_000_000;
  for (let i = 0; i < 5; i++) assert.equal(store.take('k', t).allowed, true);
  const denied = store.take('k', t);
  assert.equal(denied.allowed, false);
  assert.equal(denied.remaining, 0);
  assert.equal(denied.retryAfterSeconds, 1);
  assert.equal(store.take('k', t + 99).allowed, false, 'not yet a whole token after 99 ms at 10/s');
  assert.equal(store.take('k', t + 100).allowed, true, 'one token after 100 ms');
  assert.equal(store.take('other', t).remaining, 4, 'keys do not share buckets');
});

test('a full bucket never exceeds its burst', () => {
  const store = new MemoryBucketStore(100, 3);
  assert.equal(store.take('k', 0).remaining, 2);
  assert.equal(store.take('k', 60_000).remaining, 2);
});

test('headers follow the RateLimit fields draft', () => {
  const h = rateLimitHeaders({ allowed: true, remaining: 7, resetSeconds: 2, retryAfterSeconds: 0 }, 5, 10);
  assert.deepEqual(h, { 'RateLimit-Policy': '"per-key";q=10;w=2', RateLimit: '"per-key";r=7;t=2' });
});
