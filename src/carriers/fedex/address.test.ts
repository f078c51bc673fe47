import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Address } from '../../schemas/address.ts';
import { buildAddressRequest, parseAddressResponse } from './address.ts';
import { fixture } from './fixtures.ts';

const input: Address = { name: 'Ada', street1: '415 Mission St', street2: 'Fl 5', city: 'San Francisco', state: 'ca', zip: '94105' };

test('the address request sends the lines, city, state, ZIP and country', () => {
  assert.deepEqual(buildAddressRequest(input), {
    ok: true,
    value: { addressesToValidate: [{ address: { streetLines: ['415 Mission St', 'Fl 5'], city: 'San Francisco', stateOrProvinceCode: 'CA', postalCode: '94105', countryCode: 'US' } }] },
  });
});

test('a street longer than a FedEx line is wrapped at a space, not cut; one that needs more than three lines is refused', () => {
  const long = { ...input, street1: '1600 Amphitheatre Parkway Building Forty Three', street2: 'Suite 200' };
  const built = buildAddressRequest(long);
  assert.ok(built.ok);
  assert.deepEqual(built.value.addressesToValidate[0]!.address.streetLines, ['1600 Amphitheatre Parkway Building', 'Forty Three', 'Suite 200']);
  const tooLong = buildAddressRequest({ ...long, street1: `${'Very Long Street Name '.repeat(4)}1`.trim() });
  assert.equal(!tooLong.ok && tooLong.error.code, 'address_invalid');
});

test('a standardized DPV-confirmed address is valid, corrected and classified', () => {
  const result = parseAddressResponse(fixture('address-standardized'), input);
  assert.ok(result.ok);
  assert.equal(result.value.valid, true);
  assert.equal(result.value.residential, false);
  assert.deepEqual(result.value.address, { name: 'Ada', street1: '415 MISSION ST', street2: 'FL 5', city: 'SAN FRANCISCO', state: 'CA', zip: '94105-1804' });
  assert.deepEqual(result.value.messages, []);
});

test('string attributes and a single resolved object are read; a raw address is not valid and says why', () => {
  const result = parseAddressResponse(fixture('address-raw-strings'), { street1: '1 Nowhere Ln', city: 'Springfield', state: 'IL', zip: '62701' });
  assert.ok(result.ok);
  assert.equal(result.value.valid, false);
  assert.equal(result.value.residential, true);
  assert.equal(result.value.address.zip, '62701');
  assert.deepEqual(result.value.messages, [{ code: 'PARTIAL.STREET.MATCH', detail: 'The street was only partly matched.' }]);
});

test('an answer without resolvedAddresses is a carrier_error', () => {
  const result = parseAddressResponse({ output: { alerts: [] } }, input);
  assert.equal(!result.ok && result.error.code, 'carrier_error');
});
