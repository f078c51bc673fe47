import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { problem, startServer, type TestServer } from '../harness.ts';
import { dashboardRoutes } from '../../src/dashboard/plugin.ts';
import { createUser } from '../../src/domain/dashboard/users.ts';
import { sessionIdleMs } from '../../src/domain/dashboard/sessions.ts';
import { accountWithUser, csrfOf, DashboardClient, password } from './client.ts';

let server: TestServer;

before(async () => {
  server = await startServer();
});
after(async () => {
  await server.close();
});

async function signedIn(): Promise<{ client: DashboardClient; account: string }> {
  const { account, email } = await accountWithUser(server);
  const client = new DashboardClient(server);
  const res = await client.signIn(email, password);
  assert.equal(res.status, 303, res.text);
  assert.equal(res.location, '/dashboard/test/keys');
  return { client, account };
}

/** A concrete path for a route pattern: any id will do, since no page may answer before the session is checked. */
const concrete = (url: string) => url.replace(/:(\w+)/g, (_m, name: string) => (name === 'name' ? 'dashboard.css' : `${name}_01jf3k4m5n6p7q8r9s0t1v2w3x`));

const publicRoutes = new Set(['GET /dashboard/login', 'POST /dashboard/login', 'GET /dashboard/assets/:name']);

describe('no session, no page', () => {
  test('every dashboard route, GET or POST, sends a visitor without a session to the sign-in page', async () => {
    const routes = [...dashboardRoutes].filter((r) => !publicRoutes.has(r));
    assert.ok(routes.length >= 10, `only ${routes.length} routes found`);
    const anonymous = new DashboardClient(server);
    for (const route of routes) {
      const [method, url] = route.split(' ') as [string, string];
      const res = await anonymous.send(method, concrete(url), method === 'POST' ? { _csrf: 'x', name: 'sneaky' } : undefined);
      assert.equal(res.status, 303, `${route}: ${res.status} ${res.text.slice(0, 200)}`);
      assert.match(res.location ?? '', /^\/dashboard\/login/, route);
    }
  });

  test('an API key opens no page, as a Bearer header, an X-API-Key header or a cookie', async () => {
    const { account } = await signedIn();
    const key = await server.key(account);
    const tries: Record<string, string>[] = [{ authorization: `Bearer ${key.secret}` }, { 'x-api-key': key.secret }, { cookie: `shipd_session=${key.secret}` }];
    for (const headers of tries) {
      const res = await new DashboardClient(server).send('GET', '/dashboard/test/keys', undefined, headers);
      assert.equal(res.status, 303, JSON.stringify(headers));
      assert.equal(res.location, '/dashboard/login?next=%2Fdashboard%2Ftest%2Fkeys');
    }
  });

  test('a session cookie is no API key: the API answers 401 to it', async () => {
    const { client } = await signedIn();
    const session = client.cookies.get('shipd_session')!;
    problem(await server.request('GET', '/carriers', { headers: { cookie: `shipd_session=${session}` } }), 401, 'missing_api_key');
    problem(await server.request('GET', '/carriers', { headers: { authorization: `Bearer ${session}` } }), 401, 'malformed_api_key');
  });

  test('the session cookie is HttpOnly, Secure, SameSite=Lax and only for /dashboard', async () => {
    const { email } = await accountWithUser(server);
    const login = await fetch(`${server.url}/dashboard/login`);
    const token = csrfOf(await login.text());
    const loginCookie = login.headers.getSetCookie()[0]!.split(';')[0]!;
    const res = await fetch(`${server.url}/dashboard/login`, {
      method: 'POST',
      redirect: 'manual',
      headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: loginCookie, origin: server.url },
      body: new URLSearchParams({ _csrf: token, email, password }).toString(),
    });
    assert.equal(res.status, 303);
    const cookie = res.headers.getSetCookie().find((c) => c.startsWith('shipd_session='))!;
    assert.ok(cookie, 'no session cookie');
    for (const attribute of ['HttpOnly', 'Secure', 'SameSite=Lax', 'Path=/dashboard']) assert.ok(cookie.split('; ').includes(attribute), `${attribute} missing from ${cookie}`);
  });

  test('a session ends when signed out, and after two idle hours', async () => {
    const { client } = await signedIn();
    assert.equal((await client.get('/dashboard/test/keys')).status, 200);
    const cookie = client.cookies.get('shipd_session')!;
    const out = await client.submit('/dashboard/test/keys', '/dashboard/logout');
    assert.equal(out.status, 303);
    const replayed = await new DashboardClient(server).send('GET', '/dashboard/test/keys', undefined, { cookie: `shipd_session=${cookie}` });
    assert.equal(replayed.status, 303, 'the signed-out session still works');

    const idle = (await signedIn()).client;
    server.clock.advance(sessionIdleMs + 1_000);
    assert.equal((await idle.get('/dashboard/test/keys')).status, 303, 'an idle session still works');
  });
});

