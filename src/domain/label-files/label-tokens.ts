import { createHmac, timingSafeEqual } from 'node:crypto';

/** How long a label URL works: as long as an idempotent replay can hand the same URL out again. */
export const labelTokenLifetimeMs = 7 * 24 * 3_600_000;

function mac(secret: string, shipmentId: string, expires: number): Buffer {
  return createHmac('sha256', secret).update(`label:${shipmentId}:${expires}`).digest();
}

/**
 * A token that lets whoever holds the URL fetch this shipment's label, in any format, until it expires: a
 * printer or a warehouse tool can fetch it without the API key. It is `<expiry in unix seconds>.<HMAC>`.
 */
export function signLabelToken(secret: string, shipmentId: string, now: Date): string {
  const expires = Math.floor((now.getTime() + labelTokenLifetimeMs) / 1000);
  return `${expires}.${mac(secret, shipmentId, expires).toString('base64url')}`;
}

export type TokenCheck = 'valid' | 'expired' | 'invalid';

export function checkLabelToken(secret: string, shipmentId: string, token: string, now: Date): TokenCheck {
  // One spelling per token: no leading zeros on the expiry.
  const match = /^([1-9][0-9]{0,11})\.([A-Za-z0-9_-]{43})$/.exec(token);
  if (!match) return 'invalid';
  const expires = Number(match[1]);
  const given = Buffer.from(match[2]!, 'base64url');
  if (!timingSafeEqual(given, mac(secret, shipmentId, expires))) return 'invalid';
  return expires * 1000 > now.getTime() ? 'valid' : 'expired';
}
