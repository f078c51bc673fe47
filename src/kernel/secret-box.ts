import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';

/**
 * Secrets at rest (carrier credentials an account brings), sealed with AES-256-GCM under a key derived from
 * SHIPD_SECRET for this one purpose, so the label-token key and this key never coincide. A sealed value names its
 * version, so the scheme can change without losing what was stored.
 */
const keys = new Map<string, Buffer>();

/** Derived once per secret and purpose: every live request of an account with its own carrier account opens it. */
function key(secret: string, purpose: string): Buffer {
  const id = `${purpose}\0${secret}`;
  let k = keys.get(id);
  if (!k) {
    k = Buffer.from(hkdfSync('sha256', secret, 'shipd', purpose, 32));
    keys.set(id, k);
  }
  return k;
}

export function seal(secret: string, purpose: string, plaintext: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key(secret, purpose), iv);
  const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
  return ['v1', iv.toString('base64url'), cipher.getAuthTag().toString('base64url'), body.toString('base64url')].join('.');
}

/** The plaintext, or null when the value was sealed under another SHIPD_SECRET or altered. */
export function open(secret: string, purpose: string, sealed: string): string | null {
  const [version, iv, tag, body] = sealed.split('.');
  if (version !== 'v1' || !iv || !tag || body === undefined) return null;
  try {
    const decipher = createDecipheriv('aes-256-gcm', key(secret, purpose), Buffer.from(iv, 'base64url'));
    decipher.setAuthTag(Buffer.from(tag, 'base64url'));
    return Buffer.concat([decipher.update(Buffer.from(body, 'base64url')), decipher.final()]).toString('utf8');
  } catch {
    return null;
  }
}
