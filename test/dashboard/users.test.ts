import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { Migrator, type Kysely } from 'kysely';
import { createTestDatabase, startServer, type TestServer } from '../harness.ts';
import { loadConfig } from '../../src/config.ts';
import { openDatabase } from '../../src/db/database.ts';
import { migrate } from '../../src/db/migrate.ts';
import { migrations } from '../../src/db/migrations/index.ts';
import { createUser } from '../../src/domain/dashboard/users.ts';
import { startSession } from '../../src/domain/dashboard/sessions.ts';
import { disableUser, resetPassword, setRole } from '../../src/domain/dashboard/user-admin.ts';
import { csrfOf, DashboardClient, password } from './client.ts';

let server: TestServer;

before(async () => {
  server = await startServer();
});
after(async () => {
  await server.close();
});

interface Person {
  id: string;
  email: string;
  client: DashboardClient;
}

/** An account with a signed-in owner (its first user) and signed-in members. */
async function team(members = 1): Promise<{ account: string; owner: Person; members: Person[] }> {
  const account = await server.account();
  const person = async (name: string): Promise<Person> => {
    const email = `${name}-${randomBytes(4).toString('hex')}@example.com`;
    const user = await createUser(server.services.database.db, server.clock, account, email, password);
    const client = new DashboardClient(server);
    assert.equal((await client.signIn(email, password)).status, 303);
    return { id: user.id, email, client };
  };
  const owner = await person('owner');
  return { account, owner, members: await Promise.all(Array.from({ length: members }, () => person('member'))) };
}

const users = '/dashboard/test/users';

/** A confirmation's form posted as the page would, with its CSRF token. */
async function confirm(client: DashboardClient, action: string) {
  const page = await client.get(`${users}/${action}`);
  assert.equal(page.status, 200, page.text.slice(0, 300));
  return client.send('POST', `${users}/${action}`, { _csrf: csrfOf(page.text) });
}

async function signedOut(client: DashboardClient): Promise<boolean> {
  const page = await client.get('/dashboard/test/keys');
  return page.status === 303 && /^\/dashboard\/login/.test(page.location ?? '');
}

