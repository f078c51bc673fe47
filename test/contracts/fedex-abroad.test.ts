import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { CarrierResult } from '../../src/carriers/carrier.ts';
import { buildRateRequestAbroad, buildShipRequestAbroad, fedexServicesAbroad } from '../../src/carriers/fedex/international.ts';
import { abroadCases, declarations, merchant, recipientsAbroad } from './abroad-cases.ts';
import { assertContract, contractViolations } from './check.ts';
import { fedexRateRequest } from './fedex/rate.ts';
import { fedexShipRequest } from './fedex/ship.ts';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

function built(c: CarrierResult<Record<string, unknown>>): Json {
  if (!c.ok) assert.fail(`the builder refused: ${c.error.detail}`);
  return c.value;
}

const base = { from: merchant, labelFormat: 'pdf' as const, idempotencyKey: 'k', parcels: [{ weightLb: 3 }], shipDate: new Date('2026-11-30T12:00:00Z') };

test('ship requests abroad keep Shipment-Resource.json with customsClearanceDetail: every service, country and declaration, invoice printed or sent electronically', () => {
  let checked = 0;
  for (const { request, what } of abroadCases([...fedexServicesAbroad])) {
    for (const electronicTradeDocuments of [false, true]) {
      const c = buildShipRequestAbroad(request, '123456789', { electronicTradeDocuments });
      if (request.service === 'FEDEX_GROUND' && request.to.country !== 'CA') {
        assert.equal(!c.ok && c.error.code, 'service_unavailable', what);
        continue;
      }
      const body = built(c);
      assertContract(fedexShipRequest, body, `${what}${electronicTradeDocuments ? ' ETD' : ''}`);
      const shipment = body.requestedShipment;
      const customs = shipment.customsClearanceDetail;
      assert.deepEqual(customs.commodities.map((x: Json) => x.harmonizedCode), request.customs.items.map((i) => i.hs_tariff_number), what);
      assert.equal(customs.dutiesPayment.paymentType, request.customs.incoterm === 'DDP' ? 'SENDER' : 'RECIPIENT', what);
      const invoiced = request.customs !== declarations.documents;
      assert.equal(shipment.shippingDocumentSpecification?.shippingDocumentTypes[0], invoiced ? 'COMMERCIAL_INVOICE' : undefined, what);
      assert.equal(shipment.shipmentSpecialServices?.specialServiceTypes[0], invoiced && electronicTradeDocuments ? 'ELECTRONIC_TRADE_DOCUMENTS' : undefined, what);
      checked++;
    }
  }
  assert.ok(checked > 250, `checked ${checked}`);
});

test('the commodities, invoice and filing say what the declaration says', () => {
  const body = built(buildShipRequestAbroad({ ...base, to: recipientsAbroad.GB!, service: 'FEDEX_INTERNATIONAL_PRIORITY', customs: declarations.merchandise! }, '123456789', { electronicTradeDocuments: false }));
  const customs = body.requestedShipment.customsClearanceDetail;
  assert.deepEqual(customs.commodities[0], {
    description: 'Stoneware coffee mug', countryOfManufacture: 'US', harmonizedCode: '691200', quantity: 2, quantityUnits: 'PCS', numberOfPieces: 2,
    unitPrice: { amount: 18.5, currency: 'USD' }, customsValue: { amount: 37, currency: 'USD' }, weight: { units: 'KG', value: 0.82 }, partNumber: 'MUG-1',
  });
  assert.deepEqual(customs.totalCustomsValue, { amount: 82, currency: 'USD' });
  assert.equal(customs.commercialInvoice.shipmentPurpose, 'SOLD');
  assert.equal(customs.exportDetail.exportComplianceStatement, 'NO_EEI_30_37_A');
  assert.deepEqual(body.requestedShipment.requestedPackageLineItems[0].weight, { units: 'KG', value: 1.37 });
  const itn = built(buildShipRequestAbroad({ ...base, to: recipientsAbroad.JP!, service: 'INTERNATIONAL_ECONOMY', customs: declarations.itn! }, '123456789', { electronicTradeDocuments: true }));
  assert.equal(itn.requestedShipment.customsClearanceDetail.exportDetail.exportComplianceStatement, 'AES X20261123123456');
  const canada = built(buildShipRequestAbroad({ ...base, to: recipientsAbroad.CA!, service: 'FEDEX_GROUND', customs: declarations.gift! }, '123456789', { electronicTradeDocuments: false }));
  assert.equal(canada.requestedShipment.customsClearanceDetail.exportDetail.exportComplianceStatement, 'NO_EEI_30_36');
  assert.equal(canada.requestedShipment.recipients[0].contact.phoneNumber, '6135550199');
});

