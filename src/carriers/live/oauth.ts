import type { Clock } from '../../kernel/clock.ts';

export interface IssuedToken {
  accessToken: string;
  /** Seconds until it expires, as the carrier said. */
  expiresIn: number;
}

/** Renewed this long before the carrier's expiry, so no call goes out with a token about to lapse. */
const earlyMs = 60_000;

/**
 * An OAuth client-credentials token for one set of credentials: fetched once, shared by every call until shortly
 * before it expires, and fetched by one caller at a time (concurrent callers wait for the same fetch).
 */
export class TokenCache {
  private token: { value: string; expiresAt: number } | undefined;
  private fetching: Promise<string> | undefined;

  constructor(
    private readonly fetchToken: (signal: AbortSignal) => Promise<IssuedToken>,
    private readonly clock: Clock,
  ) {}

  async get(signal: AbortSignal): Promise<string> {
    if (this.token && this.token.expiresAt - earlyMs > this.clock.now().getTime()) return this.token.value;
    this.fetching ??= this.fetchToken(signal)
      .then((t) => {
        this.token = { value: t.accessToken, expiresAt: this.clock.now().getTime() + t.expiresIn * 1000 };
        return t.accessToken;
      })
      .finally(() => {
        this.fetching = undefined;
      });
    return this.fetching;
  }

  /** Forgets a token the carrier refused (401), unless a newer one has replaced it already. */
  invalidate(value: string): void {
    if (this.token?.value === value) this.token = undefined;
  }

  /** Runs a call with the token; on a 401 gets a fresh token and runs it once more. */
  async withToken<R extends { status: number }>(signal: AbortSignal, call: (token: string) => Promise<R>): Promise<R> {
    const token = await this.get(signal);
    const first = await call(token);
    if (first.status !== 401) return first;
    this.invalidate(token);
    return call(await this.get(signal));
  }
}
