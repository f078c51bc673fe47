import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { buildLocationsQuery, parseLocations } from './locations.ts';
import { holdRefusal, holdToAddress } from './hold.ts';
import type { ShipmentOptions } from '../options.ts';

const fixture = (name: string): unknown => JSON.parse(readFileSync(new URL(`./fixtures/${name}`, import.meta.url), 'utf8'));

test('the search asks for Post Offices that hold parcels around the ZIP Code, within 20 miles, at most the limit', () => {
  assert.deepEqual(buildLocationsQuery({ zip: '94105', limit: 10 }), { ZIPCode: '94105', radius: '20', limit: '10', postOfficeType: 'POST_OFFICE', pickupService: 'HOLD_FOR_PICKUP' });
  // The spec's limit is 1 to 100.
  assert.equal(buildLocationsQuery({ zip: '94105-1804', limit: 500 }).limit, '100');
  assert.equal(buildLocationsQuery({ zip: '94105-1804', limit: 500 }).ZIPCode, '94105');
});

test('the answer becomes the open Post Offices that hold parcels, nearest first, each with its facilityID as the id', () => {
  const found = parseLocations(fixture('post-office-locations.json'));
  assert.ok(found.ok);
  assert.deepEqual(found.value, [
    {
      id: '1390271',
      name: 'RINCON FINANCE',
      kind: 'Post Office',
      address: { street1: '180 STEUART ST', city: 'SAN FRANCISCO', state: 'CA', zip: '94105-1241', country: 'US' },
      distanceMiles: 0.3,
    },
    {
      id: '1390274',
      name: 'CIVIC CENTER',
      kind: 'Post Office',
      address: { street1: '101 HYDE ST', street2: 'STE 100', city: 'SAN FRANCISCO', state: 'CA', zip: '94102', country: 'US' },
      distanceMiles: 1.9,
    },
  ]);
});

test('an answer without locations is none found, and a location without a distance has none', () => {
  assert.deepEqual(parseLocations({ locations: [] }), { ok: true, value: [] });
  assert.deepEqual(parseLocations({}), { ok: true, value: [] });
  const one = parseLocations({ locations: [{ facilityID: '1', facilityAddress: { streetAddress: '1 A ST', city: 'X', state: 'CA', ZIPCode: '94105' } }] });
  assert.deepEqual(one.ok && one.value.map((l) => [l.name, l.distanceMiles]), [['Post Office 1', null]]);
});

const recipient = { name: 'Ada Lovelace', street1: '415 Mission St', city: 'San Francisco', state: 'CA', zip: '94105', email: 'ada@example.com', phone: '415-555-0100' };
const sender = { name: 'Grace Hopper', street1: '1100 Congress Ave', city: 'Austin', state: 'TX', zip: '78701', email: 'ship@example.com', phone: '512 555 0100' };
const held: ShipmentOptions = { hold_for_pickup: true, hold_location: { carrier: 'usps', id: '1390271' } };

test('a hold is toAddress.holdForPickup with the facilityId; nothing without one', () => {
  assert.deepEqual(holdToAddress(held), { holdForPickup: true, facilityId: '1390271' });
  assert.deepEqual(holdToAddress({ signature: 'adult' }), {});
  assert.equal(holdRefusal({ options: held, from: sender, to: recipient }), null);
  assert.equal(holdRefusal({ options: { signature: 'adult' }, from: { ...sender, email: undefined }, to: recipient }), null);
});

test('a hold without the emails, phones and sender names the spec requires is refused, naming each missing field', () => {
  const refused = holdRefusal({ options: held, from: { ...sender, name: 'Warehouse', phone: undefined }, to: { ...recipient, email: undefined, phone: '12' } });
  assert.equal(refused?.ok === false && refused.error.code, 'address_invalid');
  assert.match(refused?.ok === false ? refused.error.detail : '', /missing: ship_to\.email, ship_to\.phone \(one USPS takes: 6 to 15 digits\), ship_from\.name \(a first and a last name\), ship_from\.phone$/);
  const returned = holdRefusal({ options: held, from: sender, to: recipient, isReturn: true });
  assert.equal(returned?.ok === false && returned.error.code, 'option_not_supported');
  const long = holdRefusal({ options: { ...held, hold_location: { carrier: 'usps', id: '12345678' } }, from: sender, to: recipient });
  assert.match(long?.ok === false ? long.error.detail : '', /not a USPS Post Office id/);
});
