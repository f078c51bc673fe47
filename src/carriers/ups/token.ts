import { failure, ok, type CarrierResult } from '../carrier.ts';
import { asNumber, asString, at } from '../live/lenient.ts';
import type { IssuedToken } from '../live/oauth.ts';
import type { LiveCredentials } from '../live/options.ts';
import { upsFailure } from './errors.ts';

/**
 * The client-credentials token request (carriers.md 2.1): the id and secret go in HTTP Basic, never the body;
 * the form holds only grant_type. The account number, when known, goes in x-merchant-id.
 */
export function buildTokenRequest(c: LiveCredentials): { path: string; headers: Record<string, string>; form: Record<string, string> } {
  const basic = Buffer.from(`${c.clientId}:${c.clientSecret}`).toString('base64');
  return {
    path: '/security/v1/oauth/token',
    headers: { authorization: `Basic ${basic}`, ...(c.accountNumber ? { 'x-merchant-id': c.accountNumber } : {}) },
    form: { grant_type: 'client_credentials' },
  };
}

/** UPS sends every field as a string, `expires_in` included ("14399"). */
export function parseTokenResponse(status: number, json: unknown): CarrierResult<IssuedToken> {
  if (status !== 200) return { ok: false, error: upsFailure(status === 400 ? 401 : status, json, 'issue a token') };
  const accessToken = asString(at(json, 'access_token'));
  const expiresIn = asNumber(at(json, 'expires_in'));
  if (!accessToken) return failure('carrier_error', 'UPS token answer has no access_token');
  if (expiresIn === undefined || expiresIn <= 0) return failure('carrier_error', `UPS token answer has no usable expires_in (${JSON.stringify(at(json, 'expires_in'))})`);
  return ok({ accessToken, expiresIn });
}
