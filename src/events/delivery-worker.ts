import { sql } from 'kysely';
import { request, type Dispatcher } from 'undici';
import type { Logger } from 'pino';
import type { Database } from '../db/database.ts';
import type { Clock } from '../domain/clock.ts';
import { createWebhookDispatcher } from './address-guard.ts';
import { fanOutIn, jsonList, jsonRows } from './fan-out.ts';
import { onOutbox } from './outbox-signal.ts';
import { nextRetryDelay, parseRetryAfter } from './retry-schedule.ts';
import { signatureHeader } from './signature.ts';

export interface DeliveryWorkerOptions {
  /** Attempts in flight at once, over all endpoints. */
  concurrency?: number;
  /** Attempts in flight at once to one webhook: a slow endpoint can hold no more than this many. */
  perEndpoint?: number;
  /** How long an attempt may take, connection to last byte. */
  timeoutMs?: number;
  /** Idle wait between looks for new events and due retries. */
  pollMs?: number;
  allowInsecure: boolean;
}

const failingLimitMs = 5 * 24 * 3_600_000;
const excerptLength = 500;
/** Past this much of an answer the rest is thrown away: the log keeps only an excerpt. */
const readLimit = 64 * 1024;
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
/** Most events fanned out in one look. */
const fanOutLimit = 500;
/** Rows per statement, all in one JSON parameter. */
const chunk = 500;

/** A delivery this worker holds under a lease, with what it needs to send it. */
interface Claimed {
  id: string;
  webhookId: string;
  /** Attempts on record when claimed: the outcome is recorded only if that is still so. */
  attempts: number;
  /** The locked_until this worker set, and the same in ms. */
  lease: string;
  leaseEnds: number;
  eventId: string;
  type: string;
  createdAt: string;
  data: string;
  url: string;
  secret: string;
  previousSecret: string | null;
  previousSecretExpiresAt: string | null;
}

interface Outcome {
  claimed: Claimed;
  attemptedAt: Date;
  latencyMs: number;
  statusCode: number | null;
  error: string | null;
  excerpt: string | null;
  retryAfterMs: number | null;
}

/** One webhook's attempts in flight and the deliveries claimed for it, not yet sent. */
interface Endpoint {
  inFlight: number;
  queue: Claimed[];
}

/** The body Standard Webhooks receivers expect; `data` is stored as the API's JSON and goes out unparsed. */
function payload(c: Claimed): string {
  return `{"type":${JSON.stringify(c.type)},"timestamp":${JSON.stringify(c.createdAt)},"data":${c.data}}`;
}

async function readExcerpt(body: Dispatcher.ResponseData['body']): Promise<string> {
  let text = '';
  let read = 0;
  for await (const chunk of body as AsyncIterable<Buffer>) {
    read += chunk.length;
    if (text.length < excerptLength) text += chunk.toString('utf8');
    if (read > readLimit) {
      body.destroy();
      break;
    }
  }
  return text.slice(0, excerptLength);
}

function describe(err: unknown): string {
  const e = err as { name?: string; code?: string; message?: string; cause?: { code?: string; message?: string } };
  const code = e.cause?.code ?? e.code;
  if (code === 'ERR_WEBHOOK_ADDRESS_BLOCKED') return e.cause?.message ?? e.message ?? 'address not allowed';
  if (e.name === 'TimeoutError' || code === 'UND_ERR_HEADERS_TIMEOUT' || code === 'UND_ERR_BODY_TIMEOUT' || code === 'UND_ERR_CONNECT_TIMEOUT') return 'timed out';
  return [code, e.cause?.message ?? e.message].filter(Boolean).join(': ') || 'network error';
}

