import type { CarrierErrorCode, CarrierFailure } from '../carrier.ts';
import { asArray, asString, at } from '../live/lenient.ts';

/** Documented FedEx error codes (carriers.md 4.8) and the failure each one is for us. */
const byCode: Readonly<Record<string, CarrierErrorCode>> = {
  'NOT.AUTHORIZED.ERROR': 'carrier_unavailable',
  'FORBIDDEN.ERROR': 'carrier_unavailable',
  'ACCOUNTNUMBER.REGISTRATION.REQUIRED': 'carrier_unavailable',
  'ACCOUNT.NUMBER.MISMATCH': 'carrier_unavailable',
  'INTERNAL.SERVER.ERROR': 'carrier_unavailable',
  'SERVICE.UNAVAILABLE.ERROR': 'carrier_unavailable',
  'NOT.FOUND.ERROR': 'carrier_error',
};

/**
 * FedEx names its validation codes after the field at fault (e.g. RECIPIENT.POSTALCODE.INVALID,
 * SERVICETYPE.NOT.ALLOWED); those beyond the documented list are told apart by the field they name.
 */
const byPattern: readonly [RegExp, CarrierErrorCode][] = [
  [/POSTAL|ADDRESS|STATEORPROVINCE|\bCITY\b|COUNTRY|STREETLINE/, 'address_invalid'],
  [/SERVICETYPE|SERVICE\.TYPE|NOSERVICE|SERVICE\.NOT/, 'service_unavailable'],
  [/WEIGHT|DIMENSION|LENGTH|GIRTH/, 'parcel_too_large'],
];

export interface FedexError {
  code: string;
  message: string;
}

/** The errors[] of FedEx's envelope ({transactionId, errors:[{code, message, parameterList}]}), empty when none. */
export function fedexErrors(json: unknown): FedexError[] {
  return asArray(at(json, 'errors')).map((e) => ({ code: asString(at(e, 'code')) ?? '', message: asString(at(e, 'message')) ?? '' }));
}

function codeFor(status: number, code: string): CarrierErrorCode {
  const upper = code.toUpperCase();
  if (Object.hasOwn(byCode, upper)) return byCode[upper]!;
  if (status === 401 || status === 403 || status >= 500) return 'carrier_unavailable';
  return byPattern.find(([re]) => re.test(upper))?.[1] ?? 'carrier_error';
}

/** A FedEx error answer (any status, with or without the envelope) as our failure. */
export function fedexFailure(status: number, json: unknown): CarrierFailure {
  const first = fedexErrors(json)[0];
  const what = first ? `${first.code}${first.message ? `: ${first.message}` : ''}` : `HTTP ${status}`;
  const code = codeFor(status, first?.code ?? '');
  if (status === 401 || status === 403 || first?.code === 'NOT.AUTHORIZED.ERROR' || first?.code === 'FORBIDDEN.ERROR') {
    return { code, credentialsRefused: true, detail: `FedEx refused the API credentials (${what})` };
  }
  if (code === 'carrier_unavailable') return { code, detail: `FedEx is not answering normally (${what})` };
  return { code, detail: `FedEx: ${what}` };
}

/** Whether an answer is an error: a 4xx/5xx status, or errors[] in the body. */
export function isFedexError(status: number, json: unknown): boolean {
  return status >= 400 || fedexErrors(json).length > 0;
}
