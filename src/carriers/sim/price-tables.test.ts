import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Quote, RateRequest } from '../carrier.ts';
import type { Address } from '../../schemas/address.ts';
import { priceBasket, basketSources } from './prices/basket.ts';
import { priceTableViolations } from './prices/check.ts';
import { currentPriceLists, fedexPrices, upsPrices, uspsPrices } from './prices/current.ts';
import { deliveryAreaIndex } from './prices/delivery-areas.ts';
import { publishedCents, type PriceList } from './prices/types.ts';
import { SimulatedCarrier } from './simulator.ts';
import { simTables } from './tables.ts';

const simulator = (id: string) => new SimulatedCarrier(simTables.find((t) => t.id === id)!, { now: () => new Date('2026-11-23T15:00:00Z') }, { trackingSpeed: 1440 });
const ups = simulator('ups');
const fedex = simulator('fedex');
const usps = simulator('usps');
const shipDate = new Date('2026-11-23T15:00:00Z');
const from: Address = { company: 'Shipper', street1: '350 5th Ave', city: 'New York', state: 'NY', zip: '10001' };
/** ZIPs well inside each zone's distance band from New York 10001 (Philadelphia, Raleigh, Chicago, Los Angeles), by UPS and FedEx label and by USPS label. */
const philadelphia = { zip: '19103', city: 'Philadelphia', state: 'PA' };
const raleigh = { zip: '27601', city: 'Raleigh', state: 'NC' };
const chicago = { zip: '60601', city: 'Chicago', state: 'IL' };
const losAngeles = { zip: '90012', city: 'Los Angeles', state: 'CA' };
const toZip: Record<string, { zip: string; city: string; state: string }> = {
  '2': philadelphia, '4': raleigh, '5': chicago, '8': losAngeles, '02': philadelphia, '05': chicago, '08': losAngeles,
};
const business = (zone: string): Address => ({ company: 'Receiver', street1: '1 Main St', ...toZip[zone]!, residential: false });
const home = (zone: string): Address => ({ name: 'Pat Doe', street1: '1 Main St', ...toZip[zone]!, residential: true });

/** The fuel surcharges the UPS and FedEx price files load: the week of May 25, 2026, ground and air. */
const upsGroundFuel = 0.275;
const upsAirFuel = 0.3125;
const fedexGroundFuel = 0.27;
const fedexExpressFuel = 0.3075;
const withFuel = (cents: number, rate: number) => cents + Math.round(cents * rate);
const basketFuel: Record<string, number> = {
  '03': upsGroundFuel, '02': upsAirFuel, '01': upsAirFuel,
  FEDEX_GROUND: fedexGroundFuel, FEDEX_2_DAY: fedexExpressFuel, STANDARD_OVERNIGHT: fedexExpressFuel,
};

async function quote(to: Address, parcel: RateRequest['parcels'][number], service: string, carrier = fedex): Promise<Quote> {
  const answer = await carrier.rate({ from, to, parcels: [parcel], shipDate, services: [service] }, new AbortController().signal);
  assert.ok(answer.ok, answer.ok ? '' : answer.error.detail);
  assert.equal(answer.value.length, 1);
  return answer.value[0]!;
}

test('the basket covers ground, two-day and overnight at three weights and three zones per carrier, and names its sources', () => {
  for (const [carrier, services, zones] of [
    ['ups', ['03', '02', '01'], ['2', '4', '8']],
    ['fedex', ['FEDEX_GROUND', 'FEDEX_2_DAY', 'STANDARD_OVERNIGHT'], ['2', '4', '8']],
    ['usps', ['USPS_GROUND_ADVANTAGE', 'PRIORITY_MAIL', 'PRIORITY_MAIL_EXPRESS'], ['02', '05', '08']],
  ] as const) {
    const items = priceBasket.filter((b) => b.carrier === carrier);
    assert.deepEqual(new Set(items.map((b) => b.service)), new Set(services), carrier);
    assert.deepEqual(new Set(items.map((b) => b.lb)), new Set([1, 5, 20]), carrier);
    assert.deepEqual(new Set(items.map((b) => b.zone)), new Set(zones), carrier);
    assert.equal(items.length, 27, carrier);
  }
  assert.match(basketSources.ups!, /UPS 2026 daily rates.*December 22, 2025/);
  assert.match(basketSources.fedex!, /FedEx Standard List Rates.*January 5, 2026/);
  assert.match(basketSources.usps!, /Notice 123/);
});

