import { Type } from '@sinclair/typebox';
import { call, expand, id, integer, metadata, oneOf, params, range, text } from './common.ts';

// Refunds, from the spec's PostRefunds and GetRefunds operations (common.ts names the commit). The spec leaves every
// parameter of a new refund optional (a refund names a charge or a payment_intent); shipd refunds by PaymentIntent,
// so that one is required, and lists a PaymentIntent's refunds only.

/** The spec's `reason` enum for creating a refund. */
export const refundReasons = ['duplicate', 'fraudulent', 'requested_by_customer'] as const;

export const createRefund = call(
  /^\/v1\/refunds$/,
  params({
    payment_intent: id,
    amount: Type.Optional(integer),
    reason: Type.Optional(oneOf(refundReasons)),
    metadata: Type.Optional(metadata),
    expand: Type.Optional(expand),
  }),
  'POST',
);

/**
 * GetRefunds, with the parameters the `stripe` package's RefundListParams gives (common.ts): a charge's or a
 * PaymentIntent's refunds, ids of the spec's `maxLength: 5000`, `limit` from 1 to 100, `created` a time or a range.
 */
export const listRefunds = call(
  /^\/v1\/refunds$/,
  params({
    payment_intent: id,
    charge: Type.Optional(id),
    created: Type.Optional(Type.Union([integer, range])),
    limit: Type.Optional(integer),
    starting_after: Type.Optional(text(5000)),
    ending_before: Type.Optional(text(5000)),
    expand: Type.Optional(expand),
  }),
  'GET',
);
