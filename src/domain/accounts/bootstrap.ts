import type { KeyAdmin } from './api-keys.ts';
import { createApiKey } from './api-keys.ts';
import { newId } from '../../kernel/ids.ts';

export const defaultAccountName = 'default';

/**
 * On an empty database: the `default` account with a test key and the test payment method that pays, so a
 * newcomer's first call works. Returns the key's secret when this process made it, null otherwise. Several
 * processes may start at once; the unique account name lets exactly one of them win.
 */
export async function bootstrapEmptyDatabase(admin: KeyAdmin): Promise<string | null> {
  const any = await admin.db.selectFrom('accounts').select('id').limit(1).executeTakeFirst();
  if (any) return null;
  const now = admin.clock.now().toISOString();
  const accountId = newId('acct');
  const inserted = await admin.db
    .insertInto('accounts')
    .values({ id: accountId, name: defaultAccountName, plan: 'api', created_at: now })
    .onConflict((oc) => oc.column('name').doNothing())
    .executeTakeFirst();
  if (Number(inserted.numInsertedOrUpdatedRows ?? 0) === 0) return null;
  await admin.db.insertInto('payment_methods').values({ account_id: accountId, mode: 'test', payment_method: 'pm_test_visa', created_at: now }).execute();
  // The account is new: this key is its first, under any cap on keys.
  const { secret } = await createApiKey(admin, accountId, 'test', 1, 'default test key');
  return secret;
}
