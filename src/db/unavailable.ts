const networkCodes = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'ENOTFOUND', 'EHOSTUNREACH', 'SQLITE_BUSY', 'SQLITE_LOCKED']);
const unavailableMessages = [/timeout exceeded when trying to connect/i, /connection terminated/i, /Connection ended/i, /is not queryable/i, /database is locked/i];

/**
 * Whether an error means the database cannot be reached right now (as opposed to a bug): a refused or lost
 * connection, a PostgreSQL connection exception (class 08) or shutdown (57P0x), or SQLite being busy.
 */
export function isDatabaseUnavailable(err: unknown): boolean {
  if (!(err instanceof Error)) return false;
  const code = (err as { code?: unknown }).code;
  if (typeof code === 'string' && (networkCodes.has(code) || code.startsWith('08') || /^57P0[1-3]$/.test(code))) return true;
  return unavailableMessages.some((m) => m.test(err.message));
}
