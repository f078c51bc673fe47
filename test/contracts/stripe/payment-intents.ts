import { Type } from '@sinclair/typebox';
import { boolean, call, currency, expand, id, integer, metadata, oneOf, params, text } from './common.ts';

// PaymentIntents, from the spec's PostPaymentIntents, PostPaymentIntentsIntentCapture,
// PostPaymentIntentsIntentCancel and GetPaymentIntentsIntent operations (common.ts names the commit).

/** The spec's `capture_method` enum. */
export const captureMethods = ['automatic', 'automatic_async', 'manual'] as const;

/** The spec's `cancellation_reason` enum for cancel requests. */
export const cancellationReasons = ['abandoned', 'duplicate', 'fraudulent', 'requested_by_customer'] as const;

export const createPaymentIntent = call(
  /^\/v1\/payment_intents$/,
  params({
    amount: integer,
    currency,
    customer: Type.Optional(id),
    payment_method: Type.Optional(id),
    // The spec: a boolean, or `one_off` / `recurring`.
    off_session: Type.Optional(Type.Union([boolean, oneOf(['one_off', 'recurring'])])),
    confirm: Type.Optional(boolean),
    capture_method: Type.Optional(oneOf(captureMethods)),
    description: Type.Optional(text(1000)),
    metadata: Type.Optional(metadata),
    expand: Type.Optional(expand),
  }),
  'POST',
);

export const capturePaymentIntent = call(
  /^\/v1\/payment_intents\/[^/]+\/capture$/,
  params({ amount_to_capture: Type.Optional(integer), metadata: Type.Optional(metadata), expand: Type.Optional(expand) }),
  'POST',
);

export const cancelPaymentIntent = call(
  /^\/v1\/payment_intents\/[^/]+\/cancel$/,
  params({ cancellation_reason: Type.Optional(oneOf(cancellationReasons)), expand: Type.Optional(expand) }),
  'POST',
);

export const retrievePaymentIntent = call(/^\/v1\/payment_intents\/[^/]+$/, params({ expand: Type.Optional(expand) }), 'GET');
