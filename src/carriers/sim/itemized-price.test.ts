import { test } from 'node:test';
import assert from 'node:assert/strict';
import { itemizedPriceFor, priceFor } from './pricing.ts';
import { simTables } from './tables.ts';

const ups = simTables.find((t) => t.id === 'ups')!;
const ground = ups.services.find((s) => s.code === '03')!;
const zone7 = { label: '7', index: 7 };

test('itemized: UPS Ground, 3 lb, zone 7, to a home is 1371 transport, 650 residential and 556 fuel, the totals unchanged', () => {
  // The figures of rating-math.test.ts: account transport 1828 × 0.75 = 1371; fuel 27.50% of 1371 + 650.
  const p = { parcel: { weightLb: 3 }, billableLb: 3, zone: zone7, residential: true, toZip: '90012' };
  const itemized = itemizedPriceFor(ups, ground, p, ups.prices.accountDiscount)!;
  assert.deepEqual(itemized.surcharges, [
    { type: 'fuel', amountCents: 556 },
    { type: 'residential', amountCents: 650 },
  ]);
  assert.equal(itemized.amountCents - 556 - 650, 1371);
  assert.deepEqual(priceFor(ups, ground, p, ups.prices.accountDiscount), { amountCents: itemized.amountCents, listAmountCents: itemized.listAmountCents });
});

test('itemized: a package past the large-package limits shows oversize, not additional handling', () => {
  const parcel = { weightLb: 30, dimensionsIn: { length: 100, width: 20, height: 10 } };
  const itemized = itemizedPriceFor(ups, ground, { parcel, billableLb: 90, zone: zone7, residential: false, toZip: '90012' }, ups.prices.accountDiscount)!;
  assert.deepEqual(itemized.surcharges.map((s) => s.type), ['fuel', 'oversize']);
  assert.ok(itemized.surcharges.reduce((sum, s) => sum + s.amountCents, 0) < itemized.amountCents);
});
