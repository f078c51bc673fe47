import type { Dispatcher } from 'undici';
import type { Logger } from 'pino';
import type { Database } from '../db/database.ts';
import type { Clock } from '../kernel/clock.ts';
import { createWebhookDispatcher, type GuardOptions } from './address-guard.ts';
import { sendAttempt, type Outcome } from './delivery-attempt.ts';
import { claimDue, fanOutLimit, type Claimed } from './delivery-claim.ts';
import { recordOutcomes } from './delivery-record.ts';
import { onOutbox } from './outbox-signal.ts';

export interface DeliveryWorkerOptions {
  /** Attempts in flight at once, over all endpoints. */
  concurrency?: number;
  /**
   * Attempts in flight at once to one webhook, and to one receiver (scheme, host and port) over all webhooks: a
   * slow endpoint, or one address behind many webhooks, can hold no more than this many.
   */
  perEndpoint?: number;
  /** How long an attempt may take, connection to last byte. */
  timeoutMs?: number;
  /** Wait between looks for new events and due retries while there is work about. */
  pollMs?: number;
  /**
   * The longest wait between looks when looks keep finding nothing: each empty look doubles the wait from pollMs up
   * to this. An event of this process is looked for at once whatever the wait; one written by another process, or a
   * retry coming due, is found within it.
   */
  idlePollMs?: number;
  allowInsecure: boolean;
  /** The ports webhook URLs may use, when insecure URLs are not allowed; 443 and 8443 when not given. */
  ports?: ReadonlySet<number>;
  /** SHIPD_SECRET, which opens the sealed signing secrets. */
  secret: string;
}

/**
 * Deliveries are claimed ahead of the free slots, so an endpoint's next attempt starts the moment one ends
 * instead of after a round trip to the database. Each endpoint's queue holds what it is expected to take in
 * this long at its recent latency (a slow endpoint gets next to nothing queued), up to `maxQueuedFactor` times
 * its slots; all queues together hold at most `heldFactor` times `concurrency`.
 */
const queueMs = 1_000;
const maxQueuedFactor = 20;
const heldFactor = 4;
/** A queued delivery is sent only while its lease has this much left beyond the attempt's own timeout. */
const leaseMarginMs = 5_000;
/**
 * Outcomes are recorded at once while they are few; past `busyOutcomes` in a `busyWindowMs`, together, in a
 * transaction at most every `flushIntervalMs` (or at once when `flushBatch` are waiting).
 */
const flushIntervalMs = 10;
const busyWindowMs = 100;
const busyOutcomes = 20;
const flushBatch = 200;
/** How long after an event is written the worker looks for it. */
const outboxDelayMs = 5;
/** Where a delivery goes, as one receiver: scheme, host and port. */
function originOf(url: string): string {
  try {
    return new URL(url).origin;
  } catch {
    return url;
  }
}

/** One webhook's attempts in flight and the deliveries claimed for it, not yet sent. */
interface Endpoint {
  inFlight: number;
  queue: Claimed[];
  /** When the database last said what the webhook is (its claim, or a look that refreshed its queue), in ms. */
  seenAt: number;
}

/**
 * How old a look at a webhook may be for its queued deliveries to go out on it. A look refreshes every queue, but one
 * slow to come (a busy database) must not let a delivery freed by an answer go to a webhook disabled, deleted or
 * re-pointed since: it waits for the next look instead.
 */
const freshForMs = 500;

/**
 * The webhook delivery worker: fans new events out to deliveries, sends due deliveries signed as Standard
 * Webhooks prescribes, records every attempt, and schedules retries. Deliveries are held under a lease while
 * queued and sent, so any number of workers share the table and a crashed worker's deliveries are sent again:
 * at least once.
 */
