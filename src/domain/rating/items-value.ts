import { totalValues } from '../../labels/customs-figures.ts';
import type { LineItem } from '../../schemas/order.ts';

/** What the line items are worth together; undefined without items or when they are priced in more than one currency. */
export function itemsValue(items: LineItem[]): { amount: string; currency: string } | undefined {
  const totals = totalValues(items.map((i) => ({ quantity: i.quantity, unit_value: i.unit_price })));
  return totals.length === 1 ? { amount: totals[0]!.amount, currency: totals[0]!.currency.toUpperCase() } : undefined;
}
