import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Address } from '../../src/schemas/address.ts';
import type { PickupRequest } from '../../src/carriers/carrier.ts';
import { buildEligibilityQuery, buildPickupRequest, pickupBookBy, pickupDateRefusal, pickupRefusal } from '../../src/carriers/usps/pickup.ts';
import { assertContract, contractViolations } from './check.ts';
import { eligibilityQueryFaults, PickupEligibilityQuery, pickupLocationFaults, SchedulePickupRequest } from './usps/carrier-pickup.ts';

// Every Carrier Pickup request the USPS adapter builds, held against our schemas of carrier-pickup.yaml 3.1.8
// (test/contracts/usps/carrier-pickup.ts), and how it reads USPS's refusals.

const addresses: Record<string, Address> = {
  'email only': { name: 'Ada Lovelace', street1: '415 Mission St', city: 'San Francisco', state: 'ca', zip: '94105', email: 'ada@example.com' },
  'phone only, ZIP+4, unit, firm': { name: 'Grace Brewster Hopper', company: 'Analytical Co', street1: '350 5th Ave', street2: 'Suite 4B', city: 'New York', state: 'NY', zip: '10118-0110', phone: '+1 (212) 555-1234' },
  long: {
    name: 'Augusta Ada King-Noel Countess of Lovelace Baroness Wentworth of Nettlestead and Ockham Park',
    company: 'The Analytical Engine and Difference Engine Manufacturing Company of Greater San Francisco',
    street1: '1 Infinite Loop Building Number Seven Research and Development Campus West Entrance Gate C',
    street2: 'Suite 4500 Attention Receiving Dock Door Number Twelve Behind the Loading Area',
    city: 'Llanfairpwllgwyngyll-gogerychwyrndrobwll Village',
    state: 'CA',
    zip: '95014',
    email: 'ops@example.com',
  },
};

const request = (address: Address, overrides: Partial<PickupRequest> = {}): PickupRequest => ({
  address,
  date: '2026-12-01',
  window: { start: '09:00', end: '17:00' },
  trackingNumbers: ['9400100000000000000001', '9400100000000000000002'],
  parcels: { count: 3, weightLb: 7.25 },
  reference: 'pku_test',
  ...overrides,
});

for (const [name, address] of Object.entries(addresses)) {
  for (const instructions of [undefined, 'Ring the bell at the loading dock']) {
    test(`schedule request keeps SchedulePickupRequest: ${name}, ${instructions ? 'with' : 'without'} instructions`, () => {
      const built = buildPickupRequest(request(address, instructions ? { instructions } : {}));
      assert.ok(built.ok, JSON.stringify(built));
      assertContract(SchedulePickupRequest, built.value, 'the schedule request');
      assert.deepEqual(pickupLocationFaults(built.value), []);
    });
  }
  test(`eligibility query keeps the published parameters: ${name}`, () => {
    const q = Object.fromEntries(Object.entries(buildEligibilityQuery(address)).filter(([, v]) => v !== undefined));
    assertContract(PickupEligibilityQuery, q, 'the eligibility query');
    assert.deepEqual(eligibilityQueryFaults(q), []);
  });
}

test('the request counts the boxes, weighs them rounded up and carries the window and instructions', () => {
  const built = buildPickupRequest(request(addresses['phone only, ZIP+4, unit, firm']!, { instructions: ' Dock 3 ' }));
  assert.ok(built.ok);
  const body = built.value as Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- a built request
  assert.deepEqual(body.packages, [{ packageType: 'OTHER', packageCount: 3 }]);
  assert.equal(body.estimatedWeight, 7.3);
  assert.equal(body.pickupDate, '2026-12-01');
  assert.equal(body.nextAvailablePickup, false);
  assert.deepEqual(body.pickupLocation, { packageLocation: 'OTHER', specialInstructions: 'Dock 3 Packages ready 09:00-17:00 local time.' });
  assert.deepEqual(body.pickupAddress.contact, [{ cellNumber: '2125551234' }]);
  assert.deepEqual(body.pickupAddress.address, { streetAddress: '350 5th Ave', secondaryAddress: 'Suite 4B', city: 'New York', state: 'NY', ZIPCode: '10118', ZIPPlus4: '0110' });
  assert.deepEqual([body.pickupAddress.firstName, body.pickupAddress.lastName, body.pickupAddress.firm], ['Grace', 'Brewster Hopper', 'Analytical Co']);
});