test('the contract refuses what FedEx refuses abroad: no customs detail, a commodity without origin or value, pounds beside kilograms, a short phone, a US-style phone rule in Canada', () => {
  const good = built(buildShipRequestAbroad({ ...base, to: recipientsAbroad.CA!, service: 'FEDEX_INTERNATIONAL_PRIORITY', customs: declarations.merchandise! }, '123456789', { electronicTradeDocuments: false }));
  const faults = (change: (s: Json) => void): string => {
    const copy = structuredClone(good);
    change(copy.requestedShipment);
    return contractViolations(fedexShipRequest, copy).join('\n');
  };
  assert.equal(faults(() => undefined), '');
  assert.match(faults((s) => delete s.customsClearanceDetail), /must have required property 'customsClearanceDetail'/);
  assert.match(faults((s) => delete s.customsClearanceDetail.commodities[0].countryOfManufacture), /must have required property 'countryOfManufacture'/);
  assert.match(faults((s) => delete s.customsClearanceDetail.commodities[0].customsValue), /must have required property 'customsValue'/);
  assert.match(faults((s) => (s.customsClearanceDetail.commodities[0].weight.units = 'LB')), /units must be equal to one of the allowed values/);
  assert.match(faults((s) => (s.requestedPackageLineItems[0].weight.units = 'LB')), /units must be equal to constant/);
  assert.match(faults((s) => (s.recipients[0].contact.phoneNumber = '61355501999')), /phoneNumber must match pattern/);
  assert.match(faults((s) => (s.recipients[0].address.stateOrProvinceCode = 'ONT')), /stateOrProvinceCode must NOT have more than 2 characters/);
  assert.match(faults((s) => (s.customsClearanceDetail.exportDetail.exportComplianceStatement = 'NOEEI 30.37(a)')), /exportComplianceStatement must match pattern/);
  assert.match(faults((s) => delete s.shippingDocumentSpecification.commercialInvoiceDetail), /must have required property 'commercialInvoiceDetail'/);
});

test('FedEx refuses before it is asked: a domestic service abroad, Ground beyond Canada, a recipient phone shorter than 10 digits', () => {
  const refused = (c: CarrierResult<unknown>) => (c.ok ? 'built' : `${c.error.code}: ${c.error.detail}`);
  const invoice = { electronicTradeDocuments: false };
  assert.match(refused(buildShipRequestAbroad({ ...base, to: recipientsAbroad.FR!, service: 'PRIORITY_OVERNIGHT', customs: declarations.gift! }, '1', invoice)), /^service_unavailable/);
  assert.match(refused(buildShipRequestAbroad({ ...base, to: recipientsAbroad.MX!, service: 'FEDEX_GROUND', customs: declarations.gift! }, '1', invoice)), /^service_unavailable: FedEx International Ground goes from the US to Canada only, not to MX/);
  assert.match(refused(buildShipRequestAbroad({ ...base, to: { ...recipientsAbroad.DE!, phone: '+49 551 390' }, service: 'INTERNATIONAL_ECONOMY', customs: declarations.gift! }, '1', invoice)), /^address_invalid: FedEx needs the recipient's phone number for a shipment abroad: 10 to 15 digits/);
});

test('rate requests abroad keep RateQuotes-Resource.json with their commodities; a destination without postal codes is rated without one', () => {
  let withoutPostalCode = 0;
  for (const { request, what } of abroadCases(['FEDEX_INTERNATIONAL_PRIORITY'])) {
    const body = built(buildRateRequestAbroad(request, '123456789'));
    assertContract(fedexRateRequest, body, what);
    assert.equal(body.requestedShipment.customsClearanceDetail.commodities.length, request.customs.items.length, what);
    if (!request.to.zip) {
      assert.equal('postalCode' in body.requestedShipment.recipient.address, false, what);
      withoutPostalCode++;
    }
  }
  assert.ok(withoutPostalCode > 0, 'Hong Kong is among the cases');
  // Where the country has postal codes, the rate API requires one.
  const london = built(buildRateRequestAbroad({ ...base, to: recipientsAbroad.GB!, customs: declarations.gift! }, '123456789'));
  delete london.requestedShipment.recipient.address.postalCode;
  assert.match(contractViolations(fedexRateRequest, london).join('\n'), /postalCode/);
  const body = built(buildRateRequestAbroad({ ...base, to: recipientsAbroad.AU!, customs: declarations.gift! }, '123456789'));
  assert.equal('stateOrProvinceCode' in body.requestedShipment.recipient.address, false, 'NSW is longer than the rate API takes');
  delete body.requestedShipment.customsClearanceDetail;
  assert.match(contractViolations(fedexRateRequest, body).join('\n'), /must have required property 'customsClearanceDetail'/);
});

test('several boxes abroad with options and declared values keep both documents: a multiple-piece shipment with one customs clearance', () => {
  const parcels = [
    { weightLb: 3, dimensionsIn: { length: 10, width: 8, height: 4 }, insuredCents: 30_000 },
    { weightLb: 2, insuredCents: 20_000 },
  ];
  for (const options of [{ signature: 'adult' as const }, { signature: 'standard' as const, saturday_delivery: true }]) {
    for (const { request, what } of abroadCases(['FEDEX_INTERNATIONAL_PRIORITY'])) {
      for (const electronicTradeDocuments of [false, true]) {
        const body = built(buildShipRequestAbroad({ ...request, parcels, options }, '740561073', { electronicTradeDocuments }));
        assertContract(fedexShipRequest, body, `${what} boxes`);
        const shipment = body.requestedShipment;
        assert.equal(shipment.totalPackageCount, 2);
        assert.deepEqual(shipment.requestedPackageLineItems.map((l: Json) => l.sequenceNumber), [1, 2]);
        assert.deepEqual(shipment.totalDeclaredValue, { amount: 500, currency: 'USD' });
        assert.ok(shipment.requestedPackageLineItems.every((l: Json) => l.packageSpecialServices.specialServiceTypes.includes('SIGNATURE_OPTION')));
        if (options.saturday_delivery) assert.ok(shipment.shipmentSpecialServices.specialServiceTypes.includes('SATURDAY_DELIVERY'), what);
      }
      const { service: _service, ...rated } = request;
      assertContract(fedexRateRequest, built(buildRateRequestAbroad({ ...rated, parcels, options }, '740561073')), `${what} boxes rated`);
    }
  }
});
