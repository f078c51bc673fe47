import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import type { DomesticRateRequest } from '../carrier.ts';
import { buildRateRequest, parseCommitments, parseRates } from './rate.ts';

const fixture = (name: string): unknown => JSON.parse(readFileSync(new URL(`./fixtures/${name}`, import.meta.url), 'utf8'));

const request: DomesticRateRequest = {
  from: { street1: '415 Mission St', city: 'San Francisco', state: 'CA', zip: '94105' },
  to: { street1: '3120 M St NW', city: 'Washington', state: 'DC', zip: '20007-3704' },
  parcels: [{ weightLb: 2, dimensionsIn: { length: 6, width: 12, height: 4 } }],
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
      surcharges: [],
    },
  ]);
});

test('an answer without pricingOptions is a carrier_error', () => {
  const result = parseRates({ totalBasePrice: 3 }, request);
  assert.equal(result.ok ? null : result.error.code, 'carrier_error');
});

test('a parcel without dimensions is searched as the smallest machinable parcel, not 0 x 0 x 0', () => {
  const body = buildRateRequest({ ...request, parcels: [{ weightLb: 1 }] }) as { packageDescription: Record<string, unknown> };
  assert.deepEqual([body.packageDescription.length, body.packageDescription.width, body.packageDescription.height], [6, 3, 0.25]);
});

test('only the single-piece rate of the parcel\'s processing category is quoted: no APO/FPO box, cubic, soft pack, flat rate or other category', () => {
  const result = parseRates(fixture('rates-indicators.json'), request);
  assert.ok(result.ok);
  const pm = result.value.find((q) => q.service === 'PRIORITY_MAIL')!;
  assert.equal(pm.amountCents, 1030);
});

test('fees beside the base price are quoted: a rate without totalBasePrice adds its fees[]', () => {
  const result = parseRates(fixture('rates-indicators.json'), request);
  assert.ok(result.ok);
  const ground = result.value.find((q) => q.service === 'USPS_GROUND_ADVANTAGE')!;
  assert.equal(ground.amountCents, 692 + 1800);
  // "Nonstandard Volume > 2 cu ft" is the nonstandard surcharge the amount includes.
  assert.deepEqual(ground.surcharges, [{ type: 'nonstandard', amountCents: 1800 }]);
});

test('the spec\'s outbound example: totalBasePrice already holds the nonstandard fee, counted once', () => {
  const long = { ...request, parcels: [{ weightLb: 1, dimensionsIn: { length: 24, width: 6, height: 4 } }] };
  const result = parseRates(fixture('options-outbound-spec-example.json'), long);
  assert.ok(result.ok);
  assert.deepEqual(result.value.map((q) => [q.service, q.amountCents, q.deliveryDays, q.estimatedDeliveryDate]), [['USPS_GROUND_ADVANTAGE', 917, 2, '2025-01-08']]);
  assert.deepEqual(result.value[0]!.surcharges, [{ type: 'nonstandard', amountCents: 300 }]);
  // The same answer does not fit a parcel that is machinable: USPS priced a nonstandard one.
  assert.equal(parseRates(fixture('options-outbound-spec-example.json'), request).ok, false);
});

test('a return search asks ALL_RETURNS; return classes are quoted under the outbound code with the outbound commitment', () => {
  const ret = { ...request, isReturn: true };
  assert.equal((buildRateRequest(ret) as { packageDescription: { mailClass: string } }).packageDescription.mailClass, 'ALL_RETURNS');
  assert.equal((buildRateRequest(ret, false) as { packageDescription: { mailClass: string } }).packageDescription.mailClass, 'ALL_OUTBOUND');
  const commitments = parseCommitments(fixture('rates.json'));
  const result = parseRates(fixture('options-return-spec-example.json'), ret, commitments);
  assert.ok(result.ok);
  assert.deepEqual(
    result.value.map((q) => [q.service, q.amountCents, q.deliveryDays, q.estimatedDeliveryDate]),
    [
      ['USPS_GROUND_ADVANTAGE', 465, 5, '2025-01-13'],
      ['PRIORITY_MAIL', 990, 2, '2025-01-08'],
    ],
  );
  // Without commitments a return class has no delivery day to promise.
  assert.equal(parseRates(fixture('options-return-spec-example.json'), ret).ok, false);
  // An outbound search does not read return classes.
  assert.equal(parseRates(fixture('options-return-spec-example.json'), request).ok, false);
});

