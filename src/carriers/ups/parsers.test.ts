import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import type { CarrierResult, DomesticPurchaseRequest, DomesticRateRequest } from '../carrier.ts';
import type { Address } from '../../schemas/address.ts';
import { splitAddressLines } from './address-lines.ts';
import { buildAddressRequest, parseAddressResponse } from './address.ts';
import { parseVoidResponse } from './cancel.ts';
import { upsFailure } from './errors.ts';
import { buildRateRequest, parseRateResponse } from './rate.ts';
import { imageKindOf } from '../live/image-kind.ts';
import { parseLabelRecoveryResponse } from './recovery.ts';
import { buildShipRequest, parseShipResponse } from './ship.ts';
import { upsStatusByCode, upsTrackingStatus } from './statuses.ts';
import { buildTokenRequest, parseTokenResponse } from './token.ts';
import { buildTrackRequest, clockTime, parseTrackResponse } from './track.ts';
import type { UpsCall } from './wire.ts';

const fixture = (name: string): unknown => JSON.parse(readFileSync(new URL(`./fixtures/${name}.json`, import.meta.url), 'utf8'));

const from: Address = { name: 'Ada Lovelace', company: 'Analytical Co', street1: '415 Mission St', city: 'San Francisco', state: 'CA', zip: '94105', phone: '415-555-0100' };
const to: Address = { name: 'Grace Hopper', street1: '100 Main St', street2: 'Apt 4', city: 'New York', state: 'NY', zip: '10001-1234' };
/** The call a builder made; a refusal fails the test with its detail. */
function built(c: CarrierResult<UpsCall>): UpsCall {
  if (!c.ok) assert.fail(`the builder refused: ${c.error.detail}`);
  return c.value;
}
const rateRequest: DomesticRateRequest = { from, to, parcels: [{ weightLb: 5.5, dimensionsIn: { length: 10, width: 8, height: 6 } }], shipDate: new Date('2026-03-02T12:00:00Z') };

test('token: credentials in HTTP Basic, only grant_type in the form, expires_in read from a string', () => {
  const t = buildTokenRequest({ clientId: 'id', clientSecret: 's:ecret', accountNumber: 'A1B2C3' });
  assert.equal(t.path, '/security/v1/oauth/token');
  assert.equal(t.headers.authorization, `Basic ${Buffer.from('id:s:ecret').toString('base64')}`);
  assert.equal(t.headers['x-merchant-id'], 'A1B2C3');
  assert.deepEqual(t.form, { grant_type: 'client_credentials' });
  assert.deepEqual(parseTokenResponse(200, fixture('token')), { ok: true, value: { accessToken: 'eyJraWQiOi', expiresIn: 14399 } });
  const refused = parseTokenResponse(401, { response: { errors: [{ code: '10401', message: 'Invalid Client Id' }] } });
  assert.equal(refused.ok, false);
  assert.equal(!refused.ok && refused.error.code, 'carrier_unavailable');
  assert.equal(!refused.ok && refused.error.credentialsRefused, true, 'marked refused, for the registry to say where to mend them');
  assert.match(!refused.ok ? refused.error.detail : '', /UPS refused the credentials \(401: 10401 Invalid Client Id\)/);
});

test('rate request: Shop with time in transit, strings with units, residential flag, negotiated rates with an account', () => {
  const c = built(buildRateRequest(rateRequest, 'A1B2C3'));
  assert.equal(c.path, '/api/rating/v2409/Shoptimeintransit');
  // A SubVersion, without which Rating.yaml returns no ItemizedCharges.
  assert.deepEqual((c.body as { RateRequest: { Request: unknown } }).RateRequest.Request, { SubVersion: '2409', TransactionReference: { CustomerContext: 'shipd rate' } });
  const shipment = (c.body as { RateRequest: { Shipment: Record<string, unknown> } }).RateRequest.Shipment;
  assert.deepEqual(shipment.DeliveryTimeInformation, { PackageBillType: '03', Pickup: { Date: '20260302' } });
  assert.deepEqual((shipment.ShipTo as { Address: unknown }).Address, {
    AddressLine: ['100 Main St', 'Apt 4'], City: 'New York', StateProvinceCode: 'NY', PostalCode: '100011234', CountryCode: 'US', ResidentialAddressIndicator: '',
  });
  assert.deepEqual((shipment.Package as unknown[])[0], {
    PackagingType: { Code: '02' },
    Dimensions: { UnitOfMeasurement: { Code: 'IN', Description: 'Inches' }, Length: '10', Width: '8', Height: '6' },
    PackageWeight: { UnitOfMeasurement: { Code: 'LBS', Description: 'Pounds' }, Weight: '5.5' },
  });
  assert.deepEqual(shipment.ShipmentRatingOptions, { NegotiatedRatesIndicator: '' });
  assert.equal('ShipmentRatingOptions' in (built(buildRateRequest(rateRequest, undefined)).body as { RateRequest: { Shipment: object } }).RateRequest.Shipment, false);
});

