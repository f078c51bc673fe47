import { test } from 'node:test';
import assert from 'node:assert/strict';
import { quoteFingerprint } from './rating.ts';

const from = { street1: '1100 CONGRESS AVE', city: 'AUSTIN', state: 'TX', zip: '78701', country: 'US' as const };
const to = { name: 'ADA', street1: '415 MISSION ST', city: 'SAN FRANCISCO', state: 'CA', zip: '94105', country: 'US' as const };
const parcel = { weight: { value: 2, unit: 'lb' as const } };

test('the same shipment gives the same print, whatever the order of its fields', () => {
  const reordered = { zip: '94105', city: 'SAN FRANCISCO', country: 'US' as const, state: 'CA', street1: '415 MISSION ST', name: 'ADA' };
  assert.equal(quoteFingerprint(from, to, parcel, null), quoteFingerprint(from, reordered, { weight: { unit: 'lb', value: 2 } }, null));
});

test('any change to an address, the parcel or the package changes the print', () => {
  const base = quoteFingerprint(from, to, parcel, null);
  const changes = [
    quoteFingerprint(to, from, parcel, null),
    quoteFingerprint(from, { ...to, street2: 'APT 4' }, parcel, null),
    quoteFingerprint(from, { ...to, residential: false }, parcel, null),
    quoteFingerprint(from, to, { weight: { value: 3, unit: 'lb' } }, null),
    quoteFingerprint(from, to, { weight: { value: 2, unit: 'kg' } }, null),
    quoteFingerprint(from, to, { ...parcel, dimensions: { length: 1, width: 1, height: 1, unit: 'in' } }, null),
    quoteFingerprint(from, to, parcel, 'pkg_ups_pak'),
  ];
  assert.equal(new Set([base, ...changes]).size, changes.length + 1);
});
