import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { databaseUnderTest, startServer, type TestServer } from './harness.ts';

let server: TestServer;
before(async () => {
  server = await startServer();
});
after(() => server.close());

test('healthz says the process is up', async () => {
  const res = await server.request('GET', '/healthz');
  assert.equal(res.status, 200);
  assert.deepEqual(res.body, { status: 'ok' });
});

test('readyz checks the database, and it is the database under test', async () => {
  const res = await server.request('GET', '/readyz');
  assert.equal(res.status, 200);
  assert.deepEqual(res.body, { status: 'ready', database: databaseUnderTest });
});

test('metrics count requests by route and status, with latency histograms', async () => {
  const { secret } = await server.key(await server.account());
  await server.request('GET', '/carriers', { key: secret });
  await server.request('GET', '/carriers');
  await server.request('GET', '/no/such/thing/123');
  const res = await server.request('GET', '/metrics');
  assert.equal(res.status, 200);
  assert.match(res.headers.get('content-type') ?? '', /text\/plain/);
  assert.match(res.text, /shipd_http_requests_total\{method="GET",route="\/api\/integrations\/v1\/carriers",status="200"\} 1/);
  assert.match(res.text, /shipd_http_requests_total\{method="GET",route="\/api\/integrations\/v1\/carriers",status="401"\} 1/);
  assert.match(res.text, /shipd_http_requests_total\{method="GET",route="unmatched",status="404"\} 1/);
  assert.match(res.text, /shipd_http_request_duration_seconds_bucket\{le="0\.005",method="GET",route="\/api\/integrations\/v1\/carriers",status="200"\}/);
  assert.match(res.text, /process_resident_memory_bytes/);
});