describe('the Users page', () => {
  test("lists the account's users with role, created, last sign-in and status, for its owner only", async () => {
    const { owner, members } = await team();
    const other = await team();
    const page = await owner.client.get(users);
    assert.equal(page.status, 200);
    assert.match(page.text, /<a href="\/dashboard\/test\/users" aria-current="page">Users<\/a>/);
    const row = (id: string) => new RegExp(`<tr data-user-id="${id}">([\\s\\S]*?)</tr>`).exec(page.text)?.[1] ?? '';
    assert.match(row(owner.id), new RegExp(`${owner.email} <small>\\(you\\)</small>[\\s\\S]*Owner[\\s\\S]*UTC[\\s\\S]*\\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d UTC[\\s\\S]*Active`));
    assert.match(row(members[0]!.id), /Member[\s\S]*Active[\s\S]*make-owner/);
    assert.doesNotMatch(page.text, new RegExp(other.owner.email), "another account's user is listed");
    assert.doesNotMatch(page.text, /argon2/, 'a password hash reached the page');

    // Another account's user cannot be reached by its id.
    assert.equal((await owner.client.get(`${users}/${other.owner.id}/disable`)).status, 404);
    const token = csrfOf(page.text);
    assert.equal((await owner.client.send('POST', `${users}/${other.owner.id}/delete`, { _csrf: token })).status, 404);
    assert.equal((await other.owner.client.get('/dashboard/test/keys')).status, 200);
  });

  test('a member gets 403 owner_required on the page and on every action, and is not shown the link', async () => {
    const { owner, members } = await team(2);
    const [member, colleague] = members as [Person, Person];
    const keys = await member.client.get('/dashboard/test/keys');
    assert.equal(keys.status, 200);
    assert.doesNotMatch(keys.text, /\/users"/);
    const page = await member.client.get(users);
    assert.equal(page.status, 403);
    assert.match(page.text, /Only an owner of the account may manage its dashboard users/);
    const token = csrfOf(keys.text);
    for (const action of ['disable', 'enable', 'delete', 'reset-password', 'make-owner', 'make-member']) {
      for (const target of [owner, colleague, member]) {
        assert.equal((await member.client.get(`${users}/${target.id}/${action}`)).status, 403, `GET ${action}`);
        const posted = await member.client.send('POST', `${users}/${target.id}/${action}`, { _csrf: token });
        assert.equal(posted.status, 403, `POST ${action}`);
        assert.match(posted.text, /Only an owner/);
      }
    }
    for (const person of [owner, colleague, member]) assert.equal((await person.client.get('/dashboard/test/keys')).status, 200, 'a refused action ended a session');

    // Made an owner, the member sees the page on their very next request; made a member again, loses it as fast.
    assert.equal((await confirm(owner.client, `${member.id}/make-owner`)).status, 303);
    assert.equal((await member.client.get(users)).status, 200);
    assert.equal((await confirm(owner.client, `${member.id}/make-member`)).status, 303);
    assert.equal((await member.client.get(users)).status, 403);
  });

  test('disabling a user ends their session on its next request and refuses their sign-in; enabling lets them in', async () => {
    const { owner, members } = await team();
    const member = members[0]!;
    const confirmation = await owner.client.get(`${users}/${member.id}/disable`);
    assert.match(confirmation.text, new RegExp(`Disable ${member.email}\\?`));
    const done = await confirm(owner.client, `${member.id}/disable`);
    assert.equal(done.status, 303);
    assert.equal(done.location, `${users}?notice=user_disabled`);
    assert.ok(await signedOut(member.client), "the disabled user's session still opens pages");
    assert.equal((await new DashboardClient(server).signIn(member.email, password)).status, 401);
    assert.match((await owner.client.get(users)).text, /Disabled \d{4}-/);

    assert.equal((await confirm(owner.client, `${member.id}/enable`)).status, 303);
    assert.equal((await new DashboardClient(server).signIn(member.email, password)).status, 303);
  });

  test("removing a user ends their session; resetting a password shows the new one once and ends the user's sessions", async () => {
    const { owner, members } = await team(2);
    const [leaving, forgetful] = members as [Person, Person];
    assert.equal((await confirm(owner.client, `${leaving.id}/delete`)).status, 303);
    assert.ok(await signedOut(leaving.client));
    assert.doesNotMatch((await owner.client.get(users)).text, new RegExp(leaving.email));
    assert.equal((await new DashboardClient(server).signIn(leaving.email, password)).status, 401);

    const reset = await confirm(owner.client, `${forgetful.id}/reset-password`);
    assert.equal(reset.status, 200);
    assert.match(reset.text, new RegExp(`New password for ${forgetful.email}`));
    const fresh = /<code id="secret-[^"]+" data-secret>([^<]+)<\/code>/.exec(reset.text)?.[1];
    assert.ok(fresh, 'the new password is not shown');
    assert.doesNotMatch((await owner.client.get(users)).text, new RegExp(fresh), 'the password is shown again');
    assert.ok(await signedOut(forgetful.client));
    assert.equal((await new DashboardClient(server).signIn(forgetful.email, password)).status, 401, 'the old password still signs in');
    assert.equal((await new DashboardClient(server).signIn(forgetful.email, fresh)).status, 303);
    assert.equal((await owner.client.get(users)).status, 200, "the owner's session ended too");
  });

  test('the last enabled owner cannot be removed, disabled or made a member (409 last_owner); with another owner they can leave', async () => {
    const { owner, members } = await team();
    const member = members[0]!;
    for (const action of ['delete', 'disable', 'make-member']) {
      const refused = await confirm(owner.client, `${owner.id}/${action}`);
      assert.equal(refused.status, 409, action);
      assert.match(refused.text, /is the last enabled owner of account acct_\w+, and an account keeps one: make another user an owner first/);
    }
    assert.equal((await owner.client.get(users)).status, 200);

    // A disabled owner is no owner to fall back on.
    assert.equal((await confirm(owner.client, `${member.id}/make-owner`)).status, 303);
    assert.equal((await confirm(owner.client, `${member.id}/disable`)).status, 303);
    assert.equal((await confirm(owner.client, `${owner.id}/delete`)).status, 409);
    assert.equal((await confirm(owner.client, `${member.id}/enable`)).status, 303);

    assert.match((await owner.client.get(`${users}/${owner.id}/delete`)).text, /Remove yourself \(/);
    const left = await confirm(owner.client, `${owner.id}/delete`);
    assert.equal(left.status, 303);
    assert.equal(left.location, '/dashboard/login');
    assert.ok(await signedOut(owner.client));
    const relogin = new DashboardClient(server);
    assert.equal((await relogin.signIn(member.email, password)).status, 303);
    assert.equal((await relogin.get(users)).status, 200);
  });

  test('every action needs the CSRF token of the session, and a refused post changes nothing', async () => {
    const { owner, members } = await team();
    const member = members[0]!;
    const other = await team();
    const otherToken = csrfOf((await other.owner.client.get(users)).text);
    const ownToken = csrfOf((await owner.client.get(users)).text);
    for (const action of ['disable', 'delete', 'reset-password', 'make-owner']) {
      const attempts: [Record<string, string>, Record<string, string>][] = [
        [{}, {}],
        [{ _csrf: otherToken }, {}],
        [{ _csrf: ownToken }, { origin: 'https://evil.example' }],
      ];
      for (const [form, headers] of attempts) {
        const res = await owner.client.send('POST', `${users}/${member.id}/${action}`, form, headers);
        assert.equal(res.status, 403, `${action} ${JSON.stringify(form)} ${JSON.stringify(headers)}`);
        assert.doesNotMatch(res.text, /Only an owner/);
      }
    }
    assert.equal((await member.client.get('/dashboard/test/keys')).status, 200, 'a refused post ended the session');
    const row = await server.services.database.db.selectFrom('dashboard_users').selectAll().where('id', '=', member.id).executeTakeFirstOrThrow();
    assert.deepEqual([row.role, row.disabled_at], ['member', null]);
  });

  test('a disable made through one shipd process ends the session at the next request to another sharing the database', async () => {
    const second = await startServer({ database: server.db });
    try {
      const { owner, members } = await team();
      const member = members[0]!;
      const elsewhere = new DashboardClient(second);
      assert.equal((await elsewhere.signIn(member.email, password)).status, 303);
      assert.equal((await elsewhere.get('/dashboard/test/keys')).status, 200);
      assert.equal((await confirm(owner.client, `${member.id}/disable`)).status, 303);
      assert.ok(await signedOut(elsewhere), 'the other process still honours the session');
    } finally {
      await second.close();
    }
  });
});

test('a sign-in whose password was checked before a reset opens no session after it', async () => {
  const { members } = await team();
  const member = members[0]!;
  const admin = { db: server.services.database.db, kind: server.services.database.kind, clock: server.clock };
  // The user as the sign-in read it, just before its password check succeeded.
  const checked = await admin.db.selectFrom('dashboard_users').selectAll().where('id', '=', member.id).executeTakeFirstOrThrow();
  await resetPassword(admin, member.id, 'another password entirely');
  await assert.rejects(startSession(admin.db, server.clock, checked), /given a new password while signing in/);
  const sessions = await admin.db.selectFrom('dashboard_sessions').select('id_hash').where('user_id', '=', member.id).execute();
  assert.equal(sessions.length, 0);
});

test('two owners disabling each other at once leave the account one enabled owner', async () => {
  const { account, owner, members } = await team();
  const admin = { db: server.services.database.db, kind: server.services.database.kind, clock: server.clock };
  const other = members[0]!;
  await setRole(admin, other.id, 'owner');
  const outcomes = await Promise.allSettled([disableUser(admin, owner.id), disableUser(admin, other.id)]);
  assert.deepEqual(outcomes.map((o) => o.status).sort(), ['fulfilled', 'rejected']);
  assert.match(String((outcomes.find((o) => o.status === 'rejected') as PromiseRejectedResult).reason), /last enabled owner/);
  const owners = await admin.db.selectFrom('dashboard_users').select('id').where('account_id', '=', account).where('role', '=', 'owner').where('disabled_at', 'is', null).execute();
  assert.equal(owners.length, 1);
});

test("migration 015 makes each account's first user its owner and the others members", async () => {
  const database = await createTestDatabase();
  const opened = openDatabase(loadConfig(database.env));
  try {
    const before = Object.fromEntries(Object.entries(migrations).filter(([name]) => name < '015'));
    const { error } = await new Migrator({ db: opened.db, provider: { getMigrations: async () => before } }).migrateToLatest();
    assert.equal(error, undefined);
    const db = opened.db as unknown as Kysely<Record<string, Record<string, unknown>>>;
    await db.insertInto('accounts').values([{ id: 'acct_a', name: 'a', plan: 'api', created_at: '2026-01-01T00:00:00.000Z' }, { id: 'acct_b', name: 'b', plan: 'api', created_at: '2026-01-01T00:00:00.000Z' }]).execute();
    const user = (id: string, account: string, created: string) => ({ id, account_id: account, email: `${id}@example.com`, password_hash: 'x', created_at: created, updated_at: created });
    await db
      .insertInto('dashboard_users')
      .values([
        user('usr_a2', 'acct_a', '2026-01-02T00:00:00.000Z'),
        user('usr_a1', 'acct_a', '2026-01-01T00:00:00.000Z'),
        user('usr_b2', 'acct_b', '2026-01-03T00:00:00.000Z'),
        user('usr_b1', 'acct_b', '2026-01-03T00:00:00.000Z'),
      ])
      .execute();
    assert.deepEqual(await migrate(opened), Object.keys(migrations).filter((name) => name >= '015'));
    const rows = await opened.db.selectFrom('dashboard_users').select(['id', 'role', 'disabled_at', 'last_sign_in_at']).orderBy('id').execute();
    assert.deepEqual(rows, [
      { id: 'usr_a1', role: 'owner', disabled_at: null, last_sign_in_at: null },
      { id: 'usr_a2', role: 'member', disabled_at: null, last_sign_in_at: null },
      { id: 'usr_b1', role: 'owner', disabled_at: null, last_sign_in_at: null },
      { id: 'usr_b2', role: 'member', disabled_at: null, last_sign_in_at: null },
    ]);
  } finally {
    await opened.close();
    await database.drop();
  }
});