test('rate answer: catalog services only, negotiated amount, arrival date from time in transit or from the guarantee', () => {
  const r = parseRateResponse(fixture('rate-shop'), rateRequest);
  assert.ok(r.ok);
  assert.deepEqual(r.value.map((q) => q.service), ['03', '02', '01']);
  const [ground, twoDay, nextDay] = r.value;
  assert.deepEqual(ground, {
    carrier: 'ups', service: '03', serviceName: 'UPS Ground', amountCents: 1243, listAmountCents: 1554, currency: 'USD', billableWeightLb: 6, zone: '008',
    deliveryDays: 4, estimatedDeliveryDate: '2026-03-06', guaranteed: false, surcharges: [],
  });
  assert.equal(twoDay!.deliveryDays, 2);
  assert.equal(twoDay!.estimatedDeliveryDate, '2026-03-04');
  assert.equal(twoDay!.guaranteed, true);
  assert.equal(twoDay!.amountCents, 4120);
  assert.equal(nextDay!.estimatedDeliveryDate, '2026-03-03');
  assert.equal(nextDay!.guaranteed, true);
  const only = parseRateResponse(fixture('rate-shop'), { ...rateRequest, services: ['01'] });
  assert.deepEqual(only.ok && only.value.map((q) => q.service), ['01']);
  const none = parseRateResponse(fixture('rate-shop'), { ...rateRequest, services: ['14'] });
  assert.equal(!none.ok && none.error.code, 'service_unavailable');
});

test('rate answer: a single RatedShipment object (pre-v2409) parses; without transit data the published commitment counts', () => {
  const r = parseRateResponse(fixture('rate-single'), rateRequest);
  assert.ok(r.ok);
  assert.equal(r.value.length, 1);
  assert.equal(r.value[0]!.amountCents, 1125);
  assert.equal(r.value[0]!.zone, '');
  assert.equal(r.value[0]!.deliveryDays, 5);
  assert.equal(r.value[0]!.estimatedDeliveryDate, '2026-03-09');
});

test('rate answer: a Worldwide or Standard service without transit data has no delivery estimate, not an invented one', () => {
  const answer = { RateResponse: { RatedShipment: ['07', '08', '65', '11'].map((code) => ({ Service: { Code: code }, TotalCharges: { CurrencyCode: 'USD', MonetaryValue: '80.00' } })) } };
  const r = parseRateResponse(answer, rateRequest);
  assert.ok(r.ok);
  assert.deepEqual(
    r.value.map((q) => [q.service, q.deliveryDays, q.estimatedDeliveryDate]),
    ['07', '08', '65', '11'].map((code) => [code, null, null]),
  );
});

test('rate answer: the itemized surcharges of the price quoted, by code or description, shipment and package summed per type', () => {
  const charge = (Code: string, MonetaryValue: string, Description?: string) => ({ Code, ...(Description && { Description }), CurrencyCode: 'USD', MonetaryValue });
  const rated = {
    Service: { Code: '03' },
    TotalCharges: { CurrencyCode: 'USD', MonetaryValue: '40.00' },
    ItemizedCharges: [charge('375', '6.00'), charge('270', '5.00')],
    RatedPackage: [{ ItemizedCharges: [charge('100', '12.00')], NegotiatedCharges: { ItemizedCharges: [charge('100', '10.00'), charge('999', '1.25', 'DELIVERY AREA SURCHARGE - EXTENDED'), charge('998', '0.50', 'SOMETHING NEW')] } }],
    NegotiatedRateCharges: { TotalCharge: { CurrencyCode: 'USD', MonetaryValue: '32.00' }, ItemizedCharges: [charge('375', '4.80'), charge('270', '4.00'), charge('375', '0.20')] },
  };
  const surcharges = (answer: unknown) => {
    const r = parseRateResponse({ RateResponse: { RatedShipment: [answer] } }, rateRequest);
    assert.ok(r.ok);
    return r.value[0]!.surcharges;
  };
  assert.deepEqual(surcharges(rated), [
    { type: 'fuel', amountCents: 500 },
    { type: 'residential', amountCents: 400 },
    { type: 'extended_delivery_area', amountCents: 125 },
    { type: 'additional_handling', amountCents: 1000 },
    { type: 'other', amountCents: 50 },
  ]);
  // Without an account rate, the published charges.
  const { NegotiatedRateCharges: _, ...published } = rated;
  assert.deepEqual(surcharges(published), [
    { type: 'fuel', amountCents: 600 },
    { type: 'residential', amountCents: 500 },
    { type: 'additional_handling', amountCents: 1200 },
  ]);
  // Charges adding up to more than the price are no breakdown of it.
  assert.deepEqual(surcharges({ ...published, ItemizedCharges: [charge('375', '45.00')] }), []);
});

