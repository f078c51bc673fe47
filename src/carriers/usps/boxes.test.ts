import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Quote } from '../carrier.ts';
import { distinctBoxes, shipmentQuotes } from './boxes.ts';

const quote = (service: string, amountCents: number, o: Partial<Quote> = {}): Quote => ({
  carrier: 'usps',
  service,
  serviceName: service,
  amountCents,
  listAmountCents: amountCents + 100,
  currency: 'USD',
  billableWeightLb: 2,
  zone: '05',
  deliveryDays: 2,
  estimatedDeliveryDate: '2025-01-08',
  guaranteed: false,
  surcharges: [],
  ...o,
});

test("boxes alike are asked about once, each box pointing at its answer", () => {
  const a = { weightLb: 2, dimensionsIn: { length: 10, width: 8, height: 4 } };
  const { boxes, indexOf } = distinctBoxes([a, { weightLb: 3 }, { ...a }, { ...a, insuredCents: 20_000 }]);
  assert.equal(boxes.length, 3);
  assert.deepEqual(indexOf, [0, 1, 0, 2]);
});

test("a shipment's quote for a service is its boxes' together, offered only where every box can go by it", () => {
  const box1 = [quote('USPS_GROUND_ADVANTAGE', 700, { surcharges: [{ type: 'signature', amountCents: 395 }] }), quote('PRIORITY_MAIL', 1000, { guaranteed: true })];
  const box2 = [
    quote('PRIORITY_MAIL', 1200, { billableWeightLb: 5, deliveryDays: 3, estimatedDeliveryDate: '2025-01-09', surcharges: [{ type: 'nonstandard', amountCents: 400 }] }),
    quote('USPS_GROUND_ADVANTAGE', 800, { surcharges: [{ type: 'signature', amountCents: 395 }] }),
  ];
  const box3 = [quote('PRIORITY_MAIL', 1000), quote('PRIORITY_MAIL_EXPRESS', 3000)];
  assert.deepEqual(shipmentQuotes([box1, box2]), [
    quote('USPS_GROUND_ADVANTAGE', 1500, { listAmountCents: 1700, billableWeightLb: 4, surcharges: [{ type: 'signature', amountCents: 790 }] }),
    quote('PRIORITY_MAIL', 2200, { listAmountCents: 2400, billableWeightLb: 7, deliveryDays: 3, estimatedDeliveryDate: '2025-01-09', surcharges: [{ type: 'nonstandard', amountCents: 400 }] }),
  ]);
  assert.deepEqual(shipmentQuotes([box1, box2, box3]).map((q) => [q.service, q.amountCents, q.guaranteed]), [['PRIORITY_MAIL', 3200, false]]);
  assert.deepEqual(shipmentQuotes([box1]), box1);
});
