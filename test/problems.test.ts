import { errorCodes } from '../src/kernel/errors.ts';
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { Type } from '@sinclair/typebox';
import { connect } from 'node:net';
import { operations } from '../src/operations/index.ts';
import { defineOperation } from '../src/operations/operation.ts';
import { problem, startServer, type TestServer } from './harness.ts';
import { orderBody } from './fixtures.ts';

// Routes that exist only in this test: one that takes a body, one with a bug.
const echo = defineOperation({
  id: 'testEcho',
  method: 'POST',
  path: '/test/echo',
  tag: 'Test',
  summary: 'Echo',
  description: 'Answers the name and count it was sent.',
  body: Type.Object(
    { name: Type.String({ minLength: 1 }), count: Type.Integer({ minimum: 1 }), nested: Type.Optional(Type.Object({ zip: Type.String({ pattern: '^[0-9]{5}$' }) }, { additionalProperties: false })) },
    { additionalProperties: false },
  ),
  response: Type.Object({ name: Type.String(), count: Type.Integer() }),
  responseDescription: 'The body',
  errors: [],
  handler: async (_ctx, { body }) => ({ name: body.name, count: body.count }),
});
const broken = defineOperation({
  id: 'testBroken',
  method: 'GET',
  path: '/test/broken',
  tag: 'Test',
  summary: 'Throws',
  description: 'Throws an error that is not an ApiError, as a bug would.',
  response: Type.Object({}),
  responseDescription: 'Never',
  errors: [],
  handler: async () => {
    throw new Error('secret internals: connection string postgres://admin:hunter2@db');
  },
});

const databaseDown = defineOperation({
  id: 'testDatabaseDown',
  method: 'GET',
  path: '/test/database-down',
  tag: 'Test',
  summary: 'Fails as a lost database connection does',
  description: 'Throws the error a lost database connection throws.',
  response: Type.Object({}),
  responseDescription: 'Never',
  errors: [],
  handler: async () => {
    throw Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' });
  },
});

let server: TestServer;
let key: string;
const auth = () => ({ authorization: `Bearer ${key}` });

before(async () => {
  server = await startServer({ operations: [...operations, echo, broken, databaseDown] });
  key = (await server.key(await server.account())).secret;
});
after(() => server.close());

/** Writes bytes no HTTP client would send, and reads the answer up to the close. */
function onTheWire(request: string): Promise<{ status: number; headers: Record<string, string>; text: string }> {
  const { port } = new URL(server.url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), '127.0.0.1');
    const chunks: Buffer[] = [];
    socket.on('data', (c: Buffer) => chunks.push(c));
    socket.on('error', reject);
    socket.on('close', () => {
      const [head = '', text = ''] = Buffer.concat(chunks).toString('utf8').split(/\r\n\r\n(.*)/s);
      const [statusLine = '', ...lines] = head.split('\r\n');
      const headers = Object.fromEntries(lines.map((l) => [l.slice(0, l.indexOf(':')).toLowerCase(), l.slice(l.indexOf(':') + 1).trim()]));
      resolve({ status: Number(statusLine.split(' ')[1]), headers, text });
    });
    socket.end(request, 'latin1');
  });
}

