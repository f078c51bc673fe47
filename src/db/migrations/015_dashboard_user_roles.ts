import { sql, type Kysely } from 'kysely';

/**
 * Dashboard users get a role, a switch that stops them signing in, and the time of their last sign-in. An owner
 * manages the account's users; an account keeps at least one enabled owner. Of the users already there, each
 * account's first becomes its owner (the one its operator made first, usually with the account), the rest members.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('dashboard_users')
    .addColumn('role', 'text', (c) => c.notNull().defaultTo('member'))
    .execute();
  await db.schema.alterTable('dashboard_users').addColumn('disabled_at', 'text').execute();
  await db.schema.alterTable('dashboard_users').addColumn('last_sign_in_at', 'text').execute();
  await sql`
    update dashboard_users set role = 'owner'
    where not exists (
      select 1 from dashboard_users earlier
      where earlier.account_id = dashboard_users.account_id
        and (earlier.created_at < dashboard_users.created_at or (earlier.created_at = dashboard_users.created_at and earlier.id < dashboard_users.id))
    )`.execute(db);
  await db.schema.createIndex('dashboard_users_account').on('dashboard_users').columns(['account_id', 'role']).execute();
}