test('the loaded tables hold the published basket prices, cell by cell', () => {
  for (const b of priceBasket) {
    const list = currentPriceLists.find((l) => l.carrier === b.carrier)!;
    assert.equal(publishedCents(list.services[b.service], b.zone, b.lb), b.cents, `${b.carrier} ${b.service} ${b.lb} lb zone ${b.zone}`);
  }
});

test('test-mode list prices equal the published basket to the cent, through rate()', async () => {
  const carriers = { ups, fedex, usps } as const;
  for (const b of priceBasket) {
    const carrier = carriers[b.carrier as keyof typeof carriers];
    const q = await quote(business(b.zone), { weightLb: b.lb }, b.service, carrier);
    const cell = `${b.carrier} ${b.service} ${b.lb} lb zone ${b.zone}`;
    assert.equal(q.zone, b.zone, cell);
    assert.equal(q.billableWeightLb, b.lb, cell);
    // To a business, with no surcharge: the list price is the published price plus the week's fuel (USPS has none).
    const fuel = b.carrier === 'usps' ? 0 : basketFuel[b.service]!;
    assert.equal(q.listAmountCents, withFuel(b.cents, fuel), cell);
    // UPS and FedEx accounts get a quarter off transport (our default model) and pay fuel on that; USPS accounts pay the
    // published commercial price (account-prices.test.ts checks those figures), or retail where none is loaded.
    const uspsAccount = publishedCents(uspsPrices.accountServices?.[b.service], b.zone, b.lb) ?? b.cents;
    assert.equal(q.amountCents, b.carrier === 'usps' ? uspsAccount : withFuel(Math.round(b.cents * 0.75), fuel), cell);
  }
});

test('USPS adds no residential surcharge, and prices zone 9 and the heaviest step from its table', async () => {
  const home = await quote({ name: 'Pat Doe', street1: '1 Main St', ...losAngeles, residential: true }, { weightLb: 70 }, 'PRIORITY_MAIL', usps);
  assert.equal(home.listAmountCents, 24540);
  assert.equal(publishedCents(uspsPrices.services.PRIORITY_MAIL, '09', 70), 48440);
  assert.equal(publishedCents(uspsPrices.services.USPS_GROUND_ADVANTAGE, '09', 70), publishedCents(uspsPrices.services.USPS_GROUND_ADVANTAGE, '08', 70));
});

test('residential delivery: $6.45 on FedEx Home Delivery, $6.95 on express services, at list in the account price too, and fuel on it', async () => {
  const homeDelivery = await quote(home('4'), { weightLb: 5 }, 'GROUND_HOME_DELIVERY');
  assert.equal(homeDelivery.listAmountCents, withFuel(1706 + 645, fedexGroundFuel));
  assert.equal(homeDelivery.amountCents, withFuel(Math.round(1706 * 0.75) + 645, fedexGroundFuel));
  const twoDay = await quote(home('8'), { weightLb: 20 }, 'FEDEX_2_DAY');
  assert.equal(twoDay.listAmountCents, withFuel(21778 + 695, fedexExpressFuel));
});

