import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { isDatabaseUnavailable } from '../db/unavailable.ts';
import { ApiError, problemDocument } from '../kernel/errors.ts';
import { fingerprint, type IdempotencyStore } from '../domain/core/idempotency.ts';
import type { Principal } from '../domain/accounts/key-store.ts';
import { apiBase } from '../kernel/paths.ts';
import { withCarrierTrace } from '../carriers/live/trace.ts';
import { operationContext, replayedBody, runClaimed, type StoredAnswer } from '../operations/run.ts';
import type { AnyOperation } from '../operations/operation.ts';
import type { Services } from '../services.ts';
import { parseArguments } from './arguments.ts';
import { summarize } from './summary.ts';
import type { McpTool } from './tools.ts';

/** Where a failure that is our fault is logged: pino's logger, or Fastify's for the request. */
interface Log {
  error(details: object, message: string): void;
}

/** What a tool call runs with; each transport says who is calling and how its calls are named in the logs. */
export interface ToolEnv {
  services: Services;
  idempotency: IdempotencyStore;
  /** The calling key, checked again for every call (a key revoked mid-session stops working). */
  principal(): Promise<Principal>;
  requestId(): string;
  log: Log;
}

/** The REST path of a call, the idempotency scope's `path`: a key used on the API and here is one key. */
function restPath(op: AnyOperation, params: Record<string, string>): string {
  return apiBase + op.path.replace(/:(\w+)/g, (_, name: string) => encodeURIComponent(params[name]!));
}

/** A tool error: the problem document the REST API would answer, and its code and detail as the text. */
function failure(problem: Record<string, unknown>): CallToolResult {
  return { isError: true, structuredContent: problem, content: [{ type: 'text', text: `${String(problem.code)}: ${String(problem.detail)}` }] };
}

function success(tool: McpTool, result: Record<string, unknown>, replayed = false): CallToolResult {
  const line = summarize(result, tool.done) + (replayed ? ' (replayed: the first answer to this idempotency_key)' : '');
  return { structuredContent: result, content: [{ type: 'text', text: line }] };
}

/** A stored answer, whichever transport stored it, as a tool result. */
function fromStored(tool: McpTool, answer: Pick<StoredAnswer, 'status' | 'body'>, replayed: boolean): CallToolResult {
  const body = JSON.parse(answer.body) as Record<string, unknown>;
  return answer.status < 400 ? success(tool, body, replayed) : failure(body);
}


function asApiError(err: unknown, log: Log, requestId: string): ApiError {
  if (err instanceof ApiError) return err;
  if (isDatabaseUnavailable(err)) return new ApiError('service_unavailable', 'The database cannot be reached right now; retry shortly');
  log.error({ err, request_id: requestId }, 'tool call failed');
  return new ApiError('internal_error', 'The call failed on our side. Quote the request_id if you contact us.');
}

/**
 * Runs one tool call as the REST API runs the same request: the same validation, operation, ownership and
 * idempotency. Every failure is a tool error carrying the problem's code; none ends the session.
 */
export async function callTool(env: ToolEnv, tool: McpTool, args: Record<string, unknown>): Promise<CallToolResult> {
  const requestId = env.requestId();
  try {
    const principal = await env.principal();
    const { input, idempotencyKey } = parseArguments(tool.op, args);
    const ctx = operationContext(env.services, principal, requestId);
    return await withCarrierTrace(env.services.config.logLevel, requestId, async () => {
      if (idempotencyKey === undefined) return success(tool, await tool.op.handler(ctx, input));
      const scope = { owner_key_id: principal.keyId, method: tool.op.method, path: restPath(tool.op, input.params as Record<string, string>), idem_key: idempotencyKey };
      const outcome = await env.idempotency.claim(scope, fingerprint(input.body));
      if ('replay' in outcome) {
        const row = outcome.replay;
        return fromStored(tool, { status: row.response_status!, body: await replayedBody(tool.op, ctx, row) }, true);
      }
      return fromStored(tool, await runClaimed(tool.op, ctx, input, outcome.claim, tool.op.successStatus ?? 200, JSON.stringify), false);
    });
  } catch (err) {
    return failure(problemDocument(asApiError(err, env.log, requestId), requestId, env.services.config.publicUrl));
  }
}
