import { Type } from '@sinclair/typebox';

// USPS OAuth 2.0 v3 `POST /oauth2/v3/token`, client credentials grant. Source: oauth2_3_update.yaml version 3.0.6
// (Thecodergabe/shipstack specs/usps/, commit 5b975df4144e304644c217bf413138879b77dd7b), components TokenRequest +
// ClientCredentials: grant_type (enum) and scope, client_id and client_secret, no other field (additionalProperties
// false), form-urlencoded or JSON.
export const ClientCredentialsRequest = Type.Object(
  {
    grant_type: Type.Literal('client_credentials'),
    client_id: Type.String({ minLength: 1 }),
    client_secret: Type.String({ minLength: 1 }),
    scope: Type.Optional(Type.String()),
  },
  { additionalProperties: false },
);