test('UPS residential surcharge: $6.50 on Ground, $7.00 on the air services, at list in the account price too', async () => {
  const ground = await quote(home('4'), { weightLb: 5 }, '03', ups);
  assert.equal(ground.listAmountCents, withFuel(1715 + 650, upsGroundFuel));
  assert.equal(ground.amountCents, withFuel(Math.round(1715 * 0.75) + 650, upsGroundFuel));
  const nextDay = await quote(home('8'), { weightLb: 20 }, '01', ups);
  assert.equal(nextDay.listAmountCents, withFuel(29892 + 700, upsAirFuel));
  const threeDay = await quote(home('2'), { weightLb: 1 }, '12', ups);
  assert.equal(threeDay.listAmountCents, withFuel(publishedCents(upsPrices.services['12'], '2', 1)! + 700, upsAirFuel));
});

test('UPS offshore: Hawaii is zone 44 of Ground, 2nd Day Air (224) and Next Day Air (124); 3 Day Select and Saver have no such zone, so are not quoted', async () => {
  const honolulu: Address = { company: 'Receiver', street1: '1 Main St', city: 'Honolulu', state: 'HI', zip: '96813', residential: false };
  const answer = await ups.rate({ from, to: honolulu, parcels: [{ weightLb: 1 }], shipDate }, new AbortController().signal);
  assert.ok(answer.ok, answer.ok ? '' : answer.error.detail);
  const byService = new Map(answer.value.map((q) => [q.service, q]));
  assert.deepEqual([...byService.keys()].sort(), ['01', '02', '03', '14']);
  assert.equal(byService.get('03')!.zone, '44');
  assert.equal(byService.get('03')!.listAmountCents, withFuel(4325, upsGroundFuel));
  assert.equal(byService.get('02')!.listAmountCents, withFuel(6708, upsAirFuel));
  assert.equal(byService.get('01')!.listAmountCents, withFuel(12735, upsAirFuel));
  const saver = await ups.rate({ from, to: honolulu, parcels: [{ weightLb: 1 }], shipDate, services: ['13'] }, new AbortController().signal);
  assert.equal(!saver.ok && saver.error.code, 'service_unavailable');
  assert.match(!saver.ok ? saver.error.detail : '', /UPS 2026 daily rates.*no table for zone 44/);
});

test('additional handling and oversize: by zone band, with the published minimum billable weights; fuel on oversize, not on additional handling', async () => {
  const ground = fedexPrices.services.FEDEX_GROUND!;
  // Over 50 lb actual: the weight surcharge, zone 2 $46.
  const heavy = await quote(business('2'), { weightLb: 60 }, 'FEDEX_GROUND');
  assert.equal(heavy.listAmountCents, withFuel(publishedCents(ground, '2', 60)!, fedexGroundFuel) + 4600);
  // Longest side 50 in (over 48): the dimension surcharge, zones 3–4 $32.75, billed at 40 lb at least.
  const long = await quote(business('4'), { weightLb: 5, dimensionsIn: { length: 50, width: 6, height: 6 } }, 'FEDEX_GROUND');
  assert.equal(long.listAmountCents, withFuel(publishedCents(ground, '4', 40)!, fedexGroundFuel) + 3275);
  // Second-longest side 31 in (over 30; longest 34, length and girth 100): zone 8 $40.75, and the cube's 16 lb is billed at 40.
  const wide = await quote(business('8'), { weightLb: 8, dimensionsIn: { length: 2, width: 31, height: 34 } }, 'FEDEX_GROUND');
  assert.equal(wide.billableWeightLb, 16);
  assert.equal(wide.listAmountCents, withFuel(publishedCents(ground, '8', 40)!, fedexGroundFuel) + 4075);
  // Over 10,368 cubic inches and no other limit (35 × 17 × 18 = 10,710; length and girth 105, not over): the dimension
  // surcharge since January 12, 2026, zones 3–4 $32.75, at the cube's 78 lb.
  const cube = await quote(business('4'), { weightLb: 20, dimensionsIn: { length: 35, width: 17, height: 18 } }, 'FEDEX_GROUND');
  assert.equal(cube.billableWeightLb, 78);
  assert.equal(cube.listAmountCents, withFuel(publishedCents(ground, '4', 78)!, fedexGroundFuel) + 3275);
  // Nothing over a limit: no charge, the cube's weight (34 × 30 × 2 / 139 = 15 lb) at its own price.
  const flat = await quote(business('8'), { weightLb: 8, dimensionsIn: { length: 2, width: 30, height: 34 } }, 'FEDEX_GROUND');
  assert.equal(flat.listAmountCents, withFuel(publishedCents(ground, '8', 15)!, fedexGroundFuel));
  // Over 130 in of length and girth (100 + 2 × (10 + 10) = 140): oversize, zone 2 $255, billed at 90 lb, no handling charge besides.
  const oversize = await quote(business('2'), { weightLb: 60, dimensionsIn: { length: 100, width: 10, height: 10 } }, 'FEDEX_GROUND');
  assert.equal(oversize.listAmountCents, withFuel(publishedCents(ground, '2', 90)! + 25500, fedexGroundFuel));
  assert.equal(oversize.amountCents, withFuel(Math.round(publishedCents(ground, '2', 90)! * 0.75) + 25500, fedexGroundFuel));
  // Over 110 lb actual, small: oversize since January 12, 2026, not the weight's additional handling.
  const dense = await quote(business('2'), { weightLb: 120, dimensionsIn: { length: 20, width: 20, height: 20 } }, 'FEDEX_GROUND');
  assert.equal(dense.listAmountCents, withFuel(publishedCents(ground, '2', 120)! + 25500, fedexGroundFuel));
});

