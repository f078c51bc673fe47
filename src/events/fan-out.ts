import { sql, type Kysely, type RawBuilder } from 'kysely';
import type { DatabaseKind } from '../db/database.ts';
import type { DB, WebhookDeliveriesTable, WebhooksTable } from '../db/schema.ts';
import { newId } from '../kernel/ids.ts';
import type { EventType } from '../schemas/event.ts';

/**
 * A list of strings passed as one JSON parameter, as a one-column subquery for `in` and `not in`. The SQL text is
 * the same whatever the length, so SQLite compiles it once (a list of `?` would be a new statement for every
 * length, crowding the statement cache), and PostgreSQL gets one parameter instead of hundreds.
 */
export function jsonList(kind: DatabaseKind, values: readonly string[]): RawBuilder<unknown> {
  const json = JSON.stringify(values);
  return kind === 'postgres' ? sql`(select jsonb_array_elements_text(${json}::jsonb))` : sql`(select value from json_each(${json}))`;
}

/** Rows passed as one JSON parameter, as a table `v` with these columns, for multi-row INSERT … SELECT and UPDATE … FROM. */
export function jsonRows(kind: DatabaseKind, rows: readonly object[], columns: readonly (readonly [name: string, type: 'text' | 'integer'])[]): RawBuilder<unknown> {
  const json = JSON.stringify(rows);
  if (kind === 'postgres') return sql`jsonb_to_recordset(${json}::jsonb) as v(${sql.raw(columns.map(([name, type]) => `${name} ${type}`).join(', '))})`;
  return sql`(select ${sql.raw(columns.map(([name]) => `value ->> '${name}' as ${name}`).join(', '))} from json_each(${json})) as v`;
}

const deliveryColumns = [
  ['id', 'text'],
  ['webhook_id', 'text'],
  ['owner_key_id', 'text'],
  ['event_id', 'text'],
  ['event_type', 'text'],
] as const;

/**
 * Takes the oldest events not yet fanned out and adds a delivery for each enabled webhook of the event's own key
 * (unless that key was revoked) that subscribes to its type, and marks the events done, in the caller's transaction. A crash before the commit
 * leaves them for the next pass; the unique (webhook, event) pair makes a racing second pass harmless.
 * Returns how many events it took.
 */
export async function fanOutIn(trx: Kysely<DB>, kind: DatabaseKind, now: Date, limit: number): Promise<number> {
  let q = trx.selectFrom('events').select(['id', 'owner_key_id', 'type']).where('dispatched_at', 'is', null).orderBy('id').limit(limit);
  if (kind === 'postgres') q = q.forUpdate().skipLocked();
  const events = await q.execute();
  if (events.length === 0) return 0;
  const owners = [...new Set(events.map((e) => e.owner_key_id))];
  // A revoked key's events go nowhere, whatever became of its webhooks since (revoking disables them).
  const webhooks = await trx
    .selectFrom('webhooks')
    .innerJoin('api_keys', 'api_keys.id', 'webhooks.owner_key_id')
    .select(['webhooks.id', 'webhooks.owner_key_id', 'webhooks.events'])
    .where('webhooks.owner_key_id', 'in', sql<string>`${jsonList(kind, owners)}`)
    .where('webhooks.status', '=', 'enabled')
    .where('api_keys.revoked_at', 'is', null)
    .execute();
  const byOwner = new Map<string, { id: string; owner_key_id: string; types: Set<string> }[]>();
  for (const w of webhooks) {
    const list = byOwner.get(w.owner_key_id) ?? [];
    list.push({ id: w.id, owner_key_id: w.owner_key_id, types: new Set(JSON.parse(w.events) as string[]) });
    byOwner.set(w.owner_key_id, list);
  }
  const deliveries: { id: string; webhook_id: string; owner_key_id: string; event_id: string; event_type: string }[] = [];
  for (const e of events) {
    for (const w of byOwner.get(e.owner_key_id) ?? []) {
      if (!w.types.has(e.type)) continue;
      const { id, webhook_id, owner_key_id, event_id, event_type } = newDelivery(w, e.id, e.type as EventType, now);
      deliveries.push({ id, webhook_id, owner_key_id, event_id, event_type });
    }
  }
  const at = now.toISOString();
  if (deliveries.length > 0) {
    // Every new delivery is pending, due now, never attempted: only the five columns above differ.
    await sql`
      insert into webhook_deliveries (id, webhook_id, owner_key_id, event_id, event_type, status, attempts, next_attempt_at, locked_until,
        last_status_code, last_error, last_attempt_at, delivered_at, created_at, updated_at)
      select v.id, v.webhook_id, v.owner_key_id, v.event_id, v.event_type, 'pending', 0, ${at}, null, null, null, null, null, ${at}, ${at}
      from ${jsonRows(kind, deliveries, deliveryColumns)} where true
      on conflict (webhook_id, event_id) do nothing`.execute(trx);
  }
  await sql`update events set dispatched_at = ${at} where id in ${jsonList(kind, events.map((e) => e.id))}`.execute(trx);
  return events.length;
}

/** fanOutIn in a transaction of its own. */
export async function fanOut(db: Kysely<DB>, kind: DatabaseKind, now: Date, limit: number): Promise<number> {
  return db.transaction().execute((trx) => fanOutIn(trx, kind, now, limit));
}

/** A delivery of one event to one webhook, waiting for its first attempt. */
export function newDelivery(webhook: Pick<WebhooksTable, 'id' | 'owner_key_id'>, eventId: string, type: EventType | 'webhook.test', now: Date): WebhookDeliveriesTable {
  const at = now.toISOString();
  return {
    id: newId('dlv', now.getTime()),
    webhook_id: webhook.id,
    owner_key_id: webhook.owner_key_id,
    event_id: eventId,
    event_type: type,
    status: 'pending',
    attempts: 0,
    next_attempt_at: at,
    locked_until: null,
    last_status_code: null,
    last_error: null,
    last_attempt_at: null,
    delivered_at: null,
    created_at: at,
    updated_at: at,
  };
}
