import { test } from 'node:test';
import assert from 'node:assert/strict';
import { checkLabelToken, labelTokenLifetimeMs, signLabelToken } from './label-tokens.ts';

const now = new Date('2026-11-22T12:00:00Z');

test('a token opens its own shipment until it expires', () => {
  const token = signLabelToken('s3cret', 'shp_a', now);
  assert.equal(checkLabelToken('s3cret', 'shp_a', token, now), 'valid');
  assert.equal(checkLabelToken('s3cret', 'shp_a', token, new Date(now.getTime() + labelTokenLifetimeMs - 1000)), 'valid');
  assert.equal(checkLabelToken('s3cret', 'shp_a', token, new Date(now.getTime() + labelTokenLifetimeMs)), 'expired');
});

test('a token does not open another shipment, survive another secret, or a changed expiry', () => {
  const token = signLabelToken('s3cret', 'shp_a', now);
  assert.equal(checkLabelToken('s3cret', 'shp_b', token, now), 'invalid');
  assert.equal(checkLabelToken('other', 'shp_a', token, now), 'invalid');
  const [expires, sig] = token.split('.');
  assert.equal(checkLabelToken('s3cret', 'shp_a', `${Number(expires) + 86_400}.${sig}`, now), 'invalid');
  for (const junk of ['', '.', 'abc', `${expires}.`, `${expires}.${sig}x`, `-1.${sig}`, `0${expires}.${sig}`]) assert.equal(checkLabelToken('s3cret', 'shp_a', junk, now), 'invalid');
});
