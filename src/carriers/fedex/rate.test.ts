import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { DomesticRateRequest } from '../carrier.ts';
import { carrierCatalog } from '../catalog.ts';
import { fixture } from './fixtures.ts';
import { buildRateRequest, parseRateResponse, transitDays } from './rate.ts';

const services = carrierCatalog.find((c) => c.id === 'fedex')!.services;
const request: DomesticRateRequest = {
  from: { name: 'Shop', company: 'Shop Inc', street1: '1 Main St', city: 'Nashville', state: 'TN', zip: '37201' },
  to: { name: 'Ada', street1: '415 Mission St', city: 'San Francisco', state: 'CA', zip: '94105' },
  parcels: [{ weightLb: 9.2, dimensionsIn: { length: 12.2, width: 10, height: 7.5 } }],
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
  assert.deepEqual(body.requestedShipment.recipient.address, { city: 'San Francisco', stateOrProvinceCode: 'CA', postalCode: '94105', countryCode: 'US', residential: true });
  assert.equal(body.rateRequestControlParameters.returnTransitTimes, true);
  assert.equal('shipmentSpecialServices' in body.requestedShipment, false);
});

test('a return is rated as the printed return label it will be bought as', () => {
  const body = buildRateRequest({ ...request, isReturn: true, from: request.to, to: request.from }, '740561073');
  assert.deepEqual(body.requestedShipment.shipmentSpecialServices, { specialServiceTypes: ['RETURN_SHIPMENT'], returnShipmentDetail: { returnType: 'PRINT_RETURN_LABEL' } });
  assert.equal(body.requestedShipment.shipper.address.postalCode, '94105');
  assert.deepEqual(body.requestedShipment.recipient.address, { city: 'Nashville', stateOrProvinceCode: 'TN', postalCode: '37201', countryCode: 'US', residential: false });
});

const reply = (serviceType: string, ratedShipmentDetails: unknown[], extra: Record<string, unknown> = {}) => ({ output: { rateReplyDetails: [{ serviceType, ratedShipmentDetails, ...extra }] } });

test('a priced service without transit data is estimated from FedEx service commitments, not dropped', () => {
  const priced = (zone?: string) => [{ rateType: 'ACCOUNT', totalNetCharge: 20, shipmentRateDetail: { currency: 'USD', ...(zone ? { rateZone: zone } : {}) } }];
  const days = (service: string, zone?: string) => {
    const result = parseRateResponse(reply(service, priced(zone)), request, services);
    assert.ok(result.ok, service);
    return [result.value[0]!.deliveryDays, result.value[0]!.estimatedDeliveryDate];
  };
  // A Wednesday ship date: one business day is Thursday, three the next Monday.
  assert.deepEqual(days('PRIORITY_OVERNIGHT'), [1, '2024-05-02']);
  assert.deepEqual(days('STANDARD_OVERNIGHT'), [1, '2024-05-02']);
  assert.deepEqual(days('FEDEX_2_DAY'), [2, '2024-05-03']);
  assert.deepEqual(days('FEDEX_EXPRESS_SAVER'), [3, '2024-05-06']);
  assert.deepEqual(days('FEDEX_GROUND', '2'), [1, '2024-05-02']);
  assert.deepEqual(days('FEDEX_GROUND', '05'), [3, '2024-05-06']);
  assert.deepEqual(days('GROUND_HOME_DELIVERY', '8'), [5, '2024-05-08']);
  assert.deepEqual(days('GROUND_HOME_DELIVERY', '17'), [7, '2024-05-10']);
  assert.deepEqual(days('FEDEX_GROUND'), [5, '2024-05-08']);
});

test('the account price is the ACCOUNT entry wherever it stands, the list price the LIST entry', () => {
  const details = [
    { rateType: 'PREFERRED_CURRENCY', totalNetCharge: 50.1, shipmentRateDetail: { currency: 'CAD', rateZone: '5' } },
    { rateType: 'LIST', totalNetCharge: 48.9, shipmentRateDetail: { currency: 'USD', rateZone: '5' } },
    { rateType: 'ACCOUNT', totalNetCharge: 36.02, shipmentRateDetail: { currency: 'USD', rateZone: '5' } },
  ];
  const result = parseRateResponse(reply('FEDEX_2_DAY', details, { commit: { transitDays: { minimumTransitTime: 'TWO_DAYS' } } }), request, services);
  assert.ok(result.ok);
  assert.deepEqual([result.value[0]!.amountCents, result.value[0]!.listAmountCents, result.value[0]!.currency], [3602, 4890, 'USD']);
  // Only a list price: the account pays it.
  const listOnly = parseRateResponse(reply('FEDEX_2_DAY', details.slice(0, 2)), request, services);
  assert.ok(listOnly.ok);
  assert.deepEqual([listOnly.value[0]!.amountCents, listOnly.value[0]!.listAmountCents], [4890, 4890]);
  // Only a price in a preferred currency: no price of the label.
  const preferred = parseRateResponse(reply('FEDEX_2_DAY', details.slice(0, 1)), request, services);
  assert.equal(!preferred.ok && preferred.error.code, 'service_unavailable');
});

