import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { ParcelSpec } from '../../carrier.ts';
import { priceUspsInternational } from './quote.ts';
import type { IntlPrice } from './types.ts';

const to = (country: string) => ({ country, residential: true });

function price(country: string, parcel: ParcelSpec, service: string): IntlPrice {
  const answer = priceUspsInternational({ to: to(country), parcel, services: [service] });
  assert.ok(answer.ok, answer.ok ? '' : answer.error.detail);
  return answer.value[0]!;
}

function refusal(country: string, parcel: ParcelSpec, services?: string[]) {
  const answer = priceUspsInternational({ to: to(country), parcel, services });
  assert.ok(!answer.ok, 'priced where it should refuse');
  return answer.error;
}

/** Notice 123 (October 5, 2025) retail cells: [country, price group, lb, cents]. */
type RetailCell = [string, string, number, number];

function assertRetail(service: string, cells: readonly RetailCell[]) {
  for (const [country, group, lb, cents] of cells) {
    const p = price(country, { weightLb: lb }, service);
    assert.equal(p.zone, group, country);
    assert.equal(p.listAmountCents, cents, `${country} ${lb} lb`);
    // No commercial price is loaded: the account pays retail; USPS adds no surcharge.
    assert.equal(p.amountCents, cents, `${country} ${lb} lb`);
    assert.deepEqual(p.surcharges, []);
  }
}

test('Priority Mail International equals Notice 123 retail by the country price group', () => {
  // "Priority Mail International — Retail", every pound to 70 lb; each country's own limit is in the refusals below.
  assertRetail('PRIORITY_MAIL_INTERNATIONAL', [
    ['CA', '1', 1, 4295],
    ['CA', '1', 20, 13315],
    ['MX', '2', 5, 7540],
    ['NL', '4', 11, 11735],
    ['IN', '6', 9, 11075],
    ['AU', '12', 4, 9145],
    ['BR', '13', 6, 9695],
    ['FR', '15', 3, 7540],
    ['DE', '16', 10, 11820],
    ['JP', '17', 2, 6555],
    ['GB', '20', 1, 6760],
    ['GB', '20', 7, 10045],
    ['CA', '1', 21, 13605],
    ['AU', '12', 30, 33290],
    ['IN', '6', 44, 29360],
    ['GB', '20', 44, 27380],
    ['CA', '1', 66, 30595],
    ['GB', '20', 66, 37995],
    ['MX', '2', 70, 32785],
    ['DE', '16', 70, 35710],
  ]);
  // "Weight Not Over": 1.1 lb is priced as 2 lb, 20.2 lb as 21 lb; the size does not change the price.
  const p = price('GB', { weightLb: 1.1, dimensionsIn: { length: 20, width: 16, height: 12 } }, 'PRIORITY_MAIL_INTERNATIONAL');
  assert.equal(p.billableWeightLb, 2);
  assert.equal(p.listAmountCents, 7300);
  const heavier = price('CA', { weightLb: 20.2 }, 'PRIORITY_MAIL_INTERNATIONAL');
  assert.equal(heavier.billableWeightLb, 21);
  assert.equal(heavier.listAmountCents, 13605);
});

test('First-Class Package International Service goes by its ounce steps, 4 lb at most', () => {
  const cells: [string, number, number][] = [
    ['GB', 0.3, 2100], // group 20, up to 8 oz
    ['GB', 1, 3195], // 9–32 oz
    ['GB', 4, 6425], // 49–64 oz
    ['DE', 2.5, 4860], // group 16, 33–48 oz
    ['NL', 3, 5440], // group 9, 33–48 oz
    ['CA', 1, 2600], // group 1, 9–32 oz
    ['IN', 0.5, 1935], // group 10, up to 8 oz
  ];
  for (const [country, lb, cents] of cells) {
    assert.equal(price(country, { weightLb: lb }, 'FIRST-CLASS_PACKAGE_INTERNATIONAL_SERVICE').listAmountCents, cents, `${country} ${lb} lb`);
  }
  const heavy = refusal('GB', { weightLb: 4.2 }, ['FIRST-CLASS_PACKAGE_INTERNATIONAL_SERVICE']);
  assert.equal(heavy.code, 'parcel_too_large');
  assert.match(heavy.detail, /at most 4 lb/);
});

