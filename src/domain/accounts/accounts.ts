import type { Kysely } from 'kysely';
import type { AccountsTable, DB } from '../../db/schema.ts';
import type { Clock } from '../../kernel/clock.ts';
import { hasPrefix, newId } from '../../kernel/ids.ts';

export type Plan = AccountsTable['plan'];
export const plans = ['api', 'basic'] as const;

export class AccountError extends Error {}

export async function createAccount(db: Kysely<DB>, clock: Clock, name: string, plan: Plan = 'api'): Promise<AccountsTable> {
  if (!name.trim()) throw new AccountError('an account needs a name');
  if (!(plans as readonly string[]).includes(plan)) throw new AccountError(`plan must be one of ${plans.join(', ')}`);
  const existing = await db.selectFrom('accounts').select('id').where('name', '=', name).executeTakeFirst();
  if (existing) throw new AccountError(`an account named "${name}" exists already (${existing.id})`);
  const row: AccountsTable = { id: newId('acct'), name, plan, created_at: clock.now().toISOString() };
  await db.insertInto('accounts').values(row).execute();
  return row;
}

/** Finds an account by its id or, failing that, its name. */
export async function findAccount(db: Kysely<DB>, idOrName: string): Promise<AccountsTable> {
  const row = await db
    .selectFrom('accounts')
    .selectAll()
    .where(hasPrefix(idOrName, 'acct') ? 'id' : 'name', '=', idOrName)
    .executeTakeFirst();
  if (!row) throw new AccountError(`no account "${idOrName}"`);
  return row;
}

export async function listAccounts(db: Kysely<DB>): Promise<AccountsTable[]> {
  return db.selectFrom('accounts').selectAll().orderBy('created_at').execute();
}
