import { sql, type Kysely } from 'kysely';

/**
 * Carrier tracking subscriptions: one row per number and carrier that some live tracker follows, whichever keys
 * follow it (the carrier pushes a number's scans once, to one address). A row is written when the tracker is made
 * and subscribed by the worker, off the request's path; a carrier that is slow or down leaves it pending for a
 * later try. Only rows with a next attempt are in the due index.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('carrier_subscriptions')
    .addColumn('carrier', 'text', (c) => c.notNull())
    .addColumn('tracking_number', 'text', (c) => c.notNull())
    .addColumn('state', 'text', (c) => c.notNull())
    .addColumn('subscription_id', 'text')
    .addColumn('attempts', 'integer', (c) => c.notNull())
    .addColumn('next_attempt_at', 'text')
    .addColumn('subscribed_at', 'text')
    .addColumn('expires_at', 'text')
    .addColumn('last_error', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('carrier_subscriptions_pk', ['carrier', 'tracking_number'])
    .execute();
  await sql`create index carrier_subscriptions_due on carrier_subscriptions (next_attempt_at) where next_attempt_at is not null`.execute(db);
}
