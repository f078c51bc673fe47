import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema.ts';
import type { Config } from '../../config.ts';
import type { Mode } from '../../kernel/mode.ts';
import type { Clock } from '../../kernel/clock.ts';
import { AccountError } from '../accounts/accounts.ts';
import { ApiError } from '../../kernel/errors.ts';
import { PaymentsRefused, PaymentsUnavailable, type CardSummary, type SavedCard } from '../../payments/stripe.ts';
import { billingCustomer, stripeFor } from './stripe-customer.ts';
import { retryOwedCharges } from './card-charges.ts';

/** Test mode's payment methods: one that pays and one that is declined, so the 402 path can be exercised. */
export const testPaymentMethods = ['pm_test_visa', 'pm_test_declined'] as const;

/** What billing needs of a process: its database, its clock, and whether Stripe is set up. */
export interface BillingDeps {
  db: Kysely<DB>;
  clock: Clock;
  config: Config;
}

export interface PaymentMethodView {
  payment_method: string;
  card: CardSummary | null;
}

function checkTestPaymentMethod(paymentMethod: string): void {
  if (!(testPaymentMethods as readonly string[]).includes(paymentMethod)) {
    throw new AccountError(`test mode takes only ${testPaymentMethods.join(' or ')}`);
  }
}

/** A card as its column keeps it. */
const cardColumn = (card: CardSummary | null): string | null => (card ? JSON.stringify(card) : null);

async function store(db: Kysely<DB>, clock: Clock, accountId: string, mode: Mode, paymentMethod: string, card: CardSummary | null): Promise<void> {
  const at = clock.now().toISOString();
  const value = { payment_method: paymentMethod, card: cardColumn(card), created_at: at };
  await db
    .insertInto('payment_methods')
    .values({ account_id: accountId, mode, ...value })
    .onConflict((oc) => oc.columns(['account_id', 'mode']).doUpdateSet(value))
    .execute();
  if (mode === 'live') await retryOwedCharges(db, accountId, at);
}

/** Test mode's method: one of the two test methods, which never reach a payment processor. */
export async function setPaymentMethod(db: Kysely<DB>, clock: Clock, accountId: string, mode: 'test', paymentMethod: string): Promise<void> {
  checkTestPaymentMethod(paymentMethod);
  await store(db, clock, accountId, mode, paymentMethod, null);
}

/**
 * Saves a live card that Stripe holds (a pm_… id), attached to the account's Stripe Customer and made its default.
 * Stripe's answer is what is stored: a card Stripe does not know, or another customer's, is refused.
 */
export async function saveLiveCard(deps: BillingDeps, accountId: string, paymentMethod: string): Promise<SavedCard> {
  if (!/^pm_[A-Za-z0-9_]{4,200}$/.test(paymentMethod) || paymentMethod.startsWith('pm_test_')) {
    throw new AccountError('a live payment method is a Stripe PaymentMethod id (pm_…), not a test one');
  }
  const stripe = await stripeFor(deps.config);
  if (!stripe) throw new AccountError('live payment methods are cards held by Stripe, and this server has no STRIPE_SECRET_KEY set');
  try {
    const customer = await billingCustomer(deps, stripe, accountId);
    const saved = await stripe.attachCard(customer, paymentMethod);
    await store(deps.db, deps.clock, accountId, 'live', saved.paymentMethod, saved.card);
    return saved;
  } catch (err) {
    if (err instanceof PaymentsRefused || err instanceof PaymentsUnavailable) throw new AccountError(err.message);
    throw err;
  }
}

/** Stores a card Stripe reports saved for the account (a finished set-up, or an update Stripe sent). */
export async function storeLiveCard(deps: Pick<BillingDeps, 'db' | 'clock'>, accountId: string, saved: SavedCard): Promise<void> {
  await store(deps.db, deps.clock, accountId, 'live', saved.paymentMethod, saved.card);
}

