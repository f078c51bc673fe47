import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Address } from '../../src/schemas/address.ts';
import type { PickupRequest } from '../../src/carriers/carrier.ts';
import {
  buildAvailabilityRequest,
  buildCancelPickupRequest,
  buildPickupRequest,
  parseAvailability,
  pickupCarrierCode,
  pickupFailure,
} from '../../src/carriers/fedex/pickup.ts';
import { redact } from '../../src/carriers/live/redact.ts';
import { assertContract, contractViolations } from './check.ts';
import { fedexCancelPickupRequest, fedexCreatePickupRequest, fedexPickupAvailabilityRequest } from './fedex/pickup.ts';

// Every Pickup API request the FedEx adapter builds, held against our schemas of FedEx's Pickup Request API
// (test/contracts/fedex/pickup.ts), and its answers and refusals read as the document gives them.

const account = '740561073';

const addresses: Record<string, Address> = {
  plain: { name: 'Ada Lovelace', street1: '415 Mission St', city: 'San Francisco', state: 'ca', zip: '94105' },
  business: { name: 'Grace Hopper', company: 'Analytical Co', street1: '1 Main St', street2: 'Suite 300', city: 'Nashville', state: 'TN', zip: '37201-1804', phone: '(615) 555-0100' },
  'company only': { company: 'Difference Engines LLC', street1: '500 Oracle Pkwy', city: 'Redwood City', state: 'CA', zip: '94065', phone: '+1 650 555 0199' },
};

const request = (address: Address, overrides: Partial<PickupRequest> = {}): PickupRequest => ({
  address,
  date: '2030-11-26',
  window: { start: '13:00', end: '17:00' },
  trackingNumbers: ['794644790132'],
  parcels: { count: 3, weightLb: 12.25 },
  instructions: 'Dock 3, ring the bell at the loading door and ask for Sam in receiving; the parcels are on the left',
  reference: 'pku_01m84js0b1cwjhzr4kr959j173',
  ...overrides,
});

test('every create, cancel and availability request keeps the Pickup API document, Express and Ground alike', () => {
  let checked = 0;
  for (const [name, address] of Object.entries(addresses)) {
    for (const code of ['FDXE', 'FDXG'] as const) {
      for (const r of [request(address), request(address, { parcels: { count: 0, weightLb: 0 }, instructions: undefined })]) {
        const built = buildPickupRequest(r, account, code);
        assert.ok(built.ok, name);
        assertContract(fedexCreatePickupRequest, built.value, `create ${code} ${name}`);
        checked++;
      }
      assertContract(fedexCancelPickupRequest, buildCancelPickupRequest({ confirmationNumber: '3001', date: '2030-11-26', carrierData: { carrierCode: code, location: code === 'FDXE' ? 'NQAA' : '' } }, account), `cancel ${code}`);
    }
    const availability = buildAvailabilityRequest(address, '2030-11-26', account);
    assert.ok(availability.ok);
    assertContract(fedexPickupAvailabilityRequest, availability.value, `availability ${name}`);
    checked++;
  }
  assert.equal(checked, 15);
});

test('a create names the window, the boxes and the remarks as FedEx takes them', () => {
  const built = buildPickupRequest(request(addresses.business!), account, 'FDXG');
  assert.ok(built.ok);
  const body = built.value as Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- reading the built JSON
  assert.equal(body.originDetail.readyDateTimestamp, '2030-11-26T13:00:00');
  assert.equal(body.originDetail.customerCloseTime, '17:00:00');
  assert.equal(body.originDetail.packageLocation, 'NONE', 'mandatory for Ground');
  assert.deepEqual(body.originDetail.pickupLocation.contact, { personName: 'Grace Hopper', companyName: 'Analytical Co', phoneNumber: '6155550100' });
  assert.equal(body.packageCount, 3);
  assert.deepEqual(body.totalWeight, { units: 'LB', value: 12.3 });
  assert.equal(body.remarks.length <= 60, true);
  assert.ok(body.remarks.startsWith('Dock 3, ring the bell'));
  const express = buildPickupRequest(request(addresses.business!), account, 'FDXE');
  assert.ok(express.ok && !('packageLocation' in (express.value.originDetail as object)));
});