test("rate answer: the options' charges by UPS's accessorial codes, at the shipment and at each package of several", () => {
  const charge = (Code: string, MonetaryValue: string, SubType?: string) => ({ Code, CurrencyCode: 'USD', MonetaryValue, ...(SubType && { SubType }) });
  const rated = {
    Service: { Code: '01' },
    TotalCharges: { CurrencyCode: 'USD', MonetaryValue: '120.00' },
    ItemizedCharges: [charge('375', '9.00'), charge('300', '16.00'), charge('441', '1.00'), charge('205', '5.00')],
    RatedPackage: [
      { ItemizedCharges: [charge('120', '8.00', 'Adult Signature Required'), charge('200', '5.00'), charge('100', '25.00')] },
      { ItemizedCharges: [charge('120', '8.00', 'Adult Signature Required'), charge('200', '5.00'), charge('400', '4.25')] },
    ],
  };
  const r = parseRateResponse({ RateResponse: { RatedShipment: [rated] } }, { ...rateRequest, parcels: [{ weightLb: 2 }, { weightLb: 3 }] });
  assert.ok(r.ok);
  assert.deepEqual(r.value[0]!.surcharges, [
    { type: 'fuel', amountCents: 900 },
    { type: 'additional_handling', amountCents: 2500 },
    { type: 'signature', amountCents: 1600 },
    { type: 'saturday_delivery', amountCents: 1600 },
    { type: 'dry_ice', amountCents: 1000 },
    { type: 'alcohol', amountCents: 500 },
    { type: 'carbon_neutral', amountCents: 100 },
    { type: 'insurance', amountCents: 425 },
  ]);
  // Without BillingWeight, the boxes' weights together.
  assert.equal(r.value[0]!.billableWeightLb, 5);
});

test('rate answer: missing RateResponse or a missing price is carrier_error', () => {
  assert.equal(parseRateResponse({}, rateRequest).ok, false);
  const broken = parseRateResponse({ RateResponse: { RatedShipment: { Service: { Code: '03' } } } }, rateRequest);
  assert.equal(!broken.ok && broken.error.code, 'carrier_error');
});

const base: Omit<DomesticPurchaseRequest, 'labelFormat'> = { from, to, parcels: rateRequest.parcels, shipDate: rateRequest.shipDate, service: '03', quotedCents: 1243, isReturn: false, idempotencyKey: 'k1', reference: 'ORD-1' };

test('ship request: Packaging and PaymentInformation, ZPL with 4x6 stock, GIF for PDF and PNG', () => {
  const zpl = built(buildShipRequest({ ...base, labelFormat: 'zpl' }, 'A1B2C3')).body as { ShipmentRequest: Record<string, Record<string, unknown>> };
  assert.equal(zpl.ShipmentRequest.Request!.RequestOption, 'nonvalidate');
  assert.deepEqual(zpl.ShipmentRequest.LabelSpecification, { LabelImageFormat: { Code: 'ZPL' }, LabelStockSize: { Height: '6', Width: '4' } });
  const pkg = (zpl.ShipmentRequest.Shipment!.Package as Record<string, unknown>[])[0]!;
  assert.deepEqual(pkg.PackageWeight, { UnitOfMeasurement: { Code: 'LBS', Description: 'Pounds' }, Weight: '5.5' });
  assert.deepEqual(pkg.Dimensions, { UnitOfMeasurement: { Code: 'IN', Description: 'Inches' }, Length: '10', Width: '8', Height: '6' });
  assert.deepEqual(zpl.ShipmentRequest.Shipment!.PaymentInformation, { ShipmentCharge: [{ Type: '01', BillShipper: { AccountNumber: 'A1B2C3' } }] });
  assert.equal((zpl.ShipmentRequest.Shipment!.Shipper as { ShipperNumber: string }).ShipperNumber, 'A1B2C3');
  assert.deepEqual(((zpl.ShipmentRequest.Shipment!.Package as unknown[])[0] as { Packaging: unknown }).Packaging, { Code: '02' });
  const pdf = built(buildShipRequest({ ...base, labelFormat: 'pdf' }, 'A1B2C3')).body as { ShipmentRequest: Record<string, unknown> };
  assert.deepEqual(pdf.ShipmentRequest.LabelSpecification, { LabelImageFormat: { Code: 'GIF' }, HTTPUserAgent: 'Mozilla/4.5', LabelStockSize: { Height: '6', Width: '4' } });
});

test('ship answer: a single PackageResults object, the label bytes decoded, postage from TotalCharges', () => {
  const r = parseShipResponse(fixture('ship-gif'));
  assert.ok(r.ok);
  assert.equal(r.value.packages[0]!.trackingNumber, '1Z023E2X0214323462');
  assert.equal(r.value.shipmentId, '1Z023E2X0214323462');
  assert.equal(r.value.postageCents, 1554);
  assert.equal(r.value.currency, 'USD');
  assert.equal(r.value.packages[0]!.label.subarray(0, 6).toString('latin1'), 'GIF89a');
  assert.equal(parseShipResponse({ ShipmentResponse: { ShipmentResults: { ShipmentIdentificationNumber: '1Z023E2X0214323462' } } }).ok, false);
});

