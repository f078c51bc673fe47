import { publishedCents, type PriceList } from './types.ts';

/**
 * Every place a price list breaks the shape all published tables share: a heavier parcel never costs less, a farther
 * zone never costs less, and a faster service never costs less than a slower one at the same zone and weight.
 * Each violation names its cell, so a mistyped figure can be found in the carrier's document.
 */
export function priceTableViolations(list: PriceList): string[] {
  const out: string[] = [];
  const where = (service: string, zone: string, lb: number) => `${list.carrier} ${service} zone ${zone} ${lb} lb`;
  for (const [service, table] of Object.entries(list.services)) {
    for (const [zone, { fromLb, cents }] of Object.entries(table)) {
      const rank = list.distanceZones.indexOf(zone);
      const nearerZone = rank > 0 ? list.distanceZones[rank - 1] : undefined;
      for (const [j, price] of cents.entries()) {
        const lb = fromLb + j;
        if (!Number.isInteger(price) || price <= 0) out.push(`${where(service, zone, lb)}: ${price} is not a price in cents`);
        if (j > 0 && price < cents[j - 1]!) out.push(`${where(service, zone, lb)}: ${price} is less than ${cents[j - 1]} for ${lb - 1} lb`);
        const nearer = nearerZone === undefined ? undefined : publishedCents(table, nearerZone, lb);
        if (nearer !== undefined && price < nearer) out.push(`${where(service, zone, lb)}: ${price} is less than ${nearer} to zone ${nearerZone}`);
      }
    }
  }
  for (const [k, faster] of list.speedOrder.entries()) {
    if (k === 0) continue;
    const slower = list.speedOrder[k - 1]!;
    const fast = list.services[faster];
    const slow = list.services[slower];
    if (!fast || !slow) {
      out.push(`${list.carrier}: speed order names ${fast ? slower : faster}, which has no table`);
      continue;
    }
    for (const [zone, { fromLb, cents }] of Object.entries(fast)) {
      for (const [j, price] of cents.entries()) {
        const other = publishedCents(slow, zone, fromLb + j);
        if (other !== undefined && price < other) out.push(`${where(faster, zone, fromLb + j)}: ${price} is less than ${slower}'s ${other}`);
      }
    }
  }
  return out;
}
