import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Quote, RateRequest } from '../carrier.ts';
import type { Address } from '../../schemas/address.ts';
import { accountBasket, accountBasketSources, priceBasket } from './prices/basket.ts';
import { priceTableViolations } from './prices/check.ts';
import { uspsPrices } from './prices/current.ts';
import { publishedCents, type PriceList } from './prices/types.ts';
import { SimulatedCarrier } from './simulator.ts';
import { simTables } from './tables.ts';

const usps = new SimulatedCarrier(simTables.find((t) => t.id === 'usps')!, { now: () => new Date('2026-11-23T15:00:00Z') }, { trackingSpeed: 1440 });
const shipDate = new Date('2026-11-23T15:00:00Z');
const from: Address = { company: 'Shipper', street1: '350 5th Ave', city: 'New York', state: 'NY', zip: '10001' };
/** ZIPs well inside USPS zones 2, 5 and 8 from New York 10001, and one of zone 9 (the Freely Associated States). */
const toZip: Record<string, { zip: string; city: string; state: string }> = {
  '02': { zip: '19103', city: 'Philadelphia', state: 'PA' },
  '05': { zip: '60601', city: 'Chicago', state: 'IL' },
  '08': { zip: '90012', city: 'Los Angeles', state: 'CA' },
  '09': { zip: '96941', city: 'Kolonia', state: 'FM' },
};
const business = (zone: string): Address => ({ company: 'Receiver', street1: '1 Main St', ...toZip[zone]!, residential: false });

async function quote(zone: string, parcel: RateRequest['parcels'][number], service: string): Promise<Quote> {
  const answer = await usps.rate({ from, to: business(zone), parcels: [parcel], shipDate, services: [service] }, new AbortController().signal);
  assert.ok(answer.ok, answer.ok ? '' : answer.error.detail);
  assert.equal(answer.value.length, 1);
  return answer.value[0]!;
}

test('the account basket covers USPS Ground Advantage and Priority Mail commercial at three weights and three zones, and names its source', () => {
  for (const service of ['USPS_GROUND_ADVANTAGE', 'PRIORITY_MAIL']) {
    const items = accountBasket.filter((b) => b.carrier === 'usps' && b.service === service);
    assert.deepEqual(new Set(items.map((b) => b.lb)), new Set([1, 5, 20]), service);
    assert.deepEqual(new Set(items.map((b) => b.zone)), new Set(['02', '05', '08']), service);
    assert.equal(items.length, 9, service);
  }
  assert.match(accountBasketSources.usps!, /Notice 123.*July 12, 2026.*Commercial/);
});

test('a USPS account pays the published commercial price to the cent through rate(), below retail', async () => {
  for (const b of accountBasket) {
    const cell = `${b.service} ${b.lb} lb zone ${b.zone}`;
    assert.equal(publishedCents(uspsPrices.accountServices?.[b.service], b.zone, b.lb), b.cents, cell);
    const q = await quote(b.zone, { weightLb: b.lb }, b.service);
    assert.equal(q.zone, b.zone, cell);
    assert.equal(q.amountCents, b.cents, cell);
    const retail = priceBasket.find((r) => r.carrier === 'usps' && r.service === b.service && r.zone === b.zone && r.lb === b.lb)!;
    assert.equal(q.listAmountCents, retail.cents, cell);
    assert.ok(q.amountCents < q.listAmountCents, cell);
  }
});

test('where no USPS commercial price is loaded the account pays retail: Priority Mail Express, and zone 9 above 20 lb', async () => {
  const express = await quote('05', { weightLb: 5 }, 'PRIORITY_MAIL_EXPRESS');
  assert.deepEqual([express.amountCents, express.listAmountCents], [8500, 8500]);
  // Zone 9 Priority Mail commercial is printed to 20 lb: $145.25 against $216.95 retail; at 21 lb, retail $225.25.
  const twenty = await quote('09', { weightLb: 20 }, 'PRIORITY_MAIL');
  assert.equal(twenty.zone, '09');
  assert.deepEqual([twenty.amountCents, twenty.listAmountCents], [14525, 21695]);
  const heavier = await quote('09', { weightLb: 21 }, 'PRIORITY_MAIL');
  assert.deepEqual([heavier.amountCents, heavier.listAmountCents], [22525, 22525]);
});

test('the price check covers the account tables: their shape, a price above the published one, a cell with no published price', () => {
  const retail: PriceList = { ...uspsPrices, services: { PRIORITY_MAIL: { '02': { fromLb: 1, cents: [1150, 1265] } } }, speedOrder: ['PRIORITY_MAIL'] };
  const heavierCheaper: PriceList = { ...retail, accountServices: { PRIORITY_MAIL: { '02': { fromLb: 1, cents: [1000, 990] } } } };
  assert.deepEqual(priceTableViolations(heavierCheaper), ['usps PRIORITY_MAIL account zone 02 2 lb: 990 is less than 1000 for 1 lb']);
  const aboveRetail: PriceList = { ...retail, accountServices: { PRIORITY_MAIL: { '02': { fromLb: 1, cents: [1160, 1200] } } } };
  assert.deepEqual(priceTableViolations(aboveRetail), ['usps PRIORITY_MAIL account zone 02 1 lb: 1160 is more than the published 1150']);
  const beyondRetail: PriceList = { ...retail, accountServices: { PRIORITY_MAIL: { '02': { fromLb: 2, cents: [1200, 1260] } } } };
  assert.deepEqual(priceTableViolations(beyondRetail), ['usps PRIORITY_MAIL account zone 02 3 lb: no published price to set it against']);
  const fasterCheaper: PriceList = { ...uspsPrices, accountServices: { ...uspsPrices.accountServices, PRIORITY_MAIL: { '01': { fromLb: 1, cents: [700] } } } };
  assert.deepEqual(priceTableViolations(fasterCheaper), ["usps PRIORITY_MAIL account zone 01 1 lb: 700 is less than USPS_GROUND_ADVANTAGE's 761"]);
});