test('ship answer of several packages: each box in the order sent, under the shipment number; another count than sent is carrier_error', () => {
  const pkg = (TrackingNumber: string) => ({ TrackingNumber, ShippingLabel: { ImageFormat: { Code: 'ZPL' }, GraphicImage: Buffer.from(`^XA^FD${TrackingNumber}^FS^XZ`).toString('base64') } });
  const answer = (numbers: string[]) => ({
    ShipmentResponse: {
      ShipmentResults: {
        ShipmentIdentificationNumber: numbers[0],
        ShipmentCharges: { TotalCharges: { CurrencyCode: 'USD', MonetaryValue: '45.10' } },
        NegotiatedRateCharges: { TotalCharge: { CurrencyCode: 'USD', MonetaryValue: '36.08' } },
        PackageResults: numbers.map(pkg),
      },
    },
  });
  const numbers = ['1ZA1B2C30310001002', '1ZA1B2C30310001011', '1ZA1B2C30310001020'];
  const r = parseShipResponse(answer(numbers), 3);
  assert.ok(r.ok);
  assert.equal(r.value.shipmentId, numbers[0]);
  assert.deepEqual(r.value.packages.map((p) => p.trackingNumber), numbers);
  assert.deepEqual(r.value.packages.map((p) => p.label.toString()), numbers.map((n) => `^XA^FD${n}^FS^XZ`));
  assert.equal(r.value.postageCents, 3608);
  const short = parseShipResponse(answer(numbers.slice(0, 2)), 3);
  assert.match(!short.ok ? short.error.detail : '', /1ZA1B2C30310001002 has 2 PackageResults for 3 package/);
  const unnumbered = answer(numbers);
  delete (unnumbered.ShipmentResponse.ShipmentResults.PackageResults[1] as { TrackingNumber?: string }).TrackingNumber;
  assert.equal(parseShipResponse(unnumbered, 3).ok, false, "a later box's number is never guessed");
});

test('label recovery answer of several labels: the one of the number asked', () => {
  const result = (TrackingNumber: string, text: string) => ({ TrackingNumber, LabelImage: { LabelImageFormat: { Code: 'PDF' }, GraphicImage: Buffer.from(text).toString('base64') } });
  const json = { LabelRecoveryResponse: { LabelResults: [result('1ZA1B2C30310001002', 'first'), result('1ZA1B2C30310001011', 'second')] } };
  const second = parseLabelRecoveryResponse(json, '1ZA1B2C30310001011');
  assert.equal(second.ok && second.value.toString(), 'second');
  const first = parseLabelRecoveryResponse(json);
  assert.equal(first.ok && first.value.toString(), 'first');
});

test('label recovery answer: the bytes as UPS sent them, whatever LabelImageFormat.Code says; none is carrier_error', () => {
  const pdf = Buffer.from('%PDF-1.4\n%%EOF\n').toString('base64');
  const r = parseLabelRecoveryResponse({ LabelRecoveryResponse: { LabelResults: { LabelImage: { LabelImageFormat: { Code: 'PDF' }, GraphicImage: pdf } } } });
  assert.ok(r.ok && r.value.toString('latin1').startsWith('%PDF-'));
  const zpl = parseLabelRecoveryResponse(fixture('recovery-zpl'));
  assert.ok(zpl.ok);
  assert.equal(imageKindOf(zpl.value), 'zpl');
  assert.equal(parseLabelRecoveryResponse({ LabelRecoveryResponse: { LabelResults: [{ LabelImage: {} }] } }).ok, false);
});

test('void answer: Voided is refunded; a package UPS kept is label_in_transit', () => {
  assert.deepEqual(parseVoidResponse(fixture('void-ok')), { ok: true, value: 'refunded' });
  const kept = parseVoidResponse(fixture('void-package-kept'));
  assert.equal(!kept.ok && kept.error.code, 'label_in_transit');
  assert.equal(parseVoidResponse({}).ok, false);
  const results = (codes: string[]) => codes.map((Code, i) => ({ TrackingNumber: `1ZISUS01033056310${i}`, Status: { Code, Description: Code === '1' ? 'Voided' : 'Not Voided' } }));
  const answer = (codes: string[]) => ({ VoidShipmentResponse: { Response: { ResponseStatus: { Code: '1', Description: 'Success' } }, SummaryResult: { Status: { Code: '1', Description: 'Voided' } }, PackageLevelResults: results(codes) } });
  assert.deepEqual(parseVoidResponse(answer(['1', '1'])), { ok: true, value: 'refunded' }, 'packages named one by one, all voided');
  const some = parseVoidResponse(answer(['1', '0', '1']));
  assert.ok(!some.ok);
  assert.equal(some.error.code, 'label_in_transit');
  assert.match(some.error.detail, /did not void 1ZISUS010330563101.*it did void 1ZISUS010330563100, 1ZISUS010330563102/);
  const refunded = (trackingNumber: string) => ({ trackingNumber, outcome: 'refunded' });
  assert.deepEqual(some.error.voided, [refunded('1ZISUS010330563100'), refunded('1ZISUS010330563102')], 'the packages UPS voided go back with the failure, to be recorded');
  const none = parseVoidResponse(answer(['0', '0']));
  assert.equal(!none.ok && none.error.code, 'label_in_transit');
  assert.equal(!none.ok && none.error.voided, undefined, 'none voided, none named');
  assert.equal(!kept.ok && kept.error.voided, undefined);
});

