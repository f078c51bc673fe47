import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { existsSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { problem, startServer, type TestServer } from './harness.ts';
import { orderBody, torontoOrderBody } from './fixtures.ts';
import { setPaymentMethod } from '../src/domain/billing/payment-methods.ts';
import { fedexTrackingNumber } from '../src/carriers/tracking-numbers.ts';
import { randomInt } from 'node:crypto';

// The MCP tools over both transports, driven by the SDK's own client: the same operations, ownership,
// idempotency and error codes as the REST API.

let server: TestServer;
let key: string;
/** A key of another account. */
let otherKey: string;

before(async () => {
  server = await startServer({ idempotencyWaitMs: 20_000 });
  const account = await server.account();
  await setPaymentMethod(server.services.database.db, server.clock, account, 'test', 'pm_test_visa');
  key = (await server.key(account)).secret;
  otherKey = (await server.key(await server.account())).secret;
});
after(() => server.close());

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- tests read whatever JSON came back

const toolNames = [
  'validate_address',
  'get_rates',
  'create_order',
  'list_orders',
  'get_order',
  'update_order',
  'cancel_order',
  'buy_label',
  'get_shipment',
  'void_label',
  'create_return_label',
  'track_shipment',
  'create_tracker',
  'list_trackers',
  'get_tracker',
  'list_carriers',
  'find_carrier_locations',
  'list_packages',
  'list_ship_from',
];

const shipdBin = join(import.meta.dirname, '..', 'bin', 'shipd.js');

async function httpClient(secret: string): Promise<Client> {
  const client = new Client({ name: 'shipd-test', version: '1.0.0' });
  const url = new URL(`${server.url}/api/integrations/v1/mcp`);
  await client.connect(new StreamableHTTPClientTransport(url, { requestInit: { headers: { Authorization: `Bearer ${secret}` } } }));
  return client;
}

async function stdioClient(secret: string): Promise<Client> {
  const client = new Client({ name: 'shipd-test', version: '1.0.0' });
  const env = { ...server.db.env, SHIPD_API_KEY: secret, PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/tmp' };
  await client.connect(new StdioClientTransport({ command: process.execPath, args: [shipdBin, 'mcp'], env, stderr: 'pipe' }));
  return client;
}

const transports = [
  { name: 'streamable HTTP', connect: httpClient },
  { name: 'stdio', connect: stdioClient },
];

for (const transport of transports) {
  describe(`MCP over ${transport.name}`, () => {
    let client: Client;
    let other: Client;
    before(async () => {
      client = await transport.connect(key);
      other = await transport.connect(otherKey);
    });
    after(async () => {
      await client.close();
      await other.close();
    });

    async function call(name: string, args: Json, c = client): Promise<CallToolResult & { structuredContent: Json }> {
      const result = (await c.callTool({ name, arguments: args })) as CallToolResult & { structuredContent: Json };
      assert.equal(result.content.length, 1, JSON.stringify(result));
      assert.equal(result.content[0]!.type, 'text');
      return result;
    }

    async function ok(name: string, args: Json, c = client): Promise<{ data: Json; text: string }> {
      const result = await call(name, args, c);
      assert.ok(!result.isError, JSON.stringify(result));
      return { data: result.structuredContent, text: (result.content[0] as { text: string }).text };
    }

    async function refused(name: string, args: Json, code: string, status: number, c = client): Promise<Json> {
      const result = await call(name, args, c);
      assert.equal(result.isError, true, JSON.stringify(result));
      const problemBody = result.structuredContent;
      assert.equal(problemBody.code, code, JSON.stringify(problemBody));
      assert.equal(problemBody.status, status);
      assert.ok(problemBody.title && problemBody.detail);
      assert.equal((result.content[0] as { text: string }).text, `${code}: ${problemBody.detail}`);
      // The REST API's problem document, whole.
      assert.ok(String(problemBody.type).endsWith(`/problems/${code}`), problemBody.type);
      assert.match(problemBody.request_id, /^req_/);
      return problemBody;
    }

    test('lists the 18 tools, with standalone object schemas and annotations', async () => {
      const { tools } = await client.listTools();
      assert.deepEqual(tools.map((t) => t.name).sort(), [...toolNames].sort());
      const byName = new Map(tools.map((t) => [t.name, t]));
      for (const tool of tools) {
        assert.equal(tool.inputSchema.type, 'object', tool.name);
        assert.equal(tool.inputSchema.additionalProperties, false, tool.name);
        assert.equal(tool.outputSchema?.type, 'object', tool.name);
        assert.ok(!JSON.stringify(tool).includes('"$ref"'), `${tool.name} refers to a schema the client cannot resolve`);
        assert.ok(tool.description, tool.name);
      }
      const required = (name: string) => [...((byName.get(name)!.inputSchema.required as string[] | undefined) ?? [])].sort();
      const properties = (name: string) => Object.keys(byName.get(name)!.inputSchema.properties ?? {}).sort();
      assert.deepEqual(required('get_order'), ['id']);
      assert.deepEqual(required('update_order'), ['id']);
      assert.ok(properties('update_order').includes('ship_to') && properties('update_order').includes('parcel'));
      assert.deepEqual(required('void_label'), ['order_id']);
      assert.deepEqual(required('buy_label'), ['order_id']);
      assert.deepEqual(properties('buy_label'), ['idempotency_key', 'insurance', 'label_format', 'label_resolution', 'label_size', 'metadata', 'options', 'order_id', 'rate_id', 'references', 'ship_date']);
      assert.deepEqual(required('create_order'), ['ship_to']);
      assert.ok(properties('create_order').includes('idempotency_key'));
      assert.deepEqual(required('create_return_label'), ['order_id']);
      assert.deepEqual(required('validate_address'), ['address']);
      assert.deepEqual(properties('get_rates'), ['carriers', 'customs', 'insurance', 'options', 'order_id', 'package_id', 'parcel', 'parcels', 'services', 'ship_date', 'ship_from', 'ship_from_id', 'ship_to']);
      assert.ok(properties('create_order').includes('customs') && properties('update_order').includes('customs'));
      assert.ok(properties('list_orders').includes('limit') && properties('list_orders').includes('status'));
      // The address schema is inlined whole, so a client can fill it in.
      const shipTo = (byName.get('create_order')!.inputSchema.properties as Json).ship_to;
      assert.equal(shipTo.type, 'object');
      // state and zip are required of a US address (the default country), and in each country's form elsewhere.
      assert.deepEqual(shipTo.then.required, ['state', 'zip']);

      for (const name of ['get_order', 'list_orders', 'get_shipment', 'list_carriers', 'list_packages', 'list_ship_from', 'validate_address', 'get_rates', 'track_shipment']) {
        assert.equal(byName.get(name)!.annotations?.readOnlyHint, true, name);
      }
      for (const name of ['void_label', 'cancel_order']) {
        const a = byName.get(name)!.annotations!;
        assert.deepEqual([a.readOnlyHint, a.destructiveHint, a.idempotentHint], [false, true, true], name);
      }
      for (const name of ['buy_label', 'create_return_label']) {
        const tool = byName.get(name)!;
        assert.deepEqual([tool.annotations!.readOnlyHint, tool.annotations!.destructiveHint, tool.annotations!.idempotentHint], [false, false, false], name);
        assert.match(tool.description!, /live mode/);
        assert.match(tool.description!, /spends money/);
        assert.match(tool.description!, /idempotency_key/);
      }
      assert.equal(byName.get('create_order')!.annotations!.idempotentHint, false);
      assert.equal(byName.get('update_order')!.annotations!.idempotentHint, true);
    });

    test('the push flow: create_order → get_rates → buy_label (twice, one label) → track_shipment → void_label', async () => {
      const tag = transport.name.replace(/\W/g, '-');
      const created = await ok('create_order', { ...orderBody(), idempotency_key: `order-${tag}` });
      const order = created.data;
      assert.match(order.id, /^ord_/);
      assert.equal(created.text, `Order ${order.id} created (incomplete)`);
      // The same JSON the REST API answers.
      const rest = await server.request('GET', `/orders/${order.id}`, { key });
      assert.deepEqual(order, rest.body);

      const rates = (await ok('get_rates', { order_id: order.id })).data;
      assert.equal(rates.object, 'rate_shop');
      // The surcharges each rate includes, as REST answers them; the summary names the cheapest one's.
      const ups = rates.rates.find((r: Json) => r.carrier === 'ups' && r.service === '03');
      assert.deepEqual(ups.surcharges.map((s: Json) => s.type), ['fuel', 'residential']);
      const line = (await ok('get_rates', { order_id: order.id, carriers: ['ups'], services: ['03'] })).text;
      assert.match(line, / at \d+\.\d{2} USD including fuel \d+\.\d{2}, residential \d+\.\d{2} \(rate_/);
      const chosen = rates.rates.find((r: Json) => r.carrier === 'usps' && r.service === 'PRIORITY_MAIL');
      assert.ok(chosen, JSON.stringify(rates));

      const purchase = { order_id: order.id, rate_id: chosen.id, idempotency_key: `buy-${tag}` };
      const bought = await ok('buy_label', purchase);
      const shipment = bought.data;
      assert.match(shipment.id, /^shp_/);
      assert.equal(shipment.status, 'purchased');
      assert.equal(shipment.rate_id, chosen.id);
      assert.match(bought.text, new RegExp(`^Label ${shipment.id} bought: usps Priority Mail, tracking \\S+ \\(purchased\\)$`));

      const again = await ok('buy_label', purchase);
      assert.equal(again.data.id, shipment.id);
      assert.match(again.text, /replayed/);
      // One key space with the REST API: the same key and body there replays the label bought here.
      const viaRest = await server.request('POST', '/shipments', {
        key,
        headers: { 'idempotency-key': purchase.idempotency_key },
        body: { order_id: order.id, rate_id: chosen.id },
      });
      assert.equal(viaRest.status, 201, viaRest.text);
      assert.equal(viaRest.headers.get('idempotent-replayed'), 'true');
      assert.equal(viaRest.body.id, shipment.id);
      const shipments = await server.request('GET', `/shipments?order_id=${order.id}`, { key });
      assert.equal(shipments.body.data.length, 1);

      assert.deepEqual((await ok('get_shipment', { id: shipment.id })).data.id, shipment.id);
      const tracker = (await ok('track_shipment', { order_id: order.id })).data;
      assert.equal(tracker.object, 'tracker');
      assert.equal(tracker.shipment_id, shipment.id);
      assert.equal(tracker.status, 'pre_transit');

      const voided = await ok('void_label', { order_id: order.id });
      assert.equal(voided.data.id, shipment.id);
      assert.equal(voided.data.status, 'voided');
      assert.match(voided.text, /voided/);
      assert.equal((await ok('get_order', { id: order.id })).data.status, 'incomplete');
      await refused('void_label', { order_id: order.id }, 'shipment_already_voided', 409);
    });

    test('abroad: create_order to Toronto with customs → get_rates → buy_label answers the customs documents and names them', async () => {
      const created = (await ok('create_order', torontoOrderBody())).data;
      assert.equal(created.ship_to.country, 'CA');
      assert.equal(created.customs.items[0].hs_tariff_number, '691200');
      assert.equal(created.customs.items[0].description, 'Ceramic mug', 'the declaration is built from the line item');

      const shop = await ok('get_rates', { order_id: created.id });
      const carriers = new Set(shop.data.rates.map((r: Json) => r.carrier));
      assert.ok(carriers.has('usps') && carriers.has('fedex'), JSON.stringify(shop.data));
      assert.deepEqual(shop.data.errors.map((e: Json) => e.carrier), ['ups']);
      assert.match(shop.text, /1 carrier\(s\) could not rate$/);

      const fedex = shop.data.rates.find((r: Json) => r.carrier === 'fedex');
      const bought = await ok('buy_label', { order_id: created.id, rate_id: fedex.id, idempotency_key: `abroad-${transport.name}` });
      const shipment = bought.data;
      assert.deepEqual(shipment.documents.map((d: Json) => [d.type, d.format]), [['commercial_invoice', 'pdf']]);
      assert.match(bought.text, new RegExp(`^Label ${shipment.id} bought: fedex .+ \\(purchased\\); customs documents: commercial_invoice$`));
      const rest = await server.request('GET', `/shipments/${shipment.id}`, { key });
      assert.deepEqual(shipment.documents.map((d: Json) => d.type), rest.body.documents.map((d: Json) => d.type));

      const url = new URL(shipment.documents[0].url);
      const file = await fetch(`${server.url}${url.pathname}${url.search}`);
      assert.equal(file.status, 200);
      assert.equal(file.headers.get('content-type'), 'application/pdf');
      assert.equal(Buffer.from(await file.arrayBuffer()).subarray(0, 5).toString(), '%PDF-');
    });

    test('update_order, then a return label for a shipped order', async () => {
      const order = (await ok('create_order', orderBody())).data;
      const updated = await ok('update_order', { id: order.id, notes: 'leave at the door', metadata: { gift: 'yes' } });
      assert.equal(updated.text, `Order ${order.id} updated (incomplete)`);
      assert.equal(updated.data.notes, 'leave at the door');
      const outbound = (await ok('buy_label', { order_id: order.id, idempotency_key: `ret-out-${transport.name}` })).data;
      const returned = await ok('create_return_label', { order_id: order.id, idempotency_key: `ret-${transport.name}` });
      assert.equal(returned.data.is_return, true);
      assert.notEqual(returned.data.id, outbound.id);
      assert.match(returned.text, /^Return label shp_\S+ bought/);
      assert.equal((await ok('create_return_label', { order_id: order.id, idempotency_key: `ret-${transport.name}` })).data.id, returned.data.id);
      await refused('update_order', { id: order.id, notes: 'too late' }, 'order_not_editable', 409);
    });

    test('a key revoked during the session stops working at once', async () => {
      const doomed = await server.key(await server.account());
      const session = await transport.connect(doomed.secret);
      try {
        assert.ok(!(await call('list_carriers', {}, session)).isError);
        const revoke = await server.cli(['keys', 'revoke', doomed.id]);
        assert.equal(revoke.code, 0, revoke.stderr);
        if (transport.name === 'stdio') {
          await refused('list_carriers', {}, 'revoked_api_key', 401, session);
        } else {
          // Over HTTP every message is a request of its own, refused at the door like any API request.
          await assert.rejects(session.callTool({ name: 'list_carriers', arguments: {} }), /401/);
        }
      } finally {
        await session.close();
      }
    });

    test('buy_label on a cancelled order is a tool error with the REST code; the session goes on', async () => {
      const order = (await ok('create_order', orderBody())).data;
      const cancelled = await ok('cancel_order', { id: order.id });
      assert.equal(cancelled.text, `Order ${order.id} cancelled (cancelled)`);
      const refusal = await refused('buy_label', { order_id: order.id, idempotency_key: `cancelled-${transport.name}` }, 'order_not_purchasable', 409);
      problem(await server.request('POST', '/shipments', { key, body: { order_id: order.id } }), 409, refusal.code);
      // The refusal is the key's answer, through either transport.
      const retried = await server.request('POST', '/shipments', {
        key,
        headers: { 'idempotency-key': `cancelled-${transport.name}` },
        body: { order_id: order.id },
      });
      problem(retried, 409, 'order_not_purchasable');
      assert.equal(retried.headers.get('idempotent-replayed'), 'true');
      assert.equal((await client.listTools()).tools.length, toolNames.length);
    });

    test('bad input is validation_failed naming each field, as the REST API names them', async () => {
      const bad = await refused('create_order', orderBody({ ship_to: { street1: '1 Main St', city: 'X', state: 'CA', zip: 'nope' }, colour: 'red' }), 'validation_failed', 400);
      const pointers = bad.errors.map((e: Json) => `${e.in} ${e.pointer}`).sort();
      assert.deepEqual(pointers, ['body /colour', 'body /ship_to/zip']);
      const missing = await refused('get_order', {}, 'validation_failed', 400);
      assert.deepEqual(missing.errors, [{ in: 'path', pointer: '/id', detail: 'is required' }]);
      await refused('list_orders', { limit: '5' }, 'validation_failed', 400);
      await refused('update_order', { id: 'ord_x' }, 'validation_failed', 400);
      const nul = await refused('create_order', orderBody({ notes: 'a\u0000b' }), 'validation_failed', 400);
      assert.deepEqual(nul.errors.map((e: Json) => e.pointer), ['/notes']);
      const half = await refused('create_order', orderBody({ notes: 'a\ud83d' }), 'validation_failed', 400);
      assert.deepEqual(half.errors.map((e: Json) => e.pointer), ['/notes']);
      const huge = await refused('create_order', orderBody({ items: Array.from({ length: 1001 }, () => 0) }), 'validation_failed', 400);
      assert.deepEqual(huge.errors, [{ in: 'body', pointer: '/items', detail: 'must NOT have more than 1000 items' }]);
      const item = Object.fromEntries(Array.from({ length: 20 }, (_, i) => [`k${i}`, 0]));
      const wrong = await refused('create_order', orderBody({ items: Array.from({ length: 500 }, () => item) }), 'validation_failed', 400);
      assert.equal(wrong.errors.length, 100);
      assert.match(wrong.detail, / and 11497 more$/);
      await refused('buy_label', { order_id: 'ord_x', idempotency_key: 'tab\there' }, 'invalid_idempotency_key', 400);
    });

    test("a key sees only its own orders, as through REST", async () => {
      const mine = (await ok('create_order', orderBody())).data;
      const theirs = (await ok('create_order', orderBody(), other)).data;
      await refused('get_order', { id: theirs.id }, 'not_found', 404);
      await refused('cancel_order', { id: theirs.id }, 'not_found', 404);
      await refused('buy_label', { order_id: theirs.id }, 'not_found', 404);
      await refused('track_shipment', { order_id: theirs.id }, 'not_found', 404);
      problem(await server.request('GET', `/orders/${theirs.id}`, { key }), 404, 'not_found');
      const listed = (await ok('list_orders', { limit: 100 })).data;
      const ids = listed.data.map((o: Json) => o.id);
      assert.ok(ids.includes(mine.id));
      assert.ok(!ids.includes(theirs.id));
      assert.deepEqual((await ok('get_order', { id: theirs.id }, other)).data.id, theirs.id);
    });

    test('trackers: create_tracker follows a number once, list_trackers and get_tracker show it, to its key only', async () => {
      const number = fedexTrackingNumber(String(randomInt(10_000_000_000, 99_999_999_999)));
      const made = await ok('create_tracker', { tracking_number: number, metadata: { via: 'mcp' }, idempotency_key: `follow-${number}` });
      assert.equal(made.data.object, 'tracker');
      assert.deepEqual([made.data.carrier, made.data.origin, made.data.shipment_id, made.data.metadata], ['fedex', 'external', null, { via: 'mcp' }]);
      assert.equal(made.text, `Tracker ${made.data.id} created: fedex ${number}: pre_transit (Shipping label created, awaiting item)`);
      assert.equal((await ok('create_tracker', { tracking_number: number })).data.id, made.data.id);
      const listed = (await ok('list_trackers', { carrier: 'fedex', limit: 100 })).data;
      assert.ok(listed.data.some((t: Json) => t.id === made.data.id));
      assert.deepEqual((await ok('get_tracker', { id: made.data.id })).data, made.data);
      await refused('get_tracker', { id: made.data.id }, 'tracker_not_found', 404, other);
      assert.ok(!(await ok('list_trackers', { limit: 100 }, other)).data.data.some((t: Json) => t.id === made.data.id));
      const bad = await refused('create_tracker', { tracking_number: '12345678' }, 'validation_failed', 400);
      assert.deepEqual(bad.errors.map((e: Json) => e.pointer), ['/tracking_number']);
    });

    test('the account resources: carriers, packages, ship-from, address validation', async () => {
      const carriers = await ok('list_carriers', {});
      assert.deepEqual(carriers.data.data.map((c: Json) => c.id).sort(), ['fedex', 'ups', 'usps']);
      assert.equal(carriers.text, '3 result(s)');
      assert.ok((await ok('list_packages', { carrier: 'usps' })).data.data.length > 0);
      assert.equal((await ok('list_ship_from', {})).data.object, 'list');
      const checked = await ok('validate_address', { address: { street1: '415 mission street', city: 'san francisco', state: 'ca', zip: '94105' } });
      assert.equal(checked.data.valid, true);
      assert.match(checked.text, /^The address is valid/);
    });
  });
}

describe('the MCP endpoint over HTTP', () => {
  test('without a key: a 401 problem, as every API route', async () => {
    const res = await server.request('POST', '/mcp', {
      headers: { accept: 'application/json, text/event-stream' },
      body: { jsonrpc: '2.0', id: 1, method: 'tools/list' },
    });
    problem(res, 401, 'missing_api_key');
    problem(await server.request('POST', '/mcp', { key: 'svc_test_nope', body: {} }), 401, 'malformed_api_key');
  });

  test('GET and DELETE answer 405: the server is stateless, with no stream or session', async () => {
    const res = await server.request('GET', '/mcp', { key });
    problem(res, 405, 'method_not_allowed');
    assert.equal(res.headers.get('allow'), 'POST');
    problem(await server.request('DELETE', '/mcp', { key }), 405, 'method_not_allowed');
  });

  test('carries the request id and rate-limit headers like every API answer', async () => {
    const res = await server.request('POST', '/mcp', {
      key,
      headers: { accept: 'application/json, text/event-stream', 'x-request-id': 'mcp-test-1' },
      body: { jsonrpc: '2.0', id: 1, method: 'ping' },
    });
    assert.equal(res.status, 200, res.text);
    assert.equal(res.headers.get('x-request-id'), 'mcp-test-1');
    assert.ok(res.headers.get('ratelimit'));
  });

  test('refuses a JSON-RPC batch, which would run many calls on one rate-limit token, and runs none of it', async () => {
    const before = (await server.request('GET', '/orders?limit=100', { key })).body.data.length;
    const batch = Array.from({ length: 5 }, (_, i) => ({ jsonrpc: '2.0', id: i, method: 'tools/call', params: { name: 'create_order', arguments: { ...orderBody(), order_number: `batch-${i}` } } }));
    const res = await server.request('POST', '/mcp', { key, headers: { accept: 'application/json, text/event-stream' }, body: batch });
    assert.equal(res.status, 400, res.text);
    assert.equal(res.body.error.code, -32600);
    assert.equal((await server.request('GET', '/orders?limit=100', { key })).body.data.length, before);
  });

  test('malformed tool-call params are -32602 Invalid params, not an internal error', async () => {
    const call = (params: unknown) =>
      server.request('POST', '/mcp', { key, headers: { accept: 'application/json, text/event-stream' }, body: { jsonrpc: '2.0', id: 7, method: 'tools/call', params } });
    for (const params of [{ name: 'list_orders', arguments: [] }, { name: 'list_orders', arguments: null }, { name: {} }, undefined]) {
      const res = await call(params);
      assert.equal(res.status, 200, res.text);
      assert.equal(res.body.error?.code, -32602, `${JSON.stringify(params)}: ${res.text}`);
    }
    const fine = await call({ name: 'list_orders', arguments: {} });
    assert.equal(fine.body.result?.isError, undefined, fine.text);
  });

  test('is not an operation of the OpenAPI document', async () => {
    const doc = await server.request('GET', '/openapi.json');
    assert.ok(!Object.keys(doc.body.paths).some((p) => p.endsWith('/mcp')));
  });
});

describe('shipd mcp', () => {
  test('refuses to start without SHIPD_API_KEY, or with a key the API refuses', async () => {
    const missing = await server.cli(['mcp']);
    assert.equal(missing.code, 1);
    assert.match(missing.stderr, /SHIPD_API_KEY/);
    assert.equal(missing.stdout, '');

    const unknown = await server.cli(['mcp'], { SHIPD_API_KEY: key.slice(0, -8) + 'abcdefgh' });
    assert.equal(unknown.code, 1);
    assert.match(unknown.stderr, /SHIPD_API_KEY is refused \((invalid_api_key_checksum|unknown_api_key)\)/);

    const revokedKey = await server.key(await server.account());
    const revoke = await server.cli(['keys', 'revoke', revokedKey.id]);
    assert.equal(revoke.code, 0, revoke.stderr);
    const revoked = await server.cli(['mcp'], { SHIPD_API_KEY: revokedKey.secret });
    assert.equal(revoked.code, 1);
    assert.match(revoked.stderr, /SHIPD_API_KEY is refused \(revoked_api_key\)/);
    assert.equal(revoked.stdout, '');
  });

  test('started where there is no shipd database, it says so and creates none, instead of refusing the key as unknown', async () => {
    const elsewhere = join(tmpdir(), `shipd-mcp-elsewhere-${process.pid}-${Date.now()}`);
    const res = await server.cli(['mcp'], { SHIPD_API_KEY: key, SHIPD_DATA_DIR: elsewhere, DATABASE_URL: '' });
    assert.equal(res.code, 1);
    assert.match(res.stderr, new RegExp(`there is no shipd database at ${elsewhere}/shipd\\.db: shipd mcp must use the database of the shipd that made the key`));
    assert.equal(existsSync(join(elsewhere, 'shipd.db')), false, 'no empty database was made');
    rmSync(elsewhere, { recursive: true, force: true });
  });

  test('refuses a key of an account without API access', async () => {
    const basic = await server.key(await server.account(undefined, 'basic'));
    const res = await server.cli(['mcp'], { SHIPD_API_KEY: basic.secret });
    assert.equal(res.code, 1);
    assert.match(res.stderr, /plan_without_api_access/);
  });
});
