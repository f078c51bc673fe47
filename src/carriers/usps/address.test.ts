import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import type { Address } from '../../schemas/address.ts';
import { buildAddressQuery, parseAddress, parseAddressNotFound } from './address.ts';
import { uspsFailure } from './errors.ts';
import { parseToken } from './token.ts';

const fixture = (name: string): unknown => JSON.parse(readFileSync(new URL(`./fixtures/${name}`, import.meta.url), 'utf8'));

const input: Address = { name: 'Grace Hopper', street1: '3120 M Street NW', city: 'Washington', state: 'dc', zip: '20007' };

test('the address query sends street, city, state and ZIP', () => {
  assert.deepEqual(buildAddressQuery(input), {
    firm: undefined, streetAddress: '3120 M Street NW', secondaryAddress: undefined, city: 'Washington', state: 'DC', ZIPCode: '20007', ZIPPlus4: undefined,
  });
});

test('a confirmed address comes back standardized with ZIP+4, and business Y is not residential', () => {
  const result = parseAddress(fixture('address.json'), input);
  assert.ok(result.ok);
  assert.equal(result.value.valid, true);
  assert.equal(result.value.residential, false);
  assert.deepEqual(result.value.address, { name: 'Grace Hopper', street1: '3120 M ST NW', city: 'WASHINGTON', state: 'DC', zip: '20007-3704', country: 'US' });
  assert.deepEqual(result.value.messages, []);
});

test('DPV D (unit missing) is not valid and says why, with the correction; codes are unprefixed, the domain adds usps_', () => {
  const result = parseAddress(fixture('address-needs-unit.json'), input);
  assert.ok(result.ok);
  assert.equal(result.value.valid, false);
  assert.equal(result.value.residential, true);
  assert.deepEqual(result.value.messages.map((m) => m.code), ['dpv_D', 'correction_32']);
});

test('a 404 is an invalid address with the USPS message', () => {
  const result = parseAddressNotFound(fixture('address-not-found.json'), input);
  assert.deepEqual(result, { ok: true, value: { valid: false, address: input, residential: null, messages: [{ code: 'no_match', detail: 'There is no match for the address requested.' }] } });
});

test('a unit USPS folds into the street is not kept again as street2; one it answers apart or drops unseen stays', () => {
  const withUnit: Address = { ...input, street1: '350 5th Ave', street2: 'Apartment 4B', city: 'New York', state: 'NY', zip: '10118' };
  const folded = { address: { streetAddress: '350 5TH AVE APT 4B', secondaryAddress: '', city: 'NEW YORK', state: 'NY', ZIPCode: '10118', ZIPPlus4: '0110' }, additionalInfo: { DPVConfirmation: 'Y', business: 'Y' } };
  const result = parseAddress(folded, withUnit);
  assert.ok(result.ok);
  assert.equal(result.value.address.street1, '350 5TH AVE APT 4B');
  assert.equal(result.value.address.street2, undefined);
  const apart = parseAddress({ ...folded, address: { ...folded.address, streetAddress: '350 5TH AVE', secondaryAddress: 'APT 4B' } }, withUnit);
  assert.equal(apart.ok && apart.value.address.street2, 'APT 4B');
  const unseen = parseAddress({ ...folded, address: { ...folded.address, streetAddress: '350 5TH AVE' } }, withUnit);
  assert.equal(unseen.ok && unseen.value.address.street2, 'Apartment 4B');
});

test('error envelopes map to our codes by what they name', () => {
  assert.equal(uspsFailure(400, fixture('error-address.json'), 'the label purchase').code, 'address_invalid');
  assert.equal(uspsFailure(400, fixture('error-mail-class.json'), 'the label purchase').code, 'service_unavailable');
  assert.equal(uspsFailure(400, { error: { message: 'Bad Request', errors: [{ detail: 'Weight must be 70 pounds or less.', source: { parameter: 'packageDescription.weight' } }] } }, 'x').code, 'parcel_too_large');
  assert.equal(uspsFailure(400, { error: { message: 'Bad Request', errors: [{ detail: 'Something else' }] } }, 'x').code, 'carrier_error');
  assert.equal(uspsFailure(400, 'not json', 'x').code, 'carrier_error');
  assert.equal(uspsFailure(500, undefined, 'x').code, 'carrier_unavailable');
  const auth = uspsFailure(401, fixture('oauth-error.json'), 'the rate search');
  assert.equal(auth.code, 'carrier_unavailable');
  assert.match(auth.detail, /invalid_client: Client authentication failed/);
  assert.match(uspsFailure(429, undefined, 'x', '30').detail, /retry after 30 s/);
});

test('the token answer is read with expires_in as a string too; an OAuth error is carrier_unavailable', () => {
  assert.deepEqual(parseToken(200, fixture('token.json')), { ok: true, value: { accessToken: 'eyJraWQiOiJ0ZXN0In0.fixture', expiresIn: 28799 } });
  const refused = parseToken(401, fixture('oauth-error.json'));
  assert.equal(refused.ok ? null : refused.error.code, 'carrier_unavailable');
  assert.equal(parseToken(200, { token_type: 'Bearer' }).ok, false);
});