test('errors: the envelope, the legacy Fault, auth, rate limits and void refusals map to our codes', () => {
  assert.equal(upsFailure(400, fixture('error-envelope'), 'rate').code, 'service_unavailable');
  const legacy = upsFailure(400, fixture('error-legacy'), 'rate');
  assert.equal(legacy.code, 'carrier_unavailable');
  assert.match(legacy.detail, /250003/);
  assert.equal(upsFailure(401, { response: { errors: [{ code: '250002', message: 'Invalid Authentication Information.' }] } }, 'rate').code, 'carrier_unavailable');
  assert.equal(upsFailure(429, {}, 'rate').code, 'carrier_unavailable');
  assert.equal(upsFailure(503, undefined, 'rate').code, 'carrier_unavailable');
  assert.equal(upsFailure(400, { response: { errors: [{ code: '120802', message: 'Address Validation Error on ShipTo address' }] } }, 'ship').code, 'address_invalid');
  assert.equal(upsFailure(400, { response: { errors: [{ code: '190117', message: 'The shipment has already been voided' }] } }, 'void').code, 'already_voided');
  assert.equal(upsFailure(400, { response: { errors: [{ code: '190118', message: 'The package has been picked up and cannot be voided' }] } }, 'void').code, 'label_in_transit');
  assert.equal(upsFailure(400, { response: { errors: [{ code: '111036', message: 'The maximum per package weight is 150 pounds' }] } }, 'rate').code, 'parcel_too_large');
  assert.equal(upsFailure(400, { response: { errors: [{ code: '9', message: 'Something odd' }] } }, 'rate').code, 'carrier_error');
  assert.equal(upsFailure(400, '<html>', 'rate').code, 'carrier_error');
});

test('statuses: the table maps codes, types and descriptions, with unknown as the fallback', () => {
  assert.equal(upsTrackingStatus({ type: 'I', code: '021' }), 'out_for_delivery');
  assert.equal(upsTrackingStatus({ type: 'I', code: '005' }), 'in_transit');
  assert.equal(upsTrackingStatus({ type: 'I' }), 'in_transit');
  assert.equal(upsTrackingStatus({ type: 'M', code: '003' }), 'pre_transit');
  assert.equal(upsTrackingStatus({ type: 'D' }), 'delivered');
  assert.equal(upsTrackingStatus({ type: 'MV', code: '007' }), 'cancelled');
  assert.equal(upsTrackingStatus({ type: 'X', code: '034', description: 'Returned to Sender' }), 'return_to_sender');
  assert.equal(upsTrackingStatus({ type: 'I', description: 'Delivered to UPS Access Point' }), 'available_for_pickup');
  assert.equal(upsTrackingStatus({ type: 'ZZ', code: '999' }), 'unknown');
  assert.equal(upsTrackingStatus({}), 'unknown');
});

test('track request and answer: headers required by UPS, events oldest first with places, delivery date', () => {
  const c = buildTrackRequest('1Z5R89390357567127');
  assert.equal(c.path, '/api/track/v1/details/1Z5R89390357567127');
  assert.ok(c.headers!.transId && c.headers!.transId.length <= 32);
  assert.equal(c.headers!.transactionSrc, 'shipd');
  const r = parseTrackResponse(fixture('track-delivered'));
  assert.ok(r.ok);
  assert.equal(r.value.status, 'delivered');
  assert.equal(r.value.statusDetail, 'DELIVERED');
  assert.equal(r.value.estimatedDeliveryDate, '2026-03-04');
  assert.deepEqual(r.value.events.map((e) => e.status), ['pre_transit', 'in_transit', 'out_for_delivery', 'delivered']);
  assert.deepEqual(r.value.events.map((e) => e.occurredAt.toISOString()), ['2026-03-02T22:00:00.000Z', '2026-03-03T14:30:00.000Z', '2026-03-04T13:15:00.000Z', '2026-03-04T20:42:00.000Z']);
  assert.equal(r.value.events[0]!.location, null);
  assert.deepEqual(r.value.events[3]!.location, { city: 'Brooklyn', state: 'NY', zip: '11201', country: 'US' });
  const missing = parseTrackResponse(fixture('track-not-found'));
  assert.ok(missing.ok);
  assert.equal(missing.value.status, 'unknown');
  assert.equal(missing.value.statusDetail, 'Tracking Information Not Found');
  assert.equal(parseTrackResponse({ trackResponse: {} }).ok, false);
});

