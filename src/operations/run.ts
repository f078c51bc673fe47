// How an operation runs, whichever transport asked: the REST routes and the MCP tools share this.
import type { Kysely } from 'kysely';
import type { DB, IdempotencyKeysTable } from '../db/schema.ts';
import type { Context } from '../domain/core/context.ts';
import { ApiError, errorCodes, problemDocument, type ErrorCode } from '../kernel/errors.ts';
import { IdempotencyStore, type IdempotencyClaim } from '../domain/core/idempotency.ts';
import type { Principal } from '../domain/accounts/key-store.ts';
import { serviceContext, type Services } from '../services.ts';
import type { AnyOperation } from './operation.ts';

export interface OperationInput {
  params: unknown;
  query: unknown;
  body: unknown;
}

/** An answer as the API sends it and the idempotency store keeps it, so a retry through either transport replays it. */
export interface StoredAnswer {
  status: number;
  contentType: string;
  body: string;
  headers?: Record<string, string>;
}

const jsonType = 'application/json; charset=utf-8';
const problemType = 'application/problem+json';

export function operationContext(services: Services, principal: Principal, requestId: string): Context {
  // Added to the service context rather than spread into a copy of it: V8 spread this object at 3 µs a request.
  const ctx = serviceContext(services, requestId) as Context;
  ctx.principal = principal;
  return ctx;
}

/** The store both transports claim Idempotency-Keys in. */
export function idempotencyStore(services: Services, waitForFirstMs?: number): IdempotencyStore {
  // No request outlives two carrier calls by much (a purchase may quote, then buy): a claim held longer than that
  // was left by a crash, and a retry may take it over instead of waiting a fixed minute.
  const claimLeaseMs = 2 * services.config.carrierTimeoutMs + 10_000;
  return new IdempotencyStore(services.database.db, services.clock, waitForFirstMs, claimLeaseMs);
}

/** The body a retry gets from the answer its Idempotency-Key stored: as stored, unless the operation keeps it otherwise. */
export async function replayedBody(op: AnyOperation, ctx: Context, row: IdempotencyKeysTable): Promise<string> {
  if (!op.storedAs || row.response_status! >= 400) return row.response_body!;
  return JSON.stringify(await op.storedAs.replay(ctx, JSON.parse(row.response_body!)));
}

/** Answers a client's retry must not replay: it may fix the request, or simply come back later. */
// A missing or declined payment method (or billing not set up) is fixed on the account, after which the same request must succeed. A
// purchase still running (after a carrier time-out) is finished by the retry that comes once it is stale. A key that
// started a purchase for another request is refused for this one only: stored, it would refuse the request it is for. A
// customs declaration missing from an order, or wrong, is fixed on the order, after which the same purchase must go on.
const unstoredCodes = new Set<ErrorCode>([
  'validation_failed',
  'customs_required',
  'customs_invalid',
  // Today's window moves: a date too far ahead today is good tomorrow.
  'ship_date_out_of_range',
  'malformed_json',
  'rate_limited',
  'invalid_idempotency_key',
  'payment_method_required',
  'payment_declined',
  'payment_authentication_required',
  'billing_not_configured',
  // Cancelling the pickup in the way lets the same booking go on.
  'pickup_already_scheduled',
  'idempotency_key_in_use',
  'idempotency_key_reused',
]);

/** Whether a refusal with this code is stored as the answer to its Idempotency-Key, and so replayed to a retry. */
export function isStoredRefusal(code: ErrorCode): boolean {
  return errorCodes[code].status < 500 && !unstoredCodes.has(code);
}

/**
 * Runs an operation that holds an Idempotency-Key. Its answer is stored in the same transaction as the change,
 * so a crash can never leave a change without its answer or an answer without its change. Errors that are not
 * answers give the key back and are thrown; the caller must no longer release the claim after this returns or throws.
 */
export async function runClaimed(
  op: AnyOperation,
  ctx: Context,
  input: OperationInput,
  claim: IdempotencyClaim,
  status: number,
  serialize: (result: unknown) => string,
): Promise<StoredAnswer> {
  const kept = (result: unknown) => (op.storedAs ? serialize(op.storedAs.keep(ctx, result)) : undefined);
  try {
    if (op.ownTransactions) {
      let stored: string | undefined;
      const answer = async (trx: Kysely<DB>, result: unknown) => {
        const body = serialize(result);
        await claim.complete(trx, status, jsonType, kept(result) ?? body);
        stored = body;
      };
      const result = await op.handler({ ...ctx, answer, idempotencyKey: claim.key }, input);
      if (stored === undefined) {
        stored = serialize(result);
        await claim.complete(ctx.db, status, jsonType, kept(result) ?? stored);
      }
      return { status, contentType: jsonType, body: stored };
    }
    const body = await ctx.db.transaction().execute(async (trx) => {
      const result = await op.handler({ ...ctx, db: trx, idempotencyKey: claim.key }, input);
      const text = serialize(result);
      await claim.complete(trx, status, jsonType, kept(result) ?? text);
      return text;
    });
    return { status, contentType: jsonType, body };
  } catch (err) {
    if (!(err instanceof ApiError) || !isStoredRefusal(err.code)) {
      // Give the key back before answering: a client that retries the moment it reads this answer must find it free.
      await claim.release();
      throw err;
    }
    // A refusal is an answer too: the same request again gets the same refusal.
    const body = JSON.stringify(problemDocument(err, ctx.requestId, ctx.config.publicUrl));
    await claim.complete(ctx.db, err.status, problemType, body);
    return { status: err.status, contentType: problemType, body, headers: err.headers };
  }
}
