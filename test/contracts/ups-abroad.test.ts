import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { CarrierResult } from '../../src/carriers/carrier.ts';
import { buildRateRequestAbroad, buildShipRequestAbroad, parseInvoiceForm, upsServicesAbroad } from '../../src/carriers/ups/international.ts';
import type { UpsCall } from '../../src/carriers/ups/wire.ts';
import { abroadCases, declarations, merchant, recipientsAbroad } from './abroad-cases.ts';
import { assertContract, contractViolations } from './check.ts';
import { rateCall } from './ups/rating.ts';
import { shipCall } from './ups/shipping.ts';

const account = 'A1B2C3';

function built(c: CarrierResult<UpsCall>): UpsCall {
  if (!c.ok) assert.fail(`the builder refused: ${c.error.detail}`);
  return c.value;
}

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
const shipmentOf = (call: UpsCall): Json => (call.body as Json).ShipmentRequest.Shipment;

test('ship requests abroad keep Shipping.yaml with their commercial invoice: every service, country and declaration', () => {
  let checked = 0;
  for (const { request, what } of abroadCases([...upsServicesAbroad])) {
    const c = buildShipRequestAbroad(request, account);
    const country = request.to.country!;
    if (request.service === '11' && !['CA', 'MX'].includes(country)) {
      assert.equal(!c.ok && c.error.code, 'service_unavailable', what);
      continue;
    }
    const call = built(c);
    assertContract(shipCall, call, `ship ${what}`);
    const shipment = shipmentOf(call);
    assert.equal(shipment.ShipTo.Address.CountryCode, country, what);
    assert.match(shipment.ShipTo.Phone.Number, /^\d{6,15}$/, what);
    const forms = shipment.ShipmentServiceOptions?.InternationalForms;
    if (request.customs === declarations.documents) {
      assert.equal(forms, undefined, `${what}: documents of no value travel without an invoice`);
    } else {
      assert.deepEqual(forms.FormType, ['01'], what);
      assert.equal(forms.Product.length, request.customs.items.length, what);
      assert.deepEqual(forms.Product.map((p: Json) => p.CommodityCode), request.customs.items.map((i) => i.hs_tariff_number), what);
      assert.equal(forms.TermsOfShipment, request.customs.incoterm ?? 'DAP', what);
      assert.equal(forms.CurrencyCode, request.customs.items[0]!.unit_value.currency, what);
    }
    const duties = shipment.PaymentInformation.ShipmentCharge.filter((s: Json) => s.Type === '02');
    assert.equal(duties.length, request.customs.incoterm === 'DDP' ? 1 : 0, `${what}: duties billed to the shipper only for DDP`);
    checked++;
  }
  assert.ok(checked > 150, `checked ${checked}`);
});

test('rate requests abroad keep Rating.yaml, InvoiceLineTotal included', () => {
  for (const { request, what } of abroadCases(['07'])) {
    const { service: _service, ...shipment } = request;
    for (const acct of [account, undefined]) {
      const call = built(buildRateRequestAbroad(shipment, acct));
      assertContract(rateCall, call, `rate ${what}`);
      assert.ok((call.body as Json).RateRequest.Shipment.InvoiceLineTotal, what);
    }
  }
});

test('the ship contract refuses what UPS refuses abroad: no recipient phone or attention, an invoice without its fields, a wrong HS shape, an incoterm UPS does not list, Canada without InvoiceLineTotal', () => {
  const request = { from: merchant, to: recipientsAbroad.CA!, customs: declarations.merchandise!, service: '08', labelFormat: 'pdf' as const, idempotencyKey: 'k', parcels: [{ weightLb: 3 }], shipDate: new Date('2026-11-30T12:00:00Z') };
  const good = built(buildShipRequestAbroad(request, account));
  assertContract(shipCall, good, 'to Canada');
  const faults = (change: (s: Json) => void): string => {
    const copy = structuredClone(good);
    change(shipmentOf(copy));
    return contractViolations(shipCall, copy).join('\n');
  };
  assert.match(faults((s) => delete s.ShipTo.Phone), /must have required property 'Phone'/);
  assert.match(faults((s) => delete s.ShipTo.AttentionName), /must have required property 'AttentionName'/);
  assert.match(faults((s) => delete s.Description), /must have required property 'Description'/);
  assert.match(faults((s) => delete s.InvoiceLineTotal), /must have required property 'InvoiceLineTotal'/);
  assert.match(faults((s) => (s.ShipTo.Address.PostalCode = 'K1M 1M4')), /PostalCode must match pattern/);
  const forms = (s: Json): Json => s.ShipmentServiceOptions.InternationalForms;
  assert.match(faults((s) => (forms(s).Product[0].CommodityCode = '6912')), /CommodityCode must match pattern/);
  assert.match(faults((s) => (forms(s).TermsOfShipment = 'DDU')), /TermsOfShipment/);
  assert.match(faults((s) => delete forms(s).Contacts), /must have required property 'Contacts'/);
  assert.match(faults((s) => delete forms(s).InvoiceDate), /must have required property 'InvoiceDate'/);
  assert.match(faults((s) => delete forms(s).Product[0].Unit), /must have required property 'Unit'/);
  assert.match(faults((s) => (forms(s).Product[0].Unit.Value = '0.00')), /Value must match pattern/);
  assert.match(faults((s) => (forms(s).Product = [])), /Product must NOT have fewer than 1 items/);
});