describe('malformed requests get problem answers, and the process stays up', () => {
  test('an unknown route is 404 route_not_found', async () => {
    problem(await server.request('GET', '/nothing-here', { key }), 404, 'route_not_found');
    problem(await server.raw('GET', '/nothing-at-the-root'), 404, 'route_not_found');
  });

  test('a known route with another method is 405 with Allow', async () => {
    const res = await server.request('DELETE', '/carriers', { key });
    problem(res, 405, 'method_not_allowed');
    assert.equal(res.headers.get('allow'), 'GET, HEAD');
    problem(await server.request('PUT', '/test/echo', { key, body: {} }), 405, 'method_not_allowed');
  });

  test('a body over 1 MiB is 413', async () => {
    const body = JSON.stringify({ name: 'x'.repeat(1_100_000), count: 1 });
    problem(await server.raw('POST', '/api/integrations/v1/test/echo', { headers: { ...auth(), 'content-type': 'application/json' }, body }), 413, 'payload_too_large');
  });

  test('a body that is not JSON is 415', async () => {
    for (const type of ['text/plain', 'application/x-www-form-urlencoded', 'application/xml', 'multipart/form-data; boundary=x']) {
      problem(await server.raw('POST', '/api/integrations/v1/test/echo', { headers: { ...auth(), 'content-type': type }, body: 'name=x' }), 415, 'unsupported_media_type');
    }
  });

  test('malformed JSON is 400 malformed_json', async () => {
    for (const body of ['{"name": "x",', '{name: 1}', "{'a':1}", 'nul', '{"a":1}}']) {
      problem(await server.raw('POST', '/api/integrations/v1/test/echo', { headers: { ...auth(), 'content-type': 'application/json' }, body }), 400, 'malformed_json');
    }
  });

  test('an empty JSON body is 400 malformed_json', async () => {
    problem(await server.raw('POST', '/api/integrations/v1/test/echo', { headers: { ...auth(), 'content-type': 'application/json' }, body: '' }), 400, 'malformed_json');
  });

  test('prototype poisoning is refused', async () => {
    const body = '{"name":"x","count":1,"__proto__":{"admin":true}}';
    const res = await server.raw('POST', '/api/integrations/v1/test/echo', { headers: { ...auth(), 'content-type': 'application/json' }, body });
    assert.equal(res.status, 400);
    assert.equal(JSON.parse(res.text).code, 'malformed_json');
  });

  test('unknown body fields are 400, each named by pointer', async () => {
    const res = await server.request('POST', '/test/echo', { key, body: { name: 'x', count: 1, colour: 'red', nested: { zip: '12345', plus4: '1' } } });
    const p = problem(res, 400, 'validation_failed');
    assert.deepEqual(
      p.errors.map((e: { pointer: string }) => e.pointer).sort(),
      ['/colour', '/nested/plus4'],
    );
    assert.ok(p.errors.every((e: { in: string; detail: string }) => e.in === 'body' && e.detail === 'is not a known field'));
    assert.match(p.detail, /\/colour is not a known field/);
  });

  test('every invalid field is named, and JSON types are not coerced', async () => {
    const p = problem(await server.request('POST', '/test/echo', { key, body: { count: '2', nested: { zip: 'abc' } } }), 400, 'validation_failed');
    const byPointer = Object.fromEntries(p.errors.map((e: { pointer: string; detail: string }) => [e.pointer, e.detail]));
    assert.equal(byPointer['/name'], 'is required');
    assert.equal(byPointer['/count'], 'must be integer');
    assert.match(byPointer['/nested/zip'], /must match pattern/);
  });

  test('a body that is not an object is 400', async () => {
    problem(await server.request('POST', '/test/echo', { key, body: [1, 2] }), 400, 'validation_failed');
    problem(await server.request('POST', '/test/echo', { key, body: 'text' }), 400, 'validation_failed');
  });

  test('unknown query parameters are 400 naming them', async () => {
    const p = problem(await server.request('GET', '/carriers?colour=red', { key }), 400, 'validation_failed');
    assert.deepEqual(p.errors, [{ in: 'query', pointer: '/colour', detail: 'is not a known field' }]);
  });

  test('a body that passes gets through', async () => {
    const res = await server.request('POST', '/test/echo', { key, body: { name: 'x', count: 2 } });
    assert.equal(res.status, 200);
    assert.deepEqual(res.body, { name: 'x', count: 2 });
  });

  test('authentication comes before the body is read', async () => {
    problem(await server.raw('POST', '/api/integrations/v1/test/echo', { headers: { 'content-type': 'application/json' }, body: '{bad' }), 401, 'missing_api_key');
  });

  test('a bug is a 500 problem with the request id and no internals', async () => {
    const res = await server.request('GET', '/test/broken', { key, headers: { 'x-request-id': 'trace-abc-123' } });
    const p = problem(res, 500, 'internal_error');
    assert.equal(p.request_id, 'trace-abc-123');
    assert.ok(!res.text.includes('hunter2') && !res.text.includes('internals') && !res.text.includes('stack'));
    assert.ok(server.logs.some((l) => l.includes('trace-abc-123') && l.includes('"level":50')), 'the failure is logged with its request id');
  });

  test('a database that cannot be reached is a 503 with Retry-After, not a 500', async () => {
    const res = await server.request('GET', '/test/database-down', { key });
    problem(res, 503, 'service_unavailable');
    assert.equal(res.headers.get('retry-after'), '5');
    assert.ok(!res.text.includes('5432'));
  });

  test('a NUL character anywhere is a 400 naming where, on either database', async () => {
    const json = { ...auth(), 'content-type': 'application/json' };
    const inValue = problem(await server.raw('POST', '/api/integrations/v1/test/echo', { headers: json, body: '{"name":"a\\u0000b","count":1}' }), 400, 'validation_failed');
    assert.deepEqual(inValue.errors, [{ in: 'body', pointer: '/name', detail: 'must not contain the NUL character (\\u0000)' }]);
    const inKey = problem(await server.raw('POST', '/api/integrations/v1/test/echo', { headers: json, body: '{"name":"a","count":1,"nested":{"x\\u0000":"1"}}' }), 400, 'validation_failed');
    assert.equal(inKey.errors[0].pointer, '/nested/x\u0000');
    const escapedBackslash = await server.raw('POST', '/api/integrations/v1/test/echo', { headers: json, body: '{"name":"a\\\\u0000","count":1}' });
    assert.equal(escapedBackslash.status, 200, 'a backslash followed by u0000 is just text');
    const inQuery = problem(await server.request('GET', '/orders?order_number=%00', { key }), 400, 'validation_failed');
    assert.deepEqual(inQuery.errors[0], { in: 'query', pointer: '/order_number', detail: 'must not contain the NUL character (\\u0000)' });
    const inPath = problem(await server.request('GET', '/events/evt%00', { key }), 400, 'validation_failed');
    assert.deepEqual(inPath.errors[0].in, 'path');
  });

  test('half of a character (a lone UTF-16 surrogate) is a 400 naming where, on either database; a whole one is stored as sent', async () => {
    const json = { ...auth(), 'content-type': 'application/json' };
    const detail = 'must not contain half of a character: \\uD800 to \\uDFFF must come in pairs that make one character, as in \\uD83D\\uDE00 (😀)';
    for (const half of ['\\ud83d', '\\uDE00', '\\ude00\\ud83d']) {
      const inValue = problem(await server.raw('POST', '/api/integrations/v1/test/echo', { headers: json, body: `{"name":"Ada ${half}","count":1}` }), 400, 'validation_failed');
      assert.deepEqual(inValue.errors, [{ in: 'body', pointer: '/name', detail }], half);
    }
    const inKey = problem(await server.raw('POST', '/api/integrations/v1/test/echo', { headers: json, body: '{"name":"a","count":1,"nested":{"x\\ud800":"1"}}' }), 400, 'validation_failed');
    assert.equal(inKey.errors[0].pointer, '/nested/x\ud800');
    const inOrder = problem(await server.raw('POST', '/api/integrations/v1/orders', { headers: json, body: JSON.stringify(orderBody()).replace('"Ada Lovelace"', '"Ada \\ud83d"') }), 400, 'validation_failed');
    assert.deepEqual(inOrder.errors, [{ in: 'body', pointer: '/ship_to/name', detail }]);
    const whole = await server.raw('POST', '/api/integrations/v1/orders', { headers: json, body: JSON.stringify(orderBody()).replace('"Ada Lovelace"', '"Ada \\ud83d\\ude00 \\\\ud83d"') });
    assert.equal(whole.status, 201, whole.text);
    const stored = await server.request('GET', `/orders/${JSON.parse(whole.text).id}`, { key });
    assert.equal(stored.body.ship_to.name, 'Ada 😀 \\ud83d', 'a pair, and a backslash before u, are text');
  });

  test('an array or object larger than any schema takes is refused before validation, naming where', async () => {
    const tooMany = Array.from({ length: 1001 }, (_, i) => i);
    const inArray = problem(await server.request('POST', '/orders', { key, body: orderBody({ items: tooMany }) }), 400, 'validation_failed');
    assert.deepEqual(inArray.errors, [{ in: 'body', pointer: '/items', detail: 'must NOT have more than 1000 items' }]);
    const wide = Object.fromEntries(Array.from({ length: 1001 }, (_, i) => [`k${i}`, '1']));
    const inObject = problem(await server.request('POST', '/test/echo', { key, body: { name: 'x', count: 1, nested: { 'a/b': [wide] } } }), 400, 'validation_failed');
    assert.deepEqual(inObject.errors, [{ in: 'body', pointer: '/nested/a~1b/0', detail: 'must NOT have more than 1000 properties' }]);
    const json = { ...auth(), 'content-type': 'application/json' };
    const deep = (inner: string) => '{"a":'.repeat(20_000) + inner + '}'.repeat(20_000);
    const deepArray = problem(await server.raw('POST', '/api/integrations/v1/test/echo', { headers: json, body: deep(JSON.stringify(tooMany)) }), 400, 'validation_failed');
    assert.deepEqual(deepArray.errors, [{ in: 'body', pointer: '/a'.repeat(20_000), detail: 'must NOT have more than 1000 items' }]);
    const deepNul = problem(await server.raw('POST', '/api/integrations/v1/test/echo', { headers: json, body: deep('"\\u0000"') }), 400, 'validation_failed');
    assert.deepEqual(deepNul.errors, [{ in: 'body', pointer: '/a'.repeat(20_000), detail: 'must not contain the NUL character (\\u0000)' }]);
  });

  test('a body wrong in thousands of places lists the first 100 and counts them all', async () => {
    // 1,000 line items of 100 unknown fields each: 103,001 errors in a 790 KB body.
    const item = Object.fromEntries(Array.from({ length: 100 }, (_, i) => [`k${i}`, 0]));
    const res = await server.request('POST', '/orders', { key, body: orderBody({ items: Array.from({ length: 1000 }, () => item) }) });
    const p = problem(res, 400, 'validation_failed');
    assert.equal(p.errors.length, 100);
    assert.deepEqual(p.errors[0], { in: 'body', pointer: '/items', detail: 'must NOT have more than 500 items' });
    assert.match(p.detail, / and 102998 more$/);
    assert.ok(res.text.length < 20_000, `the answer is ${res.text.length} bytes`);
  });

  test('routing errors are problems too: an over-long path parameter, a broken URL', async () => {
    const long = await server.raw('GET', `/api/integrations/v1/orders/ord_${'a'.repeat(300)}`, { headers: auth() });
    problem(long, 414, 'uri_too_long');
    assert.ok(long.headers['x-request-id']);
    problem(await server.raw('GET', '/api/integrations/v1/orders/%E0%A4%A', { headers: auth() }), 400, 'bad_request');
  });

  test("what Node's HTTP parser refuses is a problem too: broken header syntax, headers over 16 KB, an Expect it cannot meet", async () => {
    const broken = await onTheWire(`GET /api/integrations/v1/carriers HTTP/1.1\r\nHost: x\r\nX(bad): 1\r\n\r\n`);
    problem(broken, 400, 'bad_request');
    assert.match(String(broken.headers['x-request-id']), /^req_/);
    problem(await onTheWire(`GET /api/integrations/v1/carriers HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`), 431, 'headers_too_large');
    const body = JSON.stringify({ name: 'x', count: 1 });
    const expect = `POST /api/integrations/v1/test/echo HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${key}\r\nContent-Type: application/json\r\nExpect: 200-ok\r\nContent-Length: ${body.length}\r\n\r\n${body}`;
    problem(await onTheWire(expect), 417, 'expectation_failed');
  });

  test('an operation that takes no body refuses one, however deep, before its Idempotency-Key is looked at; {} passes', async () => {
    const path = `/webhooks/whk_${'0'.repeat(26)}/rotate-secret`;
    const headers = { 'idempotency-key': 'deep-1' };
    const deep = '{"a":'.repeat(10_000) + '{}' + '}'.repeat(10_000);
    const refused = problem(await server.raw('POST', `/api/integrations/v1${path}`, { headers: { ...auth(), ...headers, 'content-type': 'application/json' }, body: deep }), 400, 'validation_failed');
    assert.deepEqual(refused.errors, [{ in: 'body', pointer: '', detail: 'must be empty: this operation takes no body' }]);
    problem(await server.request('POST', path, { key, headers, body: { note: 'ignored?' } }), 400, 'validation_failed');
    problem(await server.request('POST', path, { key, headers, body: {} }), 404, 'not_found');
    problem(await server.request('POST', path, { key }), 404, 'not_found');
  });

  test('a client that hangs up in the middle of its body is not taken for a database outage', async () => {
    const { port } = new URL(server.url);
    const socket = connect(Number(port), '127.0.0.1');
    socket.write(
      `POST /api/integrations/v1/test/echo HTTP/1.1\r\nHost: x\r\nX-Request-Id: hung-up-1\r\nAuthorization: Bearer ${key}\r\n` +
        `Content-Type: application/json\r\nContent-Length: 100\r\n\r\n{"name":`,
    );
    await new Promise((resolve) => setTimeout(resolve, 200));
    socket.destroy();
    // The request has no answer to wait for; the server has had time to handle the hang-up.
    await new Promise((resolve) => setTimeout(resolve, 500));
    const lines = server.logs.filter((l) => l.includes('hung-up-1'));
    assert.deepEqual(lines.filter((l) => l.includes('"level":50') || l.includes('service_unavailable')), [], 'an error was logged');
  });

  test('the process is still up', async () => {
    assert.equal((await server.request('GET', '/healthz')).status, 200);
    assert.equal((await server.request('GET', '/carriers', { key })).status, 200);
  });
});

