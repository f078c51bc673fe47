import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, type TestServer } from '../harness.ts';
import { DashboardClient } from './client.ts';

let server: TestServer;

before(async () => {
  server = await startServer();
});
after(async () => {
  await server.close();
});

test('shipd users create takes the password from SHIPD_USER_PASSWORD, or prints a generated one once; both sign in', async () => {
  await server.account('shop');
  const given = await server.cli(['users', 'create', '--account', 'shop', '--email', 'Owner@Example.com'], { SHIPD_USER_PASSWORD: 'a long enough password' });
  assert.equal(given.code, 0, given.stderr);
  assert.match(given.stdout, /^usr_[0-9a-z]{26} owner@example\.com\n$/);
  assert.equal((await new DashboardClient(server).signIn('owner@example.com', 'a long enough password')).status, 303);

  const generated = await server.cli(['users', 'create', '--account', 'shop', '--email', 'ops@example.com']);
  assert.equal(generated.code, 0, generated.stderr);
  const password = /password \(shown once\): (\S+)/.exec(generated.stdout)?.[1];
  assert.ok(password, generated.stdout);
  assert.equal((await new DashboardClient(server).signIn('ops@example.com', password)).status, 303);

  const duplicate = await server.cli(['users', 'create', '--account', 'shop', '--email', 'OWNER@example.com']);
  assert.equal(duplicate.code, 1);
  assert.match(duplicate.stderr, /exists already/);
  const short = await server.cli(['users', 'create', '--account', 'shop', '--email', 'x@example.com'], { SHIPD_USER_PASSWORD: 'short' });
  assert.equal(short.code, 1);
  assert.match(short.stderr, /at least 12 characters/);

  const listed = await server.cli(['users', 'list', '--account', 'shop']);
  assert.match(listed.stdout, /owner@example\.com[\s\S]*ops@example\.com/);
});
