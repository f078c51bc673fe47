import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema.ts';
import type { Mode } from '../../kernel/mode.ts';
import type { Clock } from '../../kernel/clock.ts';
import { AccountError } from './accounts.ts';
import { ApiError } from '../../kernel/errors.ts';
import { newId } from '../../kernel/ids.ts';

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

export type Payment = 'platform' | 'carrier_account' | 'none';

/**
 * The payment method that platform postage will be charged to, checked before any carrier is called. Only the
 * account's stored method counts: nothing a client sends can stand in for it.
 */
export async function requirePaymentMethod(db: Kysely<DB>, accountId: string, mode: Mode): Promise<string> {
  const method = await getPaymentMethod(db, accountId, mode);
  if (!method) {
    throw new ApiError('payment_method_required', `The account has no ${mode} payment method for postage; add one with: shipd billing set --account ${accountId} --mode ${mode} --payment-method …`);
  }
  if (method === 'pm_test_declined') throw new ApiError('payment_declined', `The ${mode} payment method ${method} was declined; nothing was bought`);
  return method;
}

/** Records the charge for a label; a shipment is charged at most once (a unique key in the ledger). */
export async function chargePostage(
  trx: Kysely<DB>,
  entry: { accountId: string; mode: Mode; ownerKeyId: string; shipmentId: string; cents: number; paymentMethod: string; at: string },
): Promise<void> {
  await trx
    .insertInto('postage_ledger')
    .values({
      id: newId('led', Date.parse(entry.at)),
      account_id: entry.accountId,
      mode: entry.mode,
      owner_key_id: entry.ownerKeyId,
      shipment_id: entry.shipmentId,
      kind: 'charge',
      amount_cents: entry.cents,
      payment_method: entry.paymentMethod,
      created_at: entry.at,
    })
    .onConflict((oc) => oc.columns(['shipment_id', 'kind']).doNothing())
    .execute();
}

/** Gives back what the shipment was charged, if it was; at most once. */
export async function refundPostage(trx: Kysely<DB>, shipmentId: string, at: string): Promise<void> {
  const charge = await trx.selectFrom('postage_ledger').selectAll().where('shipment_id', '=', shipmentId).where('kind', '=', 'charge').executeTakeFirst();
  if (!charge) return;
  await trx
    .insertInto('postage_ledger')
    .values({ ...charge, id: newId('led', Date.parse(at)), kind: 'refund', amount_cents: -charge.amount_cents, created_at: at })
    .onConflict((oc) => oc.columns(['shipment_id', 'kind']).doNothing())
    .execute();
}
