import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { CarrierId } from '../../config.ts';
import { SimulatedCarrier } from './simulator.ts';
import { simTables } from './tables.ts';
import { estimatedDeliveryDate, transitDays } from './transit.ts';
import { zoneFor } from './zones.ts';

const days = (carrier: CarrierId, service: string, from: string, to: string, groundLabels = false) =>
  transitDays(carrier, service, from, to, zoneFor(carrier, from, to, groundLabels ? service : undefined)!);

const sanFrancisco = '94105';
const losAngeles = '90012';
const newYork = '10001';
const honolulu = '96813';
const hilo = '96720';
const apoAE = '09102';

test('USPS: Ground Advantage 2–5 days, Priority Mail 1–3, Priority Mail Express 1–2, by distance', () => {
  assert.equal(days('usps', 'USPS_GROUND_ADVANTAGE', sanFrancisco, '94107'), 2);
  assert.equal(days('usps', 'USPS_GROUND_ADVANTAGE', sanFrancisco, losAngeles), 3);
  assert.equal(days('usps', 'USPS_GROUND_ADVANTAGE', sanFrancisco, newYork), 5);
  assert.equal(days('usps', 'PRIORITY_MAIL', sanFrancisco, '94107'), 1);
  assert.equal(days('usps', 'PRIORITY_MAIL', sanFrancisco, losAngeles), 2);
  assert.equal(days('usps', 'PRIORITY_MAIL', sanFrancisco, newYork), 3);
  assert.equal(days('usps', 'PRIORITY_MAIL_EXPRESS', sanFrancisco, losAngeles), 1);
  assert.equal(days('usps', 'PRIORITY_MAIL_EXPRESS', sanFrancisco, newYork), 2);
  // Palau is zone 9: still within each published range.
  assert.deepEqual(['USPS_GROUND_ADVANTAGE', 'PRIORITY_MAIL', 'PRIORITY_MAIL_EXPRESS'].map((s) => days('usps', s, sanFrancisco, '96940')), [5, 3, 2]);
});

test('USPS: a military ZIP gets the end of each range, however near its gateway', () => {
  // New York → APO AE is zone 1 (gateway New York), yet no commitment holds overseas.
  assert.equal(zoneFor('usps', newYork, apoAE)?.index, 1);
  assert.deepEqual(['USPS_GROUND_ADVANTAGE', 'PRIORITY_MAIL', 'PRIORITY_MAIL_EXPRESS'].map((s) => days('usps', s, newYork, apoAE)), [5, 3, 2]);
});

test('UPS and FedEx Ground: 1–5 days by distance in the 48 states', () => {
  for (const [carrier, service] of [['ups', '03'], ['fedex', 'FEDEX_GROUND'], ['fedex', 'GROUND_HOME_DELIVERY']] as const) {
    assert.equal(days(carrier, service, sanFrancisco, '94107'), 1, `${service} within a city`);
    assert.equal(days(carrier, service, sanFrancisco, losAngeles), 2, `${service} SF → LA`);
    assert.equal(days(carrier, service, '78701', sanFrancisco), 4, `${service} Austin → SF`);
    assert.equal(days(carrier, service, sanFrancisco, newYork), 5, `${service} coast to coast`);
  }
});

test('FedEx Ground to, from and within Hawaii: 1–7 days by distance', () => {
  assert.equal(days('fedex', 'FEDEX_GROUND', sanFrancisco, honolulu, true), 7);
  assert.equal(days('fedex', 'FEDEX_GROUND', honolulu, newYork, true), 7);
  assert.equal(days('fedex', 'GROUND_HOME_DELIVERY', honolulu, hilo, true), 1);
});

test('air services keep their commitment, offshore included', () => {
  for (const to of [newYork, honolulu, '99501']) {
    assert.deepEqual(['12', '02', '13', '01', '14'].map((s) => days('ups', s, sanFrancisco, to)), [3, 2, 1, 1, 1], `UPS to ${to}`);
    assert.deepEqual(['FEDEX_EXPRESS_SAVER', 'FEDEX_2_DAY', 'STANDARD_OVERNIGHT', 'PRIORITY_OVERNIGHT'].map((s) => days('fedex', s, sanFrancisco, to)), [3, 2, 1, 1], `FedEx to ${to}`);
  }
});

test('every test-mode service has a published commitment', () => {
  for (const t of simTables) {
    for (const s of t.services) {
      const d = days(t.id, s.code, sanFrancisco, newYork);
      assert.ok(Number.isInteger(d) && d >= 1 && d <= 5, `${t.id} ${s.code}: ${d}`);
    }
  }
  assert.throws(() => transitDays('ups', '65', sanFrancisco, newYork, { label: '8', index: 8 }), /no published commitment/);
});

test('FedEx Home Delivery delivers on weekends within three days; the rest Monday to Friday', () => {
  const thursday = new Date('2026-11-26T15:00:00Z');
  assert.equal(estimatedDeliveryDate('fedex', 'GROUND_HOME_DELIVERY', thursday, 2), '2026-11-28', 'Saturday');
  assert.equal(estimatedDeliveryDate('fedex', 'GROUND_HOME_DELIVERY', thursday, 3), '2026-11-29', 'Sunday');
  assert.equal(estimatedDeliveryDate('fedex', 'FEDEX_GROUND', thursday, 2), '2026-11-30', 'Monday');
  assert.equal(estimatedDeliveryDate('fedex', 'GROUND_HOME_DELIVERY', thursday, 4), '2026-12-02');
  // Picked up Monday when shipped on a Saturday.
  assert.equal(estimatedDeliveryDate('fedex', 'GROUND_HOME_DELIVERY', new Date('2026-11-28T10:00:00Z'), 1), '2026-12-01');
});

test('a FedEx Home Delivery quote shipped on a Friday may arrive on the weekend; FedEx Ground to a business waits for Monday', async () => {
  const friday = new Date('2026-11-27T15:00:00Z');
  const fedex = new SimulatedCarrier(simTables.find((t) => t.id === 'fedex')!, { now: () => friday }, { trackingSpeed: 1440 });
  const from = { company: 'Shipper', street1: '350 5th Ave', city: 'New York', state: 'NY', zip: '10001' };
  const rate = async (to: { name?: string; company?: string }, service: string) => {
    const answer = await fedex.rate(
      { from, to: { ...to, street1: '1 Market St', city: 'Philadelphia', state: 'PA', zip: '19103' }, parcels: [{ weightLb: 2 }], shipDate: friday, services: [service] },
      new AbortController().signal,
    );
    assert.ok(answer.ok, JSON.stringify(answer));
    return answer.value[0]!;
  };
  const home = await rate({ name: 'Pat Doe' }, 'GROUND_HOME_DELIVERY');
  assert.ok(home.deliveryDays !== null && home.deliveryDays <= 3);
  const homeDate = home.estimatedDeliveryDate ?? '';
  assert.equal(homeDate <= '2026-11-29' && homeDate !== '', true, homeDate);
  assert.ok(['0', '6'].includes(String(new Date(`${homeDate}T00:00:00Z`).getUTCDay())), `a weekend day: ${homeDate}`);
  const business = await rate({ company: 'Acme Inc' }, 'FEDEX_GROUND');
  assert.equal((business.estimatedDeliveryDate ?? '') >= '2026-11-30', true, business.estimatedDeliveryDate ?? 'none');
});
