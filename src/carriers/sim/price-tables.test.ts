import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Quote, RateRequest } from '../carrier.ts';
import type { Address } from '../../schemas/address.ts';
import { priceBasket, basketSources } from './prices/basket.ts';
import { priceTableViolations } from './prices/check.ts';
import { currentPriceLists, fedexPrices, upsPrices, uspsPrices } from './prices/current.ts';
import { publishedCents, type PriceList } from './prices/types.ts';
import { SimulatedCarrier } from './simulator.ts';
import { simTables } from './tables.ts';

const simulator = (id: string) => new SimulatedCarrier(simTables.find((t) => t.id === id)!, { now: () => new Date('2026-11-23T15:00:00Z') }, 1440);
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

async function quote(to: Address, parcel: RateRequest['parcel'], service: string, carrier = fedex): Promise<Quote> {
  const answer = await carrier.rate({ from, to, parcel, shipDate, services: [service] }, new AbortController().signal);
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
  assert.match(basketSources.fedex!, /FedEx Service Guide.*January 6, 2025/);
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
    // To a business, with no surcharge and no fuel loaded: the list price is the published price.
    assert.equal(q.listAmountCents, b.cents, cell);
    // UPS and FedEx accounts get a quarter off transport (our default model); USPS accounts pay retail until commercial prices are loaded.
    assert.equal(q.amountCents, b.carrier === 'usps' ? b.cents : Math.round(b.cents * 0.75), cell);
  }
});

test('USPS adds no residential surcharge, and prices zone 9 and the heaviest step from its table', async () => {
  const home = await quote({ name: 'Pat Doe', street1: '1 Main St', ...losAngeles, residential: true }, { weightLb: 70 }, 'PRIORITY_MAIL', usps);
  assert.equal(home.listAmountCents, 24540);
  assert.equal(publishedCents(uspsPrices.services.PRIORITY_MAIL, '09', 70), 48440);
  assert.equal(publishedCents(uspsPrices.services.USPS_GROUND_ADVANTAGE, '09', 70), publishedCents(uspsPrices.services.USPS_GROUND_ADVANTAGE, '08', 70));
});

test('residential delivery: $5.95 on FedEx Home Delivery, $6.55 on express services, at list in the account price too', async () => {
  const homeDelivery = await quote(home('4'), { weightLb: 5 }, 'GROUND_HOME_DELIVERY');
  assert.equal(homeDelivery.listAmountCents, 1617 + 595);
  assert.equal(homeDelivery.amountCents, Math.round(1617 * 0.75) + 595);
  const twoDay = await quote(home('8'), { weightLb: 20 }, 'FEDEX_2_DAY');
  assert.equal(twoDay.listAmountCents, 20448 + 655);
});

test('UPS residential surcharge: $6.50 on Ground, $7.00 on the air services, at list in the account price too', async () => {
  const ground = await quote(home('4'), { weightLb: 5 }, '03', ups);
  assert.equal(ground.listAmountCents, 1715 + 650);
  assert.equal(ground.amountCents, Math.round(1715 * 0.75) + 650);
  const nextDay = await quote(home('8'), { weightLb: 20 }, '01', ups);
  assert.equal(nextDay.listAmountCents, 29892 + 700);
  const threeDay = await quote(home('2'), { weightLb: 1 }, '12', ups);
  assert.equal(threeDay.listAmountCents, publishedCents(upsPrices.services['12'], '2', 1)! + 700);
});

test('UPS offshore: Hawaii is zone 44 of Ground, 2nd Day Air (224) and Next Day Air (124); 3 Day Select and Saver have no such zone, so are not quoted', async () => {
  const honolulu: Address = { company: 'Receiver', street1: '1 Main St', city: 'Honolulu', state: 'HI', zip: '96813', residential: false };
  const answer = await ups.rate({ from, to: honolulu, parcel: { weightLb: 1 }, shipDate }, new AbortController().signal);
  assert.ok(answer.ok, answer.ok ? '' : answer.error.detail);
  const byService = new Map(answer.value.map((q) => [q.service, q]));
  assert.deepEqual([...byService.keys()].sort(), ['01', '02', '03', '14']);
  assert.equal(byService.get('03')!.zone, '44');
  assert.equal(byService.get('03')!.listAmountCents, 4325);
  assert.equal(byService.get('02')!.listAmountCents, 6708);
  assert.equal(byService.get('01')!.listAmountCents, 12735);
  const saver = await ups.rate({ from, to: honolulu, parcel: { weightLb: 1 }, shipDate, services: ['13'] }, new AbortController().signal);
  assert.equal(!saver.ok && saver.error.code, 'service_unavailable');
  assert.match(!saver.ok ? saver.error.detail : '', /UPS 2026 daily rates.*no table for zone 44/);
});

