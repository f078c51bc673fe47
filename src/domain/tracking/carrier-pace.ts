import type { CarrierId, Config, RateWindow } from '../../config.ts';
import type { Clock } from '../../kernel/clock.ts';

interface Lane {
  /** Calls left in each of the carrier's windows (token buckets, refilled continuously). */
  tokens: number[];
  refilledAt: number;
  /** Failed or throttled calls in a row. */
  failures: number;
  /** Not called before this instant (ms) after a failure. */
  backedOffUntil: number;
}

/**
 * How fast the trackers worker may call each carrier: a lane per set of credentials (the platform's for a carrier,
 * or one account's own), each within the carrier's published rate windows, and each backed off on its own after a
 * throttled or failed call, so one carrier's trouble never holds up another's checks. Times are the caller's
 * milliseconds, so the pace follows the server's clock.
 */
export class CarrierPace {
  private readonly lanes = new Map<string, Lane>();

  constructor(
    private readonly limits: Record<CarrierId, readonly RateWindow[]>,
    private readonly backoff: { baseMs: number; maxMs: number },
  ) {}

  private lane(name: string, carrier: CarrierId, now: number): Lane {
    const windows = this.limits[carrier];
    let lane = this.lanes.get(name);
    if (!lane) {
      lane = { tokens: windows.map((w) => w.calls), refilledAt: now, failures: 0, backedOffUntil: 0 };
      this.lanes.set(name, lane);
    }
    const elapsed = Math.max(0, now - lane.refilledAt);
    lane.tokens = lane.tokens.map((t, i) => Math.min(windows[i]!.calls, t + (elapsed * windows[i]!.calls) / windows[i]!.perMs));
    lane.refilledAt = now;
    return lane;
  }

  /** When the lane may next be called: `now` when it may be now. */
  readyAt(name: string, carrier: CarrierId, now: number): number {
    const lane = this.lane(name, carrier, now);
    const windows = this.limits[carrier];
    const refilled = lane.tokens.map((t, i) => (t >= 1 ? now : now + Math.ceil(((1 - t) * windows[i]!.perMs) / windows[i]!.calls)));
    return Math.max(now, lane.backedOffUntil, ...refilled);
  }

  /** Counts a call to the lane if one may be made now; false (and nothing counted) if not. */
  take(name: string, carrier: CarrierId, now: number): boolean {
    if (this.readyAt(name, carrier, now) > now) return false;
    const lane = this.lane(name, carrier, now);
    lane.tokens = lane.tokens.map((t) => t - 1);
    return true;
  }

  succeeded(name: string): void {
    const lane = this.lanes.get(name);
    if (lane) lane.failures = 0;
  }

  /**
   * A throttled or failed call: the lane waits the carrier's Retry-After where it gave one, and at least the backoff,
   * which doubles with each failure in a row up to its cap. Answers when the lane may be called again.
   */
  failed(name: string, carrier: CarrierId, now: number, retryAfterMs?: number): number {
    const lane = this.lane(name, carrier, now);
    lane.failures++;
    const backoff = Math.min(this.backoff.maxMs, this.backoff.baseMs * 2 ** Math.min(lane.failures - 1, 30));
    lane.backedOffUntil = now + Math.max(backoff, retryAfterMs ?? 0);
    return lane.backedOffUntil;
  }
}

/** One pace per clock, as live adapters are kept per clock: every server in a process (tests run several) has its own. */
const paces = new WeakMap<Clock, CarrierPace>();

export function carrierPace(clock: Clock, config: Pick<Config, 'trackingRateLimits' | 'trackingBackoff'>): CarrierPace {
  let pace = paces.get(clock);
  if (!pace) {
    pace = new CarrierPace(config.trackingRateLimits, config.trackingBackoff);
    paces.set(clock, pace);
  }
  return pace;
}
