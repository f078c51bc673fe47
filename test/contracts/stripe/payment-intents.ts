import { Type } from '@sinclair/typebox';
import { boolean, call, currency, expand, id, integer, metadata, oneOf, params, range, text } from './common.ts';

// PaymentIntents, from the spec's PostPaymentIntents, PostPaymentIntentsIntentCapture,
// PostPaymentIntentsIntentCancel, GetPaymentIntentsIntent and GetPaymentIntents operations (common.ts names the commit).

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

/** GetPaymentIntents: `limit` from 1 to 100 (the spec's description), `created` a time or a range. */
export const listPaymentIntents = call(
  /^\/v1\/payment_intents$/,
  params({
    customer: Type.Optional(text(5000)),
    created: Type.Optional(Type.Union([integer, range])),
    limit: Type.Optional(integer),
    starting_after: Type.Optional(text(5000)),
    ending_before: Type.Optional(text(5000)),
    expand: Type.Optional(expand),
  }),
  'GET',
);
