import type { Money } from '../schemas/order.ts';

export function money(cents: number): Money {
  return { amount: (cents / 100).toFixed(2), currency: 'USD' };
}

export function cents(m: Money): number {
  const [whole, fraction = ''] = m.amount.split('.');
  return Number(whole) * 100 + Number(fraction.padEnd(2, '0'));
}
