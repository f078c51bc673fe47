import { test } from 'node:test';
import assert from 'node:assert/strict';
import { billableWeightLb } from './billable-weight.ts';
import { deliveryDate } from './calendar.ts';
import { priceFor } from './pricing.ts';
import { simTables } from './tables.ts';
import { uspsZoneIndex, zoneFor } from './zones.ts';

const ups = simTables.find((t) => t.id === 'ups')!;
const usps = simTables.find((t) => t.id === 'usps')!;

test('billable weight: UPS divides the cube by 139 and rounds up', () => {
  // 10 × 8 × 4 = 320 in³; 320 / 139 = 2.30 → 3 lb, more than the 2 lb it weighs.
  assert.equal(billableWeightLb({ weightLb: 2, dimensionsIn: { length: 10, width: 8, height: 4 } }, ups.dim), 3);
  // 1.2 lb with no dimensions: any fraction of a pound is a pound.
  assert.equal(billableWeightLb({ weightLb: 1.2 }, ups.dim), 2);
  // Sides round to the nearest inch first: 10.5 → 11, 7.49 → 7, 4 → 4: 308 in³ → 2.22 → 3 lb.
  assert.equal(billableWeightLb({ weightLb: 1, dimensionsIn: { length: 10.5, width: 7.49, height: 4 } }, ups.dim), 3);
  // Heavy and small: the actual weight wins.
  assert.equal(billableWeightLb({ weightLb: 30, dimensionsIn: { length: 10, width: 8, height: 4 } }, ups.dim), 30);
});

test('billable weight: USPS counts the cube only above one cubic foot, at 166', () => {
  // 320 in³ is under 1,728: the actual 2 lb stands.
  assert.equal(billableWeightLb({ weightLb: 2, dimensionsIn: { length: 10, width: 8, height: 4 } }, usps.dim), 2);
  // 12 × 12 × 13 = 1,872 in³ > 1,728; 1,872 / 166 = 11.28 → 12 lb.
  assert.equal(billableWeightLb({ weightLb: 2, dimensionsIn: { length: 12, width: 12, height: 13 } }, usps.dim), 12);
  // Exactly 12 × 12 × 12 = 1,728 is not above the line.
  assert.equal(billableWeightLb({ weightLb: 2, dimensionsIn: { length: 12, width: 12, height: 12 } }, usps.dim), 2);
});

test('USPS zone bands by miles', () => {
  const cases: [number, number][] = [[0, 1], [50, 1], [51, 2], [150, 2], [151, 3], [300, 3], [600, 4], [1000, 5], [1400, 6], [1800, 7], [1801, 8], [3000, 8]];
  for (const [miles, zone] of cases) assert.equal(uspsZoneIndex(miles), zone, `${miles} mi`);
});

test('zones between real ZIPs', () => {
  // Within one ZIP3 (941 → 941): USPS zone 1; UPS and FedEx have no zone 1.
  assert.deepEqual(zoneFor('usps', '94105', '94107'), { label: '01', index: 1 });
  assert.deepEqual(zoneFor('ups', '94105', '94107'), { label: '2', index: 2 });
  // San Francisco → Los Angeles, about 350 miles: zone 4.
  assert.equal(zoneFor('usps', '94105', '90012')?.label, '04');
  // Austin → San Francisco, about 1,500 miles: zone 7.
  assert.equal(zoneFor('usps', '78701', '94105')?.label, '07');
  // San Francisco → New York, about 2,570 miles: zone 8.
  assert.equal(zoneFor('fedex', '94105', '10001')?.label, '8');
  // Offshore: Hawaii and Alaska are UPS 44, Puerto Rico 45; Palau (a Freely Associated State) is USPS zone 9.
  assert.equal(zoneFor('ups', '94105', '96813')?.label, '44');
  assert.equal(zoneFor('ups', '10001', '00901')?.label, '45');
  assert.equal(zoneFor('usps', '94105', '96813')?.label, '08');
  assert.equal(zoneFor('usps', '94105', '96940')?.label, '09');
  // Honolulu to Honolulu is local, not offshore.
  assert.equal(zoneFor('usps', '96813', '96814')?.label, '01');
  assert.equal(zoneFor('usps', '94105', '99999'), undefined);
});

test('price: UPS Ground, 3 lb, zone 7, to a home', () => {
  const ground = ups.services.find((s) => s.code === '03')!;
  // UPS 2026 daily rates, Ground 3 lb zone 7: $18.28. Account: 1828 × 0.75 = 1371. Residential $6.50, at list in
  // both; Ground fuel 27.50% (week of May 25, 2026) on both: account 1371 + 650 = 2021, + 556 fuel = 2577; list
  // 1828 + 650 = 2478, + 681 fuel = 3159.
  assert.deepEqual(priceFor(ups, ground, { parcel: { weightLb: 3 }, billableLb: 3, zone: { label: '7', index: 7 }, residential: true, toZip: '90012' }, ups.prices.accountDiscount), { amountCents: 2577, listAmountCents: 3159 });
  // To a business: no residential surcharge; fuel on transport alone (1371 + 377, 1828 + 503).
  assert.deepEqual(priceFor(ups, ground, { parcel: { weightLb: 3 }, billableLb: 3, zone: { label: '7', index: 7 }, residential: false, toZip: '90012' }, ups.prices.accountDiscount), { amountCents: 1748, listAmountCents: 2331 });
});

test('price: an account discount set by the operator replaces the table default off transport; surcharges stay at list', () => {
  const ground = ups.services.find((s) => s.code === '03')!;
  // $18.28 transport at 40% off is 1097; the $6.50 residential surcharge is not discounted; 27.50% fuel on the 1747.
  assert.deepEqual(priceFor(ups, ground, { parcel: { weightLb: 3 }, billableLb: 3, zone: { label: '7', index: 7 }, residential: true, toZip: '90012' }, 0.4), { amountCents: 1747 + 480, listAmountCents: 3159 });
});

test('price: USPS Priority Mail, 1 lb, zone 1, is the Notice 123 retail price, and the account pays the commercial one, with no fuel or residential surcharge', () => {
  const priority = usps.services.find((s) => s.code === 'PRIORITY_MAIL')!;
  // Notice 123, 1 lb, zone 1: retail $11.00, commercial $9.04.
  assert.deepEqual(priceFor(usps, priority, { parcel: { weightLb: 1 }, billableLb: 1, zone: { label: '01', index: 1 }, residential: true, toZip: '90012' }, usps.prices.accountDiscount), {
    amountCents: 904,
    listAmountCents: 1100,
  });
});

test('delivery dates skip weekends', () => {
  const sunday = new Date('2026-11-22T15:00:00Z');
  const friday = new Date('2026-11-27T15:00:00Z');
  assert.equal(deliveryDate(sunday, 1), '2026-11-24', 'shipped Monday, one day: Tuesday');
  assert.equal(deliveryDate(friday, 1), '2026-11-30', 'Friday plus one business day is Monday');
  assert.equal(deliveryDate(friday, 5), '2026-12-04');
  assert.equal(deliveryDate(new Date('2026-11-25T10:00:00Z'), 0), '2026-11-25');
});