test("the currency is the one the rate document puts in shipmentRateDetail, and it is never relabelled", () => {
  const cad = parseRateResponse(reply('FEDEX_GROUND', [{ rateType: 'ACCOUNT', totalNetCharge: 20, shipmentRateDetail: { currency: 'CAD', rateZone: '5' } }]), request, services);
  assert.ok(cad.ok);
  assert.equal(cad.value[0]!.currency, 'CAD');
  // A list price in another currency than the account's is not taken as this quote's list price.
  const mixed = parseRateResponse(
    reply('FEDEX_GROUND', [
      { rateType: 'ACCOUNT', totalNetCharge: 20, shipmentRateDetail: { currency: 'USD' } },
      { rateType: 'LIST', totalNetCharge: 30, shipmentRateDetail: { currency: 'CAD' } },
    ]),
    request,
    services,
  );
  assert.ok(mixed.ok);
  assert.deepEqual([mixed.value[0]!.amountCents, mixed.value[0]!.listAmountCents], [2000, 2000]);
});

test("a price in another currency carries FedEx's own US-dollar figure: its preferred-currency entry, else its exchange rate, else none", () => {
  const cad = { rateType: 'ACCOUNT', totalNetCharge: 20, shipmentRateDetail: { currency: 'CAD', rateZone: '5' } };
  const usdOf = (details: unknown[]) => {
    const parsed = parseRateResponse(reply('FEDEX_GROUND', details), request, services);
    assert.ok(parsed.ok);
    assert.equal(parsed.value[0]!.amountCents, 2000, 'the price itself stays in CAD');
    return parsed.value[0]!.usdAmountCents;
  };
  assert.equal(usdOf([{ rateType: 'PREFERRED_CURRENCY', totalNetCharge: 14.6, shipmentRateDetail: { currency: 'USD' } }, cad]), 1460);
  assert.equal(usdOf([{ ...cad, shipmentRateDetail: { ...cad.shipmentRateDetail, currencyExchangeRate: { fromCurrency: 'CAD', intoCurrency: 'USD', rate: 0.7 } } }]), 1400);
  // An exchange rate out of another currency than the price's, or a preferred entry not in USD, is no USD price.
  assert.equal(usdOf([{ ...cad, shipmentRateDetail: { ...cad.shipmentRateDetail, currencyExchangeRate: { fromCurrency: 'EUR', intoCurrency: 'USD', rate: 1.1 } } }]), undefined);
  assert.equal(usdOf([{ rateType: 'PREFERRED_CURRENCY', totalNetCharge: 13, shipmentRateDetail: { currency: 'EUR' } }, cad]), undefined);
  assert.equal(usdOf([cad]), undefined);
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
    surcharges: [],
  });
  assert.equal(byService.FEDEX_2_DAY!.estimatedDeliveryDate, '2024-05-03');
  assert.equal(byService.FEDEX_2_DAY!.deliveryDays, 2);
  assert.equal(byService.FEDEX_2_DAY!.guaranteed, true);
  assert.equal(byService.PRIORITY_OVERNIGHT!.estimatedDeliveryDate, '2024-05-02');
  assert.equal(byService.PRIORITY_OVERNIGHT!.listAmountCents, 8810);
});

