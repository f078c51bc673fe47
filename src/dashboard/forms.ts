import type { FastifyRequest } from 'fastify';
import { ApiError } from '../kernel/errors.ts';
import { AccountError } from '../domain/accounts/accounts.ts';

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

/** Thrown by a form handler: each message is shown beside the field it names. */
export class FormError extends Error {
  readonly errors: Readonly<Record<string, string>>;

  constructor(field: string, message: string);
  constructor(errors: Record<string, string>);
  constructor(fieldOrErrors: string | Record<string, string>, message?: string) {
    const errors = typeof fieldOrErrors === 'string' ? { [fieldOrErrors]: message! } : fieldOrErrors;
    super(Object.values(errors).join('; '));
    this.errors = errors;
  }
}

/**
 * The checks of one form post, gathered so that a person sees every field that is wrong at once, not one per
 * submit: each field keeps its first error, and done() throws them all together.
 */
export class FormCheck {
  private readonly errors: Record<string, string> = {};

  fail(field: string, message: string): void {
    this.errors[field] ??= message;
  }

  done(): void {
    if (Object.keys(this.errors).length > 0) throw new FormError({ ...this.errors });
  }
}

/**
 * The errors a failed action shows, by form field: a domain refusal's field errors (JSON Pointers such as
 * /url or /address/zip become url and address.zip), a FormError at its field, anything else at `fallback`.
 */
export function formErrors(err: unknown, fallback: string): Record<string, string> {
  if (err instanceof FormError) return { ...err.errors };
  if (err instanceof ApiError) {
    const out: Record<string, string> = {};
    for (const e of err.errors ?? []) out[e.pointer.slice(1).replace(/\//g, '.') || fallback] ??= e.detail;
    if (Object.keys(out).length === 0) out[fallback] = err.message;
    return out;
  }
  if (err instanceof AccountError) return { [fallback]: err.message.charAt(0).toUpperCase() + err.message.slice(1) };
  throw err;
}
