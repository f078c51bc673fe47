import type { Kysely } from 'kysely';
import type { DB } from '../db/schema.ts';
import type { Mode } from './api-key-format.ts';
import type { Clock } from './clock.ts';
import { AccountError } from './accounts.ts';

/** Test mode's payment methods: one that pays and one that is declined, so the 402 path can be exercised. */
export const testPaymentMethods = ['pm_test_visa', 'pm_test_declined'] as const;

export function checkPaymentMethod(mode: Mode, paymentMethod: string): void {
  if (mode === 'test') {
    if (!(testPaymentMethods as readonly string[]).includes(paymentMethod)) {
      throw new AccountError(`test mode takes only ${testPaymentMethods.join(' or ')}`);
    }
  } else if (!/^pm_[A-Za-z0-9_]{4,200}$/.test(paymentMethod) || paymentMethod.startsWith('pm_test_')) {
    throw new AccountError('a live payment method is a pm_… token of the payment processor, not a test one');
  }
}

/** An account has at most one billing payment method per mode: setting one replaces the other. */
export async function setPaymentMethod(db: Kysely<DB>, clock: Clock, accountId: string, mode: Mode, paymentMethod: string): Promise<void> {
  checkPaymentMethod(mode, paymentMethod);
  await db
    .insertInto('payment_methods')
    .values({ account_id: accountId, mode, payment_method: paymentMethod, created_at: clock.now().toISOString() })
    .onConflict((oc) => oc.columns(['account_id', 'mode']).doUpdateSet({ payment_method: paymentMethod, created_at: clock.now().toISOString() }))
    .execute();
}

export async function clearPaymentMethod(db: Kysely<DB>, accountId: string, mode: Mode): Promise<boolean> {
  const result = await db.deleteFrom('payment_methods').where('account_id', '=', accountId).where('mode', '=', mode).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

export async function getPaymentMethod(db: Kysely<DB>, accountId: string, mode: Mode): Promise<string | null> {
  const row = await db
    .selectFrom('payment_methods')
    .select('payment_method')
    .where('account_id', '=', accountId)
    .where('mode', '=', mode)
    .executeTakeFirst();
  return row?.payment_method ?? null;
}
