import { test } from 'node:test';
import assert from 'node:assert/strict';
import { checkKeyFormat, generateKeySecret, hashKeySecret } from './api-key-format.ts';

test('generated keys have the documented shape and pass their own checksum', () => {
  for (const mode of ['test', 'live'] as const) {
    const k = generateKeySecret(mode);
    assert.match(k.secret, new RegExp(`^svc_${mode}_[0-9A-Za-z]{32}$`));
    assert.deepEqual(checkKeyFormat(k.secret), { ok: true, mode });
    assert.equal(k.hash, hashKeySecret(k.secret));
    assert.match(k.hash, /^[0-9a-f]{64}$/);
    assert.equal(k.prefix, k.secret.slice(0, mode.length + 9));
    assert.equal(k.last4, k.secret.slice(-4));
  }
});

test('every single-character typo in the body is caught by the checksum', () => {
  const { secret } = generateKeySecret('test');
  let caught = 0;
  let tried = 0;
  for (let i = 9; i < secret.length; i++) {
    const typo = secret.slice(0, i) + (secret[i] === 'x' ? 'y' : 'x') + secret.slice(i + 1);
    tried++;
    if (!checkKeyFormat(typo).ok) caught++;
  }
  assert.equal(caught, tried);
});

test('a key of one mode cannot be relabelled as the other', () => {
  const { secret } = generateKeySecret('test');
  assert.deepEqual(checkKeyFormat(secret.replace('svc_test_', 'svc_live_')), { ok: false, reason: 'invalid_api_key_checksum' });
});

test('garbage is malformed, not a checksum failure', () => {
  for (const s of ['', 'svc_test_', 'Bearer x', 'svc_test_' + 'a'.repeat(33), 'SVC_TEST_' + 'a'.repeat(32)]) {
    assert.deepEqual(checkKeyFormat(s), { ok: false, reason: 'malformed_api_key' });
  }
});