test('address: XAV request, valid with classification, v1 single candidate, ambiguous, no candidates', () => {
  const c = built(buildAddressRequest(to));
  assert.equal(c.path, '/api/addressvalidation/v2/3');
  assert.deepEqual((c.body as { XAVRequest: { AddressKeyFormat: Record<string, unknown> } }).XAVRequest.AddressKeyFormat, {
    AttentionName: 'Grace Hopper', AddressLine: ['100 Main St', 'Apt 4'], PoliticalDivision2: 'New York', PoliticalDivision1: 'NY',
    PostcodePrimaryLow: '10001', PostcodeExtendedLow: '1234', CountryCode: 'US',
  });
  // A Puerto Rico address is a US one to shipd and a country of its own to UPS, as in Shipping.
  const sanJuan = { name: 'Ana Rivera', street1: '100 Calle Fortaleza', city: 'San Juan', state: 'PR', zip: '00901' };
  const pr = built(buildAddressRequest(sanJuan)).body as { XAVRequest: { AddressKeyFormat: Record<string, unknown> } };
  assert.equal(pr.XAVRequest.AddressKeyFormat.CountryCode, 'PR');
  const valid = parseAddressResponse(fixture('xav-valid'), from);
  assert.ok(valid.ok);
  assert.equal(valid.value.valid, true);
  assert.equal(valid.value.residential, false);
  assert.deepEqual(valid.value.address, { ...from, street1: '415 MISSION ST', street2: 'FL 5', city: 'SAN FRANCISCO', zip: '94105-1804' });
  const single = parseAddressResponse(fixture('xav-v1-single'), to);
  assert.ok(single.ok);
  assert.equal(single.value.residential, true);
  assert.equal(single.value.address.street1, '26601 ALISO CREEK RD');
  assert.equal(single.value.address.street2, undefined);
  const ambiguous = parseAddressResponse(fixture('xav-ambiguous'), to);
  assert.ok(ambiguous.ok);
  assert.equal(ambiguous.value.valid, false);
  assert.deepEqual(ambiguous.value.address, to, 'an ambiguous answer keeps the address as given, never a guessed candidate');
  assert.match(ambiguous.value.messages[0]!.detail, /2 possible: 100 MAIN ST N.*100 MAIN ST S/);
  const none = parseAddressResponse(fixture('xav-none'), to);
  assert.ok(none.ok);
  assert.deepEqual(none.value.address, to);
  assert.equal(none.value.valid, false);
  assert.equal(parseAddressResponse({ XAVResponse: { Response: {} } }, to).ok, false);
});

test('address lines: streets over 35 characters split at word boundaries into at most 3 lines, else refused before UPS is called', () => {
  const long = { ...to, street1: '1234 North Martin Luther King Junior Boulevard', street2: 'Building 7 Suite 1200' };
  assert.deepEqual(splitAddressLines(long, 35), ['1234 North Martin Luther King', 'Junior Boulevard', 'Building 7 Suite 1200']);
  const ship = built(buildShipRequest({ ...base, to: long, labelFormat: 'zpl' }, 'A1B2C3')).body as { ShipmentRequest: { Shipment: { ShipTo: { Address: { AddressLine: string[] } } } } };
  assert.deepEqual(ship.ShipmentRequest.Shipment.ShipTo.Address.AddressLine, ['1234 North Martin Luther King', 'Junior Boulevard', 'Building 7 Suite 1200']);
  // Apart the streets need four lines; run together they fit three.
  const seventy = { ...to, street1: 'Apartment Complex Number Seven Hundred and Twelve', street2: 'Building Eleven Entrance B Door 4' };
  assert.deepEqual(splitAddressLines(seventy, 35), ['Apartment Complex Number Seven', 'Hundred and Twelve', 'Building Eleven Entrance B Door 4']);
  const tooLong = { ...to, street1: 'One Very Long Street Name That Goes On And On Past Every Limit', street2: 'Building Number Seventeen Of The Northern Campus Annex' };
  for (const refused of [
    buildRateRequest({ ...rateRequest, from: tooLong }, 'A1B2C3'),
    buildShipRequest({ ...base, to: tooLong, labelFormat: 'pdf' }, 'A1B2C3'),
    buildShipRequest({ ...base, to: { ...to, street1: 'Pneumonoultramicroscopicsilicovolcanoconiosis Road' }, labelFormat: 'pdf' }, 'A1B2C3'),
  ]) {
    assert.equal(!refused.ok && refused.error.code, 'address_invalid');
    assert.match(!refused.ok ? refused.error.detail : '', /UPS allows 3 address lines of 35 characters/);
  }
  // Address validation takes lines of 100, so the same street is checked whole.
  const xav = built(buildAddressRequest(long)).body as { XAVRequest: { AddressKeyFormat: { AddressLine: string[] } } };
  assert.deepEqual(xav.XAVRequest.AddressKeyFormat.AddressLine, ['1234 North Martin Luther King Junior Boulevard', 'Building 7 Suite 1200']);
});

