import type { TSchema } from '@sinclair/typebox';
import { contractFaults } from '../contracts/check.ts';

// Stripe's form encoding and the invalid_request_error answers for a form that breaks a contract, in Stripe's words
// (docs.stripe.com/error-codes: parameter_unknown, parameter_missing, parameter_invalid_empty,
// parameter_invalid_integer).

export type Form = { [key: string]: string | Form | Form[] | string[] };

export interface StripeError {
  type: 'api_error' | 'card_error' | 'idempotency_error' | 'invalid_request_error';
  message: string;
  code?: string;
  param?: string;
  decline_code?: string;
  [more: string]: unknown;
}

/** Parses `a[b][c]=1&list[0]=x&list[]=y` into nested objects, and index or empty brackets into arrays. */
export function parseForm(encoded: string): Form {
  const root: Form = {};
  for (const [name, value] of new URLSearchParams(encoded)) {
    const match = /^([^[\]]+)((?:\[[^[\]]*\])*)$/.exec(name);
    const keys = match ? [match[1]!, ...[...match[2]!.matchAll(/\[([^[\]]*)\]/g)].map((m) => m[1]!)] : [name];
    let node: Record<string, unknown> | unknown[] = root;
    keys.forEach((key, i) => {
      const last = i === keys.length - 1;
      const child: unknown = last ? value : /^\d*$/.test(keys[i + 1]!) ? [] : {};
      if (Array.isArray(node)) {
        const at = key === '' ? node.length : Number(key);
        node[at] ??= child;
        node = node[at] as typeof node;
      } else {
        node[key] ??= child;
        node = node[key] as typeof node;
      }
    });
  }
  return root;
}

/** A JSON pointer into the form, written as Stripe names parameters: `invoice_settings[default_payment_method]`. */
export function paramName(pointer: string): string {
  const [first, ...rest] = pointer.split('/').filter((p) => p !== '');
  return (first ?? '') + rest.map((p) => `[${p}]`).join('');
}

const at = (value: unknown, pointer: string): unknown =>
  pointer
    .split('/')
    .filter((p) => p !== '')
    .reduce<unknown>((v, k) => (v !== null && typeof v === 'object' ? (v as Record<string, unknown>)[k] : undefined), value);

/** The literals a union of literals allows, for Stripe's "must be one of" message. */
function allowed(schema: TSchema, pointer: string): string[] {
  const node = pointer
    .split('/')
    .filter((p) => p !== '')
    .reduce<TSchema | undefined>((s, k) => (s?.properties as Record<string, TSchema> | undefined)?.[k] ?? (s?.items as TSchema | undefined), schema);
  const branches = (node?.anyOf as TSchema[] | undefined) ?? [];
  return branches.flatMap((b) => (typeof b.const === 'string' ? [b.const] : ((b.anyOf as TSchema[] | undefined) ?? []).map((x) => String(x.const))));
}

const list = (values: string[]): string => (values.length < 2 ? values.join('') : `${values.slice(0, -1).join(', ')}, or ${values.at(-1)}`);

/**
 * The error Stripe gives for the first fault of a request that breaks its contract (test/contracts/stripe/), or
 * undefined when it keeps it. Unknown parameters are named before missing ones, as Stripe checks them first.
 */
export function contractError(contract: TSchema, request: { method: string; path: string; headers: Record<string, string>; form: Form }): StripeError | undefined {
  const faults = contractFaults(contract, request);
  if (faults.length === 0) return undefined;
  const header = faults.find((f) => f.instancePath.startsWith('/headers'));
  if (header?.instancePath === '/headers/stripe-version') {
    return { type: 'invalid_request_error', message: `Invalid Stripe API version: ${request.headers['stripe-version'] ?? ''}. The fake speaks ${String(contract.properties.headers.properties['stripe-version'].const)} alone.` };
  }
  if (header) return { type: 'invalid_request_error', message: `Invalid header ${header.instancePath.slice('/headers/'.length)}: ${header.message ?? header.keyword}` };
  const formFaults = faults.filter((f) => f.instancePath.startsWith('/form')).map((f) => ({ ...f, instancePath: f.instancePath.slice('/form'.length) }));
  const schema = contract.properties.form as TSchema;
  const form = request.form;
  const unknown = formFaults.find((f) => f.keyword === 'additionalProperties');
  if (unknown) {
    const param = paramName(`${unknown.instancePath}/${(unknown.params as { additionalProperty: string }).additionalProperty}`);
    return { type: 'invalid_request_error', code: 'parameter_unknown', param, message: `Received unknown parameter: ${param}` };
  }
  const missing = formFaults.find((f) => f.keyword === 'required');
  if (missing) {
    const param = paramName(`${missing.instancePath}/${(missing.params as { missingProperty: string }).missingProperty}`);
    return { type: 'invalid_request_error', code: 'parameter_missing', param, message: `Missing required param: ${param}.` };
  }
  const fault = formFaults[0];
  if (!fault) return { type: 'invalid_request_error', message: `Unrecognized request URL (${request.method}: ${request.path}).` };
  const param = paramName(fault.instancePath);
  const value = at(form, fault.instancePath);
  if (value === '') {
    return {
      type: 'invalid_request_error',
      code: 'parameter_invalid_empty',
      param,
      message: `You passed an empty string for '${param}'. We assume empty values are an attempt to unset a parameter; however '${param}' cannot be unset. You should remove '${param}' from your request or supply a non-empty value.`,
    };
  }
  if (fault.keyword === 'pattern' && (fault.params as { pattern: string }).pattern.includes('[0-9]')) {
    return { type: 'invalid_request_error', code: 'parameter_invalid_integer', param, message: `Invalid integer: ${String(value)}` };
  }
  if (fault.keyword === 'maxLength') {
    return { type: 'invalid_request_error', param, message: `Invalid string: ${String(value).slice(0, 20)}...; must be at most ${(fault.params as { limit: number }).limit} characters` };
  }
  const choices = allowed(schema, fault.instancePath);
  if (choices.length > 0) return { type: 'invalid_request_error', param, message: `Invalid ${param}: must be one of ${list(choices)}` };
  return { type: 'invalid_request_error', param, message: `Invalid ${param}: ${fault.message ?? fault.keyword}` };
}
