import { failure, ok, type CarrierResult } from '../carrier.ts';
import type { AnyAddress } from '../../schemas/address.ts';

/**
 * UPS's address lines: Shipping.yaml and Rating.yaml (UPS-API/api-documentation, commit 66148b92, 2026-07-21) allow
 * "up to three occurrences" of AddressLine of 35 characters each; AddressValidation.yaml allows three of 100.
 */
export const upsLines = { count: 3, shipping: 35, validation: 100 } as const;

/** Words onto lines of at most `width` characters, or undefined when one word alone is longer. */
function wrap(text: string, width: number): string[] | undefined {
  const lines: string[] = [];
  for (const word of text.split(' ')) {
    if (word.length > width) return undefined;
    const last = lines.at(-1);
    if (last !== undefined && last.length + 1 + word.length <= width) lines[lines.length - 1] = `${last} ${word}`;
    else lines.push(word);
  }
  return lines;
}

/**
 * street1 and street2 as at most three lines of `width` characters, broken between words. Each street keeps its
 * own lines while they fit (the unit stays apart from the street); otherwise the two run on together.
 */
export function splitAddressLines(a: AnyAddress, width: number): string[] | undefined {
  const streets = [a.street1, a.street2].map((s) => (s ?? '').trim().replace(/\s+/g, ' ')).filter((s) => s !== '');
  const apart = streets.map((s) => wrap(s, width));
  if (apart.every((l) => l !== undefined) && apart.flat().length <= upsLines.count) return apart.flat() as string[];
  const together = wrap(streets.join(' '), width);
  return together && together.length <= upsLines.count ? together : undefined;
}

/** The lines of each address, or address_invalid naming which one UPS could not take, before anything is sent. */
export function fitAddressLines<K extends string>(addresses: Record<K, AnyAddress>, width: number): CarrierResult<Record<K, string[]>> {
  const out = {} as Record<K, string[]>;
  for (const role of Object.keys(addresses) as K[]) {
    const a = addresses[role];
    const lines = splitAddressLines(a, width);
    if (!lines) {
      const street = [a.street1, a.street2].filter(Boolean).join(', ');
      return failure(
        'address_invalid',
        `UPS allows ${upsLines.count} address lines of ${width} characters; the ${role} street "${street}" does not fit them. Shorten it or abbreviate (St, Ave, Ste).`,
      );
    }
    out[role] = lines;
  }
  return ok(out);
}