/** Shows a saved live card as Stripe now describes it (a new expiry, say); false when no account has it. */
export async function updateLiveCard(db: Kysely<DB>, clock: Clock, saved: SavedCard): Promise<boolean> {
  const changed = await db.updateTable('payment_methods').set({ card: cardColumn(saved.card) }).where('mode', '=', 'live').where('payment_method', '=', saved.paymentMethod).executeTakeFirst();
  // A card brought up to date (a new expiry, say) may now pay what it declined.
  const holders = await db.selectFrom('payment_methods').select('account_id').where('mode', '=', 'live').where('payment_method', '=', saved.paymentMethod).execute();
  for (const { account_id } of holders) await retryOwedCharges(db, account_id, clock.now().toISOString());
  return Number(changed.numUpdatedRows) > 0;
}

/** Forgets a live card Stripe no longer lets be charged; false when no account had it. */
export async function forgetLiveCard(db: Kysely<DB>, paymentMethod: string): Promise<boolean> {
  const removed = await db.deleteFrom('payment_methods').where('mode', '=', 'live').where('payment_method', '=', paymentMethod).executeTakeFirst();
  return Number(removed.numDeletedRows) > 0;
}

/** For the CLI and the dashboard: a test method, or a live card through Stripe. */
export async function savePaymentMethod(deps: BillingDeps, accountId: string, mode: Mode, paymentMethod: string): Promise<string> {
  if (mode === 'test') {
    await setPaymentMethod(deps.db, deps.clock, accountId, mode, paymentMethod);
    return paymentMethod;
  }
  return (await saveLiveCard(deps, accountId, paymentMethod)).paymentMethod;
}

/** Forgets the account's method; a live card is detached from its Stripe Customer too, so it can no longer be charged. */
export async function clearPaymentMethod(deps: BillingDeps, accountId: string, mode: Mode): Promise<boolean> {
  const current = await getPaymentMethod(deps.db, accountId, mode);
  if (!current) return false;
  if (mode === 'live') {
    const stripe = await stripeFor(deps.config);
    if (stripe) {
      try {
        await stripe.detachCard(current.payment_method);
      } catch (err) {
        // A card Stripe already let go of (detached there, or deleted) is what clearing wants.
        if (!(err instanceof PaymentsRefused)) throw new AccountError(err instanceof Error ? err.message : String(err));
      }
    }
  }
  const result = await deps.db.deleteFrom('payment_methods').where('account_id', '=', accountId).where('mode', '=', mode).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

export async function getPaymentMethod(db: Kysely<DB>, accountId: string, mode: Mode): Promise<PaymentMethodView | null> {
  const row = await db
    .selectFrom('payment_methods')
    .select(['payment_method', 'card'])
    .where('account_id', '=', accountId)
    .where('mode', '=', mode)
    .executeTakeFirst();
  return row ? { payment_method: row.payment_method, card: row.card ? JSON.parse(row.card) : null } : null;
}

export type Payment = 'platform' | 'carrier_account' | 'none';

/**
 * The payment method that platform postage will be charged to, checked before any carrier is called. Only the
 * account's stored method counts: nothing a client sends can stand in for it. Live postage needs Stripe: without
 * it, it is refused rather than bought for free.
 */
export async function requirePaymentMethod(deps: BillingDeps, accountId: string, mode: Mode): Promise<string> {
  if (mode === 'live' && !deps.config.stripe) {
    throw new ApiError('billing_not_configured', 'Live platform postage is charged to a card through Stripe, and this server has no STRIPE_SECRET_KEY; nothing was bought. Connect the account\'s own carrier account to buy on its bill instead');
  }
  const method = await getPaymentMethod(deps.db, accountId, mode);
  if (!method) {
    const how = mode === 'test' ? `shipd billing set --account ${accountId} --mode test --payment-method pm_test_visa` : "the dashboard's Billing page (live), which saves a card through Stripe";
    throw new ApiError('payment_method_required', `The account has no ${mode} payment method for postage; add one with ${how}`);
  }
  if (method.payment_method === 'pm_test_declined') throw new ApiError('payment_declined', `The ${mode} payment method ${method.payment_method} was declined; nothing was bought`);
  return method.payment_method;
}