test('the contract refuses what FedEx would: an Express cancel without its location, a Ground create without a package location', () => {
  assert.ok(contractViolations(fedexCancelPickupRequest, { associatedAccountNumber: { value: account }, pickupConfirmationCode: '7', scheduledDate: '2030-11-26', carrierCode: 'FDXE' }).length > 0);
  assert.ok(contractViolations(fedexCancelPickupRequest, { associatedAccountNumber: { value: account }, pickupConfirmationCode: '7', scheduledDate: '2030-11-26' }).length > 0, 'no carrierCode is Express');
  assert.deepEqual(contractViolations(fedexCancelPickupRequest, { associatedAccountNumber: { value: account }, pickupConfirmationCode: 'CPU1', scheduledDate: '2030-11-26', carrierCode: 'FDXG' }), []);
  const built = buildPickupRequest(request(addresses.plain!), account, 'FDXG');
  assert.ok(built.ok);
  const { packageLocation: _, ...origin } = built.value.originDetail as Record<string, unknown>;
  assert.ok(contractViolations(fedexCreatePickupRequest, { ...built.value, originDetail: origin }).length > 0);
});

test('the labels choose the company: Ground labels a Ground driver, others and none an Express one, both refused together', () => {
  assert.deepEqual(pickupCarrierCode(['FEDEX_GROUND', 'GROUND_HOME_DELIVERY']), { ok: true, value: 'FDXG' });
  assert.deepEqual(pickupCarrierCode(['FEDEX_2_DAY']), { ok: true, value: 'FDXE' });
  assert.deepEqual(pickupCarrierCode([]), { ok: true, value: 'FDXE' });
  const both = pickupCarrierCode(['FEDEX_GROUND', 'PRIORITY_OVERNIGHT']);
  assert.equal(!both.ok && both.error.code, 'not_serviced');
});

test("availability is the widest of the companies that can come, and FedEx's alert when none can", () => {
  const option = (carrier: string, available: boolean, ready: string[], latest: string[], cutOffTime: string) => ({ carrier, available, pickupDate: '2030-11-26', readyTimeOptions: ready, latestTimeOptions: latest, cutOffTime });
  const open = parseAvailability(
    { output: { options: [option('FDXE', true, ['09:00:00', '09:30:00'], ['12:00:00', '20:00:00'], '18:00:00'), option('FDXG', true, ['08:00:00'], ['12:00:00', '19:00:00'], '16:00:00'), option('FDXE', true, ['07:00:00'], ['23:00:00'], '22:00:00')].map((o, i) => (i === 2 ? { ...o, pickupDate: '2030-11-27' } : o)) } },
    '2030-11-26',
  );
  assert.deepEqual(open, { ok: true, value: { available: true, earliest: '08:00', latest: '20:00', bookBy: '18:00', reason: null } });
  const defaults = parseAvailability({ output: { options: [{ carrier: 'FDXE', available: true, defaultReadyTime: '10:00:00', defaultLatestTimeOptions: '17:00:00' }] } }, '2030-11-26');
  assert.deepEqual(defaults, { ok: true, value: { available: true, earliest: '10:00', latest: '17:00', bookBy: null, reason: null } });
  const closed = parseAvailability({ output: { options: [option('FDXE', false, [], [], '18:00:00')], alerts: [{ code: 'X', alertType: 'NOTE', message: 'No pickup there.' }] } }, '2030-11-26');
  assert.deepEqual(closed, { ok: true, value: { available: false, earliest: null, latest: null, bookBy: null, reason: 'No pickup there.' } });
  assert.equal(parseAvailability({}, '2030-11-26').ok, false);
});

test("the document's pickup errors map to our codes; the others read as every FedEx call's", () => {
  const env = (code: string, message = 'm') => ({ transactionId: 't', errors: [{ code, message }] });
  assert.equal(pickupFailure(400, env('PICKUP.REQUESTED.PREVIOUS.DAY', 'Cannot schedule a pickup requested for a previous day.')).code, 'outside_pickup_window');
  assert.equal(pickupFailure(400, env('PICKUP.NUMBER.EXPIRED')).code, 'outside_pickup_window');
  assert.equal(pickupFailure(400, env('PICKUP.POSTALCODE.MISSING')).code, 'address_invalid');
  assert.equal(pickupFailure(503, env('SERVICE.UNAVAILABLE.ERROR')).code, 'carrier_unavailable');
  assert.match(pickupFailure(400, env('PICKUP.REQUESTED.PREVIOUS.DAY', 'Cannot schedule a pickup requested for a previous day.')).detail, /PICKUP\.REQUESTED\.PREVIOUS\.DAY: Cannot schedule/);
});

test("the account number never reaches a trace: associatedAccountNumber is redacted in every pickup request", () => {
  const built = buildPickupRequest(request(addresses.business!), account, 'FDXE');
  const availability = buildAvailabilityRequest(addresses.business!, '2030-11-26', account);
  assert.ok(built.ok && availability.ok);
  const cancel = buildCancelPickupRequest({ confirmationNumber: '3001', date: '2030-11-26', carrierData: { carrierCode: 'FDXE', location: 'NQAA' } }, account);
  for (const body of [built.value, availability.value, cancel]) assert.ok(!JSON.stringify(redact(body)).includes(account), JSON.stringify(redact(body)));
});