test('fuel: the week of May 25, 2026, ground and air percentages apart, on the published price and on what the account pays', async () => {
  // UPS Ground 5 lb zone 4: $17.15 + 27.50% ($4.72) = $21.87; the account's $12.86 + $3.54 = $16.40.
  const upsGround = await quote(business('4'), { weightLb: 5 }, '03', ups);
  assert.deepEqual([upsGround.listAmountCents, upsGround.amountCents], [2187, 1640]);
  // UPS Next Day Air 20 lb zone 8: $298.92 + 31.25% ($93.41) = $392.33.
  assert.equal((await quote(business('8'), { weightLb: 20 }, '01', ups)).listAmountCents, 39233);
  // FedEx Ground 5 lb zone 4: $17.06 + 27.00% ($4.61) = $21.67.
  assert.equal((await quote(business('4'), { weightLb: 5 }, 'FEDEX_GROUND')).listAmountCents, 2167);
  // FedEx Standard Overnight 20 lb zone 8: $284.74 + 30.75% ($87.56) = $372.30.
  assert.equal((await quote(business('8'), { weightLb: 20 }, 'STANDARD_OVERNIGHT')).listAmountCents, 37230);
  assert.deepEqual(upsPrices.fuel, { '03': 0.275, '12': 0.3125, '02': 0.3125, '13': 0.3125, '01': 0.3125, '14': 0.3125 });
  assert.deepEqual(fedexPrices.fuel, {
    FEDEX_GROUND: 0.27, GROUND_HOME_DELIVERY: 0.27, FEDEX_EXPRESS_SAVER: 0.3075, FEDEX_2_DAY: 0.3075, STANDARD_OVERNIGHT: 0.3075, PRIORITY_OVERNIGHT: 0.3075,
  });
});

test('UPS additional handling: over 50 lb, by zone band, with fuel on it', async () => {
  const ground = upsPrices.services['03']!;
  // 51 lb to zone 2: $29.59 + $46.50 weight charge = $76.09, + 27.50% fuel ($20.92) = $97.01.
  const heavy = await quote(business('2'), { weightLb: 51 }, '03', ups);
  assert.equal(heavy.listAmountCents, 9701);
  assert.equal(heavy.amountCents, withFuel(Math.round(2959 * 0.75) + 4650, upsGroundFuel));
  // 50 lb is not over: no charge.
  const fifty = await quote(business('2'), { weightLb: 50 }, '03', ups);
  assert.equal(fifty.listAmountCents, withFuel(publishedCents(ground, '2', 50)!, upsGroundFuel));
  // Zones 3–4 $50.75, 7–8 $58.75; on the air services too.
  assert.equal((await quote(business('4'), { weightLb: 51 }, '03', ups)).listAmountCents, withFuel(publishedCents(ground, '4', 51)! + 5075, upsGroundFuel));
  const air = await quote(business('8'), { weightLb: 51 }, '02', ups);
  assert.equal(air.listAmountCents, withFuel(publishedCents(upsPrices.services['02'], '8', 51)! + 5875, upsAirFuel));
});

