import { failure, ok, type CarrierResult } from '../carrier.ts';
import type { IssuedToken } from '../live/oauth.ts';
import { asNumber, asString, at } from '../live/lenient.ts';
import { describeProblem, readProblem } from './errors.ts';

export const tokenPath = '/oauth2/v3/token';

/** USPS takes client_id and client_secret in the body, not HTTP Basic (carriers.md 3.1), with the scopes shipd uses. */
export function buildTokenRequest(credentials: { clientId: string; clientSecret: string }): Record<string, string> {
  return {
    grant_type: 'client_credentials',
    client_id: credentials.clientId,
    client_secret: credentials.clientSecret,
    // subscriptions-tracking: the scope the tracking subscriptions API names (Subscriptions - Tracking v3r2);
    // locations: the Locations API's ("read location resources", locations.yaml 3.5.6).
    scope: 'addresses prices labels tracking shipments payments subscriptions-tracking locations',
  };
}

/** The token answer; `expires_in` comes as an integer per the spec and as a string in USPS's own README example. */
export function parseToken(status: number, json: unknown): CarrierResult<IssuedToken> {
  if (status < 200 || status >= 300) {
    return failure('carrier_unavailable', `USPS issued no OAuth token (HTTP ${status}: ${describeProblem(readProblem(json))}); check USPS_CLIENT_ID and USPS_CLIENT_SECRET`);
  }
  const accessToken = asString(at(json, 'access_token'));
  if (!accessToken) return failure('carrier_error', 'USPS answered the token request without an access_token');
  // A missing lifetime is taken as the documented eight hours less a second, as USPS itself sends 28799.
  return ok({ accessToken, expiresIn: asNumber(at(json, 'expires_in')) ?? 28_799 });
}
