import { shipdVersion } from '../version.ts';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { CallToolRequestSchema, ErrorCode, type CallToolRequest, ListToolsRequestSchema, McpError } from '@modelcontextprotocol/sdk/types.js';
import { callTool, type ToolEnv } from './call.ts';
import { tools } from './tools.ts';

const definitions = [...tools.values()].map((t) => t.definition);

const instructions =
  'shipd buys shipping labels. The push flow: create_order, get_rates (optional: pick a rate_id), buy_label with an ' +
  'idempotency_key, then track_shipment; void_label refunds an unused label. svc_test_ keys use carrier simulators and ' +
  'charge nothing; svc_live_ keys buy real postage.';

/**
 * The one MCP server definition both transports serve. The low-level Server takes the tools' JSON Schemas as they
 * are, generated from the operation table, where McpServer.registerTool would want them rewritten in zod.
 */
export function createMcpServer(env: ToolEnv): Server {
  // The API's version, as in the OpenAPI document.
  const server = new Server({ name: 'shipd', version: shipdVersion }, { capabilities: { tools: {} }, instructions });
  server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: definitions }));
  // Registered with only its method checked: the SDK's parse of the whole request would answer malformed params as
  // an internal error (-32603), while Server's own check of tools/call, which runs next, answers them -32602.
  server.setRequestHandler(CallToolRequestSchema.pick({ method: true }).loose(), async (loose) => {
    const request = loose as CallToolRequest;
    const tool = tools.get(request.params.name);
    // An unknown tool is the client's mistake about the server, a protocol error rather than a tool error.
    if (!tool) throw new McpError(ErrorCode.InvalidParams, `There is no tool "${request.params.name}"`);
    return callTool(env, tool, request.params.arguments ?? {});
  });
  return server;
}
