import type { FastifyReply, FastifyRequest } from 'fastify';
import { ApiError } from '../kernel/errors.ts';
import type { KeyStore, Principal } from '../domain/accounts/key-store.ts';
import { rateLimitHeaders, rateLimitPolicy, rateLimitState, type RateDecision, type RateLimit } from './rate-limit.ts';
import { limitAddress, type AddressLimits } from './address-limit.ts';

declare module 'fastify' {
  interface FastifyRequest {
    principal: Principal | null;
  }
}

function secretFrom(request: FastifyRequest): string {
  const authorization = request.headers.authorization;
  const xApiKey = request.headers['x-api-key'];
  let secret: string | undefined;
  if (authorization !== undefined && authorization !== '') {
    const match = /^Bearer +(\S+) *$/i.exec(authorization);
    if (!match) throw new ApiError('malformed_api_key', 'The Authorization header must be "Bearer <API key>"');
    secret = match[1];
  }
  if (xApiKey !== undefined && xApiKey !== '') {
    if (Array.isArray(xApiKey)) throw new ApiError('malformed_api_key', 'Send one X-API-Key header');
    if (secret !== undefined && secret !== xApiKey.trim()) {
      throw new ApiError('malformed_api_key', 'Authorization and X-API-Key carry different keys; send one');
    }
    secret = xApiKey.trim();
  }
  if (!secret) throw new ApiError('missing_api_key', 'Send your API key as "Authorization: Bearer <key>" or "X-API-Key: <key>"');
  return secret;
}

/** Spends one of the key's tokens; past its limit, 429 with Retry-After. */
function limitKey(reply: FastifyReply, decision: RateDecision, keyLimit: RateLimit, policy: string): void {
  if (!decision.allowed) {
    throw new ApiError('rate_limited', `Slow down: retry in ${decision.retryAfterSeconds} s`, undefined, {
      ...rateLimitHeaders(decision, keyLimit),
      'Retry-After': String(decision.retryAfterSeconds),
    });
  }
  reply.header('RateLimit-Policy', policy).header('RateLimit', rateLimitState(decision));
}

/**
 * The onRequest hook of every API operation: who is calling, may they, and are they within their rate. A request
 * whose key is refused counts against its address instead, as every request without a key does; a valid key is
 * never refused for its address, which it may share with others behind one NAT. A key this process knows, with
 * its bucket in memory, is admitted without a promise: that is every request of a busy client.
 */
export function authenticator(keys: KeyStore, addresses: AddressLimits, keyLimit: RateLimit) {
  const refuse = async (request: FastifyRequest, err: unknown): Promise<never> => {
    await limitAddress(addresses, request);
    throw err;
  };
  // The same for every answer: written once, not for each.
  const policy = rateLimitPolicy(keyLimit);
  const admit = (request: FastifyRequest, reply: FastifyReply, principal: Principal): void | Promise<void> => {
    request.principal = principal;
    const decision = addresses.buckets.take(principal.keyId, Date.now(), keyLimit);
    if (decision instanceof Promise) return decision.then((d) => limitKey(reply, d, keyLimit, policy));
    limitKey(reply, decision, keyLimit, policy);
  };
  return function authenticate(request: FastifyRequest, reply: FastifyReply, done: (err?: Error) => void): void {
    let secret: string;
    let known: Principal | undefined;
    try {
      secret = secretFrom(request);
      known = keys.knownPrincipal(secret);
    } catch (err) {
      refuse(request, err).catch(done);
      return;
    }
    let admitted: void | Promise<void>;
    try {
      admitted = known
        ? admit(request, reply, known)
        : keys.principalFor(secret).then(
            (principal) => admit(request, reply, principal),
            (err: unknown) => refuse(request, err),
          );
    } catch (err) {
      done(err as Error);
      return;
    }
    if (admitted instanceof Promise) admitted.then(() => done(), done);
    else done();
  };
}
