import { test } from 'node:test';
import assert from 'node:assert/strict';
import { boughtBoxes, type DomesticPurchaseRequest } from '../carrier.ts';
import { fixture } from './fixtures.ts';
import { buildShipRequest, parseShipResponse } from './ship.ts';

const request: DomesticPurchaseRequest = {
  from: { name: 'Shop', company: 'Shop Inc', street1: '1 Main St', city: 'Nashville', state: 'TN', zip: '37201', phone: '+1 (615) 555-0100' },
  to: { name: 'Ada', street1: '415 Mission St', street2: 'Floor 5', city: 'San Francisco', state: 'CA', zip: '94105' },
  parcels: [{ weightLb: 2.5 }],
  shipDate: new Date('2024-05-01T15:00:00Z'),
  service: 'FEDEX_2_DAY',
  quotedCents: 3500,
  labelFormat: 'zpl',
  isReturn: false,
  reference: 'ORDER-1001',
  idempotencyKey: 'idem-1',
};

test('the ship request asks for the label format with its matching stock, inline, paid by the sender', () => {
  const built = buildShipRequest(request, '740561073');
  assert.ok(built.ok);
  const body = built.value;
  assert.equal(body.labelResponseOptions, 'LABEL');
  assert.deepEqual(body.requestedShipment.labelSpecification, { imageType: 'ZPLII', labelStockType: 'STOCK_4X6', labelFormatType: 'COMMON2D', resolution: 203 });
  assert.equal(body.requestedShipment.serviceType, 'FEDEX_2_DAY');
  assert.equal(body.requestedShipment.shipper.contact.phoneNumber, '6155550100');
  // The recipient has no phone: the shipper's stands in.
  assert.equal(body.requestedShipment.recipients[0]!.contact.phoneNumber, '6155550100');
  assert.deepEqual(body.requestedShipment.recipients[0]!.address.streetLines, ['415 Mission St', 'Floor 5']);
  assert.deepEqual(body.requestedShipment.shippingChargesPayment, { paymentType: 'SENDER' });
  assert.deepEqual(body.requestedShipment.requestedPackageLineItems[0], {
    sequenceNumber: 1,
    weight: { units: 'LB', value: 2.5 },
    customerReferences: [{ customerReferenceType: 'CUSTOMER_REFERENCE', value: 'ORDER-1001' }],
  });
  assert.equal('shipmentSpecialServices' in body.requestedShipment, false);
  const pdf = buildShipRequest({ ...request, labelFormat: 'pdf' }, '740561073');
  assert.ok(pdf.ok);
  assert.equal(pdf.value.requestedShipment.labelSpecification.labelStockType, 'PAPER_4X6');
});

test('a shipper without a 10-digit phone is address_invalid before anything is sent', () => {
  const built = buildShipRequest({ ...request, from: { ...request.from, phone: undefined } }, '740561073');
  assert.equal(!built.ok && built.error.code, 'address_invalid');
});

test('the ship answer gives the master tracking number, the net charge and the label bytes', () => {
  const result = parseShipResponse(fixture('ship-pdf'), { ...request, labelFormat: 'pdf' });
  assert.ok(result.ok);
  assert.equal(result.value.trackingNumber, '794953535000');
  assert.equal(result.value.carrierShipmentId, '794953535000');
  assert.equal(result.value.postageCents, 3602);
  assert.equal(result.value.file?.format, 'pdf');
  assert.ok(result.value.file?.bytes.toString('latin1').startsWith('%PDF'));
});

test('single objects and string money in a ship answer still parse', () => {
  const result = parseShipResponse(fixture('ship-zpl-single'), request);
  assert.ok(result.ok);
  assert.equal(result.value.trackingNumber, '128667043726');
  assert.equal(result.value.postageCents, 1421);
  assert.equal(result.value.file?.format, 'zpl');
  assert.equal(result.value.file?.bytes.toString('utf8'), '^XA^FO50,50^FDHello^FS^XZ');
});

test('a ship answer without a label image or a tracking number is a carrier_error', () => {
  const noLabel = parseShipResponse({ output: { transactionShipments: [{ masterTrackingNumber: '794953535000', pieceResponses: [{ packageDocuments: [{ url: 'https://x' }] }] }] } }, request);
  assert.equal(!noLabel.ok && noLabel.error.code, 'carrier_error');
  const nothing = parseShipResponse({ output: {} }, request);
  assert.equal(!nothing.ok && nothing.error.code, 'carrier_error');
});