test('additional handling and oversize: by zone band, with the published minimum billable weights', async () => {
  const ground = fedexPrices.services.FEDEX_GROUND!;
  // Over 50 lb actual: the weight surcharge, zone 2 $43.50.
  const heavy = await quote(business('2'), { weightLb: 60 }, 'FEDEX_GROUND');
  assert.equal(heavy.listAmountCents, publishedCents(ground, '2', 60)! + 4350);
  // Longest side 50 in (over 48): the dimension surcharge, zones 3–4 $31, billed at 40 lb at least.
  const long = await quote(business('4'), { weightLb: 5, dimensionsIn: { length: 50, width: 6, height: 6 } }, 'FEDEX_GROUND');
  assert.equal(long.listAmountCents, publishedCents(ground, '4', 40)! + 3100);
  // Second-longest side 31 in (over 30; longest 34, length and girth 100): zone 8 $38, and the cube's 16 lb is billed at 40.
  const wide = await quote(business('8'), { weightLb: 8, dimensionsIn: { length: 2, width: 31, height: 34 } }, 'FEDEX_GROUND');
  assert.equal(wide.billableWeightLb, 16);
  assert.equal(wide.listAmountCents, publishedCents(ground, '8', 40)! + 3800);
  // Nothing over a limit: no charge, the cube's weight (34 × 30 × 2 / 139 = 15 lb) at its own price.
  const flat = await quote(business('8'), { weightLb: 8, dimensionsIn: { length: 2, width: 30, height: 34 } }, 'FEDEX_GROUND');
  assert.equal(flat.listAmountCents, publishedCents(ground, '8', 15)!);
  // Over 130 in of length and girth (100 + 2 × (10 + 10) = 140): oversize, zone 2 $240, billed at 90 lb, no handling charge besides.
  const oversize = await quote(business('2'), { weightLb: 60, dimensionsIn: { length: 100, width: 10, height: 10 } }, 'FEDEX_GROUND');
  assert.equal(oversize.listAmountCents, publishedCents(ground, '2', 90)! + 24000);
  assert.equal(oversize.amountCents, Math.round(publishedCents(ground, '2', 90)! * 0.75) + 24000);
});

test('a cell the published copy lacks is not quoted: FedEx 2Day to zone 5 below 50 lb; from 50 lb it is', async () => {
  const light = await fedex.rate({ from, to: business('5'), parcel: { weightLb: 20 }, shipDate }, new AbortController().signal);
  assert.ok(light.ok);
  const services = light.value.map((q) => q.service);
  assert.ok(!services.includes('FEDEX_2_DAY') && !services.includes('FEDEX_EXPRESS_SAVER'), services.join());
  assert.ok(services.includes('FEDEX_GROUND') && services.includes('STANDARD_OVERNIGHT'), services.join());
  const heavy = await quote(business('5'), { weightLb: 55 }, 'FEDEX_2_DAY');
  assert.equal(heavy.listAmountCents, publishedCents(fedexPrices.services.FEDEX_2_DAY, '5', 55)! + 5275);
});

test('Alaska and Hawaii: FedEx Home Delivery priced from its Alaska and Hawaii table; FedEx Express there is not loaded, so not quoted', async () => {
  const anchorage = { name: 'Pat Doe', street1: '1 Main St', city: 'Anchorage', state: 'AK', zip: '99501', residential: true };
  // To Alaska is Ground zone 17: 1 lb $40.84, plus the $5.95 residential charge.
  const homeDelivery = await quote(anchorage, { weightLb: 1 }, 'GROUND_HOME_DELIVERY');
  assert.equal(homeDelivery.zone, '17');
  assert.equal(homeDelivery.listAmountCents, 4084 + 595);
  const express = await fedex.rate({ from, to: anchorage, parcel: { weightLb: 1 }, shipDate, services: ['FEDEX_2_DAY'] }, new AbortController().signal);
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
