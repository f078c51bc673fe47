import type { Kysely } from 'kysely';
import type { DB, EventsTable } from '../db/schema.ts';
import type { Event, EventType } from '../schemas/event.ts';
import type { Context } from './context.ts';
import type { Principal } from './key-store.ts';
import { ApiError } from './errors.ts';
import { newId } from './ids.ts';
import { fetchPage, type ListInput, type Page } from './pagination.ts';

/**
 * Writes an event to the outbox. Call it with the transaction that makes the change, so the event exists
 * exactly when the change does.
 */
export async function recordEvent(trx: Kysely<DB>, ctx: { principal: Pick<Principal, 'keyId' | 'accountId' | 'mode'> }, type: EventType, resource: { id: string }, at: string): Promise<void> {
  await trx
    .insertInto('events')
    .values({
      id: newId('evt', Date.parse(at)),
      owner_key_id: ctx.principal.keyId,
      account_id: ctx.principal.accountId,
      mode: ctx.principal.mode,
      type,
      resource_id: resource.id,
      data: JSON.stringify(resource),
      created_at: at,
    })
    .execute();
}

function toEvent(row: EventsTable): Event {
  return { id: row.id, object: 'event', type: row.type as EventType, data: JSON.parse(row.data), created_at: row.created_at };
}

export async function listEvents(ctx: Context, query: ListInput & { type?: EventType }): Promise<Page<Event>> {
  let q = ctx.db.selectFrom('events').selectAll().where('owner_key_id', '=', ctx.principal.keyId);
  if (query.type) q = q.where('type', '=', query.type);
  return fetchPage(q, query, 'evt', toEvent);
}

export async function getEvent(ctx: Context, id: string): Promise<Event> {
  const row = await ctx.db.selectFrom('events').selectAll().where('id', '=', id).where('owner_key_id', '=', ctx.principal.keyId).executeTakeFirst();
  if (!row) throw new ApiError('not_found', `No event ${id}`);
  return toEvent(row);
}
