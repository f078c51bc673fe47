import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { startServer, type TestServer } from '../harness.ts';
import { DashboardClient, password } from './client.ts';

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

/** An account whose owner and member are each signed in, on a page that answers 200. */
async function twoSignedIn(): Promise<{ account: string; owner: string; member: string; ownerClient: DashboardClient; memberClient: DashboardClient }> {
  const tag = randomBytes(4).toString('hex');
  const account = await server.account(`shop-${tag}`);
  const [owner, member] = [`owner-${tag}@example.com`, `member-${tag}@example.com`];
  for (const email of [owner, member]) assert.equal((await server.cli(['users', 'create', '--account', account, '--email', email], { SHIPD_USER_PASSWORD: password })).code, 0);
  const ownerClient = new DashboardClient(server);
  const memberClient = new DashboardClient(server);
  assert.equal((await ownerClient.signIn(owner, password)).status, 303);
  assert.equal((await memberClient.signIn(member, password)).status, 303);
  for (const client of [ownerClient, memberClient]) assert.equal((await client.get('/dashboard/test/keys')).status, 200);
  return { account, owner, member, ownerClient, memberClient };
}

const signedOut = async (client: DashboardClient) => {
  const page = await client.get('/dashboard/test/keys');
  return page.status === 303 && /^\/dashboard\/login/.test(page.location ?? '');
};

test('shipd users list shows each user\'s role (the first is the owner), status and last sign-in', async () => {
  const { account, owner, member } = await twoSignedIn();
  const listed = await server.cli(['users', 'list', '--account', account]);
  assert.equal(listed.code, 0, listed.stderr);
  const line = (email: string) => listed.stdout.split('\n').find((l) => l.includes(email)) ?? '';
  assert.match(line(owner), / owner +active +\d{4}-\d\d-\d\dT/);
  assert.match(line(member), / member +active +\d{4}-\d\d-\d\dT/);
});

test('shipd users disable ends a live session at once and refuses sign-in; enable lets the user in again', async () => {
  const { account, member, memberClient } = await twoSignedIn();
  const disabled = await server.cli(['users', 'disable', '--email', member.toUpperCase(), '--account', account]);
  assert.equal(disabled.code, 0, disabled.stderr);
  assert.match(disabled.stdout, /: disabled; 1 session ended\n$/);
  assert.ok(await signedOut(memberClient), 'the disabled user\'s session still opens pages');
  const refused = await new DashboardClient(server).signIn(member, password);
  assert.equal(refused.status, 401);
  assert.match(refused.text, /The email or the password is wrong/);
  assert.match((await server.cli(['users', 'list', '--account', account])).stdout, new RegExp(`${member} +member +disabled `));

  const enabled = await server.cli(['users', 'enable', '--email', member]);
  assert.equal(enabled.code, 0, enabled.stderr);
  assert.equal((await new DashboardClient(server).signIn(member, password)).status, 303);
});

test('shipd users delete removes the user and ends their session; the last owner is refused with last_owner', async () => {
  const { account, owner, member, ownerClient, memberClient } = await twoSignedIn();
  const deleted = await server.cli(['users', 'delete', '--email', member]);
  assert.equal(deleted.code, 0, deleted.stderr);
  assert.match(deleted.stdout, /: removed; 1 session ended\n$/);
  assert.ok(await signedOut(memberClient));
  assert.equal((await new DashboardClient(server).signIn(member, password)).status, 401);
  assert.doesNotMatch((await server.cli(['users', 'list', '--account', account])).stdout, new RegExp(member));

  for (const action of ['delete', 'disable']) {
    const refused = await server.cli(['users', action, '--email', owner]);
    assert.equal(refused.code, 1, `${action}: ${refused.stdout}`);
    assert.match(refused.stderr, /is the last enabled owner of account acct_\w+, and an account keeps one: make another user an owner first \(last_owner\)/);
  }
  const demoted = await server.cli(['users', 'set-role', '--email', owner, '--role', 'member']);
  assert.match(demoted.stderr, /\(last_owner\)/);
  assert.equal((await ownerClient.get('/dashboard/test/keys')).status, 200, 'a refused change ended the session');

  // With a second owner, the first can go.
  const second = `second-${randomBytes(4).toString('hex')}@example.com`;
  const created = await server.cli(['users', 'create', '--account', account, '--email', second, '--role', 'owner'], { SHIPD_USER_PASSWORD: password });
  assert.equal(created.code, 0, created.stderr);
  assert.equal((await server.cli(['users', 'delete', '--email', owner])).code, 0);
  assert.ok(await signedOut(ownerClient));
});

test('shipd users reset-password prints a new password once, ends the sessions, and only the new password signs in', async () => {
  const { member, memberClient } = await twoSignedIn();
  const reset = await server.cli(['users', 'reset-password', '--email', member]);
  assert.equal(reset.code, 0, reset.stderr);
  assert.match(reset.stdout, /: new password; 1 session ended\npassword \(shown once\): \S+\n$/);
  const fresh = /password \(shown once\): (\S+)/.exec(reset.stdout)![1]!;
  assert.ok(await signedOut(memberClient));
  assert.equal((await new DashboardClient(server).signIn(member, password)).status, 401, 'the old password still signs in');
  assert.equal((await new DashboardClient(server).signIn(member, fresh)).status, 303);

  const chosen = 'a chosen password of some length';
  const given = await server.cli(['users', 'reset-password', '--email', member], { SHIPD_USER_PASSWORD: chosen });
  assert.equal(given.code, 0, given.stderr);
  assert.doesNotMatch(given.stdout, /shown once/);
  assert.equal((await new DashboardClient(server).signIn(member, chosen)).status, 303);
  const short = await server.cli(['users', 'reset-password', '--email', member], { SHIPD_USER_PASSWORD: 'short' });
  assert.equal(short.code, 1);
  assert.match(short.stderr, /at least 12 characters/);
});

test('shipd users changes name the user by email, within --account when given', async () => {
  const { member } = await twoSignedIn();
  const elsewhere = await server.account(`other-${randomBytes(4).toString('hex')}`);
  const wrongAccount = await server.cli(['users', 'disable', '--email', member, '--account', elsewhere]);
  assert.equal(wrongAccount.code, 1);
  assert.match(wrongAccount.stderr, new RegExp(`no user with the email ${member} in account ${elsewhere}`));
  const unknown = await server.cli(['users', 'delete', '--email', 'nobody@example.com']);
  assert.match(unknown.stderr, /no user with the email nobody@example\.com/);
  const noEmail = await server.cli(['users', 'reset-password']);
  assert.match(noEmail.stderr, /--email is required/);
  const badRole = await server.cli(['users', 'set-role', '--email', member, '--role', 'admin']);
  assert.match(badRole.stderr, /a role is one of owner, member/);
});