test('UPS additional handling by size: each limit just met draws nothing, just passed draws the zone charge and a 40 lb minimum', async () => {
  const ground = upsPrices.services['03']!;
  const cases: { what: string; zone: string; under: [number, number, number]; over: [number, number, number]; cents: number }[] = [
    // Longest side over 48 in: zones 3–4 $33.25.
    { what: 'longest side', zone: '4', under: [48, 6, 6], over: [49, 6, 6], cents: 3325 },
    // Second-longest side over 30 in: zones 7–8 $40.50.
    { what: 'second-longest side', zone: '8', under: [34, 30, 2], over: [34, 31, 2], cents: 4050 },
    // Length and girth over 105 in (45 + 2 × 30 = 105; 46 + 60 = 106): zone 8 $40.50.
    { what: 'length and girth', zone: '8', under: [45, 15, 15], over: [46, 15, 15], cents: 4050 },
    // Over 10,368 cubic inches (36 × 18 × 16 = 10,368; 37 × 18 × 16 = 10,656, length and girth 105): zone 2 $30.
    { what: 'cubic size', zone: '2', under: [36, 18, 16], over: [37, 18, 16], cents: 3000 },
  ];
  for (const c of cases) {
    const dims = ([length, width, height]: [number, number, number]) => ({ length, width, height });
    const under = await quote(business(c.zone), { weightLb: 5, dimensionsIn: dims(c.under) }, '03', ups);
    assert.equal(under.listAmountCents, withFuel(publishedCents(ground, c.zone, under.billableWeightLb)!, upsGroundFuel), `${c.what} at the limit`);
    const over = await quote(business(c.zone), { weightLb: 5, dimensionsIn: dims(c.over) }, '03', ups);
    const billed = Math.max(over.billableWeightLb, 40);
    assert.equal(over.listAmountCents, withFuel(publishedCents(ground, c.zone, billed)! + c.cents, upsGroundFuel), `${c.what} over the limit`);
  }
  // A named cell: 49 × 6 × 6 in, 5 lb, to zone 4: the cube's 13 lb is billed at 40 lb ($37.41) + $33.25 = $70.66,
  // + 27.50% fuel ($19.43) = $90.09.
  const long = await quote(business('4'), { weightLb: 5, dimensionsIn: { length: 49, width: 6, height: 6 } }, '03', ups);
  assert.equal(long.billableWeightLb, 13);
  assert.equal(publishedCents(ground, '4', 40), 3741);
  assert.equal(long.listAmountCents, 9009);
});

