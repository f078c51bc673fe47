import { Type } from '@sinclair/typebox';
import { call, expand, id, metadata, params, text } from './common.ts';

// Customers, from the spec's PostCustomers, PostCustomersCustomer and GetCustomersCustomer operations (common.ts
// names the commit). Lengths are the spec's: name 256, email 512, description 5000.

export const createCustomer = call(
  /^\/v1\/customers$/,
  params({
    name: Type.Optional(text(256)),
    email: Type.Optional(text(512)),
    description: Type.Optional(text(5000)),
    metadata: Type.Optional(metadata),
    expand: Type.Optional(expand),
  }),
  'POST',
);

export const updateCustomer = call(
  /^\/v1\/customers\/[^/]+$/,
  params({
    name: Type.Optional(text(256)),
    email: Type.Optional(text(512)),
    description: Type.Optional(text(5000)),
    invoice_settings: Type.Optional(params({ default_payment_method: Type.Optional(id) })),
    metadata: Type.Optional(metadata),
    expand: Type.Optional(expand),
  }),
  'POST',
);

export const retrieveCustomer = call(/^\/v1\/customers\/[^/]+$/, params({ expand: Type.Optional(expand) }), 'GET');