export class DeliveryWorker {
  private readonly concurrency: number;
  private readonly perEndpoint: number;
  private readonly timeoutMs: number;
  private readonly secret: string;
  private readonly pollMs: number;
  private readonly idlePollMs: number;
  /** Looks in a row that found nothing to do. */
  private emptyLooks = 0;
  private readonly leaseMs: number;
  private readonly heldLimit: number;
  /** Made on the first delivery, so a shipd that has none never loads undici. */
  private dispatcher: Promise<Dispatcher> | undefined;
  /** What a stored URL must still satisfy at delivery, beyond the addresses the dispatcher checks. */
  private readonly guard: Pick<GuardOptions, 'allowInsecure' | 'ports'>;
  private inFlight = 0;
  /** Claimed and not yet sent, over all endpoints. */
  private queued = 0;
  private readonly endpoints = new Map<string, Endpoint>();
  /** Attempts in flight per receiver origin, over all its webhooks. */
  private readonly originInFlight = new Map<string, number>();
  /** Endpoints with deliveries queued, in the order they get free slots. */
  private readonly ready = new Set<string>();
  /** Recent attempt latency per webhook, which sizes its queue. */
  private readonly latency = new Map<string, number>();
  private readonly sending = new Set<Promise<void>>();
  private outcomes: Outcome[] = [];
  /** Claimed deliveries given back unsent: their leases are cleared with the next flush. */
  private releases: Claimed[] = [];
  private flushing: Promise<void> | undefined;
  private flushTimer: NodeJS.Timeout | undefined;
  private lastFlush = 0;
  /** Outcomes in the current window, and whether the last window had many. */
  private recent = 0;
  private recentSince = 0;
  private busy = false;
  private cancelWake: (() => void) | undefined;
  private wakeDue = 0;
  private cycling: Promise<void> | undefined;
  /** The last look left due deliveries behind for want of room: a freed slot is a reason to look again. */
  private backlog = false;
  private again = false;
  private stopped = true;
  /** stop() has begun: nothing more is claimed or started. */
  private closing = false;
  private unsubscribe: (() => void) | undefined;

  constructor(
    private readonly database: Database,
    private readonly clock: Clock,
    private readonly log: Logger,
    options: DeliveryWorkerOptions,
  ) {
    this.concurrency = options.concurrency ?? 100;
    this.perEndpoint = options.perEndpoint ?? 10;
    this.timeoutMs = options.timeoutMs ?? 10_000;
    this.secret = options.secret;
    this.pollMs = options.pollMs ?? 50;
    this.idlePollMs = Math.max(this.pollMs, options.idlePollMs ?? 1_000);
    this.leaseMs = this.timeoutMs + 30_000;
    this.heldLimit = this.concurrency * heldFactor;
    this.guard = { allowInsecure: options.allowInsecure, ports: options.ports };
  }

  start(): void {
    if (!this.stopped) return;
    this.stopped = false;
    this.closing = false;
    // A new event is in a transaction that commits a moment after the signal: look shortly after it, taking
    // the events of those few milliseconds together (a look costs a transaction of about ten statements).
    this.unsubscribe = onOutbox(() => this.wake(outboxDelayMs));
    this.wake(0);
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.closing = true;
    this.unsubscribe?.();
    this.cancelWake?.();
    await this.cycling;
    // What is queued goes back at once, for whichever worker runs next, instead of waiting out its lease.
    for (const id of [...this.ready]) this.drop(id);
    await Promise.allSettled([...this.sending]);
    await this.flush();
    const dispatcher = this.dispatcher;
    this.dispatcher = undefined;
    if (dispatcher) await (await dispatcher).close();
  }

  /** One pass for tests and one-shot runs: fan out, send what is due, wait for the answers, record them. */
  async runOnce(): Promise<void> {
    await this.cycle();
    while (this.sending.size > 0) await Promise.allSettled([...this.sending]);
    await this.flush();
  }

  private wake(delayMs: number): void {
    if (this.stopped) return;
    if (this.cycling) {
      this.again = true;
      return;
    }
    // Keep a look already due sooner: a stream of new events must not keep pushing it back.
    const due = Date.now() + delayMs;
    if (this.cancelWake && this.wakeDue <= due) return;
    this.cancelWake?.();
    this.wakeDue = due;
    const run = () => {
      this.cancelWake = undefined;
      this.cycling = this.loop().finally(() => {
        this.cycling = undefined;
        const more = this.again;
        this.again = false;
        this.wake(more ? 0 : Math.min(this.idlePollMs, this.pollMs * 2 ** Math.min(this.emptyLooks, 16)));
      });
    };
    // A timer waits at least a millisecond; setImmediate runs as soon as the I/O of this turn is done.
    if (delayMs <= 0) {
      const immediate = setImmediate(run);
      this.cancelWake = () => clearImmediate(immediate);
    } else {
      const timer = setTimeout(run, delayMs);
      this.cancelWake = () => clearTimeout(timer);
    }
  }

