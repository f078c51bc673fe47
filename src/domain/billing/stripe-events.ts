import type { Stripe } from 'stripe';
import { ApiError } from '../../kernel/errors.ts';
import { StripeGateway } from '../../payments/stripe.ts';
import { forgetLiveCard, storeLiveCard, updateLiveCard, type BillingDeps } from './payment-methods.ts';
import { accountOfCustomer, stripeFor } from './stripe-customer.ts';

/** What an event Stripe posted did to this server's billing, for the log. */
export interface StripeEventOutcome {
  type: string;
  id: string;
  effect: string;
}

/**
 * One event Stripe posted to /stripe/webhooks, verified with the endpoint's signing secret before anything is read
 * from it. Events are about cards: a finished set-up saves the card, an updated card (a new expiry, say) is shown
 * as it now is, and a card detached in Stripe is no longer charged. Each may come more than once, in any order.
 */
export async function handleStripeEvent(deps: BillingDeps, payload: Buffer, signature: string | undefined): Promise<StripeEventOutcome> {
  const stripe = await stripeFor(deps.config);
  if (!stripe || !deps.config.stripe?.webhookSecret) throw new ApiError('not_found', 'Stripe webhooks are not set up on this server (STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET)');
  let event: Stripe.Event;
  try {
    event = stripe.verifyEvent(payload, signature ?? '');
  } catch (err) {
    throw new ApiError('invalid_stripe_signature', `The Stripe-Signature header does not verify with STRIPE_WEBHOOK_SECRET: ${err instanceof Error ? err.message : String(err)}`);
  }
  const outcome = (effect: string): StripeEventOutcome => ({ type: event.type, id: event.id, effect });
  switch (event.type) {
    case 'checkout.session.completed': {
      if (event.data.object.mode !== 'setup') return outcome('ignored: not a card set-up');
      // The event carries the session as it was; what it saved is read back from Stripe, not taken from the post.
      const done = await stripe.finishedCardSetup(event.data.object.id);
      if (!done?.customer) return outcome('ignored: the set-up saved no card');
      const account = await accountOfCustomer(deps.db, done.customer);
      if (!account) return outcome("ignored: not one of this server's customers");
      await storeLiveCard(deps, account, done.card);
      return outcome(`saved card ${done.card.paymentMethod} for ${account}`);
    }
    case 'payment_method.updated':
    case 'payment_method.automatically_updated': {
      const card = StripeGateway.cardFrom(event.data.object);
      return outcome((await updateLiveCard(deps.db, deps.clock, card)) ? `updated card ${card.paymentMethod}` : 'ignored: not a saved card');
    }
    case 'payment_method.detached': {
      const forgotten = await forgetLiveCard(deps.db, event.data.object.id);
      return outcome(forgotten ? `forgot card ${event.data.object.id}: live platform postage now needs a new card` : 'ignored: not a saved card');
    }
    default:
      return outcome('ignored');
  }
}
