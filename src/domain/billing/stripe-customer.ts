import type { Kysely } from 'kysely';
import type { Config } from '../../config.ts';
import type { DB } from '../../db/schema.ts';
import type { Clock } from '../../kernel/clock.ts';
import { stripeGateway, type StripeGateway } from '../../payments/stripe.ts';

/** The process's Stripe client, or null when the operator has not set Stripe up. */
export async function stripeFor(config: Pick<Config, 'stripe'>): Promise<StripeGateway | null> {
  return config.stripe ? stripeGateway(config.stripe) : null;
}

/**
 * The account's Stripe Customer, made on first need. Two processes making it at once send Stripe the same
 * Idempotency-Key and get the same customer back, so the account never has two.
 */
export async function billingCustomer(deps: { db: Kysely<DB>; clock: Clock }, stripe: StripeGateway, accountId: string): Promise<string> {
  const known = await deps.db.selectFrom('billing_customers').select('customer_id').where('account_id', '=', accountId).executeTakeFirst();
  if (known) return known.customer_id;
  const account = await deps.db.selectFrom('accounts').select('name').where('id', '=', accountId).executeTakeFirstOrThrow();
  const customer = await stripe.createCustomer(accountId, account.name);
  await deps.db
    .insertInto('billing_customers')
    .values({ account_id: accountId, customer_id: customer, created_at: deps.clock.now().toISOString() })
    .onConflict((oc) => oc.column('account_id').doNothing())
    .execute();
  return customer;
}

/** The account whose Stripe Customer this is, if it is one of this server's. */
export async function accountOfCustomer(db: Kysely<DB>, customer: string): Promise<string | null> {
  const row = await db.selectFrom('billing_customers').select('account_id').where('customer_id', '=', customer).executeTakeFirst();
  return row?.account_id ?? null;
}
