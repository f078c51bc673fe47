import { randomFillSync } from 'node:crypto';

// Random bytes are drawn from a pool refilled in large blocks: one system call per few hundred ids.
const pool = Buffer.alloc(4096);
let poolOffset = pool.length;

function randomHex(bytes: number): string {
  if (poolOffset + bytes > pool.length) {
    randomFillSync(pool);
    poolOffset = 0;
  }
  const hex = pool.toString('hex', poolOffset, poolOffset + bytes);
  poolOffset += bytes;
  return hex;
}

// Lower-case Crockford base32: sorts the same as the numbers it encodes, and has no I, L, O or U to misread.
const alphabet = '0123456789abcdefghjkmnpqrstvwxyz';

export const idPrefixes = [
  'acct', 'key', 'ord', 'rate', 'rsh', 'shp', 'trk', 'whk', 'evt', 'dlv', 'loc', 'pkg', 'bat', 'man', 'pku', 'job', 'req', 'led', 'ca',
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
    lastRandom = BigInt('0x' + randomHex(10)) >> 1n;
  }
  return `${prefix}_${encode(BigInt(lastTime), 10)}${encode(lastRandom, 16)}`;
}

/**
 * `length` characters: the time as 10, then fresh randomness. Unlike newId, two made in one millisecond never
 * share a prefix, so a prefix of one can serve as a key.
 */
export function randomTimeKey(length: number, now: number = Date.now()): string {
  const randomChars = length - 10;
  const random = BigInt('0x' + randomHex(Math.ceil((randomChars * 5) / 8)));
  return encode(BigInt(now), 10) + encode(random, randomChars);
}

/**
 * The id `offset` places after `id` in its random part, under `prefix`: made from another resource's id, so it can be
 * found again without being stored, and it sorts beside the id it comes from.
 */
export function siblingId(prefix: IdPrefix, id: string, offset: number): string {
  const body = id.slice(id.indexOf('_') + 1);
  let random = 0n;
  for (const c of body.slice(10)) random = (random << 5n) | BigInt(alphabet.indexOf(c));
  return `${prefix}_${body.slice(0, 10)}${encode((random + BigInt(offset)) & randomMax, 16)}`;
}

export function hasPrefix(id: string, prefix: IdPrefix): boolean {
  return id.startsWith(prefix + '_') && /^[0-9a-hjkmnp-tv-z]{26}$/.test(id.slice(prefix.length + 1));
}
