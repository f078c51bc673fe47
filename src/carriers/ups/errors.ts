import type { CarrierErrorCode, CarrierFailure } from '../carrier.ts';
import { asArray, asString, at } from '../live/lenient.ts';

export interface UpsError {
  code: string;
  message: string;
}

/**
 * The errors in a UPS answer: the current envelope `{"response":{"errors":[{code,message}]}}` (carriers.md 2.8),
 * or the legacy `Fault.detail.Errors.ErrorDetail` some gateways still send. Either list may be a single object.
 */
export function upsErrors(json: unknown): UpsError[] {
  const current = asArray(at(json, 'response', 'errors')).map((e) => ({
    code: asString(at(e, 'code')) ?? '',
    message: asString(at(e, 'message')) ?? '',
  }));
  const legacy = asArray(at(json, 'Fault', 'detail', 'Errors', 'ErrorDetail')).map((e) => ({
    code: asString(at(e, 'PrimaryErrorCode', 'Code')) ?? '',
    message: asString(at(e, 'PrimaryErrorCode', 'Description')) ?? '',
  }));
  return [...current, ...legacy].filter((e) => e.code !== '' || e.message !== '');
}

/**
 * UPS error codes we know the meaning of. Codes are checked first; UPS has hundreds, so the message patterns
 * below catch the rest by what they talk about.
 */
const byCode: Readonly<Record<string, CarrierErrorCode>> = {
  // Authentication: a bad client id/secret at the token endpoint, or a refused or expired token.
  '10401': 'carrier_unavailable',
  '250002': 'carrier_unavailable',
  '250003': 'carrier_unavailable',
  // Address: ship-to validation, invalid postal code for the state, missing city/state/postal code.
  '120802': 'address_invalid',
  '111285': 'address_invalid',
  '120202': 'address_invalid',
  '120206': 'address_invalid',
  // The service is not offered between these places or from this origin.
  '111210': 'service_unavailable',
  '111100': 'service_unavailable',
};

const byMessage: readonly (readonly [RegExp, CarrierErrorCode])[] = [
  [/already (been )?voided/i, 'already_voided'],
  [/picked up|in transit|scanned|cannot be voided|void period/i, 'label_in_transit'],
  // Size before service: UPS words weight limits as "…for the selected service…".
  [/weight|exceeds|length|girth|size/i, 'parcel_too_large'],
  [/service/i, 'service_unavailable'],
  [/address|postal|zip|state ?province|city/i, 'address_invalid'],
];

/** A UPS error answer as our failure; `what` names the operation, for the detail. */
export function upsFailure(status: number, json: unknown, what: string): CarrierFailure {
  const errors = upsErrors(json);
  const said = errors.map((e) => (e.code ? `${e.code} ${e.message}` : e.message)).join('; ');
  if (status === 401 || status === 403) {
    return { code: 'carrier_unavailable', credentialsRefused: true, detail: `UPS refused the credentials (${status}${said ? `: ${said}` : ''})` };
  }
  if (status === 429) return { code: 'carrier_unavailable', detail: `UPS is rate limiting shipd (429${said ? `: ${said}` : ''}); try again shortly` };
  if (status >= 500) return { code: 'carrier_unavailable', detail: `UPS failed to ${what} (HTTP ${status}${said ? `: ${said}` : ''})` };
  if (errors.length === 0) return { code: 'carrier_error', detail: `UPS answered ${what} with HTTP ${status} and no error it explains` };
  for (const e of errors) {
    const known = Object.hasOwn(byCode, e.code) ? byCode[e.code] : undefined;
    if (known === 'carrier_unavailable') return { code: known, credentialsRefused: true, detail: `UPS refused the credentials: ${said}` };
    if (known) return { code: known, detail: `UPS: ${said}` };
  }
  for (const e of errors) {
    const match = byMessage.find(([re]) => re.test(e.message));
    if (match) return { code: match[1], detail: `UPS: ${said}` };
  }
  return { code: 'carrier_error', detail: `UPS could not ${what}: ${said}` };
}
