import type { Kysely } from 'kysely';

/**
 * Failed dashboard sign-ins are counted by email and client address rather than by email alone, so that failures
 * from one address make that address wait and never lock the email's owner out. What the old table held was only
 * the last quarter of an hour's lockouts, so it goes rather than being carried over.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('dashboard_login_failures').execute();
  await db.schema
    .createTable('dashboard_login_failures')
    .addColumn('email', 'text', (c) => c.notNull())
    .addColumn('client', 'text', (c) => c.notNull())
    .addColumn('failures', 'integer', (c) => c.notNull())
    .addColumn('last_failed_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('dashboard_login_failures_pk', ['email', 'client'])
    .execute();
  // The cleanup job deletes the runs that have ended, by age.
  await db.schema.createIndex('dashboard_login_failures_last').on('dashboard_login_failures').column('last_failed_at').execute();
}
