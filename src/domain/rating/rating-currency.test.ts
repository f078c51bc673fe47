import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Carrier, Quote, RateRequest } from '../../carriers/carrier.ts';
import type { Context } from '../core/context.ts';
import { quoteAll, usdCents } from './rating.ts';

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

test('a quote in another currency than USD keeps it, sorted by the US-dollar price the carrier stated, last without one', async () => {
  const carrier = {
    id: 'ups',
    name: 'UPS',
    rate: async () => ({ ok: true, value: [quote('03', 'CAD', 1900), { ...quote('12', 'CAD', 3000), usdAmountCents: 2100 }, quote('02', 'USD', 2500)] }),
  } as unknown as Carrier;
  const ctx = { config: { carrierTimeoutMs: 1000 } } as unknown as Context;
  const { quotes, errors } = await quoteAll(ctx, [carrier], {} as RateRequest);
  // 1900 CAD is not cheaper than 25.00 USD: with no US-dollar figure it cannot be compared, so it goes last.
  assert.deepEqual(quotes.map((q) => [q.service, q.amountCents, q.currency, usdCents(q)]), [
    ['12', 3000, 'CAD', 2100],
    ['02', 2500, 'USD', 2500],
    ['03', 1900, 'CAD', undefined],
  ]);
  assert.deepEqual(errors, []);
});