describe('names that are not ours', () => {
  test('an asset named like an Object member is no file: 404, not cached', async () => {
    for (const name of ['constructor', '__proto__', 'toString', 'hasOwnProperty']) {
      const res = await fetch(`${server.url}/dashboard/assets/${name}`);
      assert.equal(res.status, 404, name);
      assert.notEqual(res.headers.get('cache-control'), 'public, max-age=3600', name);
    }
  });

  test('a notice named like an Object member shows no banner', async () => {
    const { client } = await signedIn();
    for (const notice of ['constructor', '__proto__', 'toString']) {
      const page = await client.get(`/dashboard/test/keys?notice=${notice}`);
      assert.equal(page.status, 200);
      assert.doesNotMatch(page.text, /class="notice"/, notice);
    }
  });
});

describe('forms need their CSRF token', () => {
  test('a post without the token, with another session token, or from another origin is refused with 403 and changes nothing', async () => {
    const { client, account } = await signedIn();
    const other = await signedIn();
    const otherToken = csrfOf((await other.client.get('/dashboard/test/keys')).text);
    const ownToken = csrfOf((await client.get('/dashboard/test/keys')).text);
    const attempts: [Record<string, string>, Record<string, string>][] = [
      [{ name: 'no token' }, {}],
      [{ name: 'wrong token', _csrf: otherToken }, {}],
      [{ name: 'other origin', _csrf: ownToken }, { origin: 'https://evil.example' }],
      [{ name: 'cross site', _csrf: ownToken }, { 'sec-fetch-site': 'cross-site' }],
    ];
    for (const [form, headers] of attempts) {
      const res = await client.send('POST', '/dashboard/test/keys', form, headers);
      assert.equal(res.status, 403, `${form.name}: ${res.status}`);
    }
    const keys = await server.services.database.db.selectFrom('api_keys').select('id').where('account_id', '=', account).execute();
    assert.equal(keys.length, 0, 'a refused post created a key');
    const ok = await client.send('POST', '/dashboard/test/keys', { _csrf: ownToken, name: 'with token' });
    assert.equal(ok.status, 201);
  });

  test('the sign-in form needs its token too', async () => {
    const { email } = await accountWithUser(server);
    const res = await new DashboardClient(server).send('POST', '/dashboard/login', { email, password });
    assert.equal(res.status, 403);
  });
});

describe('sign-in', () => {
  test('a wrong password and an unknown email get the same answer', async () => {
    const { email } = await accountWithUser(server);
    const wrong = await new DashboardClient(server).signIn(email, 'not the password at all');
    const unknown = await new DashboardClient(server).signIn(`nobody-${Date.now()}@example.com`, password);
    assert.equal(wrong.status, 401);
    assert.equal(unknown.status, 401);
    assert.match(wrong.text, /The email or the password is wrong/);
    assert.match(unknown.text, /The email or the password is wrong/);
  });

  test('sign-in sends back only to a dashboard page', async () => {
    const { email } = await accountWithUser(server);
    const client = new DashboardClient(server);
    const login = await client.get('/dashboard/login');
    const res = await client.send('POST', '/dashboard/login', { _csrf: csrfOf(login.text), email, password, next: '//evil.example/x' });
    assert.equal(res.location, '/dashboard/test/keys');
  });
});

