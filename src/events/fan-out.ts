import type { Kysely } from 'kysely';
import type { DatabaseKind } from '../db/database.ts';
import type { DB, WebhookDeliveriesTable } from '../db/schema.ts';
import { newDelivery } from '../domain/webhooks.ts';
import type { EventType } from '../schemas/event.ts';

/** Rows per multi-row INSERT, well under both databases' bound-parameter limits. */
const insertChunk = 200;

/**
 * Takes the oldest events not yet fanned out and, in one transaction, adds a delivery for each enabled webhook
 * of the event's own key that subscribes to its type, and marks the events done. A crash before the commit
 * leaves them for the next pass; the unique (webhook, event) pair makes a racing second pass harmless.
 * Returns how many events it took.
 */
export async function fanOut(db: Kysely<DB>, kind: DatabaseKind, now: Date, limit: number): Promise<number> {
  return db.transaction().execute(async (trx) => {
    let q = trx.selectFrom('events').select(['id', 'owner_key_id', 'type']).where('dispatched_at', 'is', null).orderBy('id').limit(limit);
    if (kind === 'postgres') q = q.forUpdate().skipLocked();
    const events = await q.execute();
    if (events.length === 0) return 0;
    const owners = [...new Set(events.map((e) => e.owner_key_id))];
    const webhooks = await trx
      .selectFrom('webhooks')
      .select(['id', 'owner_key_id', 'events'])
      .where('owner_key_id', 'in', owners)
      .where('status', '=', 'enabled')
      .execute();
    const byOwner = new Map<string, { id: string; owner_key_id: string; types: Set<string> }[]>();
    for (const w of webhooks) {
      const list = byOwner.get(w.owner_key_id) ?? [];
      list.push({ id: w.id, owner_key_id: w.owner_key_id, types: new Set(JSON.parse(w.events) as string[]) });
      byOwner.set(w.owner_key_id, list);
    }
    const deliveries: WebhookDeliveriesTable[] = [];
    for (const e of events) {
      for (const w of byOwner.get(e.owner_key_id) ?? []) {
        if (w.types.has(e.type)) deliveries.push(newDelivery(w, e.id, e.type as EventType, now));
      }
    }
    for (let i = 0; i < deliveries.length; i += insertChunk) {
      await trx
        .insertInto('webhook_deliveries')
        .values(deliveries.slice(i, i + insertChunk))
        .onConflict((oc) => oc.columns(['webhook_id', 'event_id']).doNothing())
        .execute();
    }
    const at = now.toISOString();
    for (let i = 0; i < events.length; i += insertChunk) {
      await trx.updateTable('events').set({ dispatched_at: at }).where('id', 'in', events.slice(i, i + insertChunk).map((e) => e.id)).execute();
    }
    return events.length;
  });
}