test('USPS international refusals: the country limit, the 70 lb limit, services USPS does not offer', () => {
  // India takes Priority Mail International up to 44 lb (Notice 123's country table), though group 6 goes on to 70 lb.
  const india = refusal('IN', { weightLb: 45 }, ['PRIORITY_MAIL_INTERNATIONAL']);
  assert.equal(india.code, 'parcel_too_large');
  assert.match(india.detail, /at most 44 lb to IN/);
  // Canada and the United Kingdom up to 66 lb, where their groups' columns end.
  assert.match(refusal('CA', { weightLb: 67 }, ['PRIORITY_MAIL_INTERNATIONAL']).detail, /at most 66 lb to CA/);
  assert.match(refusal('GB', { weightLb: 66.5 }, ['PRIORITY_MAIL_INTERNATIONAL']).detail, /at most 66 lb to GB/);
  // Germany takes 70 lb, the table's last row; nothing takes more.
  const heavy = refusal('DE', { weightLb: 71 }, ['PRIORITY_MAIL_INTERNATIONAL']);
  assert.equal(heavy.code, 'parcel_too_large');
  assert.match(heavy.detail, /at most 70 lb to DE/);
  assert.equal(refusal('DE', { weightLb: 70.1 }, ['PRIORITY_MAIL_INTERNATIONAL']).code, 'parcel_too_large');
  // Bolivia: Priority Mail International n/a, FCPIS offered.
  assert.match(refusal('BO', { weightLb: 1 }, ['PRIORITY_MAIL_INTERNATIONAL']).detail, /does not offer it to BO/);
  assert.equal(price('BO', { weightLb: 1 }, 'FIRST-CLASS_PACKAGE_INTERNATIONAL_SERVICE').zone, '6');
  const somalia = refusal('SO', { weightLb: 1 });
  assert.equal(somalia.code, 'not_serviced');
});

test('Priority Mail Express International equals Notice 123 retail by its own country price group', () => {
  // "Priority Mail Express International — Retail", 0.5 lb and every pound to 70 lb.
  assertRetail('PRIORITY_MAIL_EXPRESS_INTERNATIONAL', [
    ['CA', '1', 0.5, 6160],
    ['CA', '1', 20, 19825],
    ['MX', '2', 7, 11500],
    ['NL', '4', 12, 14550],
    ['IN', '6', 3, 9120],
    ['AU', '12', 6, 14120],
    ['BR', '13', 1, 8390],
    ['FR', '15', 15, 15300],
    ['DE', '16', 10, 14435],
    ['JP', '17', 4, 10440],
    ['GB', '20', 0.5, 8745],
    ['GB', '20', 19, 18030],
    ['BO', '11', 2, 9255],
    ['CA', '1', 21, 20380],
    ['DE', '16', 30, 23095],
    ['GB', '20', 44, 29940],
    ['CA', '1', 66, 46315],
    ['IN', '6', 70, 49140],
    ['MX', '2', 70, 37395],
  ]);
  // "Weight Not Over": 0.6 lb is the 1 lb row, 1.2 lb the 2 lb row.
  assert.equal(price('GB', { weightLb: 0.6 }, 'PRIORITY_MAIL_EXPRESS_INTERNATIONAL').listAmountCents, 9025);
  assert.equal(price('GB', { weightLb: 1.2 }, 'PRIORITY_MAIL_EXPRESS_INTERNATIONAL').billableWeightLb, 2);
});

test('Priority Mail Express International refusals: its own country limits and where USPS does not offer it', () => {
  // Taiwan takes it up to 33 lb (44 for Priority Mail International); Namibia up to 22 lb.
  const taiwan = refusal('TW', { weightLb: 34 }, ['PRIORITY_MAIL_EXPRESS_INTERNATIONAL']);
  assert.equal(taiwan.code, 'parcel_too_large');
  assert.match(taiwan.detail, /at most 33 lb to TW/);
  assert.match(refusal('NA', { weightLb: 23 }, ['PRIORITY_MAIL_EXPRESS_INTERNATIONAL']).detail, /at most 22 lb to NA/);
  // Germany takes it up to 66 lb (70 lb for Priority Mail International); nothing takes more than 70 lb.
  assert.match(refusal('DE', { weightLb: 67 }, ['PRIORITY_MAIL_EXPRESS_INTERNATIONAL']).detail, /at most 66 lb to DE/);
  const heavy = refusal('IN', { weightLb: 71 }, ['PRIORITY_MAIL_EXPRESS_INTERNATIONAL']);
  assert.equal(heavy.code, 'parcel_too_large');
  assert.match(heavy.detail, /at most 70 lb to IN/);
  // Afghanistan: Priority Mail Express International n/a, Priority Mail International offered.
  assert.match(refusal('AF', { weightLb: 1 }, ['PRIORITY_MAIL_EXPRESS_INTERNATIONAL']).detail, /does not offer it to AF/);
  assert.equal(price('AF', { weightLb: 1 }, 'PRIORITY_MAIL_INTERNATIONAL').zone, '7');
});
