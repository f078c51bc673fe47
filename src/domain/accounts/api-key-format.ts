import { createHash, randomInt } from 'node:crypto';
import type { Mode } from '../../kernel/mode.ts';


const base62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const bodyLength = 32;
const checksumLength = 6;
const keyPattern = /^svc_(test|live)_([0-9A-Za-z]{32})$/;

function checksum(prefix: string, random: string): string {
  const n = createHash('sha256').update(prefix + random).digest().readUInt32BE(0);
  let out = '';
  let v = n;
  for (let i = 0; i < checksumLength; i++) {
    out = base62[v % 62] + out;
    v = Math.floor(v / 62);
  }
  return out;
}

export interface NewKeySecret {
  secret: string;
  hash: string;
  prefix: string;
  last4: string;
}

/** `svc_<mode>_` + 26 random base62 characters + a 6-character checksum of the rest. */
export function generateKeySecret(mode: Mode): NewKeySecret {
  const prefix = `svc_${mode}_`;
  let random = '';
  for (let i = 0; i < bodyLength - checksumLength; i++) random += base62[randomInt(62)];
  const secret = prefix + random + checksum(prefix, random);
  return { secret, hash: hashKeySecret(secret), prefix: secret.slice(0, prefix.length + 4), last4: secret.slice(-4) };
}

export type KeyFormatCheck = { ok: true; mode: Mode } | { ok: false; reason: 'malformed_api_key' | 'invalid_api_key_checksum' };

/** Catches typos and garbage before any database work. */
export function checkKeyFormat(secret: string): KeyFormatCheck {
  const match = keyPattern.exec(secret);
  if (!match) return { ok: false, reason: 'malformed_api_key' };
  const mode = match[1] as Mode;
  const body = match[2]!;
  const random = body.slice(0, bodyLength - checksumLength);
  if (checksum(`svc_${mode}_`, random) !== body.slice(bodyLength - checksumLength)) {
    return { ok: false, reason: 'invalid_api_key_checksum' };
  }
  return { ok: true, mode };
}

export function hashKeySecret(secret: string): string {
  return createHash('sha256').update(secret).digest('hex');
}