describe('request ids', () => {
  test('every answer carries X-Request-Id; a sent one is echoed', async () => {
    const made = await server.request('GET', '/carriers', { key });
    assert.match(made.headers.get('x-request-id') ?? '', /^req_[0-9a-f]{32}$/);
    const echoed = await server.request('GET', '/carriers', { key, headers: { 'x-request-id': 'my-id-42' } });
    assert.equal(echoed.headers.get('x-request-id'), 'my-id-42');
    const p = problem(await server.request('GET', '/nowhere', { headers: { 'x-request-id': 'lost-1' } }), 404, 'route_not_found');
    assert.equal(p.request_id, 'lost-1');
  });

  test('an unprintable or huge request id is replaced', async () => {
    const res = await server.request('GET', '/carriers', { key, headers: { 'x-request-id': 'x'.repeat(500) } });
    assert.match(res.headers.get('x-request-id') ?? '', /^req_/);
  });

  test('each problem type has a page', async () => {
    const res = await server.request('GET', '/problems/rate_limited');
    assert.equal(res.status, 200);
    assert.equal(res.body.status, 429);
    assert.match(res.body.meaning, /Too many requests/);
    assert.match(res.body.fix, /Retry-After/);
    for (const code of Object.keys(errorCodes)) {
      const page = (await server.request('GET', `/problems/${code}`)).body;
      assert.ok(page.meaning.length > 20 && page.fix.length > 10, `${code} explains itself and its fix`);
    }
    problem(await server.request('GET', '/problems/nope'), 404, 'not_found');
  });
});
