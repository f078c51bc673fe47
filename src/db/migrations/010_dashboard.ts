import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  // The people who sign in to the web dashboard; each acts for one account.
  await db.schema
    .createTable('dashboard_users')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.id'))
    .addColumn('email', 'text', (c) => c.notNull().unique())
    .addColumn('password_hash', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();

  // Only a hash of the session id is kept, so a copy of the table opens no session.
  await db.schema
    .createTable('dashboard_sessions')
    .addColumn('id_hash', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('dashboard_users.id'))
    .addColumn('csrf_token', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('last_seen_at', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('dashboard_sessions_user').on('dashboard_sessions').column('user_id').execute();

  // Failed sign-ins by email, whether or not a user has it, so a lockout says nothing about who exists.
  await db.schema
    .createTable('dashboard_login_failures')
    .addColumn('email', 'text', (c) => c.primaryKey())
    .addColumn('failures', 'integer', (c) => c.notNull())
    .addColumn('first_failed_at', 'text', (c) => c.notNull())
    .addColumn('locked_until', 'text')
    .execute();

  // When each key was last used, written at most once a minute per key and process: the API's hot path stays read-only.
  await db.schema
    .createTable('api_key_usage')
    .addColumn('key_id', 'text', (c) => c.primaryKey().references('api_keys.id'))
    .addColumn('last_used_at', 'text', (c) => c.notNull())
    .execute();

  // The dashboard lists an account's resources of one mode, whichever key owns them, newest first.
  await db.schema.createIndex('orders_account_mode').on('orders').columns(['account_id', 'mode', 'id']).execute();
  await db.schema.createIndex('shipments_account_mode').on('shipments').columns(['account_id', 'mode', 'id']).execute();
  // A label's timeline is its newest tracking.updated event.
  await db.schema.createIndex('events_resource').on('events').columns(['resource_id', 'id']).execute();
}
