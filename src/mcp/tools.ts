import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import { operations } from '../operations/index.ts';
import type { AnyOperation } from '../operations/operation.ts';
import { IdempotencyKey, Problem } from '../schemas/common.ts';
import { mergedObject, standalone, withoutExamples, type JsonSchema } from './json-schema.ts';

/** What a tool adds to its operation; everything else (schemas, description, read-only) comes from the operation table. */
interface ToolSpec {
  name: string;
  operation: string;
  /** For operations that record something (quotes, tracking scans) a client still thinks of as a read. */
  readOnly?: true;
  destructive?: true;
  /** Calling it again with the same arguments changes nothing more (a second cancel or void is refused). */
  idempotent?: true;
  /** It talks to a carrier (in live mode, the carrier's real systems). */
  carrier?: true;
  /** Past tense for the result line: "Order ord_… created (incomplete)". */
  done?: string;
  note?: string;
}

const spendsMoney =
  'In live mode (an svc_live_ key) this spends money: the postage is charged. Pass an idempotency_key unique to this purchase; ' +
  'a retry with the same key, through MCP or the REST API, answers the first label instead of buying another.';

const specs: ToolSpec[] = [
  { name: 'validate_address', operation: 'validateAddress', carrier: true },
  { name: 'get_rates', operation: 'shopRates', readOnly: true, carrier: true },
  { name: 'create_order', operation: 'createOrder', done: 'created' },
  { name: 'list_orders', operation: 'listOrders' },
  { name: 'get_order', operation: 'getOrder' },
  { name: 'update_order', operation: 'updateOrder', idempotent: true, done: 'updated' },
  { name: 'cancel_order', operation: 'cancelOrder', destructive: true, idempotent: true, done: 'cancelled' },
  { name: 'buy_label', operation: 'buyLabel', carrier: true, done: 'bought', note: spendsMoney },
  { name: 'get_shipment', operation: 'getShipment' },
  { name: 'void_label', operation: 'voidLabel', destructive: true, idempotent: true, carrier: true, done: 'voided' },
  {
    name: 'create_return_label',
    operation: 'createReturnLabel',
    carrier: true,
    done: 'bought',
    note: `${spendsMoney} With charge "on_use" the postage is charged only if and when the carrier first scans the label, so a return label the customer never sends costs nothing.`,
  },
  { name: 'track_shipment', operation: 'track', readOnly: true, carrier: true },
  { name: 'create_tracker', operation: 'createTracker', idempotent: true, carrier: true, done: 'created' },
  { name: 'list_trackers', operation: 'listTrackers' },
  { name: 'get_tracker', operation: 'getTracker' },
  { name: 'list_carriers', operation: 'listCarriers' },
  { name: 'find_carrier_locations', operation: 'findCarrierLocations', readOnly: true, carrier: true },
  { name: 'list_packages', operation: 'listPackages' },
  { name: 'list_ship_from', operation: 'listShipFrom' },
];

export interface McpTool {
  op: AnyOperation;
  done?: string;
  definition: Tool;
}

const problem = standalone(Problem) as JsonSchema;

function build(spec: ToolSpec): McpTool {
  const op = operations.find((o) => o.id === spec.operation);
  if (!op) throw new Error(`the tool ${spec.name} names no operation "${spec.operation}"`);
  const readOnly = spec.readOnly ?? op.readOnly === true;
  const own: Record<string, JsonSchema> = op.idempotent ? { idempotency_key: standalone(IdempotencyKey) as JsonSchema } : {};
  return {
    op,
    done: spec.done,
    definition: {
      name: spec.name,
      title: op.summary,
      description: [op.description, spec.note].filter(Boolean).join('\n\n'),
      inputSchema: mergedObject([op.params, op.query, op.body], own) as Tool['inputSchema'],
      // A tool error carries the problem document as its structured content, and the SDK's client checks even an
      // error's structured content against this schema (typescript-sdk#1943), so the schema names both outcomes. It is
      // for checking answers: the examples the OpenAPI document shows would only take room in a model's context.
      outputSchema: withoutExamples({ type: 'object', anyOf: [standalone(op.response), problem] }) as Tool['outputSchema'],
      annotations: {
        title: op.summary,
        readOnlyHint: readOnly,
        destructiveHint: spec.destructive === true,
        idempotentHint: readOnly || spec.idempotent === true,
        openWorldHint: spec.carrier === true,
      },
    },
  };
}

export const tools: ReadonlyMap<string, McpTool> = new Map(specs.map((s) => [s.name, build(s)]));
