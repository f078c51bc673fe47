import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, type TestServer } from './harness.ts';
import { revokeApiKey } from '../src/domain/accounts/api-keys.ts';
import { accountWithUser, DashboardClient, password } from './dashboard/client.ts';

const cap = 2;
let server: TestServer;
before(async () => {
  server = await startServer({ env: { SHIPD_MAX_KEYS_PER_ACCOUNT: String(cap) } });
});
after(() => server.close());

const admin = () => ({ db: server.services.database.db, kind: server.services.database.kind, clock: server.clock });

test('an account holds at most SHIPD_MAX_KEYS_PER_ACCOUNT active keys, of both modes together; a revoked key frees its place', async () => {
  const account = await server.account();
  const first = await server.key(account, 'test');
  await server.key(account, 'live');
  await assert.rejects(server.key(account, 'test'), { code: 'api_key_limit_reached', status: 409 });
  assert.equal((await server.key(await server.account())).secret.startsWith('svc_test_'), true, 'another account is not held back');
  await revokeApiKey(admin(), first.id);
  await server.key(account, 'test');
  await assert.rejects(server.key(account, 'live'), { code: 'api_key_limit_reached' });
});

test('keys made at once cannot pass the cap between them', async () => {
  const account = await server.account();
  const made = await Promise.allSettled(Array.from({ length: 6 }, () => server.key(account)));
  assert.equal(made.filter((m) => m.status === 'fulfilled').length, cap);
  const active = await server.services.database.db.selectFrom('api_keys').select('id').where('account_id', '=', account).where('revoked_at', 'is', null).execute();
  assert.equal(active.length, cap);
});

test('the CLI says so with the stable code, and makes no key', async () => {
  const account = await server.account();
  for (let i = 0; i < cap; i++) await server.key(account);
  const result = await server.cli(['keys', 'create', '--account', account, '--mode', 'test'], { SHIPD_MAX_KEYS_PER_ACCOUNT: String(cap) });
  assert.equal(result.code, 1);
  assert.equal(result.stdout, '');
  assert.match(result.stderr, /^shipd: The account has 2 active API keys, as many as it may .*\(api_key_limit_reached\)\n$/);
});

test("the dashboard's keys page says so beside the name, and makes no key", async () => {
  const { account, email } = await accountWithUser(server);
  for (let i = 0; i < cap; i++) await server.key(account);
  const client = new DashboardClient(server);
  assert.equal((await client.signIn(email, password)).status, 303);
  const refused = await client.submit('/dashboard/test/keys', '/dashboard/test/keys', { name: 'one too many' });
  assert.equal(refused.status, 409);
  assert.match(refused.text, /The account has 2 active API keys, as many as it may/);
  assert.doesNotMatch(refused.text, /svc_test_[A-Za-z0-9]{32}/);
});
