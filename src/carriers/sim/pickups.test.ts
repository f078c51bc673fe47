import { test } from 'node:test';
import assert from 'node:assert/strict';
import { pickupConfirmation } from './pickups.ts';

test("confirmations follow each carrier's style and depend only on the carrier and the reference", () => {
  const ref = 'pku_01jf3k4m5n6p7q8r9s0t1v2w3x';
  assert.match(pickupConfirmation('ups', ref), /^2[0-9A-Z]{10}$/);
  assert.match(pickupConfirmation('usps', ref), /^WTC[0-9]{9}$/);
  assert.match(pickupConfirmation('fedex', ref), /^[A-Z]{4}[0-9]{4}$/);
  assert.equal(pickupConfirmation('ups', ref), pickupConfirmation('ups', ref));
  assert.notEqual(pickupConfirmation('ups', ref), pickupConfirmation('ups', 'pku_01jf3k4m5n6p7q8r9s0t1v2w3y'));
});
