import type { ParcelSpec, Quote } from '../carrier.ts';
import { includedSurcharges } from '../surcharges.ts';

/*
 * USPS has no multi-piece shipment: each box of several is a label of its own (carriers/box-by-box.ts buys them),
 * so each is priced on its own, and the shipment's quote for a service is its boxes' quotes together.
 */

/**
 * How many rate searches one rate call has in flight at once. A shipment of several boxes is searched box by box,
 * and, with options, class by class (adapter.ts rateBox): up to 20 distinct boxes (the schema's most) × 3 domestic
 * classes, plus a commitment search per box for a return, is 80 searches, which all at once would be a burst at USPS
 * and would queue in the keep-alive pool, where each search's own time-out runs while it waits. Four at once is at
 * most 20 rounds for that worst case. The rate call's time-out (SHIPD_CARRIER_TIMEOUT_MS, 10 s unless set) bounds
 * the whole: the searches still waiting when it runs out are never sent (kernel/limit.ts).
 */
export const rateSearchesAtOnce = 4;

/** Boxes USPS would price alike (same weight, size and insured value) are asked about once. */
export function distinctBoxes(parcels: readonly ParcelSpec[]): { boxes: ParcelSpec[]; indexOf: number[] } {
  const keys: string[] = [];
  const boxes: ParcelSpec[] = [];
  const indexOf = parcels.map((p) => {
    const d = p.dimensionsIn;
    const key = `${p.weightLb}/${d ? `${d.length}x${d.width}x${d.height}` : ''}/${p.insuredCents ?? ''}`;
    let i = keys.indexOf(key);
    if (i < 0) {
      i = keys.push(key) - 1;
      boxes.push(p);
    }
    return i;
  });
  return { boxes, indexOf };
}

const sum = (values: readonly number[]) => values.reduce((a, b) => a + b, 0);

/**
 * The shipment's quotes from each box's: a service is offered only where every box can go by it, at the sum of the
 * boxes' prices, list prices, surcharges and billable weights, delivered when its last box is, and guaranteed only if
 * every box is.
 */
export function shipmentQuotes(perBox: readonly (readonly Quote[])[]): Quote[] {
  const [first, ...rest] = perBox;
  if (!first) return [];
  if (rest.length === 0) return [...first];
  return first.flatMap((q) => {
    const others = rest.map((quotes) => quotes.find((o) => o.service === q.service));
    if (others.some((o) => o === undefined)) return [];
    const all = [q, ...(others as Quote[])];
    const amountCents = sum(all.map((a) => a.amountCents));
    const last = all.reduce((a, b) => ((b.estimatedDeliveryDate ?? '') > (a.estimatedDeliveryDate ?? '') ? b : a));
    return [
      {
        ...q,
        amountCents,
        listAmountCents: sum(all.map((a) => a.listAmountCents)),
        billableWeightLb: sum(all.map((a) => a.billableWeightLb)),
        deliveryDays: last.deliveryDays,
        estimatedDeliveryDate: last.estimatedDeliveryDate,
        guaranteed: all.every((a) => a.guaranteed),
        surcharges: includedSurcharges(amountCents, all.flatMap((a) => a.surcharges)),
      },
    ];
  });
}
