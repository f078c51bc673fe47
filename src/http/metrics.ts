import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { Registry, collectDefaultMetrics } from 'prom-client';
import { AnswerMetrics } from './answer-metrics.ts';
import { ApiError } from '../kernel/errors.ts';
import { isLoopback } from './client-address.ts';

/** Headers a proxy adds when it relays a request: one that bears any was not made on this machine, whatever its socket says. */
const forwardingHeaders = ['forwarded', 'x-forwarded-for', 'x-real-ip'];

/**
 * Who may read /metrics: with SHIPD_METRICS_TOKEN, whoever sends it as a Bearer token; without, only a request made
 * straight to shipd from this machine, judged by the socket's own peer (not X-Forwarded-For, which a client writes).
 */
function mayRead(request: FastifyRequest, token: string | undefined): boolean {
  if (token !== undefined) {
    const sent = /^Bearer +(\S+) *$/i.exec(request.headers.authorization ?? '')?.[1] ?? '';
    // Digests of equal length, so that the comparison's time says nothing of the token, its length included.
    const digest = (text: string) => createHash('sha256').update(text).digest();
    return timingSafeEqual(digest(sent), digest(token));
  }
  return isLoopback(request.raw.socket.remoteAddress ?? '') && !forwardingHeaders.some((h) => request.headers[h] !== undefined);
}

/** What the app's answers are counted by: each one's method, status, route (undefined when none matched) and time. */
export type ObserveAnswer = (method: string, status: number, route: string | undefined, elapsedMs: number) => void;

/**
 * Request counts and latency by route and status, plus the process's own figures, at GET /metrics. Returns the
 * registry, for other parts of the app to add their own, and the function that counts an answer, which the app's
 * one onResponse hook calls.
 */
export function registerMetrics(app: FastifyInstance, token: string | undefined): { registry: Registry; observe: ObserveAnswer } {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const answers = new AnswerMetrics(registry);
  const observe: ObserveAnswer = (method, status, route, elapsedMs) => answers.observe(method, status, route, elapsedMs / 1000);

  app.get('/metrics', { schema: { hide: true } }, async (request, reply) => {
    if (!mayRead(request, token)) {
      throw new ApiError(
        'metrics_not_allowed',
        token === undefined
          ? 'Metrics are served only to requests made on this machine; set SHIPD_METRICS_TOKEN to read them from elsewhere'
          : 'Send the metrics token (SHIPD_METRICS_TOKEN) as "Authorization: Bearer <token>"',
      );
    }
    reply.type(registry.contentType);
    return registry.metrics();
  });
  return { registry, observe };
}