test('UPS large package: over 96 in long, 130 in of length and girth, 17,280 cubic inches or 110 lb; 90 lb minimum, a residential figure, no additional handling besides', async () => {
  const ground = upsPrices.services['03']!;
  const cases: { what: string; zone: string; under: RateRequest['parcels'][number]; over: RateRequest['parcels'][number]; cents: number; underCents: number }[] = [
    // 96 in long is additional handling (longest over 48); 97 in is a large package: zones 3–4 $239.50.
    { what: 'length', zone: '4', under: { weightLb: 5, dimensionsIn: { length: 96, width: 8, height: 8 } }, over: { weightLb: 5, dimensionsIn: { length: 97, width: 8, height: 8 } }, cents: 23950, underCents: 3325 },
    // 70 + 2 × 30 = 130 in of length and girth; 71 in makes 131: zone 2 $219.50.
    { what: 'length and girth', zone: '2', under: { weightLb: 5, dimensionsIn: { length: 70, width: 15, height: 15 } }, over: { weightLb: 5, dimensionsIn: { length: 71, width: 15, height: 15 } }, cents: 21950, underCents: 3000 },
    // 30 × 24 × 24 = 17,280 cubic inches; 31 × 24 × 24 = 17,856: zones 7–8 $286.
    { what: 'cubic size', zone: '8', under: { weightLb: 5, dimensionsIn: { length: 30, width: 24, height: 24 } }, over: { weightLb: 5, dimensionsIn: { length: 31, width: 24, height: 24 } }, cents: 28600, underCents: 4050 },
    // 110 lb is the additional handling weight charge (zone 2 $46.50); 111 lb is a large package.
    { what: 'weight', zone: '2', under: { weightLb: 110 }, over: { weightLb: 111 }, cents: 21950, underCents: 4650 },
  ];
  for (const c of cases) {
    const under = await quote(business(c.zone), c.under, '03', ups);
    const underBilled = c.under.dimensionsIn ? Math.max(under.billableWeightLb, 40) : under.billableWeightLb;
    assert.equal(under.listAmountCents, withFuel(publishedCents(ground, c.zone, underBilled)! + c.underCents, upsGroundFuel), `${c.what} at the limit`);
    const over = await quote(business(c.zone), c.over, '03', ups);
    const billed = Math.max(over.billableWeightLb, 90);
    assert.equal(over.listAmountCents, withFuel(publishedCents(ground, c.zone, billed)! + c.cents, upsGroundFuel), `${c.what} over the limit`);
  }
  // A named cell: 97 × 8 × 8 in, 5 lb, to a home in zone 4: billed at 90 lb ($72.03), + $274.50 residential large
  // package + $6.50 residential = $353.03, + 27.50% fuel ($97.08) = $450.11.
  const toHome = await quote(home('4'), { weightLb: 5, dimensionsIn: { length: 97, width: 8, height: 8 } }, '03', ups);
  assert.equal(publishedCents(ground, '4', 90), 7203);
  assert.equal(toHome.listAmountCents, 45011);
  assert.equal(toHome.amountCents, withFuel(Math.round(7203 * 0.75) + 27450 + 650, upsGroundFuel));
});

test('FedEx 2Day and Express Saver to zone 5 are quoted from 1 lb, as the 2026 list prints them (the 2025 copy started at 50 lb)', async () => {
  const light = await fedex.rate({ from, to: business('5'), parcels: [{ weightLb: 20 }], shipDate }, new AbortController().signal);
  assert.ok(light.ok);
  const services = light.value.map((q) => q.service);
  for (const service of ['FEDEX_GROUND', 'FEDEX_EXPRESS_SAVER', 'FEDEX_2_DAY', 'STANDARD_OVERNIGHT', 'PRIORITY_OVERNIGHT']) {
    assert.ok(services.includes(service), `${service} in ${services.join()}`);
  }
  // "U.S. package rates: Zone 5", 1 lb and 20 lb: FedEx 2Day $35.94 and $131.84, FedEx Express Saver $31.04 and $99.00.
  const twoDay = fedexPrices.services.FEDEX_2_DAY!;
  const saver = fedexPrices.services.FEDEX_EXPRESS_SAVER!;
  assert.deepEqual([1, 20].map((lb) => publishedCents(twoDay, '5', lb)), [3594, 13184]);
  assert.deepEqual([1, 20].map((lb) => publishedCents(saver, '5', lb)), [3104, 9900]);
  // Chicago 60601 is on FedEx's delivery area list (Contiguous U.S.): $4.45 to a business, fuel-bearing.
  const quoted = light.value.find((q) => q.service === 'FEDEX_2_DAY')!;
  assert.equal(quoted.listAmountCents, withFuel(13184 + 445, fedexExpressFuel));
  const heavy = await quote(business('5'), { weightLb: 55 }, 'FEDEX_2_DAY');
  assert.equal(heavy.listAmountCents, withFuel(publishedCents(twoDay, '5', 55)! + 445, fedexExpressFuel) + 5625);
});

