import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { PurchaseRequest } from '../carrier.ts';
import { fixture } from './fixtures.ts';
import { buildShipRequest, parseShipResponse } from './ship.ts';

const request: PurchaseRequest = {
  from: { name: 'Shop', company: 'Shop Inc', street1: '1 Main St', city: 'Nashville', state: 'TN', zip: '37201', phone: '+1 (615) 555-0100' },
  to: { name: 'Ada', street1: '415 Mission St', street2: 'Floor 5', city: 'San Francisco', state: 'CA', zip: '94105' },
  parcel: { weightLb: 2.5 },
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
  assert.deepEqual(body.requestedShipment.labelSpecification, { imageType: 'ZPLII', labelStockType: 'STOCK_4X6', labelFormatType: 'COMMON2D' });
  assert.equal(body.requestedShipment.serviceType, 'FEDEX_2_DAY');
  assert.equal(body.requestedShipment.shipper.contact.phoneNumber, '6155550100');
  // The recipient has no phone: the shipper's stands in.
  assert.equal(body.requestedShipment.recipients[0]!.contact.phoneNumber, '6155550100');
  assert.deepEqual(body.requestedShipment.recipients[0]!.address.streetLines, ['415 Mission St', 'Floor 5']);
  assert.deepEqual(body.requestedShipment.shippingChargesPayment, { paymentType: 'SENDER' });
  assert.equal(body.requestedShipment.requestedPackageLineItems[0]!.customerReferences?.[0]!.value, 'ORDER-1001');
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