test("the account entry's surcharges, typed by FedEx's surcharge type (delivery areas by their description), others as other", () => {
  const detail = (rateType: string, net: number, surCharges: unknown[], packages: unknown[] = []) => ({ rateType, totalNetCharge: net, shipmentRateDetail: { currency: 'USD', rateZone: '5', surCharges }, ratedPackages: packages });
  const surcharges = (details: unknown[]) => {
    const result = parseRateResponse(reply('FEDEX_GROUND', details), request, services);
    assert.ok(result.ok);
    return result.value[0]!.surcharges;
  };
  const account = [
    { type: 'FUEL', description: 'Fuel Surcharge', amount: 3.1 },
    { type: 'DELIVERY_AREA', description: 'DAS Extended Comm', amount: 2.7 },
    { type: 'RESIDENTIAL_DELIVERY', description: 'Residential', amount: 5.95 },
    { type: 'PEAK_ADDTIONAL_HANDLING', description: 'Peak', amount: 1 },
    { type: 'SOMETHING_NEW', description: 'New', amount: 0.4 },
  ];
  assert.deepEqual(surcharges([detail('LIST', 60, [{ type: 'FUEL', amount: 9 }]), detail('ACCOUNT', 40, account)]), [
    { type: 'fuel', amountCents: 310 },
    { type: 'residential', amountCents: 595 },
    { type: 'extended_delivery_area', amountCents: 270 },
    { type: 'peak', amountCents: 100 },
    { type: 'other', amountCents: 40 },
  ]);
  // Where the shipment itemizes none, its packages'.
  const packages = [{ packageRateDetail: { surcharges: [{ type: 'OVERSIZE', amount: 30 }] } }];
  assert.deepEqual(surcharges([detail('ACCOUNT', 80, [], packages)]), [{ type: 'oversize', amountCents: 3000 }]);
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

test("an answer in the rate document's shape: the ACCOUNT entry after the LIST one, dates from each kind of transit data", () => {
  const result = parseRateResponse(fixture('rate-spec-shape'), request, services);
  assert.ok(result.ok);
  const byService = Object.fromEntries(result.value.map((q) => [q.service, q]));
  assert.deepEqual(Object.keys(byService).sort(), ['FEDEX_EXPRESS_SAVER', 'FEDEX_GROUND', 'PRIORITY_OVERNIGHT']);
  const pick = (q: (typeof result.value)[number]) => [q.amountCents, q.listAmountCents, q.currency, q.zone, q.deliveryDays, q.estimatedDeliveryDate, q.guaranteed];
  assert.deepEqual(pick(byService.FEDEX_GROUND!), [1443, 1809, 'USD', '5', 3, '2024-05-06', false]);
  assert.deepEqual(pick(byService.PRIORITY_OVERNIGHT!), [7132, 9580, 'USD', '05', 1, '2024-05-02', true]);
  // "Deliverydate unavailable": Express Saver's third business day.
  assert.deepEqual(pick(byService.FEDEX_EXPRESS_SAVER!), [3357, 3357, 'USD', '05', 3, '2024-05-06', true]);
});

test('several boxes are rated together: a line item per box, totalPackageCount, options and declared value on each', () => {
  const parcels = [
    { weightLb: 2, dimensionsIn: { length: 10, width: 8, height: 6 }, insuredCents: 45_000 },
    { weightLb: 3.5, insuredCents: 45_000 },
  ];
  const body = buildRateRequest({ ...request, parcels, options: { signature: 'standard' } }, '740561073');
  const shipment = body.requestedShipment;
  assert.equal(shipment.totalPackageCount, 2);
  assert.deepEqual(shipment.requestedPackageLineItems, [
    { weight: { units: 'LB', value: 2 }, dimensions: { length: 10, width: 8, height: 6, units: 'IN' }, declaredValue: { amount: 450, currency: 'USD' }, packageSpecialServices: { specialServiceTypes: ['SIGNATURE_OPTION'], signatureOptionType: 'DIRECT' } },
    { weight: { units: 'LB', value: 3.5 }, declaredValue: { amount: 450, currency: 'USD' }, packageSpecialServices: { specialServiceTypes: ['SIGNATURE_OPTION'], signatureOptionType: 'DIRECT' } },
  ]);
});

test("a quote for several boxes is FedEx's shipment total, with the shipment's surcharges; its billable weight the boxes' own", () => {
  const parcels = [{ weightLb: 2.2 }, { weightLb: 3.5 }];
  const detail = { rateType: 'ACCOUNT', totalNetCharge: 41.7, shipmentRateDetail: { currency: 'USD', rateZone: '5', surCharges: [{ type: 'FUEL', amount: 3.8 }, { type: 'FUEL', amount: 0.4 }] } };
  const result = parseRateResponse(reply('FEDEX_2_DAY', [detail]), { ...request, parcels }, services);
  assert.ok(result.ok);
  const quote = result.value[0]!;
  assert.equal(quote.amountCents, 4170);
  assert.deepEqual(quote.surcharges, [{ type: 'fuel', amountCents: 420 }]);
  // No totalBillingWeight stated: each box rounded up to the pound, summed.
  assert.equal(quote.billableWeightLb, 7);
});