test("FedEx's delivery area list is loaded whole: its June 2, 2025 count in each category, each ZIP code once, and a charge for every category", () => {
  const area = fedexPrices.deliveryArea!;
  assert.equal(area.zips.effective, '2025-06-02');
  const counts: Record<string, number> = {};
  for (const category of deliveryAreaIndex(area.zips).values()) counts[category] = (counts[category] ?? 0) + 1;
  assert.deepEqual(counts, { contiguous: 7654, extended: 14368, remote: 3517, alaska: 219, hawaii: 68 });
  assert.deepEqual(Object.keys(area.cents).sort(), Object.keys(counts).sort());
  // The first and last ZIP code of each category, as the list prints them.
  const index = deliveryAreaIndex(area.zips);
  for (const [zip, category] of [
    ['01002', 'contiguous'], ['99363', 'contiguous'], ['01005', 'extended'], ['99402', 'extended'], ['01026', 'remote'],
    ['99138', 'remote'], ['99540', 'alaska'], ['99950', 'alaska'], ['96703', 'hawaii'], ['96796', 'hawaii'],
  ]) assert.equal(index.get(zip!), category, zip);
});

test('delivery area surcharge: a FedEx quote to a ZIP code on the list carries its category charge, to a business or a home, at list in the account price, with fuel on it', async () => {
  const ground = fedexPrices.services.FEDEX_GROUND!;
  // 2026 charges per package (the Service Guide 2026, p. 134; the 2026 changes sheet's 2026 column): business, home.
  for (const [zip, city, state, commercial, residential] of [
    ['59101', 'Billings', 'MT', 445, 660],
    ['59001', 'Absarokee', 'MT', 555, 880],
    ['59002', 'Acton', 'MT', 1675, 1675],
    ['99540', 'Indian', 'AK', 4600, 4600],
    ['96703', 'Anahola', 'HI', 1625, 1625],
  ] as const) {
    const place = { street1: '1 Main St', city, state, zip };
    const toBusiness = await quote({ company: 'Receiver', ...place, residential: false }, { weightLb: 5 }, 'FEDEX_GROUND');
    const transport = publishedCents(ground, toBusiness.zone, 5)!;
    assert.equal(toBusiness.listAmountCents, withFuel(transport + commercial, fedexGroundFuel), zip);
    assert.equal(toBusiness.amountCents, withFuel(Math.round(transport * 0.75) + commercial, fedexGroundFuel), zip);
    const toHome = await quote({ name: 'Pat Doe', ...place, residential: true }, { weightLb: 5 }, 'GROUND_HOME_DELIVERY');
    assert.equal(toHome.listAmountCents, withFuel(publishedCents(ground, toHome.zone, 5)! + 645 + residential, fedexGroundFuel), zip);
  }
  // Express services pay the same charge, with express fuel on it.
  const billings = { street1: '1 Main St', city: 'Billings', state: 'MT', zip: '59101-1234' };
  const twoDay = await quote({ name: 'Pat Doe', ...billings, residential: true }, { weightLb: 20 }, 'FEDEX_2_DAY');
  assert.equal(twoDay.listAmountCents, withFuel(publishedCents(fedexPrices.services.FEDEX_2_DAY, twoDay.zone, 20)! + 695 + 660, fedexExpressFuel));
});

test('no delivery area surcharge to a FedEx ZIP code off the list, nor on UPS, whose own list is not in the stored material', async () => {
  const billingsPoBoxes = { street1: '1 Main St', city: 'Billings', state: 'MT', zip: '59104' };
  const toBusiness = await quote({ company: 'Receiver', ...billingsPoBoxes, residential: false }, { weightLb: 5 }, 'FEDEX_GROUND');
  assert.equal(toBusiness.listAmountCents, withFuel(publishedCents(fedexPrices.services.FEDEX_GROUND, toBusiness.zone, 5)!, fedexGroundFuel));
  const toHome = await quote({ name: 'Pat Doe', ...billingsPoBoxes, residential: true }, { weightLb: 5 }, 'GROUND_HOME_DELIVERY');
  assert.equal(toHome.listAmountCents, withFuel(publishedCents(fedexPrices.services.GROUND_HOME_DELIVERY, toHome.zone, 5)! + 645, fedexGroundFuel));
  const ups59101 = await quote({ company: 'Receiver', street1: '1 Main St', city: 'Billings', state: 'MT', zip: '59101', residential: false }, { weightLb: 5 }, '03', ups);
  assert.equal(ups59101.listAmountCents, withFuel(publishedCents(upsPrices.services['03'], ups59101.zone, 5)!, upsGroundFuel));
});

