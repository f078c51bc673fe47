import type { FastifyInstance } from 'fastify';
import type { Services } from '../services.ts';
import { handleStripeEvent } from '../domain/billing/stripe-events.ts';

/** Where Stripe posts card events (set in Stripe's dashboard as `<SHIPD_PUBLIC_URL>/stripe/webhooks`). */
export const stripeWebhooksPath = '/stripe/webhooks';

/**
 * Stripe's events, read as the exact bytes Stripe signed: the signature covers the body as sent, so this route
 * keeps its own parser instead of the API's JSON one.
 */
export async function registerStripeWebhooks(app: FastifyInstance, services: Services): Promise<void> {
  await app.register(async (scope) => {
    scope.removeContentTypeParser('application/json');
    scope.addContentTypeParser('application/json', { parseAs: 'buffer', bodyLimit: 1_048_576 }, (_request, body, done) => done(null, body));
    // Stripe's to call, not a client's: not in the API's document.
    scope.post(stripeWebhooksPath, { schema: { hide: true } }, async (request, reply) => {
      const deps = { db: services.database.db, clock: services.clock, config: services.config };
      const outcome = await handleStripeEvent(deps, request.body as Buffer, request.headers['stripe-signature'] as string | undefined);
      request.log.info({ stripe_event: outcome.id, type: outcome.type, effect: outcome.effect }, 'stripe event');
      return reply.send({ received: true });
    });
  });
}
