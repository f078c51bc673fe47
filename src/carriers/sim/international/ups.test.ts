import { test } from 'node:test';
import assert from 'node:assert/strict';
import { priceUpsInternational } from './quote.ts';

test('UPS international is refused in test mode, with the reason', () => {
  const answer = priceUpsInternational({ to: { country: 'GB', residential: false }, parcel: { weightLb: 1 } });
  assert.ok(!answer.ok);
  assert.equal(answer.error.code, 'service_unavailable');
  assert.match(answer.error.detail, /UPS's international zone chart .* is not among/);
});
