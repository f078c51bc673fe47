import { sql } from 'kysely';
import type { Database } from '../db/database.ts';
import { fanOutIn, jsonList } from './fan-out.ts';

/** Most events fanned out in one look. */
export const fanOutLimit = 500;

/** A delivery this worker holds under a lease, with what it needs to send it. */
export interface Claimed {
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

export interface ClaimLimits {
  /** How many deliveries may be claimed in all. */
  room: number;
  /** Webhooks that already hold all they may: none of theirs are looked at. */
  saturated: string[];
  leaseMs: number;
  /** Deliveries of a webhook held now, in flight and queued, and how many it may hold. */
  held: (webhookId: string) => number;
  holdLimit: (webhookId: string) => number;
  /** Webhooks whose claimed deliveries wait in this worker's queues: their state now comes back in `watched`. */
  queuedFor?: string[];
}

/** What a queued delivery is sent with, as the webhook is now. */
export type WebhookNow = Pick<Claimed, 'url' | 'secret' | 'previousSecret' | 'previousSecretExpiresAt'>;

export interface Claim {
  fanned: number;
  claimed: Claimed[];
  /** Whether the look took as much as it could (or left some out for an endpoint's share), so more may be due. */
  full: boolean;
  /**
   * The enabled ones of `queuedFor`, as they are now: one missing was deleted or disabled since its deliveries were
   * claimed, and theirs must not be sent; one whose URL or secret changed is sent as it is now.
   */
  watched: Map<string, WebhookNow>;
}

/**
 * Fans out new events and claims due deliveries, in one transaction (on SQLite one turn of its only
 * connection, however busy the API keeps it).
 */
export async function claimDue(database: Database, now: Date, limits: ClaimLimits): Promise<Claim> {
  const { db, kind } = database;
  const { room, saturated, held, holdLimit } = limits;
  const at = now.toISOString();
  // Leases run on the real clock: they stand for how long a send may really take, whatever the simulated time.
  const realNow = Date.now();
  const leaseFree = new Date(realNow).toISOString();
  const leaseEnds = realNow + limits.leaseMs;
  const lease = new Date(leaseEnds).toISOString();

  let full = false;
  const watched = new Map<string, WebhookNow>();
  const { fanned, claimed } = await db.transaction().execute(async (trx) => {
    if (limits.queuedFor && limits.queuedFor.length > 0) {
      const rows = await sql<{ id: string; url: string; secret: string; previous_secret: string | null; previous_secret_expires_at: string | null }>`
        select id, url, secret, previous_secret, previous_secret_expires_at from webhooks
        where id in ${jsonList(kind, limits.queuedFor)} and status = 'enabled'`.execute(trx);
      for (const r of rows.rows) watched.set(r.id, { url: r.url, secret: r.secret, previousSecret: r.previous_secret, previousSecretExpiresAt: r.previous_secret_expires_at });
    }
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
      const n = taken.get(c.webhook_id) ?? held(c.webhook_id);
      if (n >= holdLimit(c.webhook_id)) {
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
  return { fanned, claimed, full, watched };
}
