const second = 1_000;
const minute = 60 * second;
const hour = 60 * minute;

/** DESIGN.md 6: the waits after the 1st, 2nd, … failed attempt; after the last one the delivery has failed. */
export const retryDelaysMs = [5 * second, 5 * minute, 30 * minute, 2 * hour, 5 * hour, 10 * hour, 10 * hour] as const;
export const maxAttempts = retryDelaysMs.length + 1;

/** A receiver's Retry-After is followed, within reason: not sooner than a second, not later than the longest wait. */
const retryAfterBounds = { min: second, max: 10 * hour };

/** Retry-After as seconds or an HTTP date, in milliseconds from now; null when absent or unreadable. */
export function parseRetryAfter(value: string | string[] | undefined, now: Date): number | null {
  const raw = (Array.isArray(value) ? value[0] : value)?.trim();
  if (!raw) return null;
  if (/^\d+$/.test(raw)) return Number(raw) * second;
  const at = Date.parse(raw);
  return Number.isNaN(at) ? null : Math.max(0, at - now.getTime());
}

/**
 * When to try again after `attemptsMade` failed attempts, or null when they are used up. ±10% jitter, so
 * deliveries that failed together (an endpoint's outage) do not all come back in the same second.
 */
export function nextRetryDelay(attemptsMade: number, retryAfterMs: number | null, random: () => number = Math.random): number | null {
  if (attemptsMade >= maxAttempts) return null;
  if (retryAfterMs !== null) return Math.min(retryAfterBounds.max, Math.max(retryAfterBounds.min, retryAfterMs));
  const base = retryDelaysMs[attemptsMade - 1]!;
  return Math.round(base * (0.9 + random() * 0.2));
}
