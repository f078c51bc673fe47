import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { Counter, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
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
  const labelNames = ['method', 'route', 'status'] as const;
  const requests = new Counter({ name: 'shipd_http_requests_total', help: 'HTTP requests answered', labelNames, registers: [registry] });
  const duration = new Histogram({
    name: 'shipd_http_request_duration_seconds',
    help: 'Time to answer HTTP requests',
    labelNames,
    buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [registry],
  });

  // Each series' counter and histogram, found by one string instead of prom-client hashing the labels twice a request.
  const series = new Map<string, { count: { inc(): void }; time: { observe(seconds: number): void } }>();
  const observe: ObserveAnswer = (method, status, matched, elapsedMs) => {
    // Unmatched URLs share one label so that scanners cannot blow up the number of series.
    const route = matched ?? 'unmatched';
    const name = `${method} ${status} ${route}`;
    let one = series.get(name);
    if (!one) {
      const labels = { method, route, status: String(status) };
      one = { count: requests.labels(labels), time: duration.labels(labels) };
      series.set(name, one);
    }
    one.count.inc();
    one.time.observe(elapsedMs / 1000);
  };

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
