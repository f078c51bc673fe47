import { test } from 'node:test';
import assert from 'node:assert/strict';
import { open, seal } from './secret-box.ts';

const secret = 'a'.repeat(40);

test('sealed credentials open with the same secret and purpose only, and are not stored as plaintext', () => {
  const sealed = seal(secret, 'carrier-credentials', '{"clientSecret":"hunter2"}');
  assert.ok(!sealed.includes('hunter2'));
  assert.notEqual(seal(secret, 'carrier-credentials', 'x'), seal(secret, 'carrier-credentials', 'x'), 'a fresh IV each time');
  assert.equal(open(secret, 'carrier-credentials', sealed), '{"clientSecret":"hunter2"}');
  assert.equal(open('b'.repeat(40), 'carrier-credentials', sealed), null);
  assert.equal(open(secret, 'label-tokens', sealed), null);
  const [v, iv, tag, body] = sealed.split('.');
  const flipped = Buffer.from(body!, 'base64url');
  flipped[0] = flipped[0]! ^ 1;
  assert.equal(open(secret, 'carrier-credentials', [v, iv, tag, flipped.toString('base64url')].join('.')), null);
  assert.equal(open(secret, 'carrier-credentials', 'garbage'), null);
});
