import type { components } from './schema.ts';

export type Problem = components['schemas']['Problem'];
/** One of shipd's stable problem codes: the closed table every error answer takes its `code` from. */
export type ProblemCode = Problem['code'];
/** A field at fault: where it was sent and a JSON pointer to it, as `validation_failed` and its kin list them. */
export type FieldError = NonNullable<Problem['errors']>[number];

function isProblem(body: unknown): body is Problem {
  if (typeof body !== 'object' || body === null) return false;
  const p = body as Record<string, unknown>;
  return typeof p.code === 'string' && typeof p.status === 'number' && typeof p.title === 'string';
}

/**
 * An answer other than 2xx. shipd answers every error with an RFC 9457 problem document, whose fields this carries;
 * an answer that is not one (a proxy's error page, say) has `code` null and its status and text instead.
 */
export class ShipdError extends Error {
  override readonly name = 'ShipdError';
  readonly status: number;
  readonly code: ProblemCode | null;
  readonly title: string;
  readonly detail: string;
  /** The fields at fault, with JSON pointers; empty when the problem names none. */
  readonly errors: FieldError[];
  /** The X-Request-Id of the answer: quote it when asking for help. */
  readonly requestId: string | null;
  /** The problem document as answered, when the answer was one. */
  readonly problem: Problem | null;
  readonly response: Response;

  constructor(response: Response, body: unknown) {
    const problem = isProblem(body) ? body : null;
    const title = problem?.title ?? (response.statusText || `HTTP ${response.status}`);
    const detail = problem?.detail ?? (typeof body === 'string' ? body.slice(0, 500) : '');
    super(problem ? `${problem.code}: ${detail}` : `${response.status} ${title}`);
    this.status = response.status;
    this.code = problem?.code ?? null;
    this.title = title;
    this.detail = detail;
    this.errors = problem?.errors ?? [];
    this.requestId = problem?.request_id ?? response.headers.get('x-request-id');
    this.problem = problem;
    this.response = response;
  }
}

/** The success branch of an openapi-fetch result. */
export type Data<R> = R extends { data: infer D; error?: never } ? D : never;

/**
 * The data of a call's result, or a ShipdError thrown for its error answer:
 * `const order = unwrap(await shipd.GET('/orders/{id}', { params: { path: { id } } }))`.
 */
export function unwrap<R extends { data?: unknown; error?: unknown; response: Response }>(result: R): Data<R> {
  if (!result.response.ok) throw new ShipdError(result.response, result.error);
  return result.data as Data<R>;
}
