import { sql, type Kysely } from 'kysely';
import type { DB, EventsTable } from '../../db/schema.ts';
import type { Event, LoggedEventType } from '../../schemas/event.ts';
import type { Context } from '../core/context.ts';
import type { Principal } from '../accounts/key-store.ts';
import { ApiError } from '../../kernel/errors.ts';
import { newId } from '../../kernel/ids.ts';
import { notifyOutbox } from '../../events/outbox-signal.ts';
import { jsonList, jsonRows } from '../../events/fan-out.ts';
import type { DatabaseKind } from '../../db/database.ts';
import { fetchPage, type ListInput, type Page } from '../core/pagination.ts';

/**
 * Writes an event to the outbox. Call it with the transaction that makes the change, so the event exists
 * exactly when the change does. An event whose key has no enabled webhook is written already fanned out: a
 * webhook gets the events recorded while it is enabled, and without this every event cost the delivery worker a
 * look of four statements and a commit to find nobody to send it to.
 */
export async function recordEvent(trx: Kysely<DB>, ctx: { principal: Pick<Principal, 'keyId' | 'accountId' | 'mode'> }, type: LoggedEventType, resource: { id: string }, at: string, dispatchedAt: string | null = null): Promise<string> {
  const id = newId('evt', Date.parse(at));
  const unsubscribed = sql<string | null>`case when exists (select 1 from webhooks where owner_key_id = ${ctx.principal.keyId} and status = 'enabled') then null else ${at} end`;
  const row = await trx
    .insertInto('events')
    .values({
      id,
      owner_key_id: ctx.principal.keyId,
      account_id: ctx.principal.accountId,
      mode: ctx.principal.mode,
      type,
      resource_id: resource.id,
      data: JSON.stringify(resource),
      created_at: at,
      dispatched_at: dispatchedAt ?? unsubscribed,
    })
    .returning('dispatched_at')
    .executeTakeFirstOrThrow();
  if (row.dispatched_at === null) notifyOutbox();
  return id;
}

/** An event for recordEvents: whose it is, and what it says. */
export interface NewEvent {
  owner: { principal: Pick<Principal, 'keyId' | 'accountId' | 'mode'> };
  type: LoggedEventType;
  resource: { id: string };
  at: string;
}

const eventColumns = [
  ['id', 'text'],
  ['owner_key_id', 'text'],
  ['account_id', 'text'],
  ['mode', 'text'],
  ['type', 'text'],
  ['resource_id', 'text'],
  ['data', 'text'],
  ['created_at', 'text'],
  ['dispatched_at', 'text'],
] as const;

/**
 * recordEvent for many events at once, in the caller's transaction and in the order given: one look for the keys
 * with an enabled webhook and one INSERT per 500 events, instead of a statement each. The rows travel as one JSON
 * parameter (jsonRows), so the statement's text is the same whatever the count and SQLite compiles it once.
 */
export async function recordEvents(trx: Kysely<DB>, kind: DatabaseKind, events: readonly NewEvent[]): Promise<void> {
  if (events.length === 0) return;
  const keys = [...new Set(events.map((e) => e.owner.principal.keyId))];
  const subscribed = await trx.selectFrom('webhooks').select('owner_key_id').distinct().where('owner_key_id', 'in', sql<string>`${jsonList(kind, keys)}`).where('status', '=', 'enabled').execute();
  const hooked = new Set(subscribed.map((w) => w.owner_key_id));
  const rows = events.map(({ owner: { principal }, type, resource, at }) => ({
    id: newId('evt', Date.parse(at)),
    owner_key_id: principal.keyId,
    account_id: principal.accountId,
    mode: principal.mode,
    type,
    resource_id: resource.id,
    data: JSON.stringify(resource),
    created_at: at,
    dispatched_at: hooked.has(principal.keyId) ? null : at,
  }));
  for (let i = 0; i < rows.length; i += 500) {
    await sql`
      insert into events (id, owner_key_id, account_id, mode, type, resource_id, data, created_at, dispatched_at)
      select v.id, v.owner_key_id, v.account_id, v.mode, v.type, v.resource_id, v.data, v.created_at, v.dispatched_at
      from ${jsonRows(kind, rows.slice(i, i + 500), eventColumns)}`.execute(trx);
  }
  if (hooked.size > 0) notifyOutbox();
}

function toEvent(row: EventsTable): Event {
  return { id: row.id, object: 'event', type: row.type as LoggedEventType, data: JSON.parse(row.data), created_at: row.created_at };
}

export async function listEvents(ctx: Context, query: ListInput & { type?: LoggedEventType }): Promise<Page<Event>> {
  let q = ctx.db.selectFrom('events').selectAll().where('owner_key_id', '=', ctx.principal.keyId);
  if (query.type) q = q.where('type', '=', query.type);
  return fetchPage(q, query, 'evt', toEvent);
}

export async function getEvent(ctx: Context, id: string): Promise<Event> {
  const row = await ctx.db.selectFrom('events').selectAll().where('id', '=', id).where('owner_key_id', '=', ctx.principal.keyId).executeTakeFirst();
  if (!row) throw new ApiError('not_found', `No event ${id}`);
  return toEvent(row);
}
