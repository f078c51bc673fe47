import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { Validator } from '@seriousme/openapi-schema-validator';
import { Ajv2020 } from 'ajv/dist/2020.js';
import * as ajvFormats from 'ajv-formats';
import { featureNames } from '../src/config.ts';
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

// What a client generator reads: descriptions, examples, named bodies and response headers. The checks run on a
// server with every ops helper on, so their operations and schemas are held to the same standard.

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the document is read as plain JSON
type Json = any;

// ajv-formats is CommonJS; under NodeNext its function arrives as the namespace's default.
const addFormats = ajvFormats.default as unknown as (ajv: Ajv2020) => Ajv2020;
const documentId = 'https://shipd.test/openapi.json';

let full: TestServer;
let doc: Json;
let ajv: Ajv2020;
before(async () => {
  full = await startServer({ env: { SHIPD_FEATURES: featureNames.join(','), SHIPD_RATE_LIMIT_PER_SECOND: '1', SHIPD_RATE_LIMIT_BURST: '3' } });
  doc = (await full.request('GET', '/openapi.json')).body;
  // OpenAPI 3.1 schemas are JSON Schema 2020-12; `#/components/schemas/…` resolves within the document.
  ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormats(ajv);
  ajv.addSchema({ ...doc, $id: documentId });
});
after(() => full.close());

interface Listed {
  name: string;
  path: string;
  method: string;
  op: Json;
}

function listedOperations(): Listed[] {
  return Object.entries(doc.paths as Record<string, Record<string, Json>>).flatMap(([path, item]) =>
    Object.entries(item).map(([method, op]) => ({ name: op.operationId as string, path, method, op })),
  );
}

