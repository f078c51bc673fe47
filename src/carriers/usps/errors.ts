import type { CarrierErrorCode, CarrierFailure } from '../carrier.ts';
import { asArray, asString, at } from '../live/lenient.ts';

export interface UspsProblem {
  message: string | undefined;
  /** Each entry's `detail` (or `title`), with the parameter it names. */
  errors: { detail: string; parameter: string | undefined }[];
}

/**
 * Reads both USPS error shapes (carriers.md 3.7): the API envelope, where `error` is an object, and the RFC 6749
 * OAuth shape, where `error` is a string with `error_description` beside it.
 */
export function readProblem(json: unknown): UspsProblem | undefined {
  const error = at(json, 'error');
  if (typeof error === 'string') return { message: [error, asString(at(json, 'error_description'))].filter(Boolean).join(': '), errors: [] };
  if (!error || typeof error !== 'object') return undefined;
  const errors = asArray(at(error, 'errors')).flatMap((e) => {
    const detail = asString(at(e, 'detail')) ?? asString(at(e, 'title'));
    return detail ? [{ detail, parameter: asString(at(e, 'source', 'parameter')) }] : [];
  });
  return { message: asString(at(error, 'message')), errors };
}

/** Which of our codes a rejected request gets, by what the carrier's detail or parameter names; first match wins. */
const requestProblems: { pattern: RegExp; code: CarrierErrorCode }[] = [
  { pattern: /mail ?class|rate ?indicator|service/i, code: 'service_unavailable' },
  { pattern: /weight|dimension|length|width|height|girth|oversize|exceeds/i, code: 'parcel_too_large' },
  // Words, not parts of words: a pickup's "confirmation" or a "statement" is not about the address.
  { pattern: /address|ZIP|city|\bstate(?!ment)|street|\bfirm|delivery point/i, code: 'address_invalid' },
];

export function describeProblem(problem: UspsProblem | undefined): string {
  if (!problem) return 'no error details';
  const details = problem.errors.map((e) => (e.parameter ? `${e.parameter}: ${e.detail}` : e.detail));
  return [problem.message, ...details].filter(Boolean).join('; ') || 'no error details';
}

/** The carrier's non-2xx answer as one of our failures. */
export function uspsFailure(status: number, json: unknown, what: string, retryAfter?: string): CarrierFailure {
  const problem = readProblem(json);
  const said = describeProblem(problem);
  if (status === 401 || status === 403) {
    return { code: 'carrier_unavailable', credentialsRefused: true, detail: `USPS refused the credentials for ${what} (HTTP ${status}: ${said})` };
  }
  if (status === 429) return { code: 'carrier_unavailable', detail: `USPS is rate limiting ${what}${retryAfter ? `; retry after ${retryAfter} s` : ''}` };
  if (status >= 500) return { code: 'carrier_unavailable', detail: `USPS failed on ${what} (HTTP ${status}: ${said})` };
  if (!problem) return { code: 'carrier_error', detail: `USPS answered ${what} with HTTP ${status} and no error envelope` };
  for (const e of problem.errors) {
    const hit = requestProblems.find((p) => p.pattern.test(`${e.parameter ?? ''} ${e.detail}`));
    if (hit) return { code: hit.code, detail: `USPS rejected ${what}: ${said}` };
  }
  return { code: 'carrier_error', detail: `USPS rejected ${what} (HTTP ${status}): ${said}` };
}
