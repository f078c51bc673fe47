import type { CarrierId } from '../../config.ts';
import type { LiveCredentials } from './options.ts';

/** Field names whose values never reach a log: credentials, tokens, account numbers, payment authorizations. */
const secretKey = /secret|token|password|authorization|client_?id|account_?number|shipper_?number|payment|api_?key|cookie|crid|mailer_?id/i;

/**
 * USPS's Mailer IDs as its payment authorization names them (`MID`, `manifestMID`) and as shipd does (`mid`,
 * `manifest_mid`, `manifestMid`). Case matters: a key merely ending in the letters "mid" (`pyramid`) is no Mailer ID.
 */
const mailerIdKey = /^mid$|_mid$|MID$|[a-z]Mid$/;

/**
 * The credential values to blank wherever they turn up in a trace or a failure's detail, even under a name the keys
 * above miss (a carrier echoing one in an error message, say). Not the ids a carrier prints in every tracking number,
 * which blanking would garble where a trace or a detail is read for them: USPS's Mailer IDs (IMpb) and UPS's shipper
 * number (1Z + shipper number); those are caught by name only. Nor a value of under 4 characters, which would blank
 * common letters everywhere; no carrier issues one so short.
 */
export function credentialValues(carrier: CarrierId, c: LiveCredentials): string[] {
  const values = [c.clientId, c.clientSecret, carrier === 'ups' ? undefined : c.accountNumber, c.crid];
  return values.filter((v): v is string => typeof v === 'string' && v.length >= 4);
}

/** Text for the trace (a URL, an error message) with every credential value in it blanked. */
export const redactText = (text: string, secrets: readonly string[]): string => secrets.reduce((t, s) => t.split(s).join('[redacted]'), text);

/** A copy of a request or response fit for the debug log: secrets replaced, long strings (label images) cut. */
export function redact(value: unknown, secrets: readonly string[] = [], depth = 0): unknown {
  if (depth > 12) return '[deep]';
  if (typeof value === 'string') {
    const text = redactText(value, secrets);
    return text.length > 300 ? `${text.slice(0, 60)}…[${text.length} chars]` : text;
  }
  if (Array.isArray(value)) return value.slice(0, 50).map((v) => redact(v, secrets, depth + 1));
  if (value && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[k] = secretKey.test(k) || mailerIdKey.test(k) ? '[redacted]' : redact(v, secrets, depth + 1);
    return out;
  }
  return value;
}
