import { hash, randomInt } from 'node:crypto';
import type { Mode } from '../../kernel/mode.ts';


const base62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const bodyLength = 32;
const checksumLength = 6;
const keyPattern = /^svc_(test|live)_([0-9A-Za-z]{32})$/;

function checksum(prefix: string, random: string): string {
  const n = hash('sha256', prefix + random, 'buffer').readUInt32BE(0);
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

/** The form of a key, without its checksum: what may be hashed and looked up. */
export function hasKeyShape(secret: string): boolean {
  return keyPattern.test(secret);
}

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

/** SHA-256 in hex, in one call: every request hashes its key. */
export function hashKeySecret(secret: string): string {
  return hash('sha256', secret, 'hex');
}
