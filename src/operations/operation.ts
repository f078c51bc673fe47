import type { Static, TSchema } from '@sinclair/typebox';
import type { Context } from '../domain/core/context.ts';
import type { ErrorCode } from '../kernel/errors.ts';
import type { Feature } from '../config.ts';

export type Method = 'GET' | 'POST' | 'PATCH' | 'DELETE';

/**
 * One API operation, declared once. The HTTP route, its OpenAPI entry and its MCP tool are all
 * generated from this, so they cannot drift apart.
 */
export interface Operation<P extends TSchema = TSchema, Q extends TSchema = TSchema, B extends TSchema = TSchema, R extends TSchema = TSchema> {
  id: string;
  method: Method;
  /** Below the API base path, Fastify style: `/orders/:id`. */
  path: string;
  tag: string;
  summary: string;
  /** What it does, what it changes or sends, and the refusals a client should expect: the OpenAPI description and the MCP tool's. */
  description: string;
  params?: P;
  query?: Q;
  body?: B;
  response: R;
  responseDescription: string;
  successStatus?: 200 | 201;
  /** The codes this operation itself can answer with, beyond those every authenticated route can. */
  errors: ErrorCode[];
  readOnly?: boolean;
  /** An ops helper: served, documented and offered only when this feature is on in SHIPD_FEATURES. */
  feature?: Feature;
  /** A creating POST: honours Idempotency-Key, and stores its answer in the transaction that made the change. */
  idempotent?: boolean;
  /**
   * The handler commits in several steps of its own (a purchase records itself before calling the carrier),
   * and stores its answer through `ctx.answer` in the step that completes it.
   */
  ownTransactions?: boolean;
  /**
   * An answer that must not be kept as it was sent (it holds a secret): `keep` is what the Idempotency-Key stores,
   * `replay` what a retry gets from that, read again when it comes.
   */
  storedAs?: { keep(ctx: Context, answer: Static<R>): Static<R>; replay(ctx: Context, kept: Static<R>): Promise<Static<R>> };
  handler(ctx: Context, input: { params: Static<P>; query: Static<Q>; body: Static<B> }): Promise<Static<R>>;
}

export function defineOperation<P extends TSchema, Q extends TSchema, B extends TSchema, R extends TSchema>(
  op: Operation<P, Q, B, R>,
): Operation<P, Q, B, R> {
  return op;
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- a table of operations of differing schemas
export type AnyOperation = Operation<any, any, any, any>;
