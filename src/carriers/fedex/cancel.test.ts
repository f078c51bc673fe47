import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { LabelRef } from '../carrier.ts';
import { buildCancelRequest, parseCancelResponse } from './cancel.ts';
import { fixture } from './fixtures.ts';

const label: LabelRef = { trackingNumber: '794953535000', carrierShipmentId: '794953535000', service: 'FEDEX_2_DAY', purchasedAt: new Date('2024-05-01T15:00:00Z') };

test('the cancel request names the shipment and cancels every package', () => {
  assert.deepEqual(buildCancelRequest(label, '740561073'), {
    accountNumber: { value: '740561073' },
    trackingNumber: '794953535000',
    deletionControl: 'DELETE_ALL_PACKAGES',
    senderCountryCode: 'US',
    emailShipment: false,
  });
});

test('cancel answers map to refunded, already_voided and label_in_transit', () => {
  assert.deepEqual(parseCancelResponse(200, fixture('cancel-ok'), label), { ok: true, value: 'refunded' });
  const already = parseCancelResponse(200, fixture('cancel-already'), label);
  assert.equal(!already.ok && already.error.code, 'already_voided');
  const tendered = parseCancelResponse(200, fixture('cancel-tendered'), label);
  assert.equal(!tendered.ok && tendered.error.code, 'label_in_transit');
});

test('refusals in the error envelope are read too', () => {
  const inTransit = parseCancelResponse(400, { errors: [{ code: 'SHIPMENT.CANCEL.NOTALLOWED', message: 'Shipment cannot be cancelled, it is in transit.' }] }, label);
  assert.equal(!inTransit.ok && inTransit.error.code, 'label_in_transit');
  const auth = parseCancelResponse(401, fixture('error-auth'), label);
  assert.equal(!auth.ok && auth.error.code, 'carrier_unavailable');
  const strange = parseCancelResponse(200, { output: {} }, label);
  assert.equal(!strange.ok && strange.error.code, 'carrier_error');
});

test("an answer in the ship document's cancel shape is refunded", () => {
  assert.deepEqual(parseCancelResponse(200, fixture('cancel-spec-shape'), label), { ok: true, value: 'refunded' });
});

test('several boxes are cancelled together by their master tracking number, and a refusal names the shipment', () => {
  const boxes = [
    { trackingNumber: '794953535000', carrierShipmentId: '794953535000' },
    { trackingNumber: '794953535011', carrierShipmentId: '794953535000' },
  ];
  const mps: LabelRef = { ...label, trackingNumber: '794953535000', carrierShipmentId: '794953535000', boxes };
  assert.equal(buildCancelRequest({ ...mps, trackingNumber: '794953535011' }, '740561073').trackingNumber, '794953535000');
  const tendered = parseCancelResponse(200, fixture('cancel-tendered'), mps);
  assert.match(!tendered.ok ? tendered.error.detail : '', /^FedEx has shipment 794953535000 \(2 boxes\) in hand/);
});
