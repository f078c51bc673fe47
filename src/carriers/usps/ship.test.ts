import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import type { PurchaseRequest } from '../carrier.ts';
import { parseCancel, parseCancelError } from './cancel.ts';
import { buildPaymentRequest, parsePayment } from './payment.ts';
import { buildLabelRequest, parseLabel } from './ship.ts';

const fixture = (name: string): unknown => JSON.parse(readFileSync(new URL(`./fixtures/${name}`, import.meta.url), 'utf8'));

const purchase: PurchaseRequest = {
  from: { name: 'Ada Lovelace', company: 'Analytical Co', street1: '415 Mission St', street2: 'Floor 3', city: 'San Francisco', state: 'ca', zip: '94105', phone: '(415) 555-0100' },
  to: { name: 'Grace Brewster Hopper', street1: '3120 M St NW', city: 'Washington', state: 'DC', zip: '20007-3704', email: 'grace@example.com' },
  parcel: { weightLb: 0.5, dimensionsIn: { length: 6, width: 9, height: 0.25 } },
  shipDate: new Date('2025-01-06T12:00:00Z'),
  service: 'PRIORITY_MAIL',
  quotedCents: 835,
  labelFormat: 'zpl',
  isReturn: false,
  reference: 'ORDER-1001',
  idempotencyKey: 'key-1',
};

test('the label request carries the image type asked for, split names and ZIPs, and the order number', () => {
  const body = buildLabelRequest(purchase) as Record<string, Record<string, unknown>>;
  assert.equal(body.imageInfo!.imageType, 'ZPL203DPI');
  assert.equal(body.imageInfo!.labelType, '4X6LABEL');
  assert.deepEqual(body.toAddress, { firstName: 'Grace', lastName: 'Brewster Hopper', streetAddress: '3120 M St NW', city: 'Washington', state: 'DC', ZIPCode: '20007', ZIPPlus4: '3704', email: 'grace@example.com' });
  assert.deepEqual(body.fromAddress, { firstName: 'Ada', lastName: 'Lovelace', firm: 'Analytical Co', streetAddress: '415 Mission St', secondaryAddress: 'Floor 3', city: 'San Francisco', state: 'CA', ZIPCode: '94105', phone: '4155550100' });
  assert.deepEqual(body.packageDescription, {
    mailClass: 'PRIORITY_MAIL', rateIndicator: 'SP', weightUOM: 'lb', weight: 0.5, dimensionsUOM: 'in', length: 9, width: 6, height: 0.25,
    processingCategory: 'MACHINABLE', mailingDate: '2025-01-06', destinationEntryFacilityType: 'NONE',
  });
  assert.deepEqual(body.customerReference, [{ referenceNumber: 'ORDER-1001', printReferenceNumber: true }]);
  assert.equal((buildLabelRequest({ ...purchase, labelFormat: 'png' }) as { imageInfo: { imageType: string } }).imageInfo.imageType, 'PNG');
});

test('the JSON label answer gives the tracking number, postage in cents and the decoded label bytes', () => {
  const result = parseLabel(fixture('label.json'), 'pdf');
  assert.ok(result.ok);
  assert.equal(result.value.trackingNumber, '9205500000000000000004');
  assert.equal(result.value.carrierShipmentId, '9205500000000000000004');
  assert.equal(result.value.postageCents, 835);
  assert.equal(result.value.file?.format, 'pdf');
  assert.ok(result.value.file?.bytes.subarray(0, 5).equals(Buffer.from('%PDF-')));
});

test('a label answer without image or tracking number is a carrier_error', () => {
  const noImage = parseLabel({ labelMetadata: { trackingNumber: '9205500000000000000004', postage: 8.35 } }, 'pdf');
  assert.equal(noImage.ok ? null : noImage.error.code, 'carrier_error');
  const noNumber = parseLabel({ labelMetadata: { postage: 8.35 }, labelImage: 'QUJD' }, 'pdf');
  assert.equal(noNumber.ok ? null : noNumber.error.code, 'carrier_error');
});

test('payment authorization pays and owns labels with the EPS account, and its token lives eight hours', () => {
  assert.deepEqual(buildPaymentRequest('1000123456'), {
    roles: [
      { roleName: 'PAYER', accountType: 'EPS', accountNumber: '1000123456' },
      { roleName: 'LABEL_OWNER', accountType: 'EPS', accountNumber: '1000123456' },
    ],
  });
  assert.deepEqual(parsePayment({ paymentAuthorizationToken: 'pay', roles: [] }), { ok: true, value: { accessToken: 'pay', expiresIn: 28_800 } });
  assert.equal(parsePayment({ roles: [] }).ok, false);
});

test('cancel: CANCELED is refunded, DISPUTED is refund_pending, anything else a carrier_error', () => {
  assert.deepEqual(parseCancel(fixture('cancel-canceled.json')), { ok: true, value: 'refunded' });
  assert.deepEqual(parseCancel(fixture('cancel-disputed.json')), { ok: true, value: 'refund_pending' });
  assert.equal(parseCancel({ status: 'PENDING' }).ok, false);
});

test('cancel refusals: already submitted today is already_voided, cannot be submitted is label_in_transit', () => {
  const tn = '9205500000000000000004';
  assert.equal(parseCancelError(400, fixture('cancel-already-submitted.json'), tn).code, 'already_voided');
  assert.equal(parseCancelError(400, fixture('cancel-cannot-submit.json'), tn).code, 'label_in_transit');
  const notFound = parseCancelError(400, { apiVersion: '/labels/v3', error: { code: '400', message: 'Bad Request', errors: [{ detail: 'Order not found' }] } }, tn);
  assert.equal(notFound.code, 'carrier_error');
  assert.match(notFound.detail, /Order not found/);
});
