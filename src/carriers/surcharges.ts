import { surchargeTypeNames, type SurchargeType } from '../schemas/surcharge.ts';

/** One surcharge a quote includes: what the caller pays for it, in the quote's currency, in cents. */
export interface Surcharge {
  type: SurchargeType;
  amountCents: number;
}

/**
 * The surcharges a quote of `amountCents` shows: one entry per type (a carrier may itemize one kind twice, at the
 * shipment and at the package), in the table's order, without zero or negative entries. A carrier whose items add up
 * to more than the quote's amount itemized something else than what it charged, so none is shown rather than a
 * breakdown that does not add up.
 */
export function includedSurcharges(amountCents: number, items: readonly Surcharge[]): Surcharge[] {
  const byType = new Map<SurchargeType, number>();
  for (const item of items) if (item.amountCents > 0) byType.set(item.type, (byType.get(item.type) ?? 0) + item.amountCents);
  const out = surchargeTypeNames.flatMap((type) => (byType.has(type) ? [{ type, amountCents: byType.get(type)! }] : []));
  return out.reduce((sum, s) => sum + s.amountCents, 0) > amountCents ? [] : out;
}
