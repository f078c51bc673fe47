import type { FastifyReply, FastifyRequest } from 'fastify';
import { ApiError } from '../kernel/errors.ts';
import { clientAddress } from './client-address.ts';
import type { BucketStore, RateDecision, RateLimit } from './rate-limit.ts';

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * The route knows its caller, by API key (auth.ts) or dashboard session (session.ts), and limits it itself; the
     * caller's address counts only when the key or the session is refused.
     */
    ownRateLimit?: boolean;
  }
}

/**
 * The limits on clients that show no valid API key, by client address, in the same bucket store as the keys' (so
 * with REDIS_URL every process shares them).
 */
export interface AddressLimits {
  buckets: BucketStore;
  /** Every request made without a valid API key. */
  unauthenticated: RateLimit;
  /** Dashboard sign-in attempts, each of which costs an Argon2 hash. */
  signIn: RateLimit;
}

/** Spends one of the address's tokens of that kind. Bucket names cannot meet a key's, which are key ids (key_…). */
export function takeForAddress(limits: AddressLimits, request: FastifyRequest, kind: 'unauthenticated' | 'signIn'): Promise<RateDecision> | RateDecision {
  const prefix = kind === 'signIn' ? 'signin' : 'addr';
  return limits.buckets.take(`${prefix}:${clientAddress(request)}`, Date.now(), limits[kind]);
}

/** Counts a request without a valid API key against its address; past the limit, 429 with Retry-After. */
export async function limitAddress(limits: AddressLimits, request: FastifyRequest): Promise<void> {
  const decision = await takeForAddress(limits, request, 'unauthenticated');
  if (decision.allowed) return;
  throw new ApiError('address_rate_limited', `Too many requests without a valid API key from your address: retry in ${decision.retryAfterSeconds} s`, undefined, {
    'Retry-After': String(decision.retryAfterSeconds),
  });
}

/** A load balancer's health checks come from one address, often: they are never refused for it. */
const unlimited = new Set(['/healthz', '/readyz']);

/**
 * The onRequest hook of the whole app: label files, the dashboard's sign-in, /metrics, the OpenAPI document,
 * unknown paths, anything that does not know its caller is limited by the client's address.
 */
export function addressLimiter(limits: AddressLimits) {
  // Callback-style: the API's routes, which limit their callers themselves, pass without a promise.
  return function limitByAddress(request: FastifyRequest, _reply: FastifyReply, done: (err?: Error) => void): void {
    // Read once: request.routeOptions builds a new object at each read.
    const route = request.routeOptions;
    if (route.config.ownRateLimit || unlimited.has(route.url ?? '')) return done();
    limitAddress(limits, request).then(() => done(), done);
  };
}
