import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { CarrierResult } from '../../src/carriers/carrier.ts';
import { abroad, boxDeclarations } from '../../src/carriers/abroad.ts';
import { buildInternationalLabelRequest, buildInternationalRatesRequest, internationalRatesPath, internationalRatesPathOf, internationalTotalRatesPath, parseInternationalLabel, parseInternationalRates, uspsMailClassesAbroad } from '../../src/carriers/usps/international.ts';
import { abroadCases, declarations, merchant, recipientsAbroad } from './abroad-cases.ts';
import { assertContract, contractViolations } from './check.ts';
import { InternationalLabelRequest, internationalExtraServiceFaults } from './usps/international-labels.ts';
import { InternationalRateListQuery, TotalRatesQuery, totalRatesFaults } from './usps/international-prices.ts';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

function built(c: CarrierResult<Record<string, unknown>>): Json {
  if (!c.ok) assert.fail(`the builder refused: ${c.error.detail}`);
  return c.value;
}

const base = { from: merchant, labelFormat: 'pdf' as const, idempotencyKey: 'k', parcels: [{ weightLb: 3 }], shipDate: new Date('2026-11-30T12:00:00Z') };

test('international label requests keep international-labels.yaml with their customs form: every mail class, country and declaration in dollars', () => {
  let checked = 0;
  for (const { request, what } of abroadCases([...uspsMailClassesAbroad])) {
    // The adapter refuses what USPS would before it builds anything: values in another currency than the dollar.
    if (request.customs === declarations.euros) {
      const refused = abroad(request, { id: 'usps', name: 'USPS' });
      assert.match(!refused.ok ? refused.error.detail : 'built', /USPS takes customs values in USD only; this declaration is in EUR/, what);
      continue;
    }
    const body = built(buildInternationalLabelRequest(request));
    assertContract(InternationalLabelRequest, body, what);
    const form = body.customsForm;
    assert.equal(form.contents.length, request.customs.items.length, what);
    assert.deepEqual(form.contents.map((l: Json) => l.HSTariffNumber), request.customs.items.map((i) => i.hs_tariff_number), what);
    assert.equal(body.toAddress.countryISOAlpha2Code, request.to.country, what);
    assert.equal(form.AESITN, request.customs.aes_itn ? `AES ${request.customs.aes_itn}` : (request.customs.eel_pfc ?? (request.to.country === 'CA' ? 'NOEEI 30.36' : 'NOEEI 30.37(a)')), what);
    checked++;
  }
  assert.ok(checked > 150, `checked ${checked}`);
});

test('the customs form says what the declaration says: content type, comments, totals in dollars and pounds, non-delivery', () => {
  const body = built(buildInternationalLabelRequest({ ...base, to: recipientsAbroad.GB!, service: 'PRIORITY_MAIL_INTERNATIONAL', customs: declarations.merchandise! }));
  assert.equal(body.customsForm.customsContentType, 'MERCHANDISE');
  assert.deepEqual(body.customsForm.contents[0], { itemDescription: 'Stoneware coffee mug', itemQuantity: 2, itemTotalValue: 37, weightUOM: 'lb', itemTotalWeight: 1.8, HSTariffNumber: '691200', countryofOrigin: 'US' });
  // 250 g of scarf is 0.5512 lb, rounded up; its 70-character description cut at a word to 30.
  assert.equal(body.customsForm.contents[1].itemTotalWeight, 0.56);
  assert.equal(body.customsForm.contents[1].itemDescription, 'Hand-knitted merino wool');
  assert.equal(body.packageDescription.packageOptions.nonDeliveryOption, 'RETURN');
  assert.equal(body.toAddress.country, 'UNITED KINGDOM');
  const other = built(buildInternationalLabelRequest({ ...base, to: recipientsAbroad.FR!, service: 'PRIORITY_MAIL_EXPRESS_INTERNATIONAL', customs: declarations.other! }));
  assert.equal(other.customsForm.customsContentType, 'OTHER');
  assert.equal(other.customsForm.contentComments, 'Replacement parts under');
  const gift = built(buildInternationalLabelRequest({ ...base, to: recipientsAbroad.JP!, service: 'FIRST-CLASS_PACKAGE_INTERNATIONAL_SERVICE', customs: declarations.gift! }));
  assert.equal(gift.packageDescription.packageOptions.nonDeliveryOption, 'ABANDON');
});