/** Splits a batch into rounds in which each delivery comes once, for set-based updates. */
function rounds<T>(items: T[], key: (item: T) => string): T[][] {
  const out: T[][] = [];
  let rest = items;
  while (rest.length > 0) {
    const seen = new Set<string>();
    const round: T[] = [];
    const later: T[] = [];
    for (const item of rest) {
      const k = key(item);
      if (seen.has(k) || round.length >= chunk) later.push(item);
      else {
        seen.add(k);
        round.push(item);
      }
    }
    out.push(round);
    rest = later;
  }
  return out;
}

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
  private readonly pollMs: number;
  private readonly leaseMs: number;
  private readonly heldLimit: number;
  private readonly dispatcher: Dispatcher;
  private inFlight = 0;
  /** Claimed and not yet sent, over all endpoints. */
  private queued = 0;
  private readonly endpoints = new Map<string, Endpoint>();
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
    this.pollMs = options.pollMs ?? 50;
    this.leaseMs = this.timeoutMs + 30_000;
    this.heldLimit = this.concurrency * heldFactor;
    this.dispatcher = createWebhookDispatcher({ allowInsecure: options.allowInsecure, connectTimeoutMs: this.timeoutMs });
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
    await this.dispatcher.close();
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
        this.wake(more ? 0 : this.pollMs);
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
   * Fans out new events and claims due deliveries, in one transaction (on SQLite one turn of its only
   * connection, however busy the API keeps it). Returns whether it took as much as it could, so more may be
   * waiting, and there is room left for it.
   */
  private async cycle(): Promise<boolean> {
    const { db, kind } = this.database;
    const now = this.clock.now();
    const at = now.toISOString();
    // Leases run on the real clock: they stand for how long a send may really take, whatever the simulated time.
    const realNow = Date.now();
    const leaseFree = new Date(realNow).toISOString();
    const leaseEnds = realNow + this.leaseMs;
    const lease = new Date(leaseEnds).toISOString();
    const room = this.heldLimit - this.inFlight - this.queued;
    const saturated: string[] = [];
    for (const id of this.endpoints.keys()) if (this.held(id) >= this.holdLimit(id)) saturated.push(id);

    let full = false;
    const { fanned, claimed } = await db.transaction().execute(async (trx) => {
      const fanned = await fanOutIn(trx, kind, now, fanOutLimit);
      if (room <= 0) return { fanned, claimed: [] };
      const candidates = await sql<{ id: string; webhook_id: string }>`
        select d.id, d.webhook_id from webhook_deliveries as d inner join webhooks as w on w.id = d.webhook_id
        where d.status = 'pending' and d.next_attempt_at <= ${at} and (d.locked_until is null or d.locked_until < ${leaseFree})
          and w.status = 'enabled' and d.webhook_id not in ${jsonList(kind, saturated)}
        order by d.next_attempt_at limit ${room}`.execute(trx);
      full = candidates.rows.length === room;
      // Each endpoint gets no more than its share, so one slow receiver never takes every slot.
      const picked: string[] = [];
      const taken = new Map<string, number>();
      for (const c of candidates.rows) {
        const n = taken.get(c.webhook_id) ?? this.held(c.webhook_id);
        if (n >= this.holdLimit(c.webhook_id)) {
          full = true;
          continue;
        }
        taken.set(c.webhook_id, n + 1);
        picked.push(c.id);
      }
      if (picked.length === 0) return { fanned, claimed: [] };
      // The conditions again: another worker may have taken some since the look; those are not updated here.
      const leased = await sql<{ id: string; attempts: number }>`
        update webhook_deliveries set locked_until = ${lease}
        where id in ${jsonList(kind, picked)} and status = 'pending' and next_attempt_at <= ${at}
          and (locked_until is null or locked_until < ${leaseFree})
        returning id, attempts`.execute(trx);
      if (leased.rows.length === 0) return { fanned, claimed: [] };
      const rows = await sql<{
        id: string;
        webhook_id: string;
        event_id: string;
        type: string;
        created_at: string;
        data: string;
        url: string;
        secret: string;
        previous_secret: string | null;
        previous_secret_expires_at: string | null;
      }>`
        select d.id, d.webhook_id, d.event_id, e.type, e.created_at, e.data, w.url, w.secret, w.previous_secret, w.previous_secret_expires_at
        from webhook_deliveries as d inner join events as e on e.id = d.event_id inner join webhooks as w on w.id = d.webhook_id
        where d.id in ${jsonList(kind, leased.rows.map((r) => r.id))}`.execute(trx);
      const attempts = new Map(leased.rows.map((r) => [r.id, Number(r.attempts)]));
      const claimed: Claimed[] = rows.rows.map((r) => ({
        id: r.id,
        webhookId: r.webhook_id,
        attempts: attempts.get(r.id)!,
        lease,
        leaseEnds,
        eventId: r.event_id,
        type: r.type,
        createdAt: r.created_at,
        data: r.data,
        url: r.url,
        secret: r.secret,
        previousSecret: r.previous_secret,
        previousSecretExpiresAt: r.previous_secret_expires_at,
      }));
      // In the order they were due.
      const order = new Map(picked.map((id, i) => [id, i]));
      claimed.sort((a, b) => order.get(a.id)! - order.get(b.id)!);
      return { fanned, claimed };
    });

    this.backlog = full || saturated.length > 0 || room <= 0;
    if (this.closing) {
      this.releases.push(...claimed);
      return false;
    }
    for (const c of claimed) {
      let e = this.endpoints.get(c.webhookId);
      if (!e) this.endpoints.set(c.webhookId, (e = { inFlight: 0, queue: [] }));
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
    while (e.queue.length > 0 && e.inFlight < this.perEndpoint) {
      if (this.inFlight >= this.concurrency) {
        // Its turn ends here: it goes behind the others for the next free slot.
        this.ready.delete(id);
        this.ready.add(id);
        return;
      }
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
    const p = this.attempt(c)
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
        if (e.inFlight === 0 && e.queue.length === 0 && this.endpoints.get(c.webhookId) === e) this.endpoints.delete(c.webhookId);
        if (this.closing) return;
        this.pump(c.webhookId);
        // Half its queue gone while more is due: claim more before it runs dry. (New events wake the worker
        // themselves, and retries come due at a poll.)
        if (this.backlog && this.held(c.webhookId) * 2 <= this.holdLimit(c.webhookId)) this.wake(0);
      });
    this.sending.add(p);
  }

  private secrets(c: Claimed, now: Date): string[] {
    const previousValid = c.previousSecret && c.previousSecretExpiresAt && c.previousSecretExpiresAt > now.toISOString();
    return previousValid ? [c.secret, c.previousSecret!] : [c.secret];
  }

  private async attempt(c: Claimed): Promise<Outcome> {
    const attemptedAt = this.clock.now();
    // The receiver checks webhook-timestamp against its own clock to refuse replays, so it is the real time even
    // when shipd's clock is a simulated one.
    const signedAt = new Date();
    const body = payload(c);
    const started = performance.now();
    const result: Omit<Outcome, 'latencyMs'> = { claimed: c, attemptedAt, statusCode: null, error: null, excerpt: null, retryAfterMs: null };
    try {
      const res = await request(c.url, {
        method: 'POST',
        dispatcher: this.dispatcher,
        headers: {
          'content-type': 'application/json',
          'user-agent': 'shipd-webhooks/1',
          'webhook-id': c.eventId,
          'webhook-timestamp': String(Math.floor(signedAt.getTime() / 1000)),
          'webhook-signature': signatureHeader(this.secrets(c, attemptedAt), c.eventId, signedAt, body),
        },
        body,
        signal: AbortSignal.timeout(this.timeoutMs),
        headersTimeout: this.timeoutMs,
        bodyTimeout: this.timeoutMs,
      });
      result.statusCode = res.statusCode;
      result.retryAfterMs = parseRetryAfter(res.headers['retry-after'], attemptedAt);
      result.excerpt = await readExcerpt(res.body);
      if (res.statusCode < 200 || res.statusCode >= 300) result.error = `answered ${res.statusCode}`;
    } catch (err) {
      result.error = describe(err);
    }
    return { ...result, latencyMs: Math.round(performance.now() - started) };
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
          const disabled = await this.record(batch, releases);
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

  /**
   * Each outcome updates its delivery only if the attempts on record are still those it was claimed with (not
   * so if the webhook was deleted, or a worker that took over after the lease ran out recorded first), and adds
   * the attempt to the log; a few statements for the whole batch. Returns the webhooks it disabled.
   */
  private async record(batch: Outcome[], releases: Claimed[]): Promise<string[]> {
    const { db, kind } = this.database;
    const now = this.clock.now();
    const at = now.toISOString();
    const disabled: string[] = [];
    const rows = batch.map((o) => {
      const attempt = o.claimed.attempts + 1;
      const ok = o.error === null;
      const gone = o.statusCode === 410;
      const delay = ok || gone ? null : nextRetryDelay(attempt, o.retryAfterMs);
      const next = delay === null ? null : new Date(o.attemptedAt.getTime() + delay).toISOString();
      const attemptedAt = o.attemptedAt.toISOString();
      return {
        outcome: o,
        update: {
          delivery: o.claimed.id,
          prev: o.claimed.attempts,
          status: ok ? 'succeeded' : next === null ? 'failed' : 'pending',
          attempts: attempt,
          next_attempt_at: next,
          last_status_code: o.statusCode,
          last_error: o.error,
          last_attempt_at: attemptedAt,
          delivered_at: ok ? attemptedAt : null,
        },
        attempt: {
          delivery_id: o.claimed.id,
          attempt,
          webhook_id: o.claimed.webhookId,
          attempted_at: attemptedAt,
          status_code: o.statusCode,
          latency_ms: o.latencyMs,
          error: o.error,
          response_excerpt: o.excerpt,
          next_attempt_at: next,
        },
      };
    });
    await db.transaction().execute(async (trx) => {
      /** Per webhook, the outcome that decides its health: the last one in the batch. */
      const health = new Map<string, Outcome>();
      // A delivery twice in one batch (sent again after its lease ran out) goes in a later round, where the
      // guard turns the second one away.
      for (const round of rounds(rows, (r) => r.update.delivery)) {
        const updated = await sql<{ id: string }>`
          update webhook_deliveries as d set status = v.status, attempts = v.attempts, next_attempt_at = v.next_attempt_at,
            locked_until = null, last_status_code = v.last_status_code, last_error = v.last_error, last_attempt_at = v.last_attempt_at,
            delivered_at = coalesce(v.delivered_at, d.delivered_at), updated_at = ${at}
          from ${jsonRows(
            kind,
            round.map((r) => r.update),
            [
              ['delivery', 'text'],
              ['prev', 'integer'],
              ['status', 'text'],
              ['attempts', 'integer'],
              ['next_attempt_at', 'text'],
              ['last_status_code', 'integer'],
              ['last_error', 'text'],
              ['last_attempt_at', 'text'],
              ['delivered_at', 'text'],
            ],
          )}
          where d.id = v.delivery and d.attempts = v.prev
          returning id`.execute(trx);
        const done = new Set(updated.rows.map((r) => r.id));
        const logged = round.filter((r) => done.has(r.update.delivery));
        if (logged.length === 0) continue;
        await sql`
          insert into webhook_attempts (delivery_id, attempt, webhook_id, attempted_at, status_code, latency_ms, error, response_excerpt, next_attempt_at)
          select v.delivery_id, v.attempt, v.webhook_id, v.attempted_at, v.status_code, v.latency_ms, v.error, v.response_excerpt, v.next_attempt_at
          from ${jsonRows(
            kind,
            logged.map((r) => r.attempt),
            [
              ['delivery_id', 'text'],
              ['attempt', 'integer'],
              ['webhook_id', 'text'],
              ['attempted_at', 'text'],
              ['status_code', 'integer'],
              ['latency_ms', 'integer'],
              ['error', 'text'],
              ['response_excerpt', 'text'],
              ['next_attempt_at', 'text'],
            ],
          )} where true
          on conflict do nothing`.execute(trx);
        for (const r of logged) health.set(r.attempt.webhook_id, r.outcome);
      }
      // Given back unsent: the lease is cleared only if it is still this worker's.
      for (let i = 0; i < releases.length; i += chunk) {
        await sql`
          update webhook_deliveries as d set locked_until = null
          from ${jsonRows(
            kind,
            releases.slice(i, i + chunk).map((c) => ({ delivery: c.id, prev: c.attempts, lease: c.lease })),
            [
              ['delivery', 'text'],
              ['prev', 'integer'],
              ['lease', 'text'],
            ],
          )}
          where d.id = v.delivery and d.attempts = v.prev and d.locked_until = v.lease`.execute(trx);
      }
      for (const [webhookId, o] of health) if (await this.updateHealth(trx, webhookId, o, at)) disabled.push(webhookId);
    });
    return disabled;
  }

  /** A success ends a failure streak; a 410, or failures for five days, disable the webhook. Returns whether it did. */
  private async updateHealth(trx: Database['db'], webhookId: string, o: Outcome, at: string): Promise<boolean> {
    const webhooks = trx.updateTable('webhooks').where('id', '=', webhookId);
    if (o.error === null) {
      await webhooks.set({ failing_since: null }).where('failing_since', 'is not', null).execute();
      return false;
    }
    if (o.statusCode === 410) {
      await webhooks.set({ status: 'disabled', disabled_reason: `The endpoint answered 410 Gone at ${o.attemptedAt.toISOString()}`, updated_at: at }).execute();
      this.log.warn({ webhook_id: webhookId }, 'webhook disabled: its endpoint answered 410');
      return true;
    }
    await webhooks.set({ failing_since: o.attemptedAt.toISOString() }).where('failing_since', 'is', null).execute();
    const since = new Date(o.attemptedAt.getTime() - failingLimitMs).toISOString();
    const disabled = await webhooks
      .set({ status: 'disabled', disabled_reason: `Every delivery failed for 5 days (last: ${o.error})`, updated_at: at })
      .where('status', '=', 'enabled')
      .where('failing_since', '<=', since)
      .executeTakeFirst();
    if (Number(disabled.numUpdatedRows) === 0) return false;
    this.log.warn({ webhook_id: webhookId }, 'webhook disabled after 5 days of failed deliveries');
    return true;
  }
}