const pointer = (...tokens: string[]) => '#' + tokens.map((t) => '/' + t.replace(/~/g, '~0').replace(/\//g, '~1')).join('');

/** The errors of `value` against the schema at `where` (a pointer into the document), or none. */
function invalid(where: string, value: unknown): string | undefined {
  const validate = ajv.getSchema(documentId + where) ?? ajv.compile({ $ref: documentId + where });
  return validate(value) ? undefined : ajv.errorsText(validate.errors);
}

/** The examples a media type offers: its own, else those of the named schema it refers to. */
function examplesOf(media: Json): unknown[] {
  if (media.example !== undefined) return [media.example];
  if (media.examples) return Object.values(media.examples as Record<string, { value: unknown }>).map((e) => e.value);
  const ref: string | undefined = media.schema?.$ref;
  return ref ? (doc.components.schemas[ref.replace('#/components/schemas/', '')]?.examples ?? []) : (media.schema?.examples ?? []);
}

test('every operation has a description that says more than its summary', () => {
  const bare = listedOperations().filter(({ op }) => typeof op.description !== 'string' || op.description.trim() === '' || op.description === op.summary);
  assert.deepEqual(bare.map((o) => o.name), [], `without a description: ${bare.map((o) => o.name).join(', ')}`);
});

test('every request body is a named schema, referenced', () => {
  const inline: string[] = [];
  for (const { name, op } of listedOperations()) {
    for (const [type, media] of Object.entries((op.requestBody?.content ?? {}) as Record<string, Json>)) {
      const ref: unknown = media.schema?.$ref;
      const named = typeof ref === 'string' && ref.startsWith('#/components/schemas/') && Object.keys(media.schema).length === 1;
      if (!named || !doc.components.schemas[ref.slice('#/components/schemas/'.length)]) inline.push(`${name} ${type}`);
    }
  }
  assert.deepEqual(inline, [], `inline bodies: ${inline.join(', ')}`);
});

test('every request body and JSON success answer has an example, and every example fits its schema', () => {
  const missing: string[] = [];
  const wrong: string[] = [];
  for (const { name, path, method, op } of listedOperations()) {
    const media: [string, string, Json][] = Object.entries((op.requestBody?.content ?? {}) as Record<string, Json>).map(([type, m]) => [`${name} request ${type}`, pointer('paths', path, method, 'requestBody', 'content', type, 'schema'), m]);
    for (const [status, response] of Object.entries(op.responses as Record<string, Json>)) {
      if (!status.startsWith('2')) continue;
      const json = response.content?.['application/json'];
      if (json) media.push([`${name} ${status}`, pointer('paths', path, method, 'responses', status, 'content', 'application/json', 'schema'), json]);
    }
    for (const [what, where, m] of media) {
      const examples = examplesOf(m);
      if (examples.length === 0) missing.push(what);
      for (const example of examples) {
        const errors = invalid(where, example);
        if (errors) wrong.push(`${what}: ${errors}`);
      }
    }
  }
  assert.deepEqual(missing, [], `without an example: ${missing.join(', ')}`);
  assert.deepEqual(wrong, [], `examples that do not fit:\n${wrong.join('\n')}`);
});

test('every example in the named schemas fits the schema it is given on', () => {
  const wrong: string[] = [];
  let checked = 0;
  const visit = (schema: Json, tokens: string[]) => {
    if (!schema || typeof schema !== 'object') return;
    if (Array.isArray(schema)) return schema.forEach((s, i) => visit(s, [...tokens, String(i)]));
    if (Array.isArray(schema.examples) && (schema.type || schema.properties || schema.$ref || schema.anyOf || schema.enum)) {
      for (const example of schema.examples) {
        checked++;
        const errors = invalid(pointer(...tokens), example);
        if (errors) wrong.push(`${tokens.join('/')}: ${JSON.stringify(example)} ${errors}`);
      }
    }
    for (const [key, value] of Object.entries(schema)) if (key !== 'examples' && key !== 'enum' && key !== 'const') visit(value, [...tokens, key]);
  };
  visit(doc.components.schemas, ['components', 'schemas']);
  assert.ok(checked > 50, `only ${checked} examples`);
  assert.deepEqual(wrong, [], `examples that do not fit:\n${wrong.join('\n')}`);
});

/** The prefix of each kind of id, as newId makes them, by the `object` that carries it and by the fields that name one. */
const idPrefixOf: Record<string, string> = {
  order: 'ord', shipment: 'shp', rate: 'rate', rate_shop: 'rsh', event: 'evt', tracker: 'trk', webhook: 'whk', webhook_delivery: 'dlv',
  location: 'loc', batch: 'bat', manifest: 'man', pickup: 'pku', carrier_account: 'ca',
  order_id: 'ord', order_ids: 'ord', shipment_id: 'shp', shipment_ids: 'shp', rate_id: 'rate', ship_from_id: 'loc', webhook_id: 'whk', event_id: 'evt',
};
const crockford = '0123456789abcdefghjkmnpqrstvwxyz';
const idTime = (id: string) => new Date([...id.slice(id.indexOf('_') + 1, id.indexOf('_') + 11)].reduce((n, c) => n * 32 + crockford.indexOf(c), 0));

test('every id in the examples is one shipd makes: the prefix of its kind, and an object made when its id says', () => {
  const wrong: string[] = [];
  let checked = 0;
  const check = (id: unknown, prefix: string, where: string) => {
    if (id === null) return;
    checked++;
    if (typeof id !== 'string' || !new RegExp(`^${prefix}_[${crockford}]{26}$`).test(id)) wrong.push(`${where}: ${JSON.stringify(id)} is no ${prefix}_ id`);
  };
  const visit = (value: Json, where: string) => {
    if (Array.isArray(value)) return value.forEach((v, i) => visit(v, `${where}/${i}`));
    if (!value || typeof value !== 'object') return;
    const kind = idPrefixOf[value.object];
    if (kind && 'id' in value) {
      check(value.id, kind, `${where}/id`);
      // The id takes the time when it is made, created_at the clock's reading beside it: a millisecond or two apart.
      if (typeof value.created_at === 'string' && typeof value.id === 'string' && Math.abs(idTime(value.id).getTime() - Date.parse(value.created_at)) > 1000) {
        wrong.push(`${where}: ${value.id} was made at ${idTime(value.id).toISOString()}, created_at says ${value.created_at}`);
      }
    }
    for (const [key, v] of Object.entries(value)) {
      if (idPrefixOf[key] && key.endsWith('_id')) check(v, idPrefixOf[key]!, `${where}/${key}`);
      else if (idPrefixOf[key] && Array.isArray(v)) v.forEach((item, i) => check(item, idPrefixOf[key]!, `${where}/${key}/${i}`));
      else visit(v, `${where}/${key}`);
    }
  };
  const walk = (node: Json, where: string) => {
    if (!node || typeof node !== 'object') return;
    for (const [key, value] of Object.entries(node)) {
      if (key === 'examples' && Array.isArray(value)) visit(value, `${where}/examples`);
      else if (key === 'examples' && value && typeof value === 'object') for (const [name, e] of Object.entries(value as Record<string, Json>)) visit(e?.value, `${where}/examples/${name}`);
      else if (key === 'example') visit(value, `${where}/example`);
      else walk(value, `${where}/${key}`);
    }
  };
  walk(doc, '#');
  assert.ok(checked > 50, `only ${checked} ids`);
  assert.deepEqual(wrong, [], `ids unlike shipd's:\n${wrong.join('\n')}`);
});

test('every named schema, every property in it however deep, and every parameter has a description', () => {
  const bare: string[] = [];
  const visit = (schema: Json, where: string) => {
    if (!schema || typeof schema !== 'object') return;
    for (const [name, property] of Object.entries((schema.properties ?? {}) as Record<string, Json>)) {
      if (!property.description) bare.push(`${where}.${name}`);
      visit(property, `${where}.${name}`);
    }
    for (const key of ['anyOf', 'oneOf', 'allOf', 'prefixItems'] as const) (schema[key] ?? []).forEach((s: Json, i: number) => visit(s, `${where}.${key}[${i}]`));
    for (const key of ['items', 'additionalProperties'] as const) if (typeof schema[key] === 'object') visit(schema[key], `${where}[]`);
  };
  for (const [name, schema] of Object.entries(doc.components.schemas as Record<string, Json>)) {
    if (!schema.description) bare.push(name);
    visit(schema, name);
  }
  for (const { name, op } of listedOperations()) {
    for (const parameter of op.parameters ?? []) if (!parameter.description) bare.push(`${name} ${parameter.in} ${parameter.name}`);
    for (const [status, response] of Object.entries(op.responses as Record<string, Json>)) {
      for (const [type, media] of Object.entries((response.content ?? {}) as Record<string, Json>)) visit(media.schema, `${name} ${status} ${type}`);
    }
  }
  assert.deepEqual(bare, [], `without a description:\n${bare.join('\n')}`);
});

const headerNames = ['Content-Disposition', 'Content-Security-Policy', 'Idempotent-Replayed', 'RateLimit', 'RateLimit-Policy', 'Retry-After', 'X-Content-Type-Options', 'X-Request-Id'];

test('the response headers shipd sends are declared once and referenced on the answers that carry them', () => {
  assert.deepEqual(Object.keys(doc.components.headers ?? {}).sort(), headerNames);
  for (const name of headerNames) {
    const header = doc.components.headers[name];
    assert.ok(header.description && header.schema, `${name} has a description and a schema`);
  }
  const idempotent = new Set(operations.filter((op) => op.idempotent).map((op) => op.id));
  const missing: string[] = [];
  const wrong: string[] = [];
  for (const { name, op } of listedOperations()) {
    const authenticated = !(Array.isArray(op.security) && op.security.length === 0);
    for (const [status, response] of Object.entries(op.responses as Record<string, Json>)) {
      const headers: Record<string, Json> = response.headers ?? {};
      for (const [header, value] of Object.entries(headers)) {
        if (JSON.stringify(value) !== JSON.stringify({ $ref: `#/components/headers/${header}` })) wrong.push(`${name} ${status} ${header}`);
      }
      const expected = ['X-Request-Id'];
      const success = status.startsWith('2');
      if (authenticated && (success || status === '429')) expected.push('RateLimit', 'RateLimit-Policy');
      if (status === '429' || status === '503') expected.push('Retry-After');
      if (success && idempotent.has(name)) expected.push('Idempotent-Replayed');
      if (success && name === 'getLabelFile') expected.push('X-Content-Type-Options', 'Content-Security-Policy', 'Content-Disposition');
      for (const header of expected) if (!headers[header]) missing.push(`${name} ${status} ${header}`);
      if (status === '401' && headers.RateLimit) wrong.push(`${name} 401 RateLimit: a refused key is not counted`);
      if (!idempotent.has(name) && headers['Idempotent-Replayed']) wrong.push(`${name} ${status} Idempotent-Replayed: it takes no Idempotency-Key`);
    }
  }
  assert.deepEqual(missing, [], `undeclared: ${missing.join(', ')}`);
  assert.deepEqual(wrong, [], `declared wrongly: ${wrong.join(', ')}`);
});

test('the headers shipd sends fit their declarations', async () => {
  const account = await full.account();
  const key = (await full.key(account)).secret;
  const fits = (name: string, value: string | null) => {
    assert.ok(value !== null, `${name} is sent`);
    const schema = doc.components.headers[name].schema;
    const typed = schema.type === 'integer' ? Number(value) : schema.type === 'boolean' ? value === 'true' : value;
    assert.equal(invalid(pointer('components', 'headers', name, 'schema'), typed), undefined, `${name}: ${value}`);
  };
  const body = { address: { street1: '415 Mission St', city: 'San Francisco', state: 'CA', zip: '94105' } };
  const order = { ship_from: { street1: '1100 Congress Ave', city: 'Austin', state: 'TX', zip: '78701' }, ship_to: body.address, parcel: { weight: { value: 2, unit: 'lb' } } };
  const first = await full.request('POST', '/orders', { key, body: order, headers: { 'idempotency-key': 'openapi-headers' } });
  assert.equal(first.status, 201, first.text);
  assert.equal(first.headers.get('idempotent-replayed'), null);
  const replay = await full.request('POST', '/orders', { key, body: order, headers: { 'idempotency-key': 'openapi-headers' } });
  assert.equal(replay.body.id, first.body.id);
  for (const name of ['X-Request-Id', 'RateLimit', 'RateLimit-Policy', 'Idempotent-Replayed']) fits(name, replay.headers.get(name));
  let limited: Awaited<ReturnType<TestServer['request']>> | undefined;
  for (let i = 0; i < 10 && !limited; i++) {
    const res = await full.request('POST', '/addresses/validate', { key, body });
    if (res.status === 429) limited = res;
  }
  assert.ok(limited, 'the burst of 3 runs out');
  for (const name of ['X-Request-Id', 'RateLimit', 'RateLimit-Policy', 'Retry-After']) fits(name, limited.headers.get(name));
});
