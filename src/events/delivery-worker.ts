import { request, type Dispatcher } from 'undici';
import type { Logger } from 'pino';
import type { Database } from '../db/database.ts';
import type { EventsTable, WebhookAttemptsTable, WebhookDeliveriesTable, WebhooksTable } from '../db/schema.ts';
import type { Clock } from '../domain/clock.ts';
import { createWebhookDispatcher } from './address-guard.ts';
import { fanOut } from './fan-out.ts';
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

interface Claimed {
  delivery: WebhookDeliveriesTable;
  webhook: WebhooksTable;
  event: EventsTable;
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

/** The body Standard Webhooks receivers expect; `data` is stored as the API's JSON and goes out unparsed. */
function payload(event: EventsTable): string {
  return `{"type":${JSON.stringify(event.type)},"timestamp":${JSON.stringify(event.created_at)},"data":${event.data}}`;
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

/**
 * The webhook delivery worker: fans new events out to deliveries, sends due deliveries signed as Standard
 * Webhooks prescribes, records every attempt, and schedules retries. Deliveries are held under a lease while
 * sent, so any number of workers share the table and a crashed worker's deliveries are sent again: at least once.
 */
export class DeliveryWorker {
  private readonly concurrency: number;
  private readonly perEndpoint: number;
  private readonly timeoutMs: number;
  private readonly pollMs: number;
  private readonly leaseMs: number;
  private readonly dispatcher: Dispatcher;
  private inFlight = 0;
  private readonly perWebhook = new Map<string, number>();
  private readonly sending = new Set<Promise<void>>();
  private outcomes: Outcome[] = [];
  private flushing: Promise<void> | undefined;
  private timer: NodeJS.Timeout | undefined;
  private timerDue = 0;
  private cycling = false;
  private again = false;
  private stopped = true;
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
    this.dispatcher = createWebhookDispatcher({ allowInsecure: options.allowInsecure, connectTimeoutMs: this.timeoutMs });
  }

  start(): void {
    if (!this.stopped) return;
    this.stopped = false;
    // A new event is in a transaction that commits a moment after the signal: look shortly after it.
    this.unsubscribe = onOutbox(() => this.wake(2));
    this.wake(0);
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.unsubscribe?.();
    clearTimeout(this.timer);
    await Promise.allSettled([...this.sending]);
    await this.flush();
    await this.dispatcher.close();
  }

  /** One pass for tests and one-shot runs: fan out, send what is due, wait for the answers, record them. */
  async runOnce(): Promise<void> {
    await this.cycle();
    await Promise.allSettled([...this.sending]);
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
    if (this.timer && this.timerDue <= due) return;
    clearTimeout(this.timer);
    this.timerDue = due;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      void this.loop();
    }, delayMs);
  }

  private async loop(): Promise<void> {
    this.cycling = true;
    let busy = false;
    try {
      busy = await this.cycle();
    } catch (err) {
      this.log.error({ err }, 'webhook delivery worker could not claim work');
    } finally {
      this.cycling = false;
    }
    const more = this.again || (busy && this.inFlight < this.concurrency);
    this.again = false;
    this.wake(more ? 0 : this.pollMs);
  }

  /** Returns whether it found work, a sign that more may be waiting. */
  private async cycle(): Promise<boolean> {
    const fanned = await fanOut(this.database.db, this.database.kind, this.clock.now(), 500);
    const room = this.concurrency - this.inFlight;
    if (room <= 0) return fanned > 0;
    const claimed = await this.claim(room);
    for (const c of claimed) this.send(c);
    return fanned > 0 || claimed.length > 0;
  }

  private async claim(room: number): Promise<Claimed[]> {
    const { db } = this.database;
    const at = this.clock.now().toISOString();
    // Leases run on the real clock: they stand for how long a send may really take, whatever the simulated time.
    const realNow = Date.now();
    const leaseFree = new Date(realNow).toISOString();
    const saturated = [...this.perWebhook].filter(([, n]) => n >= this.perEndpoint).map(([id]) => id);
    let q = db
      .selectFrom('webhook_deliveries as d')
      .innerJoin('webhooks as w', 'w.id', 'd.webhook_id')
      .select(['d.id', 'd.webhook_id'])
      .where('d.status', '=', 'pending')
      .where('d.next_attempt_at', '<=', at)
      .where((eb) => eb.or([eb('d.locked_until', 'is', null), eb('d.locked_until', '<', leaseFree)]))
      .where('w.status', '=', 'enabled')
      .orderBy('d.next_attempt_at')
      .limit(room * 2);
    if (saturated.length > 0) q = q.where('d.webhook_id', 'not in', saturated);
    const candidates = await q.execute();
    // Each endpoint gets no more than its share, so one slow receiver never takes every slot.
    const picked: string[] = [];
    const taken = new Map<string, number>();
    for (const c of candidates) {
      const n = (this.perWebhook.get(c.webhook_id) ?? 0) + (taken.get(c.webhook_id) ?? 0);
      if (n >= this.perEndpoint) continue;
      taken.set(c.webhook_id, (taken.get(c.webhook_id) ?? 0) + 1);
      picked.push(c.id);
      if (picked.length >= room) break;
    }
    if (picked.length === 0) return [];
    // The conditions again: another worker may have taken some since the look; those are not updated here.
    const deliveries = await db
      .updateTable('webhook_deliveries')
      .set({ locked_until: new Date(realNow + this.leaseMs).toISOString() })
      .where('id', 'in', picked)
      .where('status', '=', 'pending')
      .where((eb) => eb.or([eb('locked_until', 'is', null), eb('locked_until', '<', leaseFree)]))
      .returningAll()
      .execute();
    if (deliveries.length === 0) return [];
    const [events, webhooks] = await Promise.all([
      db.selectFrom('events').selectAll().where('id', 'in', [...new Set(deliveries.map((d) => d.event_id))]).execute(),
      db.selectFrom('webhooks').selectAll().where('id', 'in', [...new Set(deliveries.map((d) => d.webhook_id))]).execute(),
    ]);
    const eventById = new Map(events.map((e) => [e.id, e]));
    const webhookById = new Map(webhooks.map((w) => [w.id, w]));
    const out: Claimed[] = [];
    for (const delivery of deliveries) {
      const event = eventById.get(delivery.event_id);
      const webhook = webhookById.get(delivery.webhook_id);
      if (event && webhook) out.push({ delivery, event, webhook });
    }
    return out;
  }

  private send(c: Claimed): void {
    this.inFlight++;
    this.perWebhook.set(c.webhook.id, (this.perWebhook.get(c.webhook.id) ?? 0) + 1);
    const p = this.attempt(c)
      .then((outcome) => {
        this.outcomes.push(outcome);
        void this.flush();
      })
      .finally(() => {
        this.sending.delete(p);
        this.inFlight--;
        const left = (this.perWebhook.get(c.webhook.id) ?? 1) - 1;
        if (left === 0) this.perWebhook.delete(c.webhook.id);
        else this.perWebhook.set(c.webhook.id, left);
      });
    this.sending.add(p);
  }

  private secrets(webhook: WebhooksTable, now: Date): string[] {
    const previousValid = webhook.previous_secret && webhook.previous_secret_expires_at && webhook.previous_secret_expires_at > now.toISOString();
    return previousValid ? [webhook.secret, webhook.previous_secret!] : [webhook.secret];
  }

  private async attempt(c: Claimed): Promise<Outcome> {
    const attemptedAt = this.clock.now();
    // The receiver checks webhook-timestamp against its own clock to refuse replays, so it is the real time even
    // when shipd's clock is a simulated one.
    const signedAt = new Date();
    const body = payload(c.event);
    const started = performance.now();
    const result: Omit<Outcome, 'latencyMs'> = { claimed: c, attemptedAt, statusCode: null, error: null, excerpt: null, retryAfterMs: null };
    try {
      const res = await request(c.webhook.url, {
        method: 'POST',
        dispatcher: this.dispatcher,
        headers: {
          'content-type': 'application/json',
          'user-agent': 'shipd-webhooks/1',
          'webhook-id': c.event.id,
          'webhook-timestamp': String(Math.floor(signedAt.getTime() / 1000)),
          'webhook-signature': signatureHeader(this.secrets(c.webhook, attemptedAt), c.event.id, signedAt, body),
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

  /** Records the outcomes gathered so far, all in one transaction; one flush at a time. */
  private flush(): Promise<void> {
    if (this.flushing) return this.flushing;
    if (this.outcomes.length === 0) return Promise.resolve();
    this.flushing = (async () => {
      while (this.outcomes.length > 0) {
        const batch = this.outcomes;
        this.outcomes = [];
        try {
          await this.record(batch);
        } catch (err) {
          // The deliveries stay leased and are sent again once the lease ends: at least once, never lost.
          this.log.error({ err, deliveries: batch.length }, 'could not record webhook attempts');
        }
      }
    })().finally(() => {
      this.flushing = undefined;
      this.wake(0);
    });
    return this.flushing;
  }

  private async record(batch: Outcome[]): Promise<void> {
    const now = this.clock.now();
    const at = now.toISOString();
    const attempts: WebhookAttemptsTable[] = [];
    /** Per webhook, the outcome that decides its health: the last one in the batch. */
    const health = new Map<string, Outcome>();
    await this.database.db.transaction().execute(async (trx) => {
      for (const o of batch) {
        const { delivery } = o.claimed;
        const attempt = delivery.attempts + 1;
        const ok = o.error === null;
        const gone = o.statusCode === 410;
        const delay = ok || gone ? null : nextRetryDelay(attempt, o.retryAfterMs);
        const next = delay === null ? null : new Date(o.attemptedAt.getTime() + delay).toISOString();
        const status = ok ? 'succeeded' : next === null ? 'failed' : 'pending';
        const updated = await trx
          .updateTable('webhook_deliveries')
          .set({
            status,
            attempts: attempt,
            next_attempt_at: next,
            locked_until: null,
            last_status_code: o.statusCode,
            last_error: o.error,
            last_attempt_at: o.attemptedAt.toISOString(),
            ...(ok && { delivered_at: o.attemptedAt.toISOString() }),
            updated_at: at,
          })
          .where('id', '=', delivery.id)
          .where('attempts', '=', delivery.attempts)
          .executeTakeFirst();
        // Zero rows: the webhook was deleted, or a worker that took over after our lease ran out recorded first.
        if (Number(updated.numUpdatedRows) !== 1) continue;
        attempts.push({
          delivery_id: delivery.id,
          attempt,
          webhook_id: delivery.webhook_id,
          attempted_at: o.attemptedAt.toISOString(),
          status_code: o.statusCode,
          latency_ms: o.latencyMs,
          error: o.error,
          response_excerpt: o.excerpt,
          next_attempt_at: next,
        });
        health.set(delivery.webhook_id, o);
      }
      for (let i = 0; i < attempts.length; i += 200) {
        await trx.insertInto('webhook_attempts').values(attempts.slice(i, i + 200)).onConflict((oc) => oc.doNothing()).execute();
      }
      for (const [webhookId, o] of health) await this.updateHealth(trx, webhookId, o, at);
    });
  }

  /** A success ends a failure streak; a 410, or failures for five days, disable the webhook. */
  private async updateHealth(trx: Database['db'], webhookId: string, o: Outcome, at: string): Promise<void> {
    const webhooks = trx.updateTable('webhooks').where('id', '=', webhookId);
    if (o.error === null) {
      await webhooks.set({ failing_since: null }).where('failing_since', 'is not', null).execute();
      return;
    }
    if (o.statusCode === 410) {
      await webhooks.set({ status: 'disabled', disabled_reason: `The endpoint answered 410 Gone at ${o.attemptedAt.toISOString()}`, updated_at: at }).execute();
      this.log.warn({ webhook_id: webhookId }, 'webhook disabled: its endpoint answered 410');
      return;
    }
    await webhooks.set({ failing_since: o.attemptedAt.toISOString() }).where('failing_since', 'is', null).execute();
    const since = new Date(o.attemptedAt.getTime() - failingLimitMs).toISOString();
    const disabled = await webhooks
      .set({ status: 'disabled', disabled_reason: `Every delivery failed for 5 days (last: ${o.error})`, updated_at: at })
      .where('status', '=', 'enabled')
      .where('failing_since', '<=', since)
      .executeTakeFirst();
    if (Number(disabled.numUpdatedRows) > 0) this.log.warn({ webhook_id: webhookId }, 'webhook disabled after 5 days of failed deliveries');
  }
}
