import { Type } from '@sinclair/typebox';
import { call, expand, id, integer, metadata, oneOf, params } from './common.ts';

// Refunds, from the spec's PostRefunds operation (common.ts names the commit). The spec leaves every parameter
// optional (a refund names a charge or a payment_intent); shipd refunds by PaymentIntent, so that one is required.

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
