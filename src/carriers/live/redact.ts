/** Field names whose values never reach a log: credentials, tokens, account numbers, payment authorizations. */
const secretKey = /secret|token|password|authorization|client_?id|account_?number|shipper_?number|payment|api_?key|cookie/i;

/** A copy of a request or response fit for the debug log: secrets replaced, long strings (label images) cut. */
export function redact(value: unknown, depth = 0): unknown {
  if (depth > 12) return '[deep]';
  if (typeof value === 'string') return value.length > 300 ? `${value.slice(0, 60)}…[${value.length} chars]` : value;
  if (Array.isArray(value)) return value.slice(0, 50).map((v) => redact(v, depth + 1));
  if (value && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[k] = secretKey.test(k) ? '[redacted]' : redact(v, depth + 1);
    return out;
  }
  return value;
}
