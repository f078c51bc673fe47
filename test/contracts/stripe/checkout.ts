import { Type } from '@sinclair/typebox';
import { call, currency, expand, id, metadata, oneOf, params, text } from './common.ts';

// Checkout Sessions in setup mode and the SetupIntents they make, from the spec's PostCheckoutSessions,
// GetCheckoutSessionsSession and GetSetupIntentsIntent operations (common.ts names the commit).
// Endive change (stripe 23.0.0 CHANGELOG): `payment_method_types` is gone from session creation and
// `allowed_payment_method_types` takes its place, so only the latter is accepted.

/** The spec's `mode` enum. */
export const checkoutModes = ['payment', 'setup', 'subscription'] as const;

export const createCheckoutSession = call(
  /^\/v1\/checkout\/sessions$/,
  params({
    mode: oneOf(checkoutModes),
    customer: Type.Optional(id),
    currency: Type.Optional(currency),
    // May hold the literal {CHECKOUT_SESSION_ID}, which Stripe fills in on the redirect.
    success_url: Type.Optional(text(5000)),
    cancel_url: Type.Optional(text(5000)),
    allowed_payment_method_types: Type.Optional(Type.Array(oneOf(['card']), { minItems: 1 })),
    client_reference_id: Type.Optional(text(200)),
    metadata: Type.Optional(metadata),
    expand: Type.Optional(expand),
  }),
  'POST',
);

export const retrieveCheckoutSession = call(/^\/v1\/checkout\/sessions\/[^/]+$/, params({ expand: Type.Optional(expand) }), 'GET');

export const retrieveSetupIntent = call(/^\/v1\/setup_intents\/[^/]+$/, params({ expand: Type.Optional(expand) }), 'GET');
