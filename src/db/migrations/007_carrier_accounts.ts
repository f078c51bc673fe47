import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  // An account's own carrier credentials (bring your own account), for live mode; sealed with SHIPD_SECRET.
  await db.schema
    .createTable('carrier_accounts')
    .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.id'))
    .addColumn('carrier', 'text', (c) => c.notNull())
    .addColumn('client_id_last4', 'text', (c) => c.notNull())
    .addColumn('credentials', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('carrier_accounts_pk', ['account_id', 'carrier'])
    .execute();
}
