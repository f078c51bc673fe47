import type { FastifyInstance, FastifyReply, FastifyRequest, onRequestHookHandler } from 'fastify';
import { Type } from '@sinclair/typebox';
import { ApiError, errorCodes, type ErrorCode } from '../kernel/errors.ts';
import type { Context } from '../domain/core/context.ts';
import type { Services } from '../services.ts';
import type { AnyOperation } from '../operations/operation.ts';
import type { IdempotencyClaim } from '../domain/core/idempotency.ts';
import type { IdempotencyKeysTable } from '../db/schema.ts';
import { isStoredRefusal, operationContext, replayedBody, runClaimed, type OperationInput, type StoredAnswer } from '../operations/run.ts';
import { apiBase } from '../kernel/paths.ts';
import { IdempotencyKey } from '../schemas/common.ts';
import { withCarrierTrace } from '../carriers/live/trace.ts';
import { validationError } from './problems.ts';
import { answerHeaders } from './response-headers.ts';

export { apiBase };

/** Every authenticated operation can answer these, whatever it does. */
const commonErrors: ErrorCode[] = [
  'validation_failed',
  'malformed_json',
  'missing_api_key',
  'malformed_api_key',
  'invalid_api_key_checksum',
  'unknown_api_key',
  'revoked_api_key',
  'expired_api_key',
  'plan_without_api_access',
  'rate_limited',
  'address_rate_limited',
  'internal_error',
  'service_unavailable',
];
const bodyErrors: ErrorCode[] = ['payload_too_large', 'unsupported_media_type'];
const idempotencyErrors: ErrorCode[] = ['invalid_idempotency_key', 'idempotency_key_in_use', 'idempotency_key_reused'];

const idempotencyHeader = Type.Object({ 'idempotency-key': Type.Optional(IdempotencyKey) });

/** The OpenAPI responses of these error codes, one per status, each naming its codes. */
export function problemResponses(codes: Iterable<ErrorCode>): Record<number, unknown> {
  const byStatus = new Map<number, ErrorCode[]>();
  for (const code of codes) {
    const status = errorCodes[code].status;
    byStatus.set(status, [...(byStatus.get(status) ?? []), code]);
  }
  const out: Record<number, unknown> = {};
  for (const [status, list] of [...byStatus].sort((a, b) => a[0] - b[0])) {
    out[status] = {
      description: list.map((c) => `\`${c}\`: ${errorCodes[c].title}`).join('; '),
      content: { 'application/problem+json': { schema: Type.Ref('Problem') } },
    };
  }
  return out;
}

function errorResponses(op: AnyOperation): Record<number, unknown> {
  return problemResponses(
    new Set<ErrorCode>([
      ...commonErrors,
      // A body is read (and refused when too large or not JSON) on every method that may carry one, whether or not
      // the operation takes one.
      ...(op.method !== 'GET' ? bodyErrors : []),
      ...(op.path.includes(':') ? (['uri_too_long'] as const) : []),
      ...(op.idempotent ? idempotencyErrors : []),
      ...op.errors,
    ]),
  );
}

/** The statuses a retry with the same Idempotency-Key can be answered with: the success, and the refusals stored for it. */
function replayedStatuses(op: AnyOperation, success: number): Set<number> {
  return new Set([success, ...op.errors.filter(isStoredRefusal).map((code) => errorCodes[code].status)]);
}

const allMethods = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;

/** Runs an operation holding an Idempotency-Key and sends the answer it stored. */
async function sendClaimed(
  op: AnyOperation,
  ctx: Context,
  input: OperationInput,
  claim: IdempotencyClaim,
  request: FastifyRequest,
  reply: FastifyReply,
  status: number,
): Promise<FastifyReply> {
  const serialize = reply.getSerializationFunction(String(status), 'application/json')!;
  let answer: StoredAnswer;
  try {
    answer = await runClaimed(op, ctx, input, claim, status, (result) => serialize(result as Record<string, unknown>));
  } finally {
    // runClaimed has answered the key or given it back; the end-of-request release must not touch it again.
    request.idempotencyClaim = null;
  }
  if (answer.headers) reply.headers(answer.headers);
  return reply.code(answer.status).type(answer.contentType).send(answer.body);
}

