import type { Money } from '../../schemas/order.ts';

export function money(cents: number): Money {
  return { amount: (cents / 100).toFixed(2), currency: 'USD' };
}
