import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { ParcelSpec } from '../../carrier.ts';
import { priceFedexInternational } from './quote.ts';
import type { IntlDestination, IntlPrice } from './types.ts';

const business = (country: string, postalCode?: string): IntlDestination => ({ country, postalCode, residential: false });
const home = (country: string, postalCode?: string): IntlDestination => ({ country, postalCode, residential: true });

function price(to: IntlDestination, parcel: ParcelSpec, service: string, discount?: number): IntlPrice {
  const answer = priceFedexInternational({ to, parcel, services: [service] }, discount);
  assert.ok(answer.ok, answer.ok ? '' : answer.error.detail);
  assert.equal(answer.value.length, 1);
  return answer.value[0]!;
}

const listCents = (to: IntlDestination, lb: number, service: string) => price(to, { weightLb: lb }, service).listAmountCents;

test('FedEx export list prices equal the published cells, by the zone chart of each country', () => {
  // "International package rates to zone X: U.S. export", FedEx Standard List Rates of January 5, 2026 (updated
  // June 1, 2026): [destination, zone, weight, service, cents].
  const cells: [IntlDestination, string, number, string, number][] = [
    [business('GB'), 'D', 5, 'FEDEX_INTERNATIONAL_PRIORITY', 26442],
    [business('GB'), 'D', 5, 'INTERNATIONAL_ECONOMY', 23836],
    [business('GB'), 'D', 5, 'FEDEX_INTERNATIONAL_CONNECT_PLUS', 20549],
    [business('DE'), 'D', 44, 'FEDEX_INTERNATIONAL_PRIORITY', 99670],
    [business('FR'), 'D', 40, 'INTERNATIONAL_ECONOMY', 76778],
    [business('NL'), 'D', 44, 'FEDEX_INTERNATIONAL_CONNECT_PLUS', 72590],
    [business('JP'), 'G', 20, 'INTERNATIONAL_ECONOMY', 42424],
    [business('AU'), 'J', 1, 'FEDEX_INTERNATIONAL_PRIORITY', 17005],
    [business('AU'), 'J', 1, 'FEDEX_INTERNATIONAL_CONNECT_PLUS', 14514],
    [business('AU'), 'J', 66, 'INTERNATIONAL_ECONOMY', 166537],
    [business('BR'), 'L', 50, 'FEDEX_INTERNATIONAL_CONNECT_PLUS', 143734],
    [business('IN'), 'O', 70, 'FEDEX_INTERNATIONAL_PRIORITY', 193806],
    [business('IN'), 'O', 100, 'FEDEX_INTERNATIONAL_CONNECT_PLUS', 173500],
    [business('MX'), 'C', 1, 'FEDEX_INTERNATIONAL_PRIORITY', 12972],
    // Canada goes by postal code: Toronto is in zone A, Halifax in zone B.
    [business('CA', 'M5V 3L9'), 'A', 1, 'FEDEX_INTERNATIONAL_PRIORITY', 12618],
    [business('CA', 'B3H 1Y4'), 'B', 2, 'INTERNATIONAL_ECONOMY', 14023],
  ];
  for (const [to, zone, lb, service, cents] of cells) {
    const p = price(to, { weightLb: lb }, service);
    const where = `${service} to ${to.country} ${lb} lb`;
    assert.equal(p.zone, zone, where);
    // No fuel is loaded for Express export; over 55 lb actual weight FedEx adds $40 of additional handling.
    const heavy = lb > 55 ? [{ type: 'additional_handling', amountCents: 4000, listAmountCents: 4000 }] : [];
    assert.deepEqual(p.surcharges, heavy, where);
    assert.equal(p.listAmountCents, cents + (lb > 55 ? 4000 : 0), where);
  }
});

test('FedEx export: the account pays the list transport less its discount; every fraction of a pound is a pound', () => {
  const p = price(business('GB'), { weightLb: 4.2 }, 'FEDEX_INTERNATIONAL_PRIORITY');
  assert.equal(p.billableWeightLb, 5);
  assert.equal(p.listAmountCents, 26442);
  assert.equal(p.amountCents, Math.round(26442 * 0.75));
  assert.equal(price(business('GB'), { weightLb: 4.2 }, 'FEDEX_INTERNATIONAL_PRIORITY', 0.4).amountCents, Math.round(26442 * 0.6));
});

test('FedEx export: dimensional weight at 139 cubic inches a pound', () => {
  // 20 × 20 × 20 = 8,000 in³ / 139 = 57.55 → 58 lb, no size surcharge (under 48 in and 10,368 in³).
  const p = price(business('NL'), { weightLb: 1, dimensionsIn: { length: 20, width: 20, height: 20 } }, 'FEDEX_INTERNATIONAL_CONNECT_PLUS');
  assert.equal(p.billableWeightLb, 58);
  assert.equal(p.listAmountCents, 87024);
});

