import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { databaseUnderTest, problem, startServer, type TestServer } from './harness.ts';

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
  const series = 'method="GET",route="/api/integrations/v1/carriers",status="200"';
  const buckets = [...res.text.matchAll(/^shipd_http_request_duration_seconds_bucket\{le="([^"]+)",(.*)\} (\d+)$/gm)].filter((m) => m[2] === series);
  assert.deepEqual(
    buckets.map((m) => m[1]),
    ['0.001', '0.0025', '0.005', '0.01', '0.025', '0.05', '0.1', '0.25', '0.5', '1', '2.5', '5', '10', '+Inf'],
  );
  const counts = buckets.map((m) => Number(m[3]));
  assert.deepEqual([...counts].sort((a, b) => a - b), counts, 'the buckets are cumulative');
  assert.equal(counts.at(-1), 1, 'every answer is in +Inf');
  assert.ok(res.text.includes(`shipd_http_request_duration_seconds_count{${series}} 1\n`), 'the count');
  assert.match(res.text, new RegExp(`^shipd_http_request_duration_seconds_sum\\{${series.replace(/[/]/g, '\\/')}\\} 0\\.\\d+$`, 'm'), 'the sum, in seconds');
  assert.match(res.text, /process_resident_memory_bytes/);
});

test("the root says where the dashboard, the API and its OpenAPI document are, in package.json's one version; a favicon is served", async () => {
  const version = (JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string }).version;
  const root = await fetch(`${server.url}/`);
  assert.equal(root.status, 200);
  const body = (await root.json()) as Record<string, string>;
  assert.equal(body.version, version);
  assert.equal(body.dashboard, '/dashboard');
  assert.equal(body.api, '/api/integrations/v1');
  assert.equal((await fetch(`${server.url}${body.openapi}`)).status, 200);
  const openapi = (await (await fetch(`${server.url}/openapi.json`)).json()) as { info: { version: string } };
  assert.equal(openapi.info.version, version);
  const icon = await fetch(`${server.url}/favicon.ico`);
  assert.equal(icon.status, 200);
  assert.equal(icon.headers.get('content-type'), 'image/svg+xml');
  assert.match(await icon.text(), /^<svg /);
});

test('without a metrics token, /metrics answers only requests made straight from this machine', async () => {
  for (const header of ['x-forwarded-for', 'forwarded', 'x-real-ip']) {
    const relayed = await server.request('GET', '/metrics', { headers: { [header]: header === 'forwarded' ? 'for=192.0.2.60' : '192.0.2.60' } });
    problem(relayed, 403, 'metrics_not_allowed');
  }
  assert.equal((await server.request('GET', '/metrics')).status, 200);
});

test('with SHIPD_METRICS_TOKEN, /metrics needs that token, from this machine too', async () => {
  const token = 'metrics-token-0123456789-abcdefghijklmnop';
  const guarded = await startServer({ env: { SHIPD_METRICS_TOKEN: token } });
  try {
    for (const authorization of [undefined, 'Bearer wrong-token', `Bearer ${token}x`, token]) {
      const res = await guarded.request('GET', '/metrics', { headers: authorization ? { authorization } : {} });
      const p = problem(res, 403, 'metrics_not_allowed');
      assert.match(p.detail, /SHIPD_METRICS_TOKEN/);
    }
    const res = await guarded.request('GET', '/metrics', { headers: { authorization: `Bearer ${token}`, 'x-forwarded-for': '192.0.2.60' } });
    assert.equal(res.status, 200);
    assert.match(res.text, /^shipd_http_requests_total/m);
  } finally {
    await guarded.close();
  }
});
