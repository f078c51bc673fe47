import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { featureNames } from '../../src/config.ts';
import { startServer, type TestServer } from '../harness.ts';
import { generateSchema, schemaPath } from '../../clients/typescript/scripts/generate.ts';

const checkedIn = join(import.meta.dirname, '..', '..', 'clients', 'typescript', schemaPath);

let server: TestServer;
before(async () => {
  // The client is generated from a server with every ops helper on, as `npm run client:types` does.
  server = await startServer({ env: { SHIPD_FEATURES: featureNames.join(',') } });
});
after(() => server.close());

test("the client's checked-in types are what the served document generates (else: npm run client:types)", async () => {
  const res = await fetch(`${server.url}/openapi.json`);
  assert.equal(res.status, 200);
  const generated = (await generateSchema((await res.json()) as Record<string, unknown>)).split('\n');
  const file = readFileSync(checkedIn, 'utf8').split('\n');
  const line = generated.findIndex((l, i) => l !== file[i]);
  const first = line === -1 && generated.length !== file.length ? Math.min(generated.length, file.length) : line;
  assert.equal(first, -1, `${schemaPath} is stale from line ${first + 1}: the document says\n${generated.slice(first, first + 5).join('\n')}\nthe file says\n${file.slice(first, first + 5).join('\n')}\nRun npm run client:types at the repository root and commit the result.`);
});

test('the generated module knows which POSTs take an Idempotency-Key and where the API is based', async () => {
  const { apiBase, idempotentPosts } = await import('../../clients/typescript/src/schema.ts');
  assert.equal(apiBase, '/api/integrations/v1');
  for (const path of ['/orders', '/shipments', '/shipments/{order_id}/return', '/webhooks', '/trackers']) assert.ok(idempotentPosts.includes(path), path);
  for (const path of ['/rates', '/tracking', '/addresses/validate', '/shipments/{order_id}/void']) assert.ok(!idempotentPosts.includes(path), path);
});
