import type { FastifyInstance, FastifyReply, FastifyRequest, onRequestHookHandler } from 'fastify';
import type { Kysely } from 'kysely';
import type { DB } from '../db/schema.ts';
import { Type } from '@sinclair/typebox';
import { ApiError, errorCodes, type ErrorCode } from '../domain/errors.ts';
import type { Context } from '../domain/context.ts';
import type { Services } from '../services.ts';
import type { AnyOperation } from '../operations/operation.ts';
import type { IdempotencyClaim } from '../domain/idempotency.ts';
import { problemBody } from './problems.ts';
import { apiBase } from '../domain/paths.ts';
import { carrierTrace } from '../carriers/live/trace.ts';

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
  'internal_error',
  'service_unavailable',
];
const bodyErrors: ErrorCode[] = ['payload_too_large', 'unsupported_media_type'];
const idempotencyErrors: ErrorCode[] = ['invalid_idempotency_key', 'idempotency_key_in_use', 'idempotency_key_reused'];

const idempotencyHeader = Type.Object({
  'idempotency-key': Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: 257,
      description:
        'Makes retries safe: the same key with the same body within 7 days gets the first answer again (with ' +
        'Idempotent-Replayed: true) and changes nothing; with another body, 422. 1 to 255 printable characters.',
      examples: ['order-1042-attempt'],
    }),
  ),
});

function errorResponses(op: AnyOperation): Record<number, unknown> {
  const codes = new Set<ErrorCode>([...commonErrors, ...(op.body ? bodyErrors : []), ...(op.idempotent ? idempotencyErrors : []), ...op.errors]);
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

const allMethods = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;

/** Answers a client's retry must not replay: it may fix the request, or simply come back later. */
// A missing or declined payment method is fixed on the account, after which the same request must succeed.
const unstoredCodes = new Set<ErrorCode>(['validation_failed', 'malformed_json', 'rate_limited', 'invalid_idempotency_key', 'payment_method_required', 'payment_declined']);

/**
 * Runs an operation that holds an Idempotency-Key. Its answer is stored in the same transaction as the change,
 * so a crash can never leave a change without its answer or an answer without its change.
 */
async function runClaimed(
  op: AnyOperation,
  ctx: Context,
  input: { params: unknown; query: unknown; body: unknown },
  claim: IdempotencyClaim,
  request: FastifyRequest,
  reply: FastifyReply,
  status: number,
  publicUrl: string,
): Promise<FastifyReply> {
  const json = 'application/json; charset=utf-8';
  const serialize = reply.getSerializationFunction(String(status), 'application/json')!;
  let text: string;
  try {
    if (op.ownTransactions) {
      let stored: string | undefined;
      const answer = async (trx: Kysely<DB>, result: unknown) => {
        const body = serialize(result as Record<string, unknown>);
        await claim.complete(trx, status, json, body);
        stored = body;
      };
      const result = await op.handler({ ...ctx, answer, idempotencyKey: claim.key }, input);
      if (stored === undefined) {
        stored = serialize(result);
        await claim.complete(ctx.db, status, json, stored);
      }
      text = stored;
    } else {
      text = await ctx.db.transaction().execute(async (trx) => {
        const result = await op.handler({ ...ctx, db: trx, idempotencyKey: claim.key }, input);
        const body = serialize(result);
        await claim.complete(trx, status, json, body);
        return body;
      });
    }
  } catch (err) {
    if (!(err instanceof ApiError) || err.status >= 500 || unstoredCodes.has(err.code)) {
      // Give the key back before answering: a client that retries the moment it reads this answer must find it free.
      request.idempotencyClaim = null;
      await claim.release();
      throw err;
    }
    // A refusal is an answer too: the same request again gets the same refusal.
    const body = JSON.stringify(problemBody(request, err, publicUrl));
    await claim.complete(ctx.db, err.status, 'application/problem+json', body);
    request.idempotencyClaim = null;
    if (err.headers) reply.headers(err.headers);
    return reply.code(err.status).type('application/problem+json').send(body);
  }
  request.idempotencyClaim = null;
  return reply.code(status).type(json).send(text);
}

async function emptyBodyAsObject(request: FastifyRequest): Promise<void> {
  if (request.body === undefined || request.body === null) request.body = {};
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
    app.route({
      method: op.method,
      url,
      onRequest: authenticate,
      // A POST whose fields are all optional may come without a body; it means "nothing to add".
      ...(op.body && !(op.body as { required?: string[] }).required?.length && { preValidation: emptyBodyAsObject }),
      config: { idempotent: op.idempotent === true },
      schema: {
        operationId: op.id,
        summary: op.summary,
        description: op.description,
        tags: [op.tag],
        security: [{ bearerAuth: [] }, { apiKeyHeader: [] }],
        ...(op.params && { params: op.params }),
        ...(op.query && { querystring: op.query }),
        ...(op.body && { body: op.body }),
        ...(op.idempotent && { headers: idempotencyHeader }),
        response: {
          [status]: { description: op.responseDescription, content: { 'application/json': { schema: op.response } } },
          ...errorResponses(op),
        },
      },
      handler: async (request, reply) => {
        const ctx: Context = {
          principal: request.principal!,
          db: services.database.db,
          dbKind: services.database.kind,
          clock: services.clock,
          config: services.config,
          requestId: request.id,
          rateStore: services.rateStore,
          labels: services.labels,
        };
        const input = { params: request.params, query: request.query, body: request.body };
        // Carrier calls made for this request carry its id into their debug trace.
        return carrierTrace.run({ requestId: request.id }, async () => {
          if (request.idempotencyClaim) {
            return runClaimed(op, ctx, input, request.idempotencyClaim, request, reply, status, services.config.publicUrl);
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