test('Alaska and Hawaii: FedEx Home Delivery priced from its Alaska and Hawaii table; FedEx Express there is not loaded, so not quoted', async () => {
  const anchorage = { name: 'Pat Doe', street1: '1 Main St', city: 'Anchorage', state: 'AK', zip: '99501', residential: true };
  // To Alaska is Ground zone 17: 1 lb $43.41, plus the $6.45 residential charge, plus Ground fuel.
  const homeDelivery = await quote(anchorage, { weightLb: 1 }, 'GROUND_HOME_DELIVERY');
  assert.equal(homeDelivery.zone, '17');
  assert.equal(homeDelivery.listAmountCents, withFuel(4341 + 645, fedexGroundFuel));
  const express = await fedex.rate({ from, to: anchorage, parcels: [{ weightLb: 1 }], shipDate, services: ['FEDEX_2_DAY'] }, new AbortController().signal);
  assert.equal(express.ok, false);
  assert.equal(!express.ok && express.error.code, 'service_unavailable');
  assert.match(!express.ok ? express.error.detail : '', /no table for zone 9/);
});

test('every loaded price list is monotone in weight, zone and speed', () => {
  for (const list of currentPriceLists) assert.deepEqual(priceTableViolations(list), [], list.source);
});

test('scripts/check-price-tables.ts passes on the loaded lists and says what it checked', () => {
  const root = fileURLToPath(new URL('../../../', import.meta.url));
  const run = spawnSync(process.execPath, ['--import', 'tsx', 'scripts/check-price-tables.ts'], { cwd: root, encoding: 'utf8' });
  assert.equal(run.status, 0, run.stdout + run.stderr);
  for (const list of currentPriceLists) assert.ok(run.stdout.includes(`${list.carrier}: ${list.source}`), run.stdout);
  assert.match(run.stdout, /0 violation/);
});

test('the monotonicity check names the cell that breaks each rule', () => {
  const cheaperHeavier: PriceList = { ...fedexPrices, services: { FEDEX_GROUND: { '2': { fromLb: 1, cents: [1000, 900] } } }, speedOrder: ['FEDEX_GROUND'] };
  assert.deepEqual(priceTableViolations(cheaperHeavier), ['fedex FEDEX_GROUND zone 2 2 lb: 900 is less than 1000 for 1 lb']);
  const cheaperFarther: PriceList = {
    ...fedexPrices,
    services: { FEDEX_GROUND: { '2': { fromLb: 1, cents: [1000] }, '3': { fromLb: 1, cents: [950] } } },
    speedOrder: ['FEDEX_GROUND'],
  };
  assert.deepEqual(priceTableViolations(cheaperFarther), ['fedex FEDEX_GROUND zone 3 1 lb: 950 is less than 1000 to zone 2']);
  const cheaperFaster: PriceList = {
    ...fedexPrices,
    services: { FEDEX_GROUND: { '2': { fromLb: 1, cents: [1000] } }, FEDEX_2_DAY: { '2': { fromLb: 1, cents: [990] } } },
    speedOrder: ['FEDEX_GROUND', 'FEDEX_2_DAY'],
  };
  assert.deepEqual(priceTableViolations(cheaperFaster), ["fedex FEDEX_2_DAY zone 2 1 lb: 990 is less than FEDEX_GROUND's 1000"]);
});
