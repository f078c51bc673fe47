import { test } from 'node:test';
import assert from 'node:assert/strict';
import { maxRatesPerShop, newRateShopIds, parseRateId } from './rate-ids.ts';

test('rate ids point back at their shop and index', () => {
  const ids = newRateShopIds(Date.now());
  assert.match(ids.shopId, /^rsh_[0-9a-z]{26}$/);
  for (const i of [0, 1, 31, 32, 100, maxRatesPerShop - 1]) {
    const id = ids.rateId(i);
    assert.match(id, /^rate_[0-9a-z]{26}$/);
    assert.deepEqual(parseRateId(id), { rateKey: ids.rateKey, index: i });
  }
  assert.equal(parseRateId('rate_short'), undefined);
  assert.equal(parseRateId(ids.shopId), undefined);
});

test('rate ids of later shops sort after earlier ones', () => {
  const a = newRateShopIds(1_800_000_000_000).rateId(5);
  const b = newRateShopIds(1_800_000_000_001).rateId(0);
  assert.ok(b > a);
});

test('shops made in the same millisecond never share a key', () => {
  const now = Date.now();
  const keys = new Set(Array.from({ length: 5000 }, () => newRateShopIds(now).rateKey));
  assert.equal(keys.size, 5000);
});
