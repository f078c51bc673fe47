import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { problem, startServer, type TestServer } from './harness.ts';
import { orderBody } from './fixtures.ts';
import { startCarrierFakes, type CarrierFakes } from './fakes/carriers.ts';
import { upsFakeCredentials } from './fakes/ups.ts';

const upsCreate = (credentials: Record<string, string> = { client_id: 'ups-client-4321', client_secret: 'a-secret-never-shown', account_number: 'ZX9876' }) => ({
  carrier: 'ups',
  description: 'Our UPS',
  credentials,
});

describe('carrier accounts through the API with test keys', () => {
  let server: TestServer;
  let key: string;
  let liveKey: string;
  let otherKey: string;
  before(async () => {
    server = await startServer();
    const account = await server.account();
    key = (await server.key(account)).secret;
    liveKey = (await server.key(account, 'live')).secret;
    otherKey = (await server.key(await server.account())).secret;
  });
  after(() => server.close());

  const call = (method: string, path: string, body?: unknown, k = key) => server.request(method, path, { key: k, body });

  test('connects, masks the credentials, tests (simulated), fails a refused secret, and disconnects', async () => {
    const made = await call('POST', '/carrier-accounts', upsCreate());
    assert.equal(made.status, 201, made.text);
    const ca = made.body;
    assert.match(ca.id, /^ca_[0-9a-z]{26}$/);
    assert.deepEqual(
      { object: ca.object, carrier: ca.carrier, mode: ca.mode, status: ca.status, account_number: ca.account_number, last_tested_at: ca.last_tested_at },
      { object: 'carrier_account', carrier: 'ups', mode: 'test', status: 'connected', account_number: '****9876', last_tested_at: null },
    );
    assert.ok(!made.text.includes('a-secret-never-shown'), 'the secret is never answered');
    const stored = await server.services.database.db.selectFrom('carrier_accounts').select('credentials').where('id', '=', ca.id).executeTakeFirstOrThrow();
    assert.ok(!stored.credentials.includes('a-secret-never-shown'), 'the secret is stored sealed');

    const again = await call('POST', '/carrier-accounts', upsCreate());
    const conflict = problem(again, 409, 'carrier_account_exists');
    assert.deepEqual(conflict.errors.map((e: { pointer: string }) => e.pointer), ['/carrier']);
    assert.ok(conflict.detail.includes(ca.id), conflict.detail);

    const tested = await call('POST', `/carrier-accounts/${ca.id}/test`);
    assert.equal(tested.status, 200, tested.text);
    assert.equal(tested.body.status, 'connected');
    assert.ok(tested.body.last_tested_at);

    const rotated = await call('PATCH', `/carrier-accounts/${ca.id}`, { credentials: { client_secret: 'SHIPD_TEST_INVALID_CREDENTIALS' } });
    assert.equal(rotated.status, 200, rotated.text);
    assert.equal(rotated.body.last_tested_at, null, 'new credentials are untested');
    assert.equal(rotated.body.account_number, '****9876', 'the fields not given are kept');
    const refused = problem(await call('POST', `/carrier-accounts/${ca.id}/test`), 422, 'carrier_account_failing');
    assert.match(refused.detail, /UPS refused/);
    const failing = await call('GET', `/carrier-accounts/${ca.id}`);
    assert.equal(failing.body.status, 'failing');
    assert.match(failing.body.last_test_error, /refused/);

    const renamed = await call('PATCH', `/carrier-accounts/${ca.id}`, { description: null });
    assert.equal(renamed.body.description, null);
    assert.equal(renamed.body.status, 'failing', 'a description changes nothing of the credentials');

    const listed = await call('GET', '/carrier-accounts');
    assert.deepEqual(listed.body.data.map((c: { id: string }) => c.id), [ca.id]);
    assert.deepEqual((await call('GET', '/carrier-accounts?carrier=fedex')).body.data, []);

    const removed = await call('DELETE', `/carrier-accounts/${ca.id}`);
    assert.equal(removed.status, 200, removed.text);
    problem(await call('GET', `/carrier-accounts/${ca.id}`), 404, 'not_found');
    assert.ok(!server.logs.some((l) => l.includes('a-secret-never-shown')), 'no log line holds the secret');
  });

  test('USPS mailer ids are checked by their published formats, and belong to USPS only', async () => {
    const bad = await call('POST', '/carrier-accounts', { carrier: 'usps', credentials: { client_id: 'id', client_secret: 's', crid: 'ABC', mid: '12345' } });
    const p = problem(bad, 400, 'validation_failed');
    assert.deepEqual(p.errors.map((e: { pointer: string }) => e.pointer).sort(), ['/credentials/crid', '/credentials/mid']);
    const onUps = problem(await call('POST', '/carrier-accounts', upsCreate({ client_id: 'id', client_secret: 's', mid: '123456' })), 400, 'validation_failed');
    assert.equal(onUps.errors[0].pointer, '/credentials/mid');
    assert.equal((await call('GET', '/carrier-accounts')).body.data.length, 0, 'nothing was stored');
    const good = await call('POST', '/carrier-accounts', { carrier: 'usps', credentials: { client_id: 'id', client_secret: 's', crid: '56982563', mid: '904128936' } });
    assert.equal(good.status, 201, good.text);
    await call('DELETE', `/carrier-accounts/${good.body.id}`);
  });

  test("a key sees only its own account's carrier accounts of its own mode", async () => {
    const made = await call('POST', '/carrier-accounts', { carrier: 'fedex', credentials: { client_id: 'fx-id', client_secret: 'fx-secret' } });
    assert.equal(made.status, 201, made.text);
    for (const k of [liveKey, otherKey]) {
      problem(await call('GET', `/carrier-accounts/${made.body.id}`, undefined, k), 404, 'not_found');
      problem(await call('DELETE', `/carrier-accounts/${made.body.id}`, undefined, k), 404, 'not_found');
      problem(await call('POST', `/carrier-accounts/${made.body.id}/test`, undefined, k), 404, 'not_found');
      assert.deepEqual((await call('GET', '/carrier-accounts', undefined, k)).body.data, []);
    }
    // The live connection is its own: the same carrier can be connected in both modes.
    const live = await call('POST', '/carrier-accounts', { carrier: 'fedex', credentials: { client_id: 'fx-id', client_secret: 'fx-secret' } }, liveKey);
    assert.equal(live.status, 201, live.text);
    assert.equal(live.body.mode, 'live');
    await call('DELETE', `/carrier-accounts/${live.body.id}`, undefined, liveKey);
    await call('DELETE', `/carrier-accounts/${made.body.id}`);
  });

  test('a retried connect with the same Idempotency-Key answers the first account, storing one', async () => {
    const headers = { 'idempotency-key': 'connect-usps-once' };
    const body = { carrier: 'usps', credentials: { client_id: 'u-id', client_secret: 'u-secret' } };
    const first = await server.request('POST', '/carrier-accounts', { key, body, headers });
    const second = await server.request('POST', '/carrier-accounts', { key, body, headers });
    assert.equal(first.status, 201, first.text);
    assert.equal(second.status, 201, second.text);
    assert.equal(second.body.id, first.body.id);
    assert.equal((await call('GET', '/carrier-accounts?carrier=usps')).body.data.length, 1);
    await call('DELETE', `/carrier-accounts/${first.body.id}`);
  });

  test('connects racing for one carrier answer one 201 and 409s; changes racing a disconnect answer 200 or 404', async () => {
    const body = { carrier: 'fedex', credentials: { client_id: 'race-id', client_secret: 'race-secret' } };
    const connects = await Promise.all(Array.from({ length: 6 }, () => call('POST', '/carrier-accounts', body)));
    assert.deepEqual(connects.map((r) => r.status).sort(), [201, 409, 409, 409, 409, 409], connects.map((r) => r.text).join('\n'));
    const id = connects.find((r) => r.status === 201)!.body.id;
    const raced = await Promise.all([call('DELETE', `/carrier-accounts/${id}`), ...Array.from({ length: 4 }, (_, i) => call('PATCH', `/carrier-accounts/${id}`, { description: `change ${i}` })), call('DELETE', `/carrier-accounts/${id}`)]);
    for (const r of raced) assert.ok(r.status === 200 || (r.status === 404 && r.body.code === 'not_found'), `${r.status} ${r.text}`);
    assert.deepEqual([raced[0]!.status, raced.at(-1)!.status].sort(), [200, 404], 'one of the two disconnects removed it');
    assert.deepEqual((await call('GET', '/carrier-accounts?carrier=fedex')).body.data, []);
  });
});