  private async loop(): Promise<void> {
    try {
      // More may be waiting (a look took all it could) and there is room for it: look again at once.
      if (await this.cycle()) this.again = true;
    } catch (err) {
      this.log.error({ err }, 'webhook delivery worker could not claim work');
    }
  }

  private held(webhookId: string): number {
    const e = this.endpoints.get(webhookId);
    return e ? e.inFlight + e.queue.length : 0;
  }

  /** How many deliveries of this webhook to hold, in flight and queued. */
  private holdLimit(webhookId: string): number {
    const ms = this.latency.get(webhookId);
    const queue = ms === undefined ? this.perEndpoint : Math.floor((this.perEndpoint * queueMs) / Math.max(1, ms));
    return this.perEndpoint + Math.min(this.perEndpoint * maxQueuedFactor, queue);
  }

  /**
   * Fans out new events and claims due deliveries. Returns whether it took as much as it could, so more may be
   * waiting, and there is room left for it.
   */
  private async cycle(): Promise<boolean> {
    // What the look reads is the database as it was no earlier than this.
    const lookedAt = Date.now();
    const room = this.heldLimit - this.inFlight - this.queued;
    const saturated: string[] = [];
    const queuedFor: string[] = [];
    for (const [id, e] of this.endpoints) {
      if (this.held(id) >= this.holdLimit(id)) saturated.push(id);
      if (e.queue.length > 0) queuedFor.push(id);
    }
    const { fanned, claimed, full, watched } = await claimDue(this.database, this.clock.now(), {
      room,
      saturated,
      leaseMs: this.leaseMs,
      held: (id) => this.held(id),
      holdLimit: (id) => this.holdLimit(id),
      queuedFor,
    });
    // What waits in a queue goes out as its webhook is now: not at all once deleted or disabled, else to its URL
    // and under its secrets of now.
    for (const id of queuedFor) {
      const now = watched.get(id);
      const e = this.endpoints.get(id);
      if (!now) this.drop(id);
      else if (e) {
        for (const c of e.queue) Object.assign(c, now);
        e.seenAt = lookedAt;
      }
    }

    // An idle worker costs a transaction a look: 20 a second kept an idle shipd at a few per cent of a core.
    this.emptyLooks = fanned === 0 && claimed.length === 0 && this.inFlight === 0 && this.queued === 0 && this.releases.length === 0 ? this.emptyLooks + 1 : 0;
    this.backlog = full || saturated.length > 0 || room <= 0;
    if (this.closing) {
      this.releases.push(...claimed);
      return false;
    }
    for (const c of claimed) {
      let e = this.endpoints.get(c.webhookId);
      if (!e) this.endpoints.set(c.webhookId, (e = { inFlight: 0, queue: [], seenAt: lookedAt }));
      e.seenAt = Math.max(e.seenAt, lookedAt);
      e.queue.push(c);
      this.queued++;
      this.ready.add(c.webhookId);
    }
    this.pump();
    return (fanned === fanOutLimit || full) && this.inFlight + this.queued < this.heldLimit;
  }

  /** Starts queued deliveries while there are free slots: `first`'s endpoint first, then the others in turn. */
  private pump(first?: string): void {
    if (first !== undefined && this.ready.has(first)) this.fill(first);
    for (const id of this.ready) {
      if (this.inFlight >= this.concurrency) return;
      this.fill(id);
    }
  }

  private fill(id: string): void {
    const e = this.endpoints.get(id)!;
    // Left ready: the next look refreshes the queue and pumps it.
    if (Date.now() - e.seenAt > freshForMs) return;
    while (e.queue.length > 0 && e.inFlight < this.perEndpoint) {
      if (this.inFlight >= this.concurrency) {
        // Its turn ends here: it goes behind the others for the next free slot.
        this.ready.delete(id);
        this.ready.add(id);
        return;
      }
      // The receiver's share is taken (by this webhook or another at the same address): wait for one of its slots.
      if ((this.originInFlight.get(originOf(e.queue[0]!.url)) ?? 0) >= this.perEndpoint) return;
      const c = e.queue.shift()!;
      this.queued--;
      // Too little of the lease left for a whole attempt: another worker could take it over mid-send.
      if (Date.now() + this.timeoutMs + leaseMarginMs > c.leaseEnds) this.releases.push(c);
      else this.send(e, c);
    }
    if (e.queue.length === 0) this.ready.delete(id);
    if (this.releases.length > 0) this.scheduleFlush();
  }

