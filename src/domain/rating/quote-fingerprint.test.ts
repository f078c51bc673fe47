import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
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
    quoteFingerprint(from, to, { ...parcel, insurance: { amount: { amount: '450.00', currency: 'USD' } } }, null),
    quoteFingerprint(from, to, { ...parcel, insurance: { amount: { amount: '450.01', currency: 'USD' } } }, null),
  ];
  assert.equal(new Set([base, ...changes]).size, changes.length + 1);
});

test("a box's insurance is in the print by its value, whichever way the amount is written, on any box", () => {
  const insured = (amount: string) => ({ ...parcel, insurance: { amount: { amount, currency: 'USD' as const } } });
  assert.equal(quoteFingerprint(from, to, insured('450'), null), quoteFingerprint(from, to, insured('450.00'), null));
  const box2 = (amount?: string) => [{ parcel: amount ? insured(amount) : parcel }];
  const base = quoteFingerprint(from, to, parcel, null, null, box2());
  assert.notEqual(quoteFingerprint(from, to, parcel, null, null, box2('450.00')), base);
  assert.equal(quoteFingerprint(from, to, parcel, null, null, box2('450.0')), quoteFingerprint(from, to, parcel, null, null, box2('450.00')));
});

test('abroad, the countries and every field of the declaration are in the print; a domestic print is as it was', () => {
  // The print of this domestic shipment before declarations existed: rates quoted then stay buyable.
  assert.equal(quoteFingerprint(from, to, parcel, null), createHash('sha256').update(JSON.stringify([...parts(from), ...parts(to), 2, 'lb', null, null, null, null, null])).digest('hex'));
  const item = { description: 'Mug', quantity: 2, unit_value: { amount: '12.50', currency: 'USD' }, weight: { value: 14, unit: 'oz' as const }, hs_tariff_number: '691200', origin_country: 'US' };
  const customs = { contents_type: 'merchandise' as const, non_delivery: 'return' as const, signer: 'Grace Hopper', certify: true as const, items: [item] };
  const london = { street1: '10 DOWNING STREET', city: 'LONDON', zip: 'SW1A 2AA', country: 'GB' };
  const paris = { ...london, country: 'FR' };
  const base = quoteFingerprint(from, london, parcel, null, customs);
  const changes = [
    quoteFingerprint(from, paris, parcel, null, customs),
    quoteFingerprint(from, london, parcel, null, null),
    quoteFingerprint(from, to, parcel, null, customs),
    quoteFingerprint(from, london, parcel, null, { ...customs, incoterm: 'DDP' }),
    quoteFingerprint(from, london, parcel, null, { ...customs, invoice_number: 'INV-1' }),
    quoteFingerprint(from, london, parcel, null, { ...customs, items: [{ ...item, hs_tariff_number: '691110' }] }),
    quoteFingerprint(from, london, parcel, null, { ...customs, items: [{ ...item, unit_value: { amount: '12.50', currency: 'EUR' } }] }),
    quoteFingerprint(from, london, parcel, null, { ...customs, items: [item, item] }),
  ];
  assert.equal(new Set([base, ...changes]).size, changes.length + 1);
  const reordered = { items: [{ ...item }], certify: true as const, signer: 'Grace Hopper', non_delivery: 'return' as const, contents_type: 'merchandise' as const };
  assert.equal(quoteFingerprint(from, london, parcel, null, reordered), base);
});

function parts(a: Record<string, unknown>): unknown[] {
  return [a.name, a.company, a.street1, a.street2, a.city, a.state, a.zip, a.residential];
}