/** A search answer for one class: one single-piece option per price type, with these extraServices entries. */
function answer(mailClass: string, extraServices: object[], processingCategory = 'MACHINABLE') {
  const option = (priceType: string, price: number) => ({
    commitment: { name: '2 Days', expectedDeliveryDate: '2025-01-08' },
    totalBasePrice: price,
    totalPrice: price + extraServices.reduce((sum, e) => sum + (e as { price: number }).price, 0),
    rates: [{ priceType, price, weight: 2, mailClass, zone: '05', processingCategory, rateIndicator: 'SP' }],
    extraServices,
  });
  return { pricingOptions: ['RETAIL', 'COMMERCIAL'].map((priceType) => ({ priceType, shippingOptions: [{ mailClass, rateOptions: [option(priceType, priceType === 'RETAIL' ? 12 : 10)] }] })) };
}

test("a search for a service with options names its class and asks its extra service codes: Priority Mail Express's 981, a nonstandard parcel", () => {
  const signed = { ...request, options: { signature: 'standard' as const, dry_ice: { weight: { value: 1, unit: 'lb' as const } } } };
  const pm = buildRateRequest(signed, false, 'PRIORITY_MAIL') as { packageDescription: Record<string, unknown> };
  assert.deepEqual([pm.packageDescription.mailClass, pm.packageDescription.extraServices], ['PRIORITY_MAIL', [921, 819]]);
  const pme = buildRateRequest({ ...signed, parcels: [{ ...request.parcels[0]!, insuredCents: 30_000 }] }, true, 'PRIORITY_MAIL_EXPRESS') as { packageDescription: Record<string, unknown> };
  assert.deepEqual([pme.packageDescription.mailClass, pme.packageDescription.extraServices, pme.packageDescription.packageValue], ['PRIORITY_MAIL_EXPRESS_RETURN_SERVICE', [981, 819, 930], 300]);
  const odd = buildRateRequest({ ...request, options: { non_machinable: true } }, false, 'USPS_GROUND_ADVANTAGE') as { packageDescription: Record<string, unknown> };
  assert.equal(odd.packageDescription.hasNonstandardCharacteristics, true);
  assert.equal('extraServices' in odd.packageDescription, false);
});

test('a quote with options includes the price of each extra service asked, shown as its surcharge; one USPS does not price is not quoted', () => {
  const adult = { ...request, options: { signature: 'adult' as const, hazmat: 'lithium_ion_in_equipment' as const }, services: ['PRIORITY_MAIL'] };
  const priced = parseRates(answer('PRIORITY_MAIL', [{ name: 'Adult Signature Required 21 or Over', price: 8.8, extraService: '922' }, { name: 'HAZMAT', price: 1.75, extraService: 820 }]), adult);
  assert.ok(priced.ok);
  assert.deepEqual(
    priced.value.map((q) => [q.service, q.amountCents, q.listAmountCents, q.surcharges]),
    [['PRIORITY_MAIL', 1000 + 880 + 175, 1200 + 880 + 175, [{ type: 'signature', amountCents: 880 }, { type: 'hazmat', amountCents: 175 }]]],
  );
  const unpriced = parseRates(answer('PRIORITY_MAIL', [{ name: 'Adult Signature Required 21 or Over', price: 8.8, extraService: '922' }]), adult);
  assert.equal(unpriced.ok ? null : unpriced.error.code, 'service_unavailable');
  // Limited quantities go by Ground Advantage only: no other class is read for them.
  const limited = parseRates(answer('PRIORITY_MAIL', [{ price: 1.5, extraService: '831' }]), { ...request, options: { hazmat: 'limited_quantity' } });
  assert.equal(limited.ok, false);
});

test('a non-machinable parcel is quoted at the nonstandard single-piece rate only', () => {
  const odd = { ...request, options: { non_machinable: true }, services: ['USPS_GROUND_ADVANTAGE'] };
  assert.equal(parseRates(answer('USPS_GROUND_ADVANTAGE', []), odd).ok, false);
  const quoted = parseRates(answer('USPS_GROUND_ADVANTAGE', [], 'NONSTANDARD'), odd);
  assert.deepEqual(quoted.ok && quoted.value.map((q) => q.amountCents), [1000]);
});
