import { randomBytes } from 'node:crypto';

// Lower-case Crockford base32: sorts the same as the numbers it encodes, and has no I, L, O or U to misread.
const alphabet = '0123456789abcdefghjkmnpqrstvwxyz';

export const idPrefixes = [
  'acct', 'key', 'ord', 'rate', 'rsh', 'shp', 'trk', 'whk', 'evt', 'dlv', 'loc', 'pkg', 'bat', 'man', 'pku', 'job', 'req',
] as const;
export type IdPrefix = (typeof idPrefixes)[number];

let lastTime = 0;
let lastRandom = 0n;
const randomBits = 80n;
const randomMax = (1n << randomBits) - 1n;

function encode(value: bigint, length: number): string {
  let out = '';
  for (let i = 0; i < length; i++) {
    out = alphabet[Number(value & 31n)] + out;
    value >>= 5n;
  }
  return out;
}

/**
 * A time-sortable id: 48 bits of milliseconds then 80 random bits. Within one millisecond the random part
 * counts up, so ids made by one process sort in creation order, which cursor pagination relies on.
 */
export function newId(prefix: IdPrefix, now: number = Date.now()): string {
  if (now <= lastTime && lastRandom < randomMax) {
    lastRandom += 1n;
  } else {
    lastTime = Math.max(now, lastTime);
    lastRandom = BigInt('0x' + randomBytes(10).toString('hex')) >> 1n;
  }
  return `${prefix}_${encode(BigInt(lastTime), 10)}${encode(lastRandom, 16)}`;
}

export function hasPrefix(id: string, prefix: IdPrefix): boolean {
  return id.startsWith(prefix + '_') && /^[0-9a-hjkmnp-tv-z]{26}$/.test(id.slice(prefix.length + 1));
}
