import { sql } from 'kysely';
import type { Logger } from 'pino';
import type { Database } from '../db/database.ts';
import type { Clock } from '../kernel/clock.ts';
import type { Outcome } from './delivery-attempt.ts';
import type { Claimed } from './delivery-claim.ts';
import { jsonRows } from './fan-out.ts';
import { nextRetryDelay } from './retry-schedule.ts';

const failingLimitMs = 5 * 24 * 3_600_000;
/** Rows per statement, all in one JSON parameter. */
const chunk = 500;

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
 * Each outcome updates its delivery only if the attempts on record are still those it was claimed with (not
 * so if the webhook was deleted, or a worker that took over after the lease ran out recorded first), and adds
 * the attempt to the log; a few statements for the whole batch. Releases clear the leases of deliveries given
 * back unsent. Returns the webhooks it disabled.
 */
export async function recordOutcomes(database: Database, clock: Clock, log: Logger, batch: Outcome[], releases: Claimed[]): Promise<string[]> {
  const { db, kind } = database;
  const now = clock.now();
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
    /** Per webhook, the outcome that decides its health: the last one in the batch, unless one was a 410, which disables it whatever came after. */
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
      for (const r of logged) if (health.get(r.attempt.webhook_id)?.statusCode !== 410) health.set(r.attempt.webhook_id, r.outcome);
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
    for (const [webhookId, o] of health) if (await updateHealth(trx, log, webhookId, o, at)) disabled.push(webhookId);
  });
  return disabled;
}

/** A success ends a failure streak; a 410, or failures for five days, disable the webhook. Returns whether it did. */
async function updateHealth(trx: Database['db'], log: Logger, webhookId: string, o: Outcome, at: string): Promise<boolean> {
  const webhooks = trx.updateTable('webhooks').where('id', '=', webhookId);
  if (o.error === null) {
    await webhooks.set({ failing_since: null }).where('failing_since', 'is not', null).execute();
    return false;
  }
  if (o.statusCode === 410) {
    await webhooks.set({ status: 'disabled', disabled_reason: `The endpoint answered 410 Gone at ${o.attemptedAt.toISOString()}`, updated_at: at }).execute();
    log.warn({ webhook_id: webhookId }, 'webhook disabled: its endpoint answered 410');
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
  log.warn({ webhook_id: webhookId }, 'webhook disabled after 5 days of failed deliveries');
  return true;
}
