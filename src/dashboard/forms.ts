import type { FastifyRequest } from 'fastify';
import { ApiError } from '../domain/errors.ts';
import { AccountError } from '../domain/accounts.ts';

type Body = Record<string, unknown>;

const bodyOf = (request: FastifyRequest): Body => (request.body && typeof request.body === 'object' ? (request.body as Body) : {});

/** One text field of a form post, trimmed; '' when absent. */
export function field(request: FastifyRequest, name: string): string {
  const value = bodyOf(request)[name];
  const first = Array.isArray(value) ? value[0] : value;
  return typeof first === 'string' ? first.trim() : '';
}

/** Every value of a repeated field (checkboxes). */
export function fields(request: FastifyRequest, name: string): string[] {
  const value = bodyOf(request)[name];
  return (Array.isArray(value) ? value : [value]).filter((v): v is string => typeof v === 'string');
}

export const checked = (request: FastifyRequest, name: string) => field(request, name) !== '';

/** Thrown by a form handler: shown beside the field it names. */
export class FormError extends Error {
  constructor(
    readonly field: string,
    message: string,
  ) {
    super(message);
  }
}

/**
 * The errors a failed action shows, by form field: a domain refusal's field errors (JSON Pointers such as
 * /url or /address/zip become url and address.zip), a FormError at its field, anything else at `fallback`.
 */
export function formErrors(err: unknown, fallback: string): Record<string, string> {
  if (err instanceof FormError) return { [err.field]: err.message };
  if (err instanceof ApiError) {
    const out: Record<string, string> = {};
    for (const e of err.errors ?? []) out[e.pointer.slice(1).replace(/\//g, '.') || fallback] ??= e.detail;
    if (Object.keys(out).length === 0) out[fallback] = err.message;
    return out;
  }
  if (err instanceof AccountError) return { [fallback]: err.message.charAt(0).toUpperCase() + err.message.slice(1) };
  throw err;
}