describe('carrier accounts with live keys: a real sign-in at the (fake) carrier', () => {
  let server: TestServer;
  let fakes: CarrierFakes;
  let key: string;
  before(async () => {
    fakes = await startCarrierFakes();
    // The platform has USPS only: UPS labels need the account's own UPS account.
    // Debug level writes every carrier exchange's trace to the log, so the checks below cover the traces too.
    server = await startServer({ env: { ...fakes.env(['usps']), SHIPD_LOG_LEVEL: 'debug' } });
    key = (await server.key(await server.account(), 'live')).secret;
  });
  after(async () => {
    await server.close();
    await fakes.close();
  });

  const call = (method: string, path: string, body?: unknown) => server.request(method, path, { key, body });

  test('an own UPS account connected through the API is tested with UPS and then rates live', async () => {
    const order = { ship_to: orderBody().ship_to, ship_from: orderBody().ship_from, parcel: orderBody().parcel, carriers: ['ups'] };
    const noUps = await call('POST', '/rates', order);
    assert.deepEqual([noUps.body.rates?.length, noUps.body.errors?.[0]?.code], [0, 'credentials_missing'], `without any UPS credentials there is no UPS rate: ${noUps.text}`);

    const made = await call('POST', '/carrier-accounts', upsCreate({ client_id: upsFakeCredentials.clientId, client_secret: 'not-the-secret', account_number: upsFakeCredentials.accountNumber }));
    assert.equal(made.status, 201, made.text);
    const tokensBefore = fakes.ups.calls.filter((c) => c.path.includes('oauth')).length;
    const refused = problem(await call('POST', `/carrier-accounts/${made.body.id}/test`), 422, 'carrier_account_failing');
    assert.match(refused.detail, /Invalid Client Id|10401/, 'the answer says what UPS answered');
    assert.ok(fakes.ups.calls.filter((c) => c.path.includes('oauth')).length > tokensBefore, 'UPS was asked');
    assert.equal((await call('GET', `/carrier-accounts/${made.body.id}`)).body.status, 'failing');

    const fixed = await call('PATCH', `/carrier-accounts/${made.body.id}`, { credentials: { client_secret: upsFakeCredentials.clientSecret } });
    assert.equal(fixed.status, 200, fixed.text);
    const tested = await call('POST', `/carrier-accounts/${made.body.id}/test`);
    assert.equal(tested.status, 200, tested.text);
    assert.deepEqual([tested.body.status, tested.body.last_test_error], ['connected', null]);

    const rated = await call('POST', '/rates', order);
    assert.equal(rated.status, 200, rated.text);
    assert.ok(rated.body.rates.length > 0 && rated.body.rates.every((r: { carrier: string }) => r.carrier === 'ups'));
    assert.ok(server.logs.some((l) => l.includes('"carrier call"') && l.includes('"ups"')), 'the UPS exchanges were traced');
    const secrets = [upsFakeCredentials.clientSecret, Buffer.from(`${upsFakeCredentials.clientId}:${upsFakeCredentials.clientSecret}`).toString('base64')];
    assert.deepEqual(secrets.filter((secret) => server.logs.some((l) => l.includes(secret))), [], 'no log line or carrier trace holds the credentials');
  });

  test('a carrier that is down leaves the status as it was: the outage says nothing of the credentials', async () => {
    const listed = await call('GET', '/carrier-accounts?carrier=ups');
    const ups = listed.body.data[0];
    assert.equal(ups.status, 'connected');
    fakes.ups.failNext({ kind: 'server_error' }, '/api/rating');
    const down = await call('POST', `/carrier-accounts/${ups.id}/test`);
    problem(down, 502, 'carrier_error');
    const after = await call('GET', `/carrier-accounts/${ups.id}`);
    assert.deepEqual([after.body.status, after.body.last_tested_at], ['connected', ups.last_tested_at]);
  });
});
