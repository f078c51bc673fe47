import { test } from 'node:test';
import assert from 'node:assert/strict';
import { evenShares, shares } from './shares.ts';

test('shares add up to the total, in proportion, the first taking the odd cents', () => {
  assert.deepEqual(evenShares(1000, 3), [334, 333, 333]);
  assert.deepEqual(evenShares(7, 1), [7]);
  assert.deepEqual(shares(1200, [700, 500]), [700, 500], 'prices that add up to the total are the shares');
  assert.deepEqual(shares(900, [700, 500]), [525, 375], 'a charge below the prices is split in their proportion');
  assert.deepEqual(shares(1000, [1, 1, 1]), [334, 333, 333]);
  for (const [total, weights] of [[1001, [3, 5, 7]], [1, [1, 1, 1]], [0, [2, 2]]] as const) {
    assert.equal(shares(total, weights).reduce((a, c) => a + c, 0), total);
  }
});
