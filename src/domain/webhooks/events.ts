import { sql, type Kysely } from 'kysely';
import type { DB, EventsTable } from '../../db/schema.ts';
import type { Event, LoggedEventType } from '../../schemas/event.ts';
import type { Context } from '../core/context.ts';
import type { Principal } from '../accounts/key-store.ts';
import { ApiError } from '../../kernel/errors.ts';
import { newId } from '../../kernel/ids.ts';
import { notifyOutbox } from '../../events/outbox-signal.ts';
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
