import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Carrier, Quote, RateRequest } from '../../carriers/carrier.ts';
import type { Context } from '../core/context.ts';
import { quoteAll } from './rating.ts';

const quote = (service: string, currency: string, cents: number): Quote => ({
  carrier: 'ups',
  service,
  serviceName: `UPS ${service}`,
  amountCents: cents,
  listAmountCents: cents,
  currency,
  billableWeightLb: 1,
  zone: '5',
  deliveryDays: 3,
  estimatedDeliveryDate: '2026-12-01',
  guaranteed: false,
  surcharges: [],
});

test('a quote in another currency than USD is set aside as an error naming it, never priced as dollars', async () => {
  const carrier = {
    id: 'ups',
    name: 'UPS',
    rate: async () => ({ ok: true, value: [quote('03', 'CAD', 1900), quote('02', 'USD', 2500)] }),
  } as unknown as Carrier;
  const ctx = { config: { carrierTimeoutMs: 1000 } } as unknown as Context;
  const { quotes, errors } = await quoteAll(ctx, [carrier], {} as RateRequest);
  assert.deepEqual(quotes.map((q) => [q.service, q.amountCents, q.currency]), [['02', 2500, 'USD']]);
  assert.equal(errors.length, 1);
  assert.equal(errors[0]!.carrier, 'ups');
  assert.match(errors[0]!.detail, /UPS 03 in CAD/);
});
