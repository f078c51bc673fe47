import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { problem, startServer, type Response, type TestServer } from './harness.ts';
import { orderBody } from './fixtures.ts';
import { startCarrierFakes, type CarrierFakes } from './fakes/carriers.ts';
import { upsFakeCredentials } from './fakes/ups.ts';
import { fakeUspsCredentials } from './fakes/usps.ts';

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
    // Every credential value sent, searched for in the raw text of each answer: none is ever answered, not even in part of a field.
    const sent = ['ups-client-4321', 'a-secret-never-shown', 'ZX9876', 'ups-client-rotated-8765', 'another-secret-never-shown', 'SHIPD_TEST_INVALID_CREDENTIALS'];
    const answered: { name: string; text: string; body: Record<string, unknown> }[] = [];
    const answer = async (name: string, res: Promise<Response>) => {
      const r = await res;
      answered.push({ name, text: r.text, body: r.body });
      return r;
    };
    const made = await answer('POST', call('POST', '/carrier-accounts', upsCreate()));
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

    const tested = await answer('POST test', call('POST', `/carrier-accounts/${ca.id}/test`));
    assert.equal(tested.status, 200, tested.text);
    assert.equal(tested.body.status, 'connected');
    assert.ok(tested.body.last_tested_at);
    assert.equal((await answer('GET', call('GET', `/carrier-accounts/${ca.id}`))).status, 200);

    const newId = await answer('PATCH id and secret', call('PATCH', `/carrier-accounts/${ca.id}`, { credentials: { client_id: 'ups-client-rotated-8765', client_secret: 'another-secret-never-shown' } }));
    assert.equal(newId.status, 200, newId.text);
    assert.equal(newId.body.account_number, '****9876', 'the fields not given are kept');
    assert.equal((await answer('POST test after PATCH', call('POST', `/carrier-accounts/${ca.id}/test`))).status, 200);
    const rotated = await answer('PATCH secret', call('PATCH', `/carrier-accounts/${ca.id}`, { credentials: { client_secret: 'SHIPD_TEST_INVALID_CREDENTIALS' } }));
    assert.equal(rotated.status, 200, rotated.text);
    assert.equal(rotated.body.last_tested_at, null, 'new credentials are untested');
    assert.equal(rotated.body.account_number, '****9876', 'the fields not given are kept');
    const refused = problem(await answer('POST test refused', call('POST', `/carrier-accounts/${ca.id}/test`)), 422, 'carrier_account_failing');
    assert.match(refused.detail, /UPS refused/);
    const failing = await answer('GET failing', call('GET', `/carrier-accounts/${ca.id}`));
    assert.equal(failing.body.status, 'failing');
    assert.match(failing.body.last_test_error, /refused/);

    const renamed = await answer('PATCH description', call('PATCH', `/carrier-accounts/${ca.id}`, { description: null }));
    assert.equal(renamed.body.description, null);
    assert.equal(renamed.body.status, 'failing', 'a description changes nothing of the credentials');

    const listed = await answer('GET list', call('GET', '/carrier-accounts'));
    assert.deepEqual(listed.body.data.map((c: { id: string }) => c.id), [ca.id]);
    assert.deepEqual((await call('GET', '/carrier-accounts?carrier=fedex')).body.data, []);

    const removed = await answer('DELETE', call('DELETE', `/carrier-accounts/${ca.id}`));
    assert.equal(removed.status, 200, removed.text);
    problem(await call('GET', `/carrier-accounts/${ca.id}`), 404, 'not_found');
    const accounts = answered.flatMap((a) => (a.body.object === 'list' ? (a.body.data as Record<string, unknown>[]) : a.body.object === 'carrier_account' ? [a.body] : []));
    assert.equal(accounts.length, answered.length - 1, 'every answer but the refusal is a carrier account, or a list of the one');
    assert.deepEqual([...new Set(accounts.flatMap((a) => Object.keys(a)))].filter((k) => ['client_id', 'client_secret', 'credentials', 'crid', 'mid', 'manifest_mid'].includes(k)), [], 'no answer has a credential field');
    assert.deepEqual(answered.flatMap((a) => sent.filter((value) => a.text.includes(value)).map((value) => `${a.name}: ${value}`)), [], 'no answer holds a credential value sent');
    assert.deepEqual(sent.filter((value) => server.logs.some((l) => l.includes(value))), [], 'no log line holds a credential value sent');
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
    assert.match(refused.detail, /check the account's own UPS credentials \(PATCH \/carrier-accounts/, 'the merchant is sent to its own carrier account');
    assert.doesNotMatch(refused.detail, /UPS_CLIENT_ID/, "not to the server's settings, which are not the merchant's to change");
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
    const secrets = [upsFakeCredentials.clientId, upsFakeCredentials.clientSecret, upsFakeCredentials.accountNumber, Buffer.from(`${upsFakeCredentials.clientId}:${upsFakeCredentials.clientSecret}`).toString('base64')];
    assert.deepEqual(secrets.filter((secret) => server.logs.some((l) => l.includes(secret))), [], 'no log line or carrier trace holds the credentials');
    const answers = [made.text, JSON.stringify(refused), fixed.text, tested.text, (await call('GET', `/carrier-accounts/${made.body.id}`)).text, (await call('GET', '/carrier-accounts')).text];
    assert.deepEqual(secrets.filter((secret) => answers.some((text) => text.includes(secret))), [], 'no answer holds the credentials');
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

describe('own USPS and FedEx accounts connected through the API and used live, at debug level', () => {
  let server: TestServer;
  let fakes: CarrierFakes;
  let key: string;
  before(async () => {
    fakes = await startCarrierFakes();
    // No platform credentials at all: every live call below is made with the account's own credentials.
    server = await startServer({ env: { ...fakes.env([]), SHIPD_LOG_LEVEL: 'debug' } });
    key = (await server.key(await server.account(), 'live')).secret;
  });
  after(async () => {
    await server.close();
    await fakes.close();
  });

  const call = (method: string, path: string, body?: unknown) => server.request(method, path, { key, body });

  test('no credential value is in any answer, log line, carrier trace or stored row', async () => {
    // A manifest MID of its own, so the label owner's MID and the manifest's are told apart.
    const usps = { ...fakeUspsCredentials, manifestMid: '904128936' };
    const fedex = { clientId: fakes.fedex.clientId, clientSecret: fakes.fedex.clientSecret, accountNumber: fakes.fedex.accountNumber };
    const connect = {
      usps: { carrier: 'usps', credentials: { client_id: usps.clientId, client_secret: usps.clientSecret, account_number: usps.accountNumber, crid: usps.crid, mid: usps.mid, manifest_mid: usps.manifestMid } },
      fedex: { carrier: 'fedex', credentials: { client_id: fedex.clientId, client_secret: fedex.clientSecret, account_number: fedex.accountNumber } },
    };
    const answers: { name: string; text: string }[] = [];
    const answer = async (name: string, method: string, path: string, body?: unknown) => {
      const res = await call(method, path, body);
      answers.push({ name, text: res.text });
      return res;
    };

    for (const [carrier, body] of Object.entries(connect)) {
      const made = await answer(`connect ${carrier}`, 'POST', '/carrier-accounts', body);
      assert.equal(made.status, 201, made.text);
      const tested = await answer(`test ${carrier}`, 'POST', `/carrier-accounts/${made.body.id}/test`);
      assert.equal(tested.status, 200, tested.text);
      assert.equal(tested.body.status, 'connected');
      assert.equal((await answer(`get ${carrier}`, 'GET', `/carrier-accounts/${made.body.id}`)).body.account_number, `****${body.credentials.account_number.slice(-4)}`);
      assert.equal((await answer(`patch ${carrier}`, 'PATCH', `/carrier-accounts/${made.body.id}`, { description: `Our ${carrier}` })).status, 200);
    }
    assert.equal((await answer('list', 'GET', '/carrier-accounts')).body.data.length, 2);

    const trackingNumbers: string[] = [];
    for (const carrier of ['usps', 'fedex']) {
      // FedEx labels need the shipper's phone.
      const order = await answer(`order ${carrier}`, 'POST', '/orders', orderBody({ ship_from: { ...orderBody().ship_from as object, phone: '512-555-0100' } }));
      assert.equal(order.status, 201, order.text);
      const shop = await answer(`rates ${carrier}`, 'POST', '/rates', { order_id: order.body.id, carriers: [carrier] });
      assert.equal(shop.status, 200, shop.text);
      const rate = shop.body.rates.find((r: { carrier: string }) => r.carrier === carrier);
      assert.ok(rate, `${carrier} rated live: ${shop.text}`);
      const bought = await answer(`label ${carrier}`, 'POST', '/shipments', { order_id: order.body.id, rate_id: rate.id });
      assert.equal(bought.status, 201, bought.text);
      assert.equal(bought.body.payment, 'carrier_account');
      trackingNumbers.push(bought.body.tracking_number);
    }
    assert.equal(fakes.usps.paymentRequests > 0, true, 'the USPS label went through the payment authorization, which carries the CRID and MIDs');
    const traced = (carrier: string, path: string) => server.logs.some((l) => l.includes('"carrier call"') && l.includes(`"carrier":"${carrier}"`) && l.includes(path));
    assert.ok(traced('usps', '/payments/v3/payment-authorization') && traced('usps', '/oauth2/v3/token'), 'the USPS sign-in and payment authorization were traced');
    assert.ok(traced('fedex', '/oauth/token') && traced('fedex', '/ship/v1/shipments'), 'the FedEx sign-in and label were traced');

    const rows: string[] = [];
    for (const table of await server.services.database.db.introspection.getTables()) {
      const all = await server.services.database.db.selectFrom(table.name as 'accounts').selectAll().execute();
      rows.push(JSON.stringify(all, (_, v) => (Buffer.isBuffer(v) || v instanceof Uint8Array || (v && v.type === 'Buffer') ? '[bytes]' : v)));
    }
    // Every USPS tracking number carries the label owner's MID (IMpb), and is meant to be seen: it is taken out first.
    const seen = (text: string) => trackingNumbers.reduce((t, n) => t.split(n).join('[tracking number]'), text);
    const values = [usps.clientId, usps.clientSecret, usps.accountNumber, usps.crid, usps.mid, usps.manifestMid, fedex.clientId, fedex.clientSecret, fedex.accountNumber];
    const found = (where: string, texts: string[]) => values.filter((v) => texts.some((t) => seen(t).includes(v))).map((v) => `${where}: ${v}`);
    assert.deepEqual(
      [...answers.flatMap((a) => found(`answer to ${a.name}`, [a.text])), ...found('log line or carrier trace', server.logs), ...found('stored row', rows)],
      [],
      'no credential value anywhere',
    );
  });
});