test('the rate contract refuses a rate abroad with time in transit without InvoiceLineTotal', () => {
  const call = built(buildRateRequestAbroad({ from: merchant, to: recipientsAbroad.GB!, customs: declarations.gift!, parcels: [{ weightLb: 1 }], shipDate: new Date('2026-11-30T12:00:00Z') }, account));
  delete (call.body as Json).RateRequest.Shipment.InvoiceLineTotal;
  assert.match(contractViolations(rateCall, call).join('\n'), /must have required property 'InvoiceLineTotal'/);
});

test('UPS refuses before it is asked: a domestic service abroad, Standard beyond Canada and Mexico, a recipient without a phone', () => {
  const base = { from: merchant, customs: declarations.merchandise!, labelFormat: 'pdf' as const, idempotencyKey: 'k', parcels: [{ weightLb: 3 }], shipDate: new Date('2026-11-30T12:00:00Z') };
  const refused = (c: CarrierResult<UpsCall>) => (c.ok ? 'built' : `${c.error.code}: ${c.error.detail}`);
  assert.match(refused(buildShipRequestAbroad({ ...base, to: recipientsAbroad.GB!, service: '03' }, account)), /^service_unavailable: UPS service 03/);
  assert.match(refused(buildShipRequestAbroad({ ...base, to: recipientsAbroad.GB!, service: '11' }, account)), /^service_unavailable: UPS Standard \(11\) goes from the US to Canada and Mexico only, not to GB/);
  const { phone: _phone, ...silent } = recipientsAbroad.DE!;
  assert.match(refused(buildShipRequestAbroad({ ...base, to: silent, service: '07' }, account)), /^address_invalid: UPS needs the recipient's phone number/);
  assert.match(refused(buildRateRequestAbroad({ ...base, to: silent }, account)), /^address_invalid/);
});

test('the invoice UPS prints is read from ShipmentResults.Form, and is absent when UPS sent it electronically', () => {
  const pdf = Buffer.from('%PDF-1.4\n% invoice\n%%EOF\n');
  const answer = { ShipmentResponse: { ShipmentResults: { Form: { Code: '01', Description: 'All Requested International Forms', Image: { ImageFormat: { Code: 'PDF' }, GraphicImage: pdf.toString('base64') } } } } };
  assert.deepEqual(parseInvoiceForm(answer), { format: 'PDF', bytes: pdf });
  assert.equal(parseInvoiceForm({ ShipmentResponse: { ShipmentResults: {} } }), undefined);
});

test('several boxes abroad with a signature and declared values keep both documents: a Package per box, the signature on the shipment', () => {
  const parcels = [
    { weightLb: 3, dimensionsIn: { length: 10, width: 8, height: 4 }, insuredCents: 30_000 },
    { weightLb: 2, insuredCents: 30_000 },
  ];
  for (const signature of ['standard', 'adult'] as const) {
    for (const { request, what } of abroadCases(['07', '65'])) {
      const boxes = { ...request, parcels, options: { signature } };
      const ship = built(buildShipRequestAbroad(boxes, account));
      assertContract(shipCall, ship, `ship ${what} ${signature}`);
      const shipment = shipmentOf(ship);
      assert.equal(shipment.Package.length, 2);
      assert.deepEqual(shipment.ShipmentServiceOptions.DeliveryConfirmation, { DCISType: signature === 'adult' ? '2' : '1' });
      assert.ok(shipment.Package.every((p: Json) => p.PackageServiceOptions.DeliveryConfirmation === undefined && p.PackageServiceOptions.DeclaredValue), what);
      const { service: _service, ...rated } = boxes;
      const rate = built(buildRateRequestAbroad(rated, account));
      assertContract(rateCall, rate, `rate ${what} ${signature}`);
      assert.equal((rate.body as Json).RateRequest.Shipment.NumOfPieces, '2');
    }
  }
  // The package's DeliveryConfirmation is for US50/PR pairs only: the contract refuses it abroad.
  const { request } = abroadCases(['07']).next().value!;
  const call = built(buildShipRequestAbroad(request, account));
  const pkg = shipmentOf(call).Package[0];
  pkg.PackageServiceOptions = { DeliveryConfirmation: { DCISType: '2' } };
  assert.ok(contractViolations(shipCall, call).length > 0, 'a package signature abroad is refused');
});
