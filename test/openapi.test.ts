import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { Validator } from '@seriousme/openapi-schema-validator';
import { operations } from '../src/operations/index.ts';
import { apiBase } from '../src/http/routes.ts';
import { startServer, type TestServer } from './harness.ts';

let server: TestServer;
before(async () => {
  server = await startServer();
});
after(() => server.close());

test('the document validates as OpenAPI 3.1', async () => {
  const res = await server.request('GET', '/openapi.json');
  assert.equal(res.status, 200);
  assert.equal(res.body.openapi, '3.1.0');
  const result = await new Validator().validate(res.body);
  assert.equal(result.valid, true, JSON.stringify(result.errors, null, 2));
});

test('it is served at both addresses, without auth, identically', async () => {
  const a = await server.request('GET', '/openapi.json');
  const b = await server.request('GET', `${apiBase}/openapi.json`);
  assert.equal(b.status, 200);
  assert.equal(a.text, b.text);
});

test('it lists every operation, and nothing else', async () => {
  const doc = (await server.request('GET', '/openapi.json')).body;
  const listed: string[] = [];
  for (const [path, item] of Object.entries(doc.paths as Record<string, Record<string, { operationId: string }>>)) {
    for (const [method, op] of Object.entries(item)) listed.push(`${method.toUpperCase()} ${path} ${op.operationId}`);
  }
  // No ops helper is enabled on this server, so none of theirs may be listed.
  const expected = operations.filter((op) => !op.feature).map((op) => `${op.method} ${apiBase}${op.path.replace(/:(\w+)/g, '{$1}')} ${op.id}`);
  // Label files are the one route outside the operation table: a signed URL, not an API key, opens them.
  expected.push(`GET ${apiBase}/labels/{file} getLabelFile`);
  assert.deepEqual(listed.sort(), expected.sort());
});

test('every operation has auth, a described answer, problem answers and a summary', async () => {
  const doc = (await server.request('GET', '/openapi.json')).body;
  assert.deepEqual(Object.keys(doc.components.securitySchemes).sort(), ['apiKeyHeader', 'bearerAuth']);
  assert.ok(doc.components.schemas.Problem, 'the Problem schema is a named component');
  assert.ok(doc.components.schemas.Problem.examples?.length, 'the Problem schema has an example');
  for (const item of Object.values(doc.paths as Record<string, Record<string, Record<string, unknown>>>)) {
    for (const op of Object.values(item)) {
      assert.ok(op.summary, `${op.operationId} has a summary`);
      if (op.operationId === 'getLabelFile') {
        assert.deepEqual(op.security, [], 'label files take no API key');
        const responses = op.responses as Record<string, unknown>;
        for (const status of ['200', '400', '403', '404', '410', '414', '500', '503']) assert.ok(responses[status], `getLabelFile ${status}`);
        continue;
      }
      assert.deepEqual(op.security, [{ bearerAuth: [] }, { apiKeyHeader: [] }]);
      const responses = op.responses as Record<string, { description: string; content: Record<string, { schema: unknown }> }>;
      for (const status of ['400', '401', '403', '429', '500']) {
        assert.deepEqual(responses[status]?.content['application/problem+json']?.schema, { $ref: '#/components/schemas/Problem' }, `${op.operationId} ${status}`);
      }
      // Answers the framework gives before the operation runs: a path parameter over 100 characters, and a body too
      // large or not JSON on any method that may carry one.
      const [path, method] = Object.entries(doc.paths as Record<string, Record<string, unknown>>).flatMap(([p, i]) => Object.entries(i).filter(([, o]) => o === op).map(([m]) => [p, m]))[0]!;
      if (path!.includes('{')) assert.ok(responses['414'], `${op.operationId} 414`);
      if (method !== 'get') for (const status of ['413', '415']) assert.ok(responses[status], `${op.operationId} ${status}`);
      const success = Object.entries(responses).find(([s]) => s.startsWith('2'));
      assert.ok(success, `${op.operationId} has a success answer`);
      assert.notEqual(success[1].description, 'Default Response');
    }
  }
});