test('returns: a Print Return Label billed to the merchant, who is Shipper and ShipTo; the customer is ShipFrom', () => {
  // For a return, `from` is the customer and `to` the merchant.
  const customer = to;
  const merchant = from;
  const ret = built(buildShipRequest({ ...base, from: customer, to: merchant, labelFormat: 'png', isReturn: true }, 'A1B2C3')).body as {
    ShipmentRequest: { Shipment: Record<string, Record<string, unknown>> };
  };
  const s = ret.ShipmentRequest.Shipment;
  assert.deepEqual(s.ReturnService, { Code: '9', Description: 'UPS Print Return Label' });
  assert.equal(s.Shipper!.Name, 'Analytical Co');
  assert.equal(s.Shipper!.ShipperNumber, 'A1B2C3');
  assert.deepEqual((s.Shipper!.Address as { AddressLine: string[] }).AddressLine, ['415 Mission St']);
  assert.deepEqual((s.ShipFrom!.Address as { AddressLine: string[] }).AddressLine, ['100 Main St', 'Apt 4']);
  assert.equal(s.ShipTo!.Name, 'Analytical Co');
  assert.equal(((s.Package as unknown as Record<string, unknown>[])[0]!).Description, 'Return ORD-1');
  const saver = buildShipRequest({ ...base, from: customer, to: merchant, service: '13', labelFormat: 'png', isReturn: true }, 'A1B2C3');
  assert.equal(!saver.ok && saver.error.code, 'service_unavailable');
  const rate = built(buildRateRequest({ ...rateRequest, from: customer, to: merchant, isReturn: true }, 'A1B2C3')).body as { RateRequest: { Shipment: Record<string, Record<string, unknown>> } };
  assert.deepEqual(rate.RateRequest.Shipment.ShipmentServiceOptions, { ReturnService: { Code: '9', Description: 'UPS Print Return Label' } });
  assert.equal(rate.RateRequest.Shipment.Shipper!.Name, 'Analytical Co');
  // UPS does not sell Next Day Air Saver (13) or 2nd Day Air A.M. (59) as returns: no quote for them.
  const quotes = parseRateResponse(fixture('rate-shop-tnt'), { ...rateRequest, isReturn: true });
  assert.ok(quotes.ok);
  assert.deepEqual(quotes.value.map((q) => q.service), ['14', '01', '02', '03', '12']);
});

test('rate answer (recorded Shoptimeintransit shape): every catalog service, account rates, arrival from time in transit', () => {
  const r = parseRateResponse(fixture('rate-shop-tnt'), rateRequest);
  assert.ok(r.ok);
  assert.deepEqual(r.value.map((q) => [q.service, q.amountCents, q.listAmountCents, q.estimatedDeliveryDate, q.guaranteed]), [
    ['14', 8010, 9840, '2026-03-03', true],
    ['01', 5720, 7055, '2026-03-03', true],
    ['13', 4960, 6130, '2026-03-03', true],
    ['02', 2105, 2570, '2026-03-04', true],
    ['03', 980, 1190, '2026-03-04', false],
    ['12', 1545, 1885, '2026-03-05', true],
  ]);
});

test('rate answer: a service listed twice is one quote, the dearer entry', () => {
  const r = parseRateResponse(fixture('rate-duplicate-service'), rateRequest);
  assert.ok(r.ok);
  assert.deepEqual(r.value.map((q) => [q.service, q.amountCents, q.listAmountCents]), [['03', 1035, 1265], ['02', 2105, 2570]]);
});

test('currencies: each amount is read with its own CurrencyCode, never relabelled', () => {
  const cad = parseShipResponse(fixture('ship-cad'));
  assert.ok(cad.ok);
  assert.deepEqual([cad.value.postageCents, cad.value.currency], [2580, 'CAD']);
  // An account charge stated without a figure does not lend its currency to the published figure.
  const mixed = parseShipResponse({
    ShipmentResponse: {
      ShipmentResults: {
        ShipmentIdentificationNumber: '1Z023E2X0214323462',
        NegotiatedRateCharges: { TotalCharge: { CurrencyCode: 'CAD' } },
        ShipmentCharges: { TotalCharges: { CurrencyCode: 'USD', MonetaryValue: '15.54' } },
        PackageResults: { TrackingNumber: '1Z023E2X0214323462', ShippingLabel: { GraphicImage: 'R0lGODlh' } },
      },
    },
  });
  assert.deepEqual(mixed.ok && [mixed.value.postageCents, mixed.value.currency], [1554, 'USD']);
  const entry = (negotiated: object) => ({
    RateResponse: { RatedShipment: [{ Service: { Code: '03' }, TotalCharges: { CurrencyCode: 'CAD', MonetaryValue: '20.00' }, NegotiatedRateCharges: { TotalCharge: negotiated } }] },
  });
  const inCad = parseRateResponse(entry({ CurrencyCode: 'CAD', MonetaryValue: '16.00' }), rateRequest);
  assert.deepEqual(inCad.ok && [inCad.value[0]!.amountCents, inCad.value[0]!.currency], [1600, 'CAD']);
  const twoCurrencies = parseRateResponse(entry({ CurrencyCode: 'USD', MonetaryValue: '12.00' }), rateRequest);
  assert.equal(!twoCurrencies.ok && twoCurrencies.error.code, 'carrier_error');
});

