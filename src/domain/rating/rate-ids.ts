import { newId, randomTimeKey } from '../../kernel/ids.ts';

const alphabet = '0123456789abcdefghjkmnpqrstvwxyz';
/** A shop holds at most this many rates: two base32 characters. */
export const maxRatesPerShop = 1024;

/**
 * A rate shop's ids. The shop's key is 24 time-sortable characters (10 of time, 14 random); each rate's id is
 * `rate_` + that key + its index in two characters, so a rate is found by id in its shop's one row.
 */
export function newRateShopIds(now: number): { shopId: string; rateKey: string; rateId(index: number): string } {
  const shopId = newId('rsh', now);
  const rateKey = randomTimeKey(24, now);
  return { shopId, rateKey, rateId: (index: number) => rateIdFor(rateKey, index) };
}

export function rateIdFor(rateKey: string, index: number): string {
  return `rate_${rateKey}${alphabet[index >> 5]}${alphabet[index & 31]}`;
}

/** The shop key and index a rate id points at; undefined for anything that is not a rate id. */
export function parseRateId(id: string): { rateKey: string; index: number } | undefined {
  const match = /^rate_([0-9a-hjkmnp-tv-z]{24})([0-9a-hjkmnp-tv-z])([0-9a-hjkmnp-tv-z])$/.exec(id);
  if (!match) return undefined;
  return { rateKey: match[1]!, index: alphabet.indexOf(match[2]!) * 32 + alphabet.indexOf(match[3]!) };
}