test('the contract refuses what USPS refuses: no customs form, a vague description, a wrong HS shape, lines without value, OTHER without comments, a phone written with spaces', () => {
  const good = built(buildInternationalLabelRequest({ ...base, to: recipientsAbroad.DE!, service: 'PRIORITY_MAIL_INTERNATIONAL', customs: declarations.merchandise! }));
  const faults = (change: (b: Json) => void): string => {
    const copy = structuredClone(good);
    change(copy);
    return contractViolations(InternationalLabelRequest, copy).join('\n');
  };
  assert.equal(faults(() => undefined), '');
  assert.match(faults((b) => delete b.customsForm), /must have required property 'customsForm'/);
  assert.match(faults((b) => delete b.customsForm.AESITN), /must have required property 'AESITN'/);
  assert.match(faults((b) => (b.customsForm.contents[0].itemDescription = 'Gift')), /itemDescription must NOT be valid/);
  assert.match(faults((b) => (b.customsForm.contents[0].itemDescription = 'merchandise')), /itemDescription must NOT be valid/);
  assert.match(faults((b) => (b.customsForm.contents[0].HSTariffNumber = '6912')), /HSTariffNumber must NOT have fewer than 6 characters/);
  assert.match(faults((b) => delete b.customsForm.contents[0].itemTotalValue), /must have required property 'itemTotalValue'/);
  assert.match(faults((b) => (b.customsForm.contents[0].countryofOrigin = 'usa')), /countryofOrigin must match pattern/);
  assert.match(faults((b) => (b.customsForm.customsContentType = 'OTHER')), /must have required property 'contentComments'/);
  assert.match(faults((b) => (b.customsForm.contents = [])), /contents must NOT have fewer than 1 items/);
  assert.match(faults((b) => delete b.toAddress.countryISOAlpha2Code), /must have required property 'countryISOAlpha2Code'/);
  assert.match(faults((b) => (b.toAddress.phone = '+49 551 390')), /phone must match pattern/);
  assert.match(faults((b) => (b.packageDescription.mailClass = 'PRIORITY_MAIL')), /mailClass/);
  assert.match(faults((b) => (b.packageDescription.weight = 71)), /weight must be <= 70/);
});

test('USPS refuses before it is asked: a domestic mail class abroad, more than 30 lines, over 70 lb', () => {
  const refused = (c: CarrierResult<unknown>) => (c.ok ? 'built' : `${c.error.code}: ${c.error.detail}`);
  const to = recipientsAbroad.AU!;
  assert.match(refused(buildInternationalLabelRequest({ ...base, to, service: 'PRIORITY_MAIL', customs: declarations.gift! })), /^service_unavailable/);
  const many = { ...declarations.gift!, items: Array.from({ length: 31 }, () => declarations.gift!.items[0]!) };
  assert.match(refused(buildInternationalLabelRequest({ ...base, to, service: 'PRIORITY_MAIL_INTERNATIONAL', customs: many })), /^not_serviced: A USPS customs form holds at most 30 lines/);
  assert.match(refused(buildInternationalLabelRequest({ ...base, to, service: 'PRIORITY_MAIL_INTERNATIONAL', customs: declarations.gift!, parcels: [{ weightLb: 71 }] })), /^parcel_too_large/);
});

test('an international label answer is read by its internationalTrackingNumber, postage and fees', () => {
  const pdf = Buffer.from('%PDF-1.7\n% label\n%%EOF\n');
  const answer = { internationalTrackingNumber: 'LZ123456785US', postage: 52.1, fees: [{ name: 'Nonstandard', price: 1.5 }], labelImage: pdf.toString('base64') };
  const parsed = parseInternationalLabel(answer);
  assert.ok(parsed.ok);
  assert.equal(parsed.value.trackingNumber, 'LZ123456785US');
  assert.equal(parsed.value.postageCents, 5360);
  assert.equal(parsed.value.file?.format, 'pdf');
  const missing = parseInternationalLabel({ postage: 1, labelImage: pdf.toString('base64') });
  assert.ok(!missing.ok && /internationalTrackingNumber/.test(missing.error.detail));
});

test('international price searches keep international-prices.yaml for every country, parcel and price type', () => {
  for (const { request, what } of abroadCases(['PRIORITY_MAIL_INTERNATIONAL'])) {
    for (const priceType of ['RETAIL', 'COMMERCIAL'] as const) assertContract(InternationalRateListQuery, buildInternationalRatesRequest(request, priceType), `${what} ${priceType}`);
  }
  const body = buildInternationalRatesRequest({ ...base, to: recipientsAbroad.HK!, customs: declarations.gift!, parcels: [{ weightLb: 2 }] }, 'RETAIL');
  assert.equal(body.destinationCountryCode, 'HK');
  assert.equal('foreignPostalCode' in body, false, 'Hong Kong has no postal codes');
  assert.match(contractViolations(InternationalRateListQuery, { ...body, destinationZIPCode: '10001' }).join('\n'), /must NOT have additional properties/);
});