  /** Gives back a webhook's queued deliveries. */
  private drop(id: string): void {
    const e = this.endpoints.get(id);
    if (!e || e.queue.length === 0) return;
    this.releases.push(...e.queue);
    this.queued -= e.queue.length;
    e.queue = [];
    this.ready.delete(id);
    if (e.inFlight === 0) this.endpoints.delete(id);
    this.scheduleFlush();
  }

  private send(e: Endpoint, c: Claimed): void {
    this.inFlight++;
    e.inFlight++;
    const origin = originOf(c.url);
    this.originInFlight.set(origin, (this.originInFlight.get(origin) ?? 0) + 1);
    this.dispatcher ??= createWebhookDispatcher({ ...this.guard, connectTimeoutMs: this.timeoutMs });
    const p = this.dispatcher
      .then((dispatcher) => sendAttempt(c, this.clock, dispatcher, this.timeoutMs, this.secret, this.guard))
      .then((outcome) => {
        this.outcomes.push(outcome);
        this.scheduleFlush();
        const ms = this.latency.get(c.webhookId);
        if (ms === undefined && this.latency.size >= 10_000) this.latency.clear();
        this.latency.set(c.webhookId, ms === undefined ? outcome.latencyMs : ms * 0.8 + outcome.latencyMs * 0.2);
        // A 410 disables the webhook: nothing more goes to it.
        if (outcome.statusCode === 410) this.drop(c.webhookId);
      })
      .finally(() => {
        this.sending.delete(p);
        this.inFlight--;
        e.inFlight--;
        const left = this.originInFlight.get(origin)! - 1;
        if (left === 0) this.originInFlight.delete(origin);
        else this.originInFlight.set(origin, left);
        if (e.inFlight === 0 && e.queue.length === 0 && this.endpoints.get(c.webhookId) === e) this.endpoints.delete(c.webhookId);
        if (this.closing) return;
        this.pump(c.webhookId);
        // Half its queue gone while more is due: claim more before it runs dry. (New events wake the worker
        // themselves, and retries come due at a poll.)
        if (this.backlog && this.held(c.webhookId) * 2 <= this.holdLimit(c.webhookId)) this.wake(0);
      });
    this.sending.add(p);
  }

  private scheduleFlush(): void {
    const now = Date.now();
    if (now - this.recentSince > busyWindowMs) {
      this.busy = this.recent >= busyOutcomes;
      this.recent = 0;
      this.recentSince = now;
    }
    this.recent++;
    // A flush under way takes what has come meanwhile as soon as it is done.
    if (this.flushing) return;
    const wait = this.busy ? this.lastFlush + flushIntervalMs - now : 0;
    if (wait <= 0 || this.outcomes.length + this.releases.length >= flushBatch) {
      void this.flush();
      return;
    }
    this.flushTimer ??= setTimeout(() => {
      this.flushTimer = undefined;
      void this.flush();
    }, wait);
  }

  /** Records the outcomes gathered so far, all in one transaction; one flush at a time. */
  private flush(): Promise<void> {
    clearTimeout(this.flushTimer);
    this.flushTimer = undefined;
    if (this.flushing) return this.flushing;
    if (this.outcomes.length === 0 && this.releases.length === 0) return Promise.resolve();
    this.flushing = (async () => {
      while (this.outcomes.length > 0 || this.releases.length > 0) {
        const batch = this.outcomes;
        const releases = this.releases;
        this.outcomes = [];
        this.releases = [];
        this.lastFlush = Date.now();
        try {
          const disabled = await recordOutcomes(this.database, this.clock, this.log, batch, releases);
          for (const id of disabled) this.drop(id);
          if (releases.length > 0) this.wake(0);
        } catch (err) {
          // The deliveries stay leased and are sent again once the lease ends: at least once, never lost.
          this.log.error({ err, deliveries: batch.length }, 'could not record webhook attempts');
        }
      }
    })().finally(() => {
      this.flushing = undefined;
    });
    return this.flushing;
  }
}
