import type { IssuedToken } from '../live/oauth.ts';
import { asNumber, asString, at } from '../live/lenient.ts';

export const tokenPath = '/oauth/token';

/** FedEx takes the client id and secret as form fields in the body, not HTTP Basic (carriers.md 4.1). */
export function buildTokenRequest(credentials: { clientId: string; clientSecret: string }): Record<string, string> {
  return { grant_type: 'client_credentials', client_id: credentials.clientId, client_secret: credentials.clientSecret };
}

/** {access_token, token_type, expires_in: 3599, scope}; undefined when the answer holds no usable token. */
export function parseToken(json: unknown): IssuedToken | undefined {
  const accessToken = asString(at(json, 'access_token'));
  // expires_in is a number for FedEx; a string is read too, and a missing one is taken as the documented hour.
  const expiresIn = asNumber(at(json, 'expires_in')) ?? 3599;
  return accessToken ? { accessToken, expiresIn } : undefined;
}
