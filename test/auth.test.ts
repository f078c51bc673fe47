import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { generateKeySecret } from '../src/domain/accounts/api-key-format.ts';
import { rollApiKey } from '../src/domain/accounts/api-keys.ts';
import { problem, startServer, type TestServer } from './harness.ts';

let server: TestServer;
let accountId: string;

before(async () => {
  server = await startServer();
  accountId = await server.account();
});
after(() => server.close());

describe('a valid key', () => {
  test('works as a Bearer token', async () => {
    const { secret } = await server.key(accountId);
    const res = await server.request('GET', '/carriers', { key: secret });
    assert.equal(res.status, 200);
    assert.deepEqual(res.body.data.map((c: { id: string }) => c.id), ['ups', 'usps', 'fedex']);
    assert.equal(res.body.data[0].mode, 'test');
  });

  test('works in X-API-Key', async () => {
    const { secret } = await server.key(accountId);
    const res = await server.request('GET', '/carriers', { headers: { 'x-api-key': secret } });
    assert.equal(res.status, 200);
  });

  test('works in both headers when they agree, and the bearer scheme is case-insensitive', async () => {
    const { secret } = await server.key(accountId);
    const res = await server.request('GET', '/carriers', { headers: { 'x-api-key': secret, authorization: `bearer ${secret}` } });
    assert.equal(res.status, 200);
  });

  test('a live key answers in live mode, with carriers unconnected when no credentials are set', async () => {
    const { secret } = await server.key(accountId, 'live');
    const res = await server.request('GET', '/carriers', { key: secret });
    assert.equal(res.status, 200);
    assert.ok(res.body.data.every((c: { mode: string; connected: boolean }) => c.mode === 'live' && c.connected === false));
  });
});

describe('every auth failure is a 401 problem with its own code', () => {
  test('no key at all', async () => {
    problem(await server.request('GET', '/carriers'), 401, 'missing_api_key');
  });

  test('an empty X-API-Key', async () => {
    problem(await server.request('GET', '/carriers', { headers: { 'x-api-key': '' } }), 401, 'missing_api_key');
  });

  test('a scheme other than Bearer', async () => {
    const { secret } = await server.key(accountId);
    problem(await server.request('GET', '/carriers', { headers: { authorization: `Basic ${secret}` } }), 401, 'malformed_api_key');
  });

  for (const bad of ['svc_test_short', 'sk_test_' + 'a'.repeat(32), 'svc_prod_' + 'a'.repeat(32), 'svc_test_' + 'a'.repeat(31) + '!', 'x'.repeat(5000)]) {
    test(`a malformed key: ${bad.slice(0, 24)}`, async () => {
      problem(await server.request('GET', '/carriers', { headers: { 'x-api-key': bad } }), 401, 'malformed_api_key');
    });
  }

  test('a key with a typo fails its checksum before any lookup', async () => {
    const { secret } = await server.key(accountId);
    const i = 12;
    const typo = secret.slice(0, i) + (secret[i] === 'a' ? 'b' : 'a') + secret.slice(i + 1);
    problem(await server.request('GET', '/carriers', { key: typo }), 401, 'invalid_api_key_checksum');
  });

  test('a well-formed key nobody has', async () => {
    problem(await server.request('GET', '/carriers', { key: generateKeySecret('test').secret }), 401, 'unknown_api_key');
  });

  test('two different keys in the two headers', async () => {
    const a = await server.key(accountId);
    const b = await server.key(accountId);
    problem(
      await server.request('GET', '/carriers', { headers: { authorization: `Bearer ${a.secret}`, 'x-api-key': b.secret } }),
      401,
      'malformed_api_key',
    );
  });

  test('an account whose plan lacks API access gets 403', async () => {
    const basic = await server.account(undefined, 'basic');
    const { secret } = await server.key(basic);
    problem(await server.request('GET', '/carriers', { key: secret }), 403, 'plan_without_api_access');
  });
});