test('statuses: exceptions are not outcomes, out-for-delivery codes are mapped, the code table is complete', () => {
  assert.equal(upsTrackingStatus({ type: 'X', code: '013', description: 'The receiver was not available for delivery.' }), 'in_transit');
  assert.equal(upsTrackingStatus({ type: 'X', code: '052', description: 'Delay: Severe Weather' }), 'in_transit');
  assert.equal(upsTrackingStatus({ type: 'X' }), 'in_transit');
  for (const code of ['006', '021', '037', '072', '078', '089', '091', '146', '162']) assert.equal(upsTrackingStatus({ type: 'I', code }), 'out_for_delivery', code);
  assert.equal(upsTrackingStatus({ type: 'I', description: 'Out For Delivery Today' }), 'out_for_delivery');
  assert.equal(upsTrackingStatus({ type: 'I', code: '161' }), 'available_for_pickup');
  assert.equal(upsTrackingStatus({ type: 'X', code: '149' }), 'failure');
  assert.equal(upsTrackingStatus({ type: 'D', code: '155' }), 'delivered', 'a code that says nothing of the parcel leaves it to the type');
  // Every code UPS publishes, 0 to 169 with 1, 2, 4, 8, 9, 15, 31 and 150 to 152 unassigned.
  const unassigned = new Set([1, 2, 4, 8, 9, 15, 31, 150, 151, 152]);
  const published = Array.from({ length: 170 }, (_, i) => i).filter((i) => !unassigned.has(i)).map(String);
  assert.deepEqual(Object.keys(upsStatusByCode).sort(), published.sort());
});

test('track answer (Tracking.yaml example fields): a weather delay keeps tracking, gmtTime without its leading zero read right', () => {
  const r = parseTrackResponse(fixture('track-weather-delay'));
  assert.ok(r.ok);
  assert.equal(r.value.status, 'in_transit');
  assert.equal(r.value.statusDetail, 'Delay: Severe Weather');
  assert.equal(r.value.estimatedDeliveryDate, '2021-02-11');
  assert.deepEqual(r.value.events.map((e) => [e.status, e.occurredAt.toISOString()]), [
    ['in_transit', '2021-02-09T23:30:00.000Z'],
    ['out_for_delivery', '2021-02-10T07:10:00.000Z'],
    ['in_transit', '2021-02-10T07:47:00.000Z'],
  ]);
  assert.equal(clockTime('90500'), '090500');
  assert.equal(clockTime('9:05:00'), '090500');
  assert.equal(clockTime('9:05'), '090500');
  assert.equal(clockTime('0905'), '090500');
  assert.equal(clockTime('153000'), '153000');
  assert.equal(clockTime('15:30:00'), '153000');
  assert.equal(clockTime('noon'), undefined);
});

test('label bytes: the format is read from the signature, not from what was asked', () => {
  assert.equal(imageKindOf(Buffer.from('%PDF-1.7\n')), 'pdf');
  assert.equal(imageKindOf(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0])), 'png');
  assert.equal(imageKindOf(Buffer.from('R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7', 'base64')), 'gif');
  assert.equal(imageKindOf(Buffer.from('\r\n^XA^FO50,50^FDx^FS^XZ')), 'zpl');
  assert.equal(imageKindOf(Buffer.from('~DGR:LOGO.GRF,2,1,FF\n^XA^XGR:LOGO.GRF^XZ')), 'zpl');
  assert.equal(imageKindOf(Buffer.from('<html><img src="label.gif"></html>')), undefined);
});

test('track answer with returnSignature and returnPOD: receivedBy signs, the images are kept with their types, each scan on its local clock', () => {
  const r = parseTrackResponse(fixture('track-signed-pod'));
  assert.ok(r.ok);
  assert.equal(r.value.status, 'delivered');
  assert.equal(r.value.signedBy, 'LOVELACE');
  assert.deepEqual(r.value.proofOfDelivery?.map((p) => [p.type, p.contentType]), [['signature', 'image/gif'], ['document', 'application/pdf']]);
  assert.ok(Buffer.from(r.value.proofOfDelivery![1]!.content!, 'base64').toString('latin1').startsWith('%PDF-'));
  assert.deepEqual(
    r.value.events.map((e) => [e.occurredAt.toISOString(), e.utcOffset, e.timeZone]),
    [
      // GMT and local times both given, no gmtOffset: the offset is the difference between them.
      ['2026-07-14T16:00:00.000Z', '-07:00', 'America/Los_Angeles'],
      // Neither GMT time nor offset: the local time is read in Oregon's zone, on summer time.
      ['2026-07-15T05:00:00.000Z', '-07:00', 'America/Los_Angeles'],
      // Arizona keeps standard time in July: gmtOffset -07:00 is its zone's.
      ['2026-07-15T14:10:00.000Z', '-07:00', 'America/Phoenix'],
      ['2026-07-15T21:30:00.000Z', '-07:00', 'America/Phoenix'],
    ],
  );
  // The spec's own example has receivedBy "" and no images: nobody is named, nothing is kept.
  const plain = parseTrackResponse(fixture('track-delivered'));
  assert.ok(plain.ok);
  assert.equal(plain.value.signedBy, undefined);
  assert.equal(plain.value.proofOfDelivery, undefined);
  assert.deepEqual(plain.value.events.map((e) => e.utcOffset), ['-08:00', '-08:00', '-05:00', '-05:00']);
  assert.deepEqual(plain.value.events.map((e) => e.timeZone), [undefined, 'America/Los_Angeles', 'America/New_York', 'America/New_York']);
});
