import type { DeliveryAreaZips } from './types.ts';

/** Lists already read, so a quote looks a ZIP code up without reading the list again. */
const read = new WeakMap<DeliveryAreaZips, ReadonlyMap<string, string>>();

/**
 * Every ZIP code on a delivery area list, to its category. Throws on an entry that is not `prefix:suffixes` or a ZIP
 * code listed twice, so a mistyped list fails the first quote and the tests rather than pricing silently wrong.
 */
export function deliveryAreaIndex(zips: DeliveryAreaZips): ReadonlyMap<string, string> {
  const known = read.get(zips);
  if (known) return known;
  const index = new Map<string, string>();
  for (const [category, entries] of Object.entries(zips.categories)) {
    for (const group of entries.flatMap((e) => e.split(' '))) {
      const [, prefix, suffixes] = /^(\d{3}):(\d\d(?:-\d\d)?(?:,\d\d(?:-\d\d)?)*)$/.exec(group) ?? [];
      if (!prefix || !suffixes) throw new Error(`${zips.source}: "${group}" is not prefix:suffixes`);
      for (const run of suffixes.split(',')) {
        const [from, to = from] = run.split('-').map(Number) as [number, number?];
        for (let s = from; s <= to; s++) {
          const zip = `${prefix}${String(s).padStart(2, '0')}`;
          const other = index.get(zip);
          if (other) throw new Error(`${zips.source}: ${zip} is listed under both ${other} and ${category}`);
          index.set(zip, category);
        }
      }
    }
  }
  read.set(zips, index);
  return index;
}

/** The category of a destination ZIP code (ZIP+4 or five digits) on the list, undefined when it is not listed. */
export function deliveryAreaOf(zips: DeliveryAreaZips, zip: string): string | undefined {
  return deliveryAreaIndex(zips).get(zip.slice(0, 5));
}