test('what the schema cannot hold is refused before calling, naming what is missing', () => {
  const base = addresses['email only']!;
  const cases: [Partial<PickupRequest>, string, RegExp][] = [
    [{ address: { ...base, name: 'Ada' } }, 'address_invalid', /first and last name/],
    [{ address: { ...base, email: undefined, phone: '555-0100' } }, 'address_invalid', /email or a 10-digit phone/],
    [{ parcels: { count: 0, weightLb: 0 } }, 'not_serviced', /shipment_ids/],
  ];
  for (const [overrides, code, detail] of cases) {
    const built = buildPickupRequest(request(base, overrides));
    assert.ok(!built.ok);
    assert.equal(built.error.code, code);
    assert.match(built.error.detail, detail);
  }
});

test("the contract refuses what USPS's schema refuses", () => {
  const built = buildPickupRequest(request(addresses['email only']!));
  assert.ok(built.ok);
  const body = built.value as Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- a built request
  assert.ok(contractViolations(SchedulePickupRequest, { ...body, reference: 'pku_1' }).length > 0, 'no client reference field');
  assert.ok(contractViolations(SchedulePickupRequest, { ...body, packages: [{ packageType: 'PARCEL', packageCount: 1 }] }).length > 0);
  assert.ok(contractViolations(SchedulePickupRequest, { ...body, pickupAddress: { ...body.pickupAddress, contact: [] } }).length > 0);
  assert.deepEqual(pickupLocationFaults({ ...body, pickupLocation: { packageLocation: 'OTHER' } }).length, 1);
});

test("USPS's date rules: Monday to Saturday, until 2:00 AM Central on the day, a year ahead at most", () => {
  // Tuesday 2026-12-01, 2:00 AM CST is 08:00 UTC.
  assert.equal(pickupDateRefusal('2026-12-01', new Date('2026-12-01T07:59:00Z')), null);
  assert.equal(pickupDateRefusal('2026-12-01', new Date('2026-12-01T08:00:00Z'))?.code, 'outside_pickup_window');
  assert.equal(pickupDateRefusal('2026-12-05', new Date('2026-12-01T12:00:00Z')), null, 'a Saturday');
  assert.equal(pickupDateRefusal('2026-12-06', new Date('2026-12-01T12:00:00Z'))?.code, 'pickup_unavailable', 'a Sunday');
  assert.equal(pickupDateRefusal('2027-12-07', new Date('2026-12-01T12:00:00Z'))?.code, 'outside_pickup_window');
  // In summer 2:00 AM CDT is 07:00 UTC.
  assert.equal(pickupDateRefusal('2026-07-01', new Date('2026-07-01T07:00:00Z'))?.code, 'outside_pickup_window');
  // Booking closes at 2:00 AM Central: 03:00 in New York, midnight in California, the evening before in Hawaii.
  assert.equal(pickupBookBy(addresses['phone only, ZIP+4, unit, firm']!, '2026-12-01'), '03:00');
  assert.equal(pickupBookBy(addresses['email only']!, '2026-12-01'), '00:00');
  assert.equal(pickupBookBy({ ...addresses['email only']!, state: 'HI', city: 'Honolulu', zip: '96813' }, '2026-12-01'), null);
});

test("USPS's refusals map to pickup codes by the parameter or the eligibility they name", () => {
  const env = (detail: string, parameter: string) => ({ apiVersion: '/pickup/v3', error: { code: '400', message: 'Bad Request', errors: [{ status: '400', code: '400', title: 'Bad Request', detail, source: { parameter } }] } });
  assert.equal(pickupRefusal(400, env('The address is not eligible for Carrier Pickup.', 'pickupAddress.address.ZIPCode'), 'x').code, 'pickup_unavailable');
  assert.equal(pickupRefusal(400, env('Same-day pickup is no longer available.', 'pickupDate'), 'x').code, 'outside_pickup_window');
  assert.equal(pickupRefusal(400, env('Invalid city.', 'pickupAddress.address.city'), 'x').code, 'address_invalid');
  assert.equal(pickupRefusal(503, env('Down', ''), 'x').code, 'carrier_unavailable');
});
