import { Type } from '@sinclair/typebox';
import { container } from './common.ts';

// UPS OAuth client credentials, our schema of the token request shipd builds, from OAuthClientCredentials.yaml in
// UPS-API/api-documentation at commit 66148b9223b2daf9ec87f449aa482c39b4bd3a4e (2026-07-21): POST
// /security/v1/oauth/token with BasicAuth security, an optional `x-merchant-id` header ("6-digit UPS account
// number") and an application/x-www-form-urlencoded body whose only property, grant_type, is required.

export const tokenCall = Type.Object({
  path: Type.Literal('/security/v1/oauth/token'),
  headers: Type.Object(
    {
      authorization: Type.String({ pattern: '^Basic [A-Za-z0-9+/]+={0,2}$' }),
      'x-merchant-id': Type.Optional(Type.String({ pattern: '^[A-Za-z0-9]{6}$' })),
    },
  ),
  form: container({ grant_type: Type.Literal('client_credentials') }),
});
