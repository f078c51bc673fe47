import { randomUUID } from 'node:crypto';
import { AccountError } from '../accounts/accounts.ts';
import { PaymentsRefused, PaymentsUnavailable, type SavedCard } from '../../payments/stripe.ts';
import { storeLiveCard, type BillingDeps } from './payment-methods.ts';
import { billingCustomer, stripeFor } from './stripe-customer.ts';

/*
 * A live card is saved on Stripe's own page (a Checkout Session in setup mode): the card number goes from the
 * holder's browser to Stripe, the bank authenticates the card for later charges there, and shipd learns only the
 * PaymentMethod id and what Stripe shows of the card.
 */

async function stripeOrRefuse(deps: BillingDeps) {
  const stripe = await stripeFor(deps.config);
  if (!stripe) throw new AccountError('live billing is not set up on this server: the operator sets STRIPE_SECRET_KEY');
  return stripe;
}

const asAccountError = (err: unknown): unknown => (err instanceof PaymentsRefused || err instanceof PaymentsUnavailable ? new AccountError(err.message) : err);

/** The address of Stripe's page where the account's card is saved; `returnUrl` gets `session_id` when it is. */
export async function startCardSetup(deps: BillingDeps, accountId: string, returnUrl: string, cancelUrl: string): Promise<string> {
  const stripe = await stripeOrRefuse(deps);
  try {
    const customer = await billingCustomer(deps, stripe, accountId);
    // Stripe fills in the template with the session's id on its way back.
    const successUrl = `${returnUrl}${returnUrl.includes('?') ? '&' : '?'}session_id={CHECKOUT_SESSION_ID}`;
    return await stripe.startCardSetup(customer, accountId, successUrl, cancelUrl, randomUUID());
  } catch (err) {
    throw asAccountError(err);
  }
}

/** Saves the card a finished set-up holds, if the set-up was this account's. */
export async function finishCardSetup(deps: BillingDeps, accountId: string, sessionId: string): Promise<SavedCard> {
  if (!/^cs_[A-Za-z0-9_]{1,200}$/.test(sessionId)) throw new AccountError('that is not a Stripe card set-up');
  const stripe = await stripeOrRefuse(deps);
  let done;
  try {
    done = await stripe.finishedCardSetup(sessionId);
  } catch (err) {
    throw asAccountError(err);
  }
  if (!done) throw new AccountError('the card set-up on Stripe is not finished; start it again');
  const own = await deps.db.selectFrom('billing_customers').select('customer_id').where('account_id', '=', accountId).executeTakeFirst();
  if (!own || done.customer !== own.customer_id) throw new AccountError('that card set-up belongs to another account');
  await storeLiveCard(deps, accountId, done.card);
  return done.card;
}