test('international prices become quotes: the account price, the retail price beside it, no delivery date promised', () => {
  const option = (mailClass: string, price: number) => ({ totalBasePrice: price, rates: [{ mailClass, price, weight: 3, dimWeight: 4, zone: '5', fees: [] }] });
  const r = { ...base, to: recipientsAbroad.FR!, customs: declarations.gift! };
  const quotes = parseInternationalRates({ rateOptions: [option('PRIORITY_MAIL_INTERNATIONAL', 45.5), option('GLOBAL_EXPRESS_GUARANTEED', 90)] }, { rateOptions: [option('PRIORITY_MAIL_INTERNATIONAL', 50.05)] }, r);
  assert.ok(quotes.ok);
  assert.deepEqual(quotes.value, [{ carrier: 'usps', service: 'PRIORITY_MAIL_INTERNATIONAL', serviceName: 'Priority Mail International', amountCents: 4550, listAmountCents: 5005, currency: 'USD', billableWeightLb: 4, zone: '5', deliveryDays: null, estimatedDeliveryDate: null, guaranteed: false, surcharges: [] }]);
  const none = parseInternationalRates({ rateOptions: [] }, { rateOptions: [] }, r);
  assert.ok(!none.ok && none.error.code === 'service_unavailable');
});

test("each box's label abroad carries only the lines of its box; a declaration that names no box is not split", () => {
  const { request } = abroadCases(['PRIORITY_MAIL_INTERNATIONAL']).next().value!;
  const customs = { ...declarations.merchandise!, items: declarations.merchandise!.items.map((i, n) => ({ ...i, parcel_index: n % 2 })) };
  const split = boxDeclarations(customs, 2, 'USPS');
  assert.ok(split.ok);
  for (const [b, own] of split.value.entries()) {
    const body = built(buildInternationalLabelRequest({ ...request, customs: own, parcels: [{ weightLb: 5 }] }));
    assertContract(InternationalLabelRequest, body, `box ${b}`);
    assert.equal((body.customsForm as Json).contents.length, customs.items.filter((i) => i.parcel_index === b).length);
  }
  assert.match(JSON.stringify(boxDeclarations(declarations.merchandise!, 2, 'USPS')), /parcel_index/);
});

test('an insured parcel abroad is priced by the total-rates search with its insurance code and value, and labelled with them', () => {
  const r = { ...base, to: recipientsAbroad.GB!, customs: declarations.merchandise!, service: 'PRIORITY_MAIL_INTERNATIONAL' };
  for (const [dollars, code] of [[450, 930], [500, 930], [500.01, 931], [5000, 931]] as const) {
    const insured = { ...r, parcels: [{ weightLb: 3, insuredCents: Math.round(dollars * 100) }] };
    assert.equal(internationalRatesPathOf(insured), internationalTotalRatesPath);
    const query = buildInternationalRatesRequest(insured, 'COMMERCIAL');
    assertContract(TotalRatesQuery, query, `${dollars}`);
    assert.deepEqual([query.extraServices, query.itemValue], [[code], dollars]);
    assert.deepEqual(totalRatesFaults(query as Json), []);
    const label = built(buildInternationalLabelRequest(insured));
    assertContract(InternationalLabelRequest, label, `${dollars}`);
    assert.deepEqual(label.packageDescription.extraServices, [code]);
    assert.deepEqual(label.packageDescription.packageOptions, { packageValue: dollars, nonDeliveryOption: 'RETURN' });
    assert.deepEqual(internationalExtraServiceFaults(label), []);
  }
  assert.equal(internationalRatesPathOf(r), internationalRatesPath);
  const plain = buildInternationalRatesRequest(r, 'RETAIL');
  assert.equal('extraServices' in plain || 'itemValue' in plain, false);
  assert.equal('extraServices' in built(buildInternationalLabelRequest(r)).packageDescription, false);
});