describe('API keys', () => {
  test('a key made in the dashboard works at once; revoked there, it stops at once', async () => {
    const { client } = await signedIn();
    const created = await client.submit('/dashboard/test/keys', '/dashboard/test/keys', { name: 'store' });
    assert.equal(created.status, 201);
    const secret = /data-secret>(svc_test_[A-Za-z0-9]+)</.exec(created.text)?.[1];
    assert.ok(secret, 'the new key is not on the page');
    assert.equal((await server.request('GET', '/carriers', { key: secret })).status, 200);

    const keyId = /data-key-id="(key_[0-9a-z]+)"/.exec(created.text)![1]!;
    const confirm = await client.get(`/dashboard/test/keys/${keyId}/revoke`);
    assert.equal(confirm.status, 200);
    const revoked = await client.send('POST', `/dashboard/test/keys/${keyId}/revoke`, { _csrf: csrfOf(confirm.text) });
    assert.equal(revoked.status, 303);
    problem(await server.request('GET', '/carriers', { key: secret }), 401, 'revoked_api_key');
    assert.doesNotMatch((await client.get('/dashboard/test/keys')).text, new RegExp(secret));
  });

  test("another account's key, or a key of the other mode, cannot be revoked or rolled", async () => {
    const { client } = await signedIn();
    const stranger = await server.key(await server.account());
    const own = await server.key((await signedIn()).account, 'live');
    for (const id of [stranger.id, own.id]) {
      const res = await client.submit('/dashboard/test/keys', `/dashboard/test/keys/${id}/revoke`);
      assert.equal(res.status, 404);
      assert.equal((await server.request('GET', '/carriers', { key: stranger.secret })).status, 200);
    }
  });

  test('rolling shows the new secret once; the old one works for the grace period chosen', async () => {
    const { client, account } = await signedIn();
    const key = await server.key(account);
    const rolled = await client.submit(`/dashboard/test/keys/${key.id}/roll`, `/dashboard/test/keys/${key.id}/roll`, { grace: '0' });
    assert.equal(rolled.status, 200);
    const secret = /data-secret>(svc_test_[A-Za-z0-9]+)</.exec(rolled.text)![1]!;
    assert.equal((await server.request('GET', '/carriers', { key: secret })).status, 200);
    problem(await server.request('GET', '/carriers', { key: key.secret }), 401, 'expired_api_key');
  });

  test('a Basic-plan account is told its plan has no API access, and is offered no key that would always be refused', async () => {
    const account = await server.account(undefined, 'basic');
    const email = `basic-${Math.random().toString(36).slice(2)}@example.com`;
    await createUser(server.services.database.db, server.clock, account, email, password);
    const client = new DashboardClient(server);
    assert.equal((await client.signIn(email, password)).status, 303);
    const old = await server.key(account);
    const page = await client.get('/dashboard/test/keys');
    assert.equal(page.status, 200);
    assert.match(page.text, /plan has no API access/);
    assert.doesNotMatch(page.text, /Create key|Create one below|\/roll"/);
    assert.match(page.text, new RegExp(`/dashboard/test/keys/${old.id}/revoke`), 'a key left from another plan can still be revoked');
    for (const [path, form] of [['/dashboard/test/keys', { name: 'store' }], [`/dashboard/test/keys/${old.id}/roll`, { grace: '0' }]] as const) {
      const refused = await client.send('POST', path, { _csrf: csrfOf(page.text), ...form });
      assert.equal(refused.status, 403, path);
      assert.match(refused.text, /plan does not include API access/);
    }
    assert.equal((await server.services.database.db.selectFrom('api_keys').select('id').where('account_id', '=', account).execute()).length, 1, 'no key was made');
  });
});

test('the dashboard is not part of the API document', async () => {
  const doc = await server.request('GET', '/openapi.json');
  assert.equal(doc.status, 200);
  assert.ok(!doc.text.includes('/dashboard'), 'a dashboard route is in /openapi.json');
});