describe('revocation and rolling through the CLI, a separate process', () => {
  test('a revoked key stops working at once, though the server had it cached', async () => {
    const { id, secret } = await server.key(accountId);
    for (let i = 0; i < 3; i++) assert.equal((await server.request('GET', '/carriers', { key: secret })).status, 200);
    const out = await server.cli(['keys', 'revoke', id]);
    assert.equal(out.code, 0, out.stderr);
    problem(await server.request('GET', '/carriers', { key: secret }), 401, 'revoked_api_key');
    const again = await server.cli(['keys', 'revoke', id]);
    assert.equal(again.code, 1);
    assert.match(again.stderr, /was revoked/);
  });

  test('a rolled key: the new secret works at once, the old one until its grace ends, same key id', async () => {
    const { id, secret: old } = await server.key(accountId);
    assert.equal((await server.request('GET', '/carriers', { key: old })).status, 200);
    const out = await server.cli(['keys', 'roll', id, '--grace', '2s']);
    assert.equal(out.code, 0, out.stderr);
    const fresh = out.stdout.trim();
    assert.match(fresh, /^svc_test_[0-9A-Za-z]{32}$/);
    assert.equal((await server.request('GET', '/carriers', { key: fresh })).status, 200);
    assert.equal((await server.request('GET', '/carriers', { key: old })).status, 200);
    await new Promise((r) => setTimeout(r, 2_200));
    problem(await server.request('GET', '/carriers', { key: old }), 401, 'expired_api_key');
    assert.equal((await server.request('GET', '/carriers', { key: fresh })).status, 200);
    const list = await server.cli(['keys', 'list', '--account', accountId]);
    assert.match(list.stdout, new RegExp(`${id}\\s+test\\s+${fresh.slice(0, 13)}…${fresh.slice(-4)}`));
  });

  test('a roll with no grace ends the old secret immediately', async () => {
    const { id, secret: old } = await server.key(accountId);
    assert.equal((await server.request('GET', '/carriers', { key: old })).status, 200);
    const out = await server.cli(['keys', 'roll', id, '--grace', '0']);
    assert.equal(out.code, 0, out.stderr);
    problem(await server.request('GET', '/carriers', { key: old }), 401, 'expired_api_key');
    assert.equal((await server.request('GET', '/carriers', { key: out.stdout.trim() })).status, 200);
  });

  test('a roll with no grace also ends a secret still in an earlier roll\'s grace (the roll after a leak)', async () => {
    const { id, secret: first } = await server.key(accountId);
    const out = await server.cli(['keys', 'roll', id, '--grace', '24h']);
    assert.equal(out.code, 0, out.stderr);
    const again = await server.cli(['keys', 'roll', id, '--grace', '0']);
    assert.equal(again.code, 0, again.stderr);
    problem(await server.request('GET', '/carriers', { key: first }), 401, 'expired_api_key');
    problem(await server.request('GET', '/carriers', { key: out.stdout.trim() }), 401, 'expired_api_key');
    assert.equal((await server.request('GET', '/carriers', { key: again.stdout.trim() })).status, 200);
  });

  test('a longer grace never extends an earlier, shorter one', async () => {
    const { id, secret: first } = await server.key(accountId);
    const admin = { db: server.services.database.db, kind: server.services.database.kind, clock: server.clock };
    const { secret: second } = await rollApiKey(admin, id, 60_000);
    await rollApiKey(admin, id, 60 * 60_000);
    server.clock.advance(60_001);
    problem(await server.request('GET', '/carriers', { key: first }), 401, 'expired_api_key');
    assert.equal((await server.request('GET', '/carriers', { key: second })).status, 200);
  });

  test('the grace period follows the server clock', async () => {
    const { id, secret: old } = await server.key(accountId);
    const admin = { db: server.services.database.db, kind: server.services.database.kind, clock: server.clock };
    const { secret: fresh } = await rollApiKey(admin, id, 60 * 60_000);
    assert.equal((await server.request('GET', '/carriers', { key: old })).status, 200);
    server.clock.advance(60 * 60_000 + 1);
    problem(await server.request('GET', '/carriers', { key: old }), 401, 'expired_api_key');
    assert.equal((await server.request('GET', '/carriers', { key: fresh })).status, 200);
  });
});

describe('logs', () => {
  test('never contain an API key, valid or not', async () => {
    const { secret } = await server.key(accountId);
    const typo = secret.slice(0, -1) + (secret.endsWith('a') ? 'b' : 'a');
    await server.request('GET', '/carriers', { key: secret });
    await server.request('GET', '/carriers', { headers: { 'x-api-key': typo } });
    await server.request('GET', '/nowhere', { key: secret });
    const logs = server.logs.join('');
    assert.ok(logs.includes('"route":"/api/integrations/v1/carriers"'), 'requests are logged');
    assert.ok(!logs.includes(secret.slice(9)), 'a valid key reached the logs');
    assert.ok(!logs.includes(typo.slice(9)), 'a mistyped key reached the logs');
  });
});
