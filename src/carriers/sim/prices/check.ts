import { publishedCents, type PriceList, type RateTable } from './types.ts';

type Tables = Readonly<Record<string, RateTable>>;

/**
 * Every place a price list breaks the shape all published tables share: a heavier parcel never costs less, a farther
 * zone never costs less, and a faster service never costs less than a slower one at the same zone and weight. The
 * account's own tables (USPS commercial) keep the same shape, and an account never pays more than the published
 * price of the same cell. Each violation names its cell, so a mistyped figure can be found in the carrier's document.
 */
export function priceTableViolations(list: PriceList): string[] {
  const out = shapeViolations(list, list.services, '', true);
  if (list.accountServices) {
    out.push(...shapeViolations(list, list.accountServices, ' account', false));
    out.push(...accountAboveList(list, list.accountServices));
  }
  return out;
}

/** `everyService`: the speed order's services must all have a table (true for the published list, not the account's). */
function shapeViolations(list: PriceList, tables: Tables, kind: string, everyService: boolean): string[] {
  const out: string[] = [];
  const where = (service: string, zone: string, lb: number) => `${list.carrier} ${service}${kind} zone ${zone} ${lb} lb`;
  for (const [service, table] of Object.entries(tables)) {
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
    const fast = tables[faster];
    const slow = tables[slower];
    if (!fast || !slow) {
      if (everyService) out.push(`${list.carrier}: speed order names ${fast ? slower : faster}, which has no table`);
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

/** Account cells above the published price of the same service, zone and weight, or with no published price at all. */
function accountAboveList(list: PriceList, tables: Tables): string[] {
  const out: string[] = [];
  for (const [service, table] of Object.entries(tables)) {
    for (const [zone, { fromLb, cents }] of Object.entries(table)) {
      for (const [j, price] of cents.entries()) {
        const where = `${list.carrier} ${service} account zone ${zone} ${fromLb + j} lb`;
        const published = publishedCents(list.services[service], zone, fromLb + j);
        if (published === undefined) out.push(`${where}: no published price to set it against`);
        else if (price > published) out.push(`${where}: ${price} is more than the published ${published}`);
      }
    }
  }
  return out;
}