test('FedEx export: additional handling by size bills at least 40 lb; by weight over 55 lb; oversize replaces it', () => {
  // 50 in long: $29.50, and 5,000 in³ / 139 = 36 lb is raised to 40 lb (zone D, 40 lb: $910.96).
  const long = price(business('FR'), { weightLb: 5, dimensionsIn: { length: 50, width: 10, height: 10 } }, 'FEDEX_INTERNATIONAL_PRIORITY');
  assert.equal(long.billableWeightLb, 40);
  assert.deepEqual(long.surcharges, [{ type: 'additional_handling', amountCents: 2950, listAmountCents: 2950 }]);
  assert.equal(long.listAmountCents, 91096 + 2950);
  // 58 lb actual: $40 by weight (zone D, 58 lb: $1,222.00).
  const heavy = price(business('FR'), { weightLb: 58 }, 'FEDEX_INTERNATIONAL_PRIORITY');
  assert.equal(heavy.listAmountCents, 122200 + 4000);
  // 120 lb: priced a pound at a time from the Multiweight table ($18.04 a pound to zone D), oversize over 110 lb.
  const heavier = price(business('DE'), { weightLb: 119.5 }, 'FEDEX_INTERNATIONAL_PRIORITY');
  assert.equal(heavier.billableWeightLb, 120);
  assert.deepEqual(heavier.surcharges, [{ type: 'oversize', amountCents: 20800, listAmountCents: 20800 }]);
  assert.equal(heavier.listAmountCents, 1804 * 120 + 20800);
});

test('FedEx export: residential delivery only to Canada, and never for International Connect Plus', () => {
  const toronto = price(home('CA', 'M5V3L9'), { weightLb: 1 }, 'FEDEX_INTERNATIONAL_PRIORITY');
  assert.deepEqual(toronto.surcharges, [{ type: 'residential', amountCents: 695, listAmountCents: 695 }]);
  assert.equal(toronto.listAmountCents, 12618 + 695);
  assert.deepEqual(price(home('CA', 'M5V3L9'), { weightLb: 1 }, 'FEDEX_INTERNATIONAL_CONNECT_PLUS').surcharges, []);
  assert.deepEqual(price(home('GB'), { weightLb: 1 }, 'FEDEX_INTERNATIONAL_PRIORITY').surcharges, []);
});

test('FedEx International Ground to Canada: zones 51 and 54 by postal code, Ground fuel, Northern Canada surcharge', () => {
  // Toronto is zone 51 for Ground: $28.54 at 1 lb; residential $6.45; fuel 27% on transport and residential.
  const toronto = price(home('CA', 'M5V 3L9'), { weightLb: 1 }, 'FEDEX_GROUND');
  assert.equal(toronto.zone, '51');
  assert.deepEqual(toronto.surcharges, [
    { type: 'residential', amountCents: 645, listAmountCents: 645 },
    { type: 'fuel', amountCents: Math.round((Math.round(2854 * 0.75) + 645) * 0.27), listAmountCents: Math.round((2854 + 645) * 0.27) },
  ]);
  assert.equal(toronto.listAmountCents, 2854 + 645 + Math.round(3499 * 0.27));
  assert.equal(toronto.amountCents, 2141 + 645 + Math.round((2141 + 645) * 0.27));
  // Yellowknife (X1A) is zone 54 and draws the Northern Canada surcharge, $110 up to 70 lb, $175 above.
  const north = price(business('CA', 'X1A 2L9'), { weightLb: 10 }, 'FEDEX_GROUND');
  assert.equal(north.zone, '54');
  assert.equal(north.listAmountCents, 6163 + 11000 + Math.round(6163 * 0.27));
  const northHeavy = price(business('CA', 'X1A 2L9'), { weightLb: 71 }, 'FEDEX_GROUND');
  assert.equal(northHeavy.listAmountCents, 18626 + 17500 + 4000 + Math.round(18626 * 0.27));
  // Quebec City (G1R) is zone 51 for Ground but zone B for the express services.
  assert.equal(listCents(business('CA', 'G1R 4P5'), 1, 'FEDEX_GROUND') > 0, true);
  assert.equal(price(business('CA', 'G1R 4P5'), { weightLb: 1 }, 'FEDEX_GROUND').zone, '51');
  assert.equal(price(business('CA', 'G1R 4P5'), { weightLb: 1 }, 'FEDEX_INTERNATIONAL_PRIORITY').zone, 'B');
});

test('FedEx international refusals say which service and why', () => {
  const refused = (to: IntlDestination, parcel: ParcelSpec, services?: string[]) => {
    const answer = priceFedexInternational({ to, parcel, services });
    assert.ok(!answer.ok, 'priced where it should refuse');
    return answer.error;
  };
  const cuba = refused(business('CU'), { weightLb: 1 });
  assert.equal(cuba.code, 'not_serviced');
  assert.match(cuba.detail, /FedEx International Priority: FedEx's U\.S\. export zone chart has no zone for CU/);
  assert.match(refused(business('CA'), { weightLb: 1 }).detail, /zones Canada by postal code/);
  assert.match(refused(business('GB'), { weightLb: 1 }, ['FEDEX_GROUND']).detail, /International Ground goes to Canada only/);
  assert.match(refused(business('UA'), { weightLb: 1 }, ['INTERNATIONAL_ECONOMY']).detail, /does not offer this service to UA/);
  const heavy = refused(business('GB'), { weightLb: 151 });
  assert.equal(heavy.code, 'parcel_too_large');
  assert.match(heavy.detail, /at most 150 lb/);
  // Every service answers for a destination it serves, Ground excepted outside Canada.
  const all = priceFedexInternational({ to: business('DE'), parcel: { weightLb: 3 } });
  assert.ok(all.ok);
  assert.deepEqual(all.value.map((p) => p.service), ['FEDEX_INTERNATIONAL_PRIORITY', 'INTERNATIONAL_ECONOMY', 'FEDEX_INTERNATIONAL_CONNECT_PLUS']);
});
