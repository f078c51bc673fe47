import { createHash } from 'node:crypto';

/**
 * The `X-Idempotency-Key` for a purchase: USPS requires a UUID (domestic-labels.yaml 3.9.13, parameter
 * X-Idempotency-Key, `format: uuid`) and asks for a random one, unique per CRID. A random UUID would be lost with
 * the process if it crashed mid-purchase, and the retry would then buy a second label; so the UUID is derived from
 * the purchase's own idempotency key instead, the same on every retry. It is an RFC 9562 version 8 (custom) UUID
 * over SHA-256 of a namespace and the key: as unpredictable to anyone without the key as a random one, and unique
 * wherever our keys are.
 */
const namespace = 'shipd:usps:label:';

export function uspsIdempotencyKey(purchaseKey: string): string {
  const bytes = createHash('sha256').update(namespace + purchaseKey).digest().subarray(0, 16);
  bytes[6] = (bytes[6]! & 0x0f) | 0x80; // version 8
  bytes[8] = (bytes[8]! & 0x3f) | 0x80; // variant 10
  const hex = bytes.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
