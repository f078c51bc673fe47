import type { FastifyInstance, onRequestHookHandler } from 'fastify';
import { ApiError } from '../kernel/errors.ts';
import type { IdempotencyStore } from '../domain/core/idempotency.ts';
import { apiBase } from '../kernel/paths.ts';
import type { Services } from '../services.ts';

export const mcpPath = `${apiBase}/mcp`;

// The MCP SDK and the tool table (with zod) take a few hundred milliseconds to load: the first MCP call loads them,
// rather than every start of a server that may never get one.
let mcpModules: Promise<[typeof import('@modelcontextprotocol/sdk/server/streamableHttp.js'), typeof import('./server.ts')]> | undefined;
const loadMcp = () => (mcpModules ??= Promise.all([import('@modelcontextprotocol/sdk/server/streamableHttp.js'), import('./server.ts')]));

/**
 * The MCP server over streamable HTTP, stateless: each POST carries one message and gets a fresh server and
 * transport, so any API process can answer any call. Behind the same authentication and rate limit as the REST
 * routes; it is no REST operation, so the OpenAPI document leaves it out.
 */
export async function registerMcpRoute(app: FastifyInstance, services: Services, idempotency: IdempotencyStore, authenticate: onRequestHookHandler): Promise<void> {
  await app.register(async (scope) => {
    // The API refuses a NUL anywhere in a JSON body with a 400; here a NUL in a tool's arguments must come back as
    // that tool's validation error, so this scope parses JSON plainly and the tool call checks its own fields.
    scope.removeContentTypeParser('application/json');
    scope.addContentTypeParser('application/json', { parseAs: 'string' }, scope.getDefaultJsonParser('error', 'error'));

    scope.post(mcpPath, { onRequest: authenticate, config: { ownRateLimit: true }, schema: { hide: true } }, async (request, reply) => {
      // A JSON-RPC batch would run up to 100 calls on one rate-limit token (MCP dropped batches in 2025-06-18).
      if (Array.isArray(request.body)) {
        return reply
          .code(400)
          .type('application/json')
          .send({ jsonrpc: '2.0', error: { code: -32600, message: 'Send one JSON-RPC message per POST: batches are not accepted' }, id: null });
      }
      const [{ StreamableHTTPServerTransport }, { createMcpServer }] = await loadMcp();
      const server = createMcpServer({
        services,
        idempotency,
        principal: async () => request.principal!,
        requestId: () => request.id,
        log: request.log,
      });
      const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
      reply.hijack();
      // Headers set so far (the request id, the rate limit) wait in Fastify for a send that a hijacked reply never makes.
      for (const [name, value] of Object.entries(reply.getHeaders())) if (value !== undefined) reply.raw.setHeader(name, value);
      reply.raw.on('close', () => void server.close());
      try {
        await server.connect(transport);
        await transport.handleRequest(request.raw, reply.raw, request.body);
      } catch (err) {
        request.log.error({ err }, 'MCP request failed');
        if (!reply.raw.headersSent) {
          reply.raw.writeHead(500, { 'content-type': 'application/json' });
          reply.raw.end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32603, message: 'Internal error' }, id: null }));
        }
      }
    });
  });

  // Stateless: there is no session to stream to (GET) or to end (DELETE).
  app.route({
    method: ['GET', 'PUT', 'PATCH', 'DELETE'],
    url: mcpPath,
    schema: { hide: true },
    handler: async () => {
      throw new ApiError('method_not_allowed', `${mcpPath} accepts POST (MCP streamable HTTP, stateless)`, undefined, { Allow: 'POST' });
    },
  });
}
