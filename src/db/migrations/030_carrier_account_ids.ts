import type { Kysely } from 'kysely';
import { newId } from '../../kernel/ids.ts';

/**
 * Carrier accounts become a resource of the API (`ca_…`): one per account, carrier and mode, so a test key can
 * rehearse onboarding without touching the live connection, and with what a connection test last found. The key
 * (account, carrier) cannot be widened in place on SQLite, so the table is made again and its rows copied; the
 * rows are the accounts' own, a handful each, so the copy is cheap.
 */
interface Before {
  account_id: string;
  carrier: string;
  client_id_last4: string;
  credentials: string;
  created_at: string;
  updated_at: string;
}

interface After extends Before {
  id: string;
  mode: string;
  description: string | null;
  status: string;
  last_tested_at: string | null;
  last_test_error: string | null;
}

export async function up(untyped: Kysely<unknown>): Promise<void> {
  const db = untyped as Kysely<{ carrier_accounts: Before; carrier_accounts_by_mode: After }>;
  await db.schema
    .createTable('carrier_accounts_by_mode')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.id'))
    .addColumn('mode', 'text', (c) => c.notNull())
    .addColumn('carrier', 'text', (c) => c.notNull())
    .addColumn('description', 'text')
    .addColumn('client_id_last4', 'text', (c) => c.notNull())
    .addColumn('credentials', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('last_tested_at', 'text')
    .addColumn('last_test_error', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addUniqueConstraint('carrier_accounts_one_per_mode', ['account_id', 'mode', 'carrier'])
    .execute();
  const rows = await db.selectFrom('carrier_accounts').selectAll().orderBy('created_at').execute();
  for (const row of rows) {
    await db
      .insertInto('carrier_accounts_by_mode')
      .values({ ...row, id: newId('ca', Date.parse(row.created_at)), mode: 'live', description: null, status: 'connected', last_tested_at: null, last_test_error: null })
      .execute();
  }
  await db.schema.dropTable('carrier_accounts').execute();
  await db.schema.alterTable('carrier_accounts_by_mode').renameTo('carrier_accounts').execute();
}
