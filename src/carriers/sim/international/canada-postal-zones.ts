import type { ZoneAnswer } from './types.ts';

/**
 * Zones by ranges of Canadian forward sortation areas (a postal code's first three characters, letter digit letter),
 * as carriers print them: [first, last, zone], both ends included. FSAs sort as strings, so a range may span letters.
 */
export type FsaZones = readonly (readonly [string, string, string])[];

/** The zone of a Canadian postal code, or why there is none: a carrier zones Canada by postal code, not by province. */
export function canadaZone(ranges: FsaZones, postalCode: string | undefined, carrier: string): ZoneAnswer {
  const fsa = postalCode?.replace(/\s+/g, '').toUpperCase().slice(0, 3) ?? '';
  if (!/^[A-Z]\d[A-Z]$/.test(fsa)) return { refused: `${carrier} zones Canada by postal code, and "${postalCode ?? ''}" is not one` };
  const range = ranges.find(([first, last]) => fsa >= first && fsa <= last);
  return range ? { zone: range[2] } : { refused: `${carrier}'s Canada zone chart has no zone for postal area ${fsa}` };
}