test('a return label is a FedEx printed return: RETURN_SHIPMENT with PRINT_RETURN_LABEL, shipped by the customer to the merchant', () => {
  // For a return, from is the customer (no phone here) and to the merchant.
  const merchant = { ...request.from };
  const customer = { ...request.to };
  const built = buildShipRequest({ ...request, isReturn: true, from: customer, to: merchant }, '740561073');
  assert.ok(built.ok, JSON.stringify(built));
  const shipment = built.value.requestedShipment;
  assert.deepEqual(shipment.shipmentSpecialServices, { specialServiceTypes: ['RETURN_SHIPMENT'], returnShipmentDetail: { returnType: 'PRINT_RETURN_LABEL' } });
  assert.equal(shipment.shipper.contact.personName, 'Ada');
  assert.deepEqual(shipment.shipper.address.streetLines, ['415 Mission St', 'Floor 5']);
  assert.deepEqual(shipment.recipients[0]!.contact, { personName: 'Shop', companyName: 'Shop Inc', phoneNumber: '6155550100' });
  assert.equal(shipment.recipients[0]!.address.postalCode, '37201');
  // The customer has no phone: the merchant's stands in, as the recipient's does on an outbound label.
  assert.equal(shipment.shipper.contact.phoneNumber, '6155550100');
  assert.deepEqual(shipment.shippingChargesPayment, { paymentType: 'SENDER' });
  const noMerchantPhone = buildShipRequest({ ...request, isReturn: true, from: customer, to: { ...merchant, phone: undefined } }, '740561073');
  assert.equal(!noMerchantPhone.ok && noMerchantPhone.error.code, 'address_invalid');
});

test('names and streets fit FedEx: a long street is wrapped onto lines of 35, a long company name shortened to 35', () => {
  const to = { ...request.to, company: 'The Very Long Company Name Incorporated Worldwide', street1: '1600 Amphitheatre Parkway Building Forty Three', street2: undefined };
  const built = buildShipRequest({ ...request, to }, '740561073');
  assert.ok(built.ok);
  const recipient = built.value.requestedShipment.recipients[0]!;
  assert.deepEqual(recipient.address.streetLines, ['1600 Amphitheatre Parkway Building', 'Forty Three']);
  assert.equal(recipient.contact.companyName, 'The Very Long Company Name Incorpor');
  const farCity = buildShipRequest({ ...request, to: { ...request.to, city: 'Llanfairpwllgwyngyll-gogerychwyrndrobwll' } }, '740561073');
  assert.equal(!farCity.ok && farCity.error.code, 'address_invalid');
  const nameless = buildShipRequest({ ...request, to: { ...request.to, name: undefined } }, '740561073');
  assert.equal(!nameless.ok && nameless.error.code, 'address_invalid');
});

const shipAnswer = (rating: unknown, label = 'JVBERi0xLjQKJSVFT0YK', docType = 'PDF') => ({
  output: {
    transactionShipments: [
      {
        masterTrackingNumber: '794953535000',
        pieceResponses: [{ trackingNumber: '794953535000', netChargeAmount: 30.5, packageDocuments: [{ contentType: 'LABEL', docType, encodedLabel: label }] }],
        completedShipmentDetail: { shipmentRating: rating },
      },
    ],
  },
});

test("the charge is the shipment rate entry FedEx names in actualRateType, with that entry's currency", () => {
  const rating = {
    actualRateType: 'PAYOR_ACCOUNT_SHIPMENT',
    shipmentRateDetails: [
      { rateType: 'PAYOR_LIST_SHIPMENT', totalNetCharge: 48.9, currency: 'USD' },
      { rateType: 'PAYOR_ACCOUNT_SHIPMENT', totalNetCharge: 36.02, currency: 'CAD' },
    ],
  };
  const result = parseShipResponse(shipAnswer(rating), { ...request, labelFormat: 'pdf' });
  assert.ok(result.ok);
  assert.equal(result.value.postageCents, 3602);
  assert.equal(result.value.currency, 'CAD');
  // Without actualRateType, the payor's account rate, never the list rate listed first.
  const unnamed = parseShipResponse(shipAnswer({ shipmentRateDetails: rating.shipmentRateDetails }), { ...request, labelFormat: 'pdf' });
  assert.ok(unnamed.ok);
  assert.equal(unnamed.value.postageCents, 3602);
  // No shipment rating: the pieces' charges.
  const pieces = parseShipResponse(shipAnswer(undefined), { ...request, labelFormat: 'pdf' });
  assert.ok(pieces.ok);
  assert.equal(pieces.value.postageCents, 3050);
});

