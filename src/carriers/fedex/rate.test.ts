import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { RateRequest } from '../carrier.ts';
import { carrierCatalog } from '../catalog.ts';
import { fixture } from './fixtures.ts';
import { buildRateRequest, parseRateResponse, transitDays } from './rate.ts';

const services = carrierCatalog.find((c) => c.id === 'fedex')!.services;
const request: RateRequest = {
  from: { name: 'Shop', company: 'Shop Inc', street1: '1 Main St', city: 'Nashville', state: 'TN', zip: '37201' },
  to: { name: 'Ada', street1: '415 Mission St', city: 'San Francisco', state: 'CA', zip: '94105' },
  parcel: { weightLb: 9.2, dimensionsIn: { length: 12.2, width: 10, height: 7.5 } },
  // A Wednesday.
  shipDate: new Date('2024-05-01T15:00:00Z'),
};

test('the rate request asks every service at once, with whole-inch dimensions and both rate types', () => {
  const body = buildRateRequest(request, '740561073');
  const shipment = body.requestedShipment as Record<string, unknown>;
  assert.equal('serviceType' in shipment, false);
  assert.deepEqual(body.accountNumber, { value: '740561073' });
  assert.deepEqual(shipment.rateRequestType, ['ACCOUNT', 'LIST']);
  assert.equal(shipment.shipDateStamp, '2024-05-01');
  assert.deepEqual(body.requestedShipment.requestedPackageLineItems[0], {
    weight: { units: 'LB', value: 9.2 },
    dimensions: { length: 13, width: 10, height: 8, units: 'IN' },
  });
  assert.equal(body.requestedShipment.recipient.address.residential, true);
  assert.equal(body.rateRequestControlParameters.returnTransitTimes, true);
});

test('transit words become numbers', () => {
  assert.equal(transitDays('ONE_DAY'), 1);
  assert.equal(transitDays('TWENTY_DAYS'), 20);
  assert.equal(transitDays('3'), 3);
  assert.equal(transitDays('UNKNOWN'), undefined);
});

test('a rate shop answer gives quotes for catalog services only, with account and list prices and dates', () => {
  const result = parseRateResponse(fixture('rate-shop'), request, services);
  assert.ok(result.ok);
  const byService = Object.fromEntries(result.value.map((q) => [q.service, q]));
  assert.deepEqual(Object.keys(byService).sort(), ['FEDEX_2_DAY', 'FEDEX_GROUND', 'PRIORITY_OVERNIGHT']);
  assert.deepEqual(byService.FEDEX_GROUND, {
    carrier: 'fedex',
    service: 'FEDEX_GROUND',
    serviceName: 'FedEx Ground',
    amountCents: 1421,
    listAmountCents: 1785,
    currency: 'USD',
    billableWeightLb: 10,
    zone: '5',
    deliveryDays: 3,
    estimatedDeliveryDate: '2024-05-06',
    guaranteed: false,
  });
  assert.equal(byService.FEDEX_2_DAY!.estimatedDeliveryDate, '2024-05-03');
  assert.equal(byService.FEDEX_2_DAY!.deliveryDays, 2);
  assert.equal(byService.FEDEX_2_DAY!.guaranteed, true);
  assert.equal(byService.PRIORITY_OVERNIGHT!.estimatedDeliveryDate, '2024-05-02');
  assert.equal(byService.PRIORITY_OVERNIGHT!.listAmountCents, 8810);
});

test('request.services filters the quotes; none left is service_unavailable', () => {
  const one = parseRateResponse(fixture('rate-shop'), { ...request, services: ['FEDEX_2_DAY'] }, services);
  assert.ok(one.ok);
  assert.deepEqual(one.value.map((q) => q.service), ['FEDEX_2_DAY']);
  const none = parseRateResponse(fixture('rate-shop'), { ...request, services: ['STANDARD_OVERNIGHT'] }, services);
  assert.equal(!none.ok && none.error.code, 'service_unavailable');
});

test('single objects instead of arrays, money as strings and KG weights still parse', () => {
  const result = parseRateResponse(fixture('rate-single-object'), request, services);
  assert.ok(result.ok);
  assert.equal(result.value.length, 1);
  const q = result.value[0]!;
  assert.equal(q.service, 'GROUND_HOME_DELIVERY');
  assert.equal(q.amountCents, 1940);
  assert.equal(q.listAmountCents, 1940);
  assert.equal(q.billableWeightLb, 5);
  assert.equal(q.deliveryDays, 5);
  assert.equal(q.zone, '8');
});

test('an answer without rateReplyDetails is a carrier_error', () => {
  const result = parseRateResponse({ output: {} }, request, services);
  assert.equal(!result.ok && result.error.code, 'carrier_error');
});
