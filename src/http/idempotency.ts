import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { IdempotencyKeysTable } from '../db/schema.ts';
import {
  fingerprint,
  parseIdempotencyHeader,
  type IdempotencyClaim,
  type IdempotencyScope,
  type IdempotencyStore,
} from '../domain/core/idempotency.ts';

declare module 'fastify' {
  interface FastifyRequest {
    idempotencyClaim: IdempotencyClaim | null;
  }
  interface FastifyContextConfig {
    /** Creating POSTs: honour Idempotency-Key. */
    idempotent?: boolean;
    /** The body a retry gets from the stored answer, when it is not the body as stored. */
    replayBody?: (request: FastifyRequest, row: IdempotencyKeysTable) => Promise<string>;
  }
}

async function sendReplay(request: FastifyRequest, reply: FastifyReply, row: IdempotencyKeysTable): Promise<FastifyReply> {
  const replayBody = request.routeOptions.config.replayBody;
  return reply
    .code(row.response_status!)
    .header('Idempotent-Replayed', 'true')
    .type(row.response_type!)
    .send(replayBody ? await replayBody(request, row) : row.response_body!);
}

/**
 * Idempotency-Key for every route whose config says `idempotent: true`. It runs after validation, so a
 * request that fails validation never takes the key; the route stores its answer (see routes.ts).
 */
export const idempotencyPlugin = fp(async (app: FastifyInstance, opts: { store: IdempotencyStore }) => {
  app.decorateRequest('idempotencyClaim', null);

  const claim = async (request: FastifyRequest, reply: FastifyReply) => {
    const header = request.headers['idempotency-key'];
    if (header === undefined) return;
    const scope: IdempotencyScope = {
      owner_key_id: request.principal!.keyId,
      method: request.method,
      path: request.url.split('?')[0]!,
      idem_key: parseIdempotencyHeader(header),
    };
    const outcome = await opts.store.claim(scope, fingerprint(request.body));
    if ('replay' in outcome) return sendReplay(request, reply, outcome.replay);
    request.idempotencyClaim = outcome.claim;
  };
  // Whatever path a request took, a claim it still holds at the end goes back.
  const release = async (request: FastifyRequest) => {
    const held = request.idempotencyClaim;
    request.idempotencyClaim = null;
    if (held) await held.release();
  };
  const asList = <T>(hooks: T | T[] | undefined): T[] => (hooks === undefined ? [] : Array.isArray(hooks) ? hooks : [hooks]);

  // Only the routes that take Idempotency-Key pay for these hooks.
  app.addHook('onRoute', (route) => {
    if (!route.config?.idempotent) return;
    route.preHandler = [...asList(route.preHandler), claim];
    route.onResponse = [...asList(route.onResponse), release];
  });
});