test('the label is reported in the format its bytes are, not the one asked for or named', () => {
  const png = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]).toString('base64');
  const asked = parseShipResponse(shipAnswer(undefined, png, 'PDF'), { ...request, labelFormat: 'pdf' });
  assert.ok(asked.ok);
  assert.equal(asked.value.file?.format, 'png');
  const zpl = parseShipResponse(shipAnswer(undefined, Buffer.from('\n^XA^FO50,50^FDx^FS^XZ').toString('base64'), 'PDF'), { ...request, labelFormat: 'pdf' });
  assert.equal(zpl.ok && zpl.value.file?.format, 'zpl');
  const gif = parseShipResponse(shipAnswer(undefined, Buffer.from('GIF89a').toString('base64'), 'PDF'), { ...request, labelFormat: 'pdf' });
  assert.equal(!gif.ok && gif.error.code, 'carrier_error');
});

test("an answer in the ship document's shape is charged at the entry its actualRateType names", () => {
  const result = parseShipResponse(fixture('ship-spec-shape'), { ...request, labelFormat: 'pdf' });
  assert.ok(result.ok);
  assert.deepEqual(
    [result.value.trackingNumber, result.value.carrierShipmentId, result.value.postageCents, result.value.currency, result.value.file?.format],
    ['794953535000', '794953535000', 2730, 'USD', 'pdf'],
  );
});

const boxes = [
  { weightLb: 2, dimensionsIn: { length: 10, width: 8, height: 6 }, insuredCents: 30_001, reference: 'Box 1: mugs' },
  { weightLb: 1.5, dimensionsIn: { length: 10, width: 8, height: 5.5 }, insuredCents: 30_000 },
  { weightLb: 0.1, insuredCents: 30_000, reference: 'Box 3: a reference longer than thirty characters' },
];

test('several boxes are one multiple-piece shipment: a line item per box, in sequence, with the totals FedEx checks', () => {
  const options = { signature: 'adult' as const, dry_ice: { weight: { value: 1, unit: 'kg' as const } }, saturday_delivery: true };
  const built = buildShipRequest({ ...request, parcels: boxes, options, references: ['PO-88213'] }, '740561073');
  assert.ok(built.ok, JSON.stringify(built));
  const shipment = built.value.requestedShipment;
  assert.equal(shipment.totalPackageCount, 3);
  // 3.6 lb: 2 + 1.5 + 0.1 summed without float dust, to one decimal.
  assert.equal(shipment.totalWeight, 3.6);
  assert.deepEqual(shipment.totalDeclaredValue, { amount: 900.01, currency: 'USD' });
  const items = shipment.requestedPackageLineItems;
  assert.deepEqual(items.map((i) => i.sequenceNumber), [1, 2, 3]);
  assert.deepEqual(items.map((i) => i.weight.value), [2, 1.5, 0.1]);
  assert.deepEqual(items.map((i) => i.dimensions?.height), [6, 6, undefined]);
  assert.deepEqual(items.map((i) => (i as Record<string, unknown>).declaredValue), [{ amount: 300.01, currency: 'USD' }, { amount: 300, currency: 'USD' }, { amount: 300, currency: 'USD' }]);
  // The shipment's reference on every box, and a box's own after it, cut to FedEx's 30.
  assert.deepEqual(items.map((i) => i.customerReferences?.map((r) => `${r.customerReferenceType}=${r.value}`)), [
    ['CUSTOMER_REFERENCE=PO-88213', 'P_O_NUMBER=Box 1: mugs'],
    ['CUSTOMER_REFERENCE=PO-88213'],
    ['CUSTOMER_REFERENCE=PO-88213', 'P_O_NUMBER=Box 3: a reference longer than'],
  ]);
  // Each box carries the package options; the shipment's dry ice counts every box.
  for (const item of items) assert.deepEqual(item.packageSpecialServices, { specialServiceTypes: ['SIGNATURE_OPTION', 'DRY_ICE'], signatureOptionType: 'ADULT', dryIceWeight: { units: 'KG', value: 1 } });
  assert.deepEqual(shipment.shipmentSpecialServices, {
    specialServiceTypes: ['SATURDAY_DELIVERY', 'DRY_ICE'],
    shipmentDryIceDetail: { totalWeight: { units: 'KG', value: 3 }, packageCount: 3 },
  });
});

