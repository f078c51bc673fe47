export interface RateDecision {
  allowed: boolean;
  /** Whole tokens left after this request. */
  remaining: number;
  /** Seconds until the bucket is full again. */
  resetSeconds: number;
  /** Seconds until the next request would be allowed (0 when allowed). */
  retryAfterSeconds: number;
}

/** Where buckets live: memory in one process; a shared store (Redis) when several processes serve one API. */
export interface BucketStore {
  take(key: string, now: number): RateDecision | Promise<RateDecision>;
}

/** What a bucket holding `left` tokens after this request tells the caller; the same wherever the bucket lives. */
export function decision(allowed: boolean, left: number, perSecond: number, burst: number): RateDecision {
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
  private buckets = new Map<string, { tokens: number; at: number }>();
  private lastSweep = 0;

  constructor(
    private readonly perSecond: number,
    private readonly burst: number,
  ) {}

  take(key: string, now: number): RateDecision {
    this.sweep(now);
    const b = this.buckets.get(key) ?? { tokens: this.burst, at: now };
    const tokens = Math.min(this.burst, b.tokens + ((now - b.at) / 1000) * this.perSecond);
    const allowed = tokens >= 1;
    const left = allowed ? tokens - 1 : tokens;
    this.buckets.set(key, { tokens: left, at: now });
    return decision(allowed, left, this.perSecond, this.burst);
  }

  private sweep(now: number): void {
    if (now - this.lastSweep < 10_000) return;
    this.lastSweep = now;
    for (const [key, b] of this.buckets) {
      if (b.tokens + ((now - b.at) / 1000) * this.perSecond >= this.burst) this.buckets.delete(key);
    }
  }
}

/**
 * Headers of the IETF RateLimit fields draft: the policy (quota q per window w seconds) and the
 * current state (r requests remaining, t seconds until the quota is whole again).
 */
export function rateLimitHeaders(d: RateDecision, perSecond: number, burst: number): Record<string, string> {
  const window = Math.max(1, Math.ceil(burst / perSecond));
  return {
    'RateLimit-Policy': `"per-key";q=${burst};w=${window}`,
    RateLimit: `"per-key";r=${d.remaining};t=${d.resetSeconds}`,
  };
}