test('the contracts refuse insurance as the specs do: two insurance codes, a code the API lacks, insurance without its value', () => {
  const insured = built(buildInternationalLabelRequest({ ...base, to: recipientsAbroad.DE!, service: 'PRIORITY_MAIL_INTERNATIONAL', customs: declarations.merchandise!, parcels: [{ weightLb: 3, insuredCents: 30_000 }] }));
  const twice = structuredClone(insured);
  twice.packageDescription.extraServices = [930, 931];
  assert.match(internationalExtraServiceFaults(twice).join('\n'), /one insurance extra service/);
  const valueless = structuredClone(insured);
  delete valueless.packageDescription.packageOptions.packageValue;
  assert.match(internationalExtraServiceFaults(valueless).join('\n'), /packageValue is required/);
  const domesticCode = structuredClone(insured);
  domesticCode.packageDescription.extraServices = [921];
  assert.notEqual(contractViolations(InternationalLabelRequest, domesticCode).length, 0);
  const query = buildInternationalRatesRequest({ ...base, to: recipientsAbroad.DE!, customs: declarations.merchandise!, parcels: [{ weightLb: 3, insuredCents: 30_000 }] }, 'RETAIL');
  assert.match(totalRatesFaults({ ...query, itemValue: undefined } as Json).join('\n'), /itemValue is required/);
  assert.notEqual(contractViolations(TotalRatesQuery, { ...query, extraServices: [920] }).length, 0);
  assert.match(contractViolations(InternationalRateListQuery, query).join('\n'), /must NOT have additional properties/, 'the price list alone takes no extra services');
});

test('insured prices abroad: a class that prices the insurance is quoted with it as a surcharge, one that does not is left out', () => {
  const r = { ...base, to: recipientsAbroad.FR!, customs: declarations.gift!, parcels: [{ weightLb: 3, insuredCents: 45_000 }] };
  const option = (mailClass: string, price: number, insurance?: number) => ({
    totalBasePrice: price,
    rates: [{ mailClass, price, weight: 3, zone: '5', fees: [] }],
    ...(insurance !== undefined && { extraServices: [{ extraService: 930, name: 'Insurance <= $500', price: insurance }], totalPrice: Math.round((price + insurance) * 100) / 100 }),
  });
  const commercial = { rateOptions: [option('PRIORITY_MAIL_INTERNATIONAL', 45.5, 7.75), option('FIRST-CLASS_PACKAGE_INTERNATIONAL_SERVICE', 30)] };
  const retail = { rateOptions: [option('PRIORITY_MAIL_INTERNATIONAL', 50.05, 7.75), option('FIRST-CLASS_PACKAGE_INTERNATIONAL_SERVICE', 33)] };
  const quotes = parseInternationalRates(commercial, retail, r);
  assert.ok(quotes.ok);
  assert.deepEqual(quotes.value.map((q) => [q.service, q.amountCents, q.listAmountCents, q.surcharges]), [['PRIORITY_MAIL_INTERNATIONAL', 5325, 5780, [{ type: 'insurance', amountCents: 775 }]]]);
  // The spec declares each extraServices entry as an ExtraServiceRateDetails, itself a list: read alike.
  const nested = parseInternationalRates({ rateOptions: [{ ...option('PRIORITY_MAIL_INTERNATIONAL', 45.5), extraServices: [[{ extraService: 930, price: 7.75 }]] }] }, { rateOptions: [] }, r);
  assert.ok(nested.ok);
  assert.equal(nested.value[0]!.amountCents, 5325);
  const unpriced = parseInternationalRates({ rateOptions: [option('FIRST-CLASS_PACKAGE_INTERNATIONAL_SERVICE', 30)] }, { rateOptions: [] }, r);
  assert.ok(!unpriced.ok && unpriced.error.code === 'service_unavailable' && / insured$/.test(unpriced.error.detail));
});

test('an insured label is charged its postage with the insurance it itemizes, else at least what its rate said', () => {
  const pdf = Buffer.from('%PDF-1.7\n% label\n%%EOF\n').toString('base64');
  const answer = { internationalTrackingNumber: 'LZ123456785US', postage: 45.5, fees: [], labelImage: pdf };
  const itemized = parseInternationalLabel({ ...answer, extraServices: [{ serviceID: '930', serviceName: 'Insurance <= $500', price: 7.75 }] }, { quotedCents: 5325 });
  assert.ok(itemized.ok);
  assert.equal(itemized.value.postageCents, 5325);
  const silent = parseInternationalLabel({ ...answer, extraServices: [] }, { quotedCents: 5325 });
  assert.ok(silent.ok);
  assert.equal(silent.value.postageCents, 5325, "the postage alone leaves the insurance out; the rate's amount included it");
  const uninsured = parseInternationalLabel({ ...answer, extraServices: [] });
  assert.ok(uninsured.ok);
  assert.equal(uninsured.value.postageCents, 4550);
});
