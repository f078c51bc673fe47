import type { FastifyInstance, onRequestHookHandler } from 'fastify';
import { Type } from '@sinclair/typebox';
import { ApiError, errorCodes, type ErrorCode } from '../domain/errors.ts';
import type { Context } from '../domain/context.ts';
import type { Services } from '../services.ts';
import type { AnyOperation } from '../operations/operation.ts';

export const apiBase = '/api/integrations/v1';

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
];
const bodyErrors: ErrorCode[] = ['payload_too_large', 'unsupported_media_type'];

function errorResponses(op: AnyOperation): Record<number, unknown> {
  const codes = new Set<ErrorCode>([...commonErrors, ...(op.body ? bodyErrors : []), ...op.errors]);
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
      schema: {
        operationId: op.id,
        summary: op.summary,
        description: op.description,
        tags: [op.tag],
        security: [{ bearerAuth: [] }, { apiKeyHeader: [] }],
        ...(op.params && { params: op.params }),
        ...(op.query && { querystring: op.query }),
        ...(op.body && { body: op.body }),
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
        };
        const result = await op.handler(ctx, {
          params: request.params,
          query: request.query,
          body: request.body,
        });
        return reply.code(status).send(result);
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