/** A multiple-piece answer in the ship document's shape: the pieces listed out of order, each with its own label. */
const mpsAnswer = (pieces: { n: string; seq?: number; label?: string }[]) => ({
  output: {
    transactionShipments: [
      {
        masterTrackingNumber: '794953535000',
        pieceResponses: pieces.map((p) => ({
          trackingNumber: p.n,
          masterTrackingNumber: '794953535000',
          ...(p.seq !== undefined && { packageSequenceNumber: p.seq }),
          netChargeAmount: 10,
          ...(p.label !== undefined && { packageDocuments: [{ contentType: 'LABEL', docType: 'ZPLII', encodedLabel: p.label }] }),
        })),
        completedShipmentDetail: {
          masterTrackingId: { trackingNumber: '794953535000', trackingIdType: 'FEDEX' },
          shipmentRating: { actualRateType: 'PAYOR_ACCOUNT_SHIPMENT', shipmentRateDetails: [{ rateType: 'PAYOR_ACCOUNT_SHIPMENT', totalNetCharge: 79.5, currency: 'USD' }] },
        },
      },
    ],
  },
});
const zplOf = (n: string) => Buffer.from(`^XA^FD${n}^FS^XZ`).toString('base64');

test('a multiple-piece answer: the master, every box in the order asked with its own label, the whole shipment charged once', () => {
  const numbers = ['794953535000', '794953535011', '794953535022'];
  const answer = mpsAnswer([
    { n: numbers[2]!, seq: 3, label: zplOf(numbers[2]!) },
    { n: numbers[0]!, seq: 1, label: zplOf(numbers[0]!) },
    { n: numbers[1]!, seq: 2, label: zplOf(numbers[1]!) },
  ]);
  const result = parseShipResponse(answer, { ...request, parcels: boxes });
  assert.ok(result.ok, JSON.stringify(result));
  const label = result.value;
  assert.equal(label.masterTrackingNumber, '794953535000');
  assert.equal(label.carrierShipmentId, '794953535000', 'voided by its master');
  assert.equal(label.postageCents, 7950, "the shipment's total, not a piece's");
  assert.deepEqual(boughtBoxes(label).map((b) => b.trackingNumber), numbers);
  assert.deepEqual(boughtBoxes(label).map((b) => [b.file?.format, b.file?.bytes.toString()]), numbers.map((n) => ['zpl', `^XA^FD${n}^FS^XZ`]));
  assert.equal(label.trackingNumber, numbers[0]);
  assert.equal(label.file?.bytes.toString(), `^XA^FD${numbers[0]}^FS^XZ`);
});

test('a multiple-piece answer short of a piece, a number or a label is a carrier_error naming the master to void', () => {
  const parcels = boxes.slice(0, 2);
  const short = parseShipResponse(mpsAnswer([{ n: '794953535000', label: zplOf('a') }]), { ...request, parcels });
  assert.match(!short.ok ? short.error.detail : '', /1 piece\(s\) for 2 boxes; void shipment 794953535000/);
  const unlabelled = parseShipResponse(mpsAnswer([{ n: '794953535000', label: zplOf('a') }, { n: '794953535011' }]), { ...request, parcels });
  assert.match(!unlabelled.ok ? unlabelled.error.detail : '', /no label image for box 2 \(794953535011\)/);
  const gif = parseShipResponse(mpsAnswer([{ n: '794953535000', label: zplOf('a') }, { n: '794953535011', label: Buffer.from('GIF89a').toString('base64') }]), { ...request, parcels });
  assert.equal(!gif.ok && gif.error.code, 'carrier_error');
});
