import { test } from 'node:test';
import assert from 'node:assert/strict';
import { hasPrefix, newId, siblingId } from './ids.ts';

test('ids carry their prefix and 26 base32 characters', () => {
  const id = newId('ord');
  assert.match(id, /^ord_[0-9a-hjkmnp-tv-z]{26}$/);
  assert.ok(hasPrefix(id, 'ord'));
  assert.ok(!hasPrefix(id, 'shp'));
  assert.ok(!hasPrefix('ord_short', 'ord'));
});

test('ids sort in creation order, within one millisecond too', () => {
  const ids = Array.from({ length: 5000 }, () => newId('evt', 1_700_000_000_000));
  const later = newId('evt', 1_700_000_000_001);
  assert.deepEqual([...ids].sort(), ids);
  assert.equal(new Set(ids).size, ids.length);
  assert.ok(later > ids.at(-1)!);
});

test('a clock that steps back does not break the order', () => {
  const a = newId('evt', 2_000_000_000_000);
  const b = newId('evt', 1_999_999_999_000);
  assert.ok(b > a);
});

test("a sibling id keeps the id's time, sorts after it, and wraps within its random part", () => {
  const id = newId('shp', 1_700_000_000_000);
  const sibling = siblingId('trk', id, 2);
  assert.ok(hasPrefix(sibling, 'trk'));
  assert.equal(sibling.slice(4, 14), id.slice(4, 14));
  assert.ok(sibling.slice(4) > id.slice(4));
  assert.equal(siblingId('trk', id, 0), `trk_${id.slice(4)}`);
  assert.equal(siblingId('trk', 'shp_0000000000zzzzzzzzzzzzzzzz', 1), 'trk_00000000000000000000000000');
});
