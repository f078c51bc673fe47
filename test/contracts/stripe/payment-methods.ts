import { Type } from '@sinclair/typebox';
import { call, expand, id, params } from './common.ts';

// PaymentMethods, from the spec's PostPaymentMethodsPaymentMethodAttach, PostPaymentMethodsPaymentMethodDetach and
// GetPaymentMethodsPaymentMethod operations (common.ts names the commit). The spec makes `customer` optional since
// `customer_account` (Accounts v2) may stand in for it; shipd attaches to v1 customers, so it is required here.

export const attachPaymentMethod = call(/^\/v1\/payment_methods\/[^/]+\/attach$/, params({ customer: id, expand: Type.Optional(expand) }), 'POST');

export const detachPaymentMethod = call(/^\/v1\/payment_methods\/[^/]+\/detach$/, params({ expand: Type.Optional(expand) }), 'POST');

export const retrievePaymentMethod = call(/^\/v1\/payment_methods\/[^/]+$/, params({ expand: Type.Optional(expand) }), 'GET');