async function emptyBodyAsObject(request: FastifyRequest): Promise<void> {
  if (request.body === undefined || request.body === null) request.body = {};
}

/**
 * An operation without a body schema takes no body: what one held would be silently ignored (unknown fields are
 * refused, DESIGN §3), and never validated, so no bound on its depth or size would hold further in. `{}` passes,
 * as some clients send it with every POST.
 */
async function refuseBody(request: FastifyRequest): Promise<void> {
  const body = request.body;
  if (body === undefined || body === null || (typeof body === 'object' && !Array.isArray(body) && Object.keys(body).length === 0)) return;
  throw validationError([{ in: 'body', pointer: '', detail: 'must be empty: this operation takes no body' }]);
}

export function registerOperations(
  app: FastifyInstance,
  services: Services,
  operations: AnyOperation[],
  authenticate: onRequestHookHandler,
): void {
  const methodsByPath = new Map<string, Set<string>>();
  for (const op of operations) {
    const url = apiBase + op.path;
    methodsByPath.set(url, (methodsByPath.get(url) ?? new Set()).add(op.method));
    const status = op.successStatus ?? 200;
    // A POST whose fields are all optional may come without a body; it means "nothing to add".
    const preValidation = op.body ? (!(op.body as { required?: string[] }).required?.length && emptyBodyAsObject) : refuseBody;
    const responses = {
      [status]: { description: op.responseDescription, content: { 'application/json': { schema: op.response } } },
      ...errorResponses(op),
    };
    const responseHeaders = answerHeaders(Object.keys(responses).map(Number), { authenticated: true, replayed: op.idempotent ? replayedStatuses(op, status) : undefined });
    app.route({
      method: op.method,
      url,
      onRequest: authenticate,
      ...(preValidation && { preValidation }),
      config: {
        ownRateLimit: true,
        idempotent: op.idempotent === true,
        responseHeaders,
        ...(op.storedAs && { replayBody: (request: FastifyRequest, row: IdempotencyKeysTable) => replayedBody(op, operationContext(services, request.principal!, request.id), row) }),
      },
      schema: {
        operationId: op.id,
        summary: op.summary,
        description: op.description,
        tags: [op.tag],
        security: [{ bearerAuth: [] }, { apiKeyHeader: [] }],
        ...(op.params && { params: op.params }),
        ...(op.query && { querystring: op.query }),
        // A named body is referenced, so the document names it (OrderCreate) rather than repeating it inline.
        ...(op.body && { body: op.body.$id ? Type.Ref(op.body) : op.body }),
        ...(op.idempotent && { headers: idempotencyHeader }),
        response: responses,
      },
      handler: async (request, reply) => {
        const ctx = operationContext(services, request.principal!, request.id);
        const input = { params: request.params, query: request.query, body: request.body };
        // Carrier calls made for this request carry its id into their debug trace.
        return withCarrierTrace(services.config.logLevel, request.id, async () => {
          if (request.idempotencyClaim) {
            return sendClaimed(op, ctx, input, request.idempotencyClaim, request, reply, status);
          }
          return reply.code(status).send(await op.handler(ctx, input));
        });
      },
    });
  }
  // Fastify answers an unregistered method with 404; a client deserves to learn which methods exist.
  for (const [url, methods] of methodsByPath) {
    const allow = [...methods, ...(methods.has('GET') ? ['HEAD'] : [])].join(', ');
    const others = allMethods.filter((m) => !methods.has(m));
    if (others.length === 0) continue;
    app.route({
      method: others,
      url,
      schema: { hide: true },
      handler: async () => {
        throw new ApiError('method_not_allowed', `${url} accepts ${allow}`, undefined, { Allow: allow });
      },
    });
  }
}
