import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import type { RateRequest } from '../carrier.ts';
import { buildRateRequest, parseRates } from './rate.ts';

const fixture = (name: string): unknown => JSON.parse(readFileSync(new URL(`./fixtures/${name}`, import.meta.url), 'utf8'));

const request: RateRequest = {
  from: { street1: '415 Mission St', city: 'San Francisco', state: 'CA', zip: '94105' },
  to: { street1: '3120 M St NW', city: 'Washington', state: 'DC', zip: '20007-3704' },
  parcel: { weightLb: 2, dimensionsIn: { length: 6, width: 12, height: 4 } },
  shipDate: new Date('2025-01-06T17:00:00Z'),
};

test('the rate search asks every outbound mail class at retail and commercial prices, longest side first', () => {
  assert.deepEqual(buildRateRequest(request), {
    originZIPCode: '94105',
    destinationZIPCode: '20007',
    destinationEntryFacilityType: 'NONE',
    packageDescription: { weight: 2, length: 12, width: 6, height: 4, mailClass: 'ALL_OUTBOUND', mailingDate: '2025-01-06' },
    pricingOptions: [{ priceType: 'RETAIL' }, { priceType: 'COMMERCIAL' }],
  });
});

test('quotes come for catalog classes only, commercial price with the retail one as list, flat-rate options left out', () => {
  const result = parseRates(fixture('rates.json'), request);
  assert.ok(result.ok);
  assert.deepEqual(
    result.value.map((q) => [q.service, q.amountCents, q.listAmountCents, q.deliveryDays, q.estimatedDeliveryDate, q.guaranteed, q.zone, q.billableWeightLb]),
    [
      ['USPS_GROUND_ADVANTAGE', 692, 810, 5, '2025-01-13', false, '05', 3],
      ['PRIORITY_MAIL', 1030, 1245, 2, '2025-01-08', false, '05', 3],
      ['PRIORITY_MAIL_EXPRESS', 3820, 3820, 1, '2025-01-07', true, '05', 2],
    ],
  );
  assert.equal(result.value[1]!.serviceName, 'Priority Mail');
  assert.equal(result.value[1]!.carrier, 'usps');
});

test('request.services narrows the quotes, and a class USPS does not offer is service_unavailable', () => {
  const one = parseRates(fixture('rates.json'), { ...request, services: ['PRIORITY_MAIL'] });
  assert.ok(one.ok);
  assert.deepEqual(one.value.map((q) => q.service), ['PRIORITY_MAIL']);
  const none = parseRates(fixture('rates.json'), { ...request, services: ['MEDIA_MAIL'] });
  assert.equal(none.ok ? null : none.error.code, 'service_unavailable');
});

test('single objects for arrays and numbers as strings still parse; the date counts from the commitment name', () => {
  const result = parseRates(fixture('rates-single.json'), request);
  assert.ok(result.ok);
  assert.deepEqual(result.value, [
    {
      carrier: 'usps',
      service: 'PRIORITY_MAIL',
      serviceName: 'Priority Mail',
      amountCents: 1107,
      listAmountCents: 1107,
      currency: 'USD',
      billableWeightLb: 6,
      zone: '07',
      deliveryDays: 3,
      estimatedDeliveryDate: '2025-01-09',
      guaranteed: false,
    },
  ]);
});

test('an answer without pricingOptions is a carrier_error', () => {
  const result = parseRates({ totalBasePrice: 3 }, request);
  assert.equal(result.ok ? null : result.error.code, 'carrier_error');
});
