export interface RateDecision {
  allowed: boolean;
  /** Whole tokens left after this request. */
  remaining: number;
  /** Seconds until the bucket is full again. */
  resetSeconds: number;
  /** Seconds until the next request would be allowed (0 when allowed). */
  retryAfterSeconds: number;
}

/** A bucket's size and how fast it refills. */
export interface RateLimit {
  perSecond: number;
  burst: number;
}

/**
 * Where buckets live: memory in one process; a shared store (Redis) when several processes serve one API. Each
 * bucket is named by its key and keeps the limit it is taken with, so one store holds every kind of bucket.
 */
export interface BucketStore {
  take(key: string, now: number, limit: RateLimit): RateDecision | Promise<RateDecision>;
}

/** What a bucket holding `left` tokens after this request tells the caller; the same wherever the bucket lives. */
export function decision(allowed: boolean, left: number, { perSecond, burst }: RateLimit): RateDecision {
  return {
    allowed,
    remaining: Math.floor(left),
    resetSeconds: Math.ceil((burst - left) / perSecond),
    retryAfterSeconds: allowed ? 0 : Math.max(1, Math.ceil((1 - left) / perSecond)),
  };
}

/**
 * Token buckets in this process: `burst` tokens at most, refilled at `perSecond`. A bucket that is full
 * again is forgotten, so memory grows with the keys active in the last few seconds, not with all keys.
 */
export class MemoryBucketStore implements BucketStore {
  private buckets = new Map<string, { tokens: number; at: number; limit: RateLimit }>();
  private lastSweep = 0;

  take(key: string, now: number, limit: RateLimit): RateDecision {
    this.sweep(now);
    const b = this.buckets.get(key);
    const tokens = b ? Math.min(limit.burst, b.tokens + ((now - b.at) / 1000) * limit.perSecond) : limit.burst;
    const allowed = tokens >= 1;
    const left = allowed ? tokens - 1 : tokens;
    // A busy key's bucket is taken from on every request: changed in place rather than made again.
    if (b) {
      b.tokens = left;
      b.at = now;
      b.limit = limit;
    } else {
      this.buckets.set(key, { tokens: left, at: now, limit });
    }
    return decision(allowed, left, limit);
  }

  private sweep(now: number): void {
    if (now - this.lastSweep < 10_000) return;
    this.lastSweep = now;
    for (const [key, b] of this.buckets) {
      if (b.tokens + ((now - b.at) / 1000) * b.limit.perSecond >= b.limit.burst) this.buckets.delete(key);
    }
  }
}

/** The IETF RateLimit fields draft's policy: the quota q per window w seconds. The same for every answer under a limit. */
export function rateLimitPolicy({ perSecond, burst }: RateLimit): string {
  return `"per-key";q=${burst};w=${Math.max(1, Math.ceil(burst / perSecond))}`;
}

/** The IETF RateLimit fields draft's current state: r requests remaining, t seconds until the quota is whole again. */
export function rateLimitState(d: RateDecision): string {
  return `"per-key";r=${d.remaining};t=${d.resetSeconds}`;
}

/** Both RateLimit headers of the IETF draft, for a decision under a limit. */
export function rateLimitHeaders(d: RateDecision, limit: RateLimit): Record<string, string> {
  return { 'RateLimit-Policy': rateLimitPolicy(limit), RateLimit: rateLimitState(d) };
}
