import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { problem, startServer, type TestServer } from './harness.ts';
import { parseRateId } from '../src/domain/rating/rate-ids.ts';
import { decodeRates } from '../src/domain/rating/rate-store.ts';
import { austin, orderBody, sanFrancisco } from './fixtures.ts';

let server: TestServer;
let key: string;

before(async () => {
  // UPS has platform credentials but its API cannot be reached (nothing listens on port 9).
  server = await startServer({ env: { SHIPD_CARRIER_TIMEOUT_MS: '300', UPS_CLIENT_ID: 'platform-id', UPS_CLIENT_SECRET: 'platform-secret', UPS_BASE_URL: 'http://127.0.0.1:9' } });
  key = (await server.key(await server.account())).secret;
});
after(() => server.close());

const losAngeles = { street1: '200 N Spring St', city: 'Los Angeles', state: 'CA', zip: '90012' };
const newYork = { street1: '350 5th Ave', city: 'New York', state: 'NY', zip: '10118' };
const twoPounds = { weight: { value: 2, unit: 'lb' }, dimensions: { length: 10, width: 8, height: 4, unit: 'in' } };

type Rate = { id: string; carrier: string; service: string; amount: { amount: string }; delivery_days: number; expires_at: string; zone: string };
const shop = (body: unknown, k = key) => server.request('POST', '/rates', { key: k, body });
const price = (r: Rate) => Number(r.amount.amount);
const byService = (rates: Rate[]) => new Map(rates.map((r) => [`${r.carrier}:${r.service}`, r]));

describe('rate shopping in test mode', () => {
  test('all three carriers answer, cheapest first, with every field a client needs', async () => {
    const res = await shop({ ship_from: austin, ship_to: sanFrancisco, parcel: twoPounds });
    assert.equal(res.status, 200);
    assert.match(res.body.id, /^rsh_[0-9a-z]{26}$/);
    assert.deepEqual(res.body.errors, []);
    const rates: Rate[] = res.body.rates;
    assert.deepEqual([...new Set(rates.map((r) => r.carrier))].sort(), ['fedex', 'ups', 'usps']);
    const amounts = rates.map(price);
    assert.deepEqual(amounts, [...amounts].sort((a, b) => a - b));
    for (const r of rates) {
      assert.match(r.id, /^rate_[0-9a-z]{26}$/);
      assert.ok(price(r) > 0 && price(r) <= Number((r as unknown as { list_amount: { amount: string } }).list_amount.amount));
    }
    // A home (no company): FedEx quotes Home Delivery, not FedEx Ground.
    assert.ok(rates.some((r) => r.service === 'GROUND_HOME_DELIVERY') && !rates.some((r) => r.service === 'FEDEX_GROUND'));
    const business = await shop({ ship_from: austin, ship_to: { ...sanFrancisco, company: 'Acme' }, parcel: twoPounds });
    assert.ok(business.body.rates.some((r: Rate) => r.service === 'FEDEX_GROUND'));
  });

  test('a short trip is cheaper than coast to coast, service by service', async () => {
    const near = byService((await shop({ ship_from: sanFrancisco, ship_to: losAngeles, parcel: twoPounds })).body.rates);
    const far = byService((await shop({ ship_from: sanFrancisco, ship_to: newYork, parcel: twoPounds })).body.rates);
    assert.ok(near.size >= 14);
    for (const [service, rate] of near) assert.ok(price(rate) < price(far.get(service)!), `${service}: ${price(rate)} vs ${price(far.get(service)!)}`);
    // One form of zone for every carrier, though USPS writes "04".
    assert.equal(near.get('usps:PRIORITY_MAIL')!.zone, '4');
    assert.equal(far.get('usps:PRIORITY_MAIL')!.zone, '8');
    assert.equal(far.get('ups:03')!.zone, '8');
  });

  test('heavier costs more, service by service', async () => {
    const light = byService((await shop({ ship_from: austin, ship_to: sanFrancisco, parcel: twoPounds })).body.rates);
    const heavy = byService((await shop({ ship_from: austin, ship_to: sanFrancisco, parcel: { ...twoPounds, weight: { value: 20, unit: 'lb' } } })).body.rates);
    for (const [service, rate] of light) assert.ok(price(rate) < price(heavy.get(service)!), service);
  });

  test('within each carrier, faster costs more', async () => {
    const rates: Rate[] = (await shop({ ship_from: austin, ship_to: newYork, parcel: twoPounds })).body.rates;
    for (const carrier of ['ups', 'usps', 'fedex']) {
      const own = rates.filter((r) => r.carrier === carrier).sort((a, b) => b.delivery_days - a.delivery_days || price(a) - price(b));
      for (let i = 1; i < own.length; i++) {
        if (own[i]!.delivery_days < own[i - 1]!.delivery_days) assert.ok(price(own[i]!) > price(own[i - 1]!), `${own[i]!.service} vs ${own[i - 1]!.service}`);
      }
    }
  });

  test('the same request twice gives the same prices, as new rates', async () => {
    const body = { ship_from: austin, ship_to: sanFrancisco, parcel: twoPounds };
    const a: Rate[] = (await shop(body)).body.rates;
    const b: Rate[] = (await shop(body)).body.rates;
    assert.deepEqual(a.map((r) => [r.carrier, r.service, r.amount]), b.map((r) => [r.carrier, r.service, r.amount]));
    assert.ok(a.every((r, i) => r.id !== b[i]!.id));
  });

  test('every rate is stored for 24 hours, as one row of its shop, and found by its id', async () => {
    const res = await shop({ ship_from: austin, ship_to: sanFrancisco, parcel: twoPounds });
    const rows = await server.services.database.db.selectFrom('rate_shops').selectAll().where('id', '=', res.body.id).execute();
    assert.equal(rows.length, 1);
    const row = rows[0]!;
    assert.equal(Date.parse(row.expires_at) - Date.parse(res.body.created_at), 24 * 3_600_000);
    assert.deepEqual(decodeRates(row), res.body.rates);
    for (const [i, r] of (res.body.rates as Rate[]).entries()) {
      assert.deepEqual(parseRateId(r.id), { rateKey: row.rate_key, index: i });
      const found = await server.services.rateStore.find(server.services.database.db, r.id);
      assert.deepEqual(found?.rate, r, 'each rate is found again by its id, as it was answered');
    }
    assert.equal(await server.services.rateStore.find(server.services.database.db, res.body.rates[0].id.slice(0, -2) + 'zz'), undefined);
  });

  test('concurrent shops each get their own stored row', async () => {
    const answers = await Promise.all(Array.from({ length: 40 }, () => shop({ ship_from: austin, ship_to: sanFrancisco, parcel: twoPounds })));
    assert.ok(answers.every((a) => a.status === 200));
    const ids = answers.map((a) => a.body.id);
    const rows = await server.services.database.db.selectFrom('rate_shops').selectAll().where('id', 'in', ids).execute();
    assert.equal(rows.length, 40);
    for (const row of rows) assert.deepEqual(decodeRates(row), answers.find((a) => a.body.id === row.id)!.body.rates);
  });

  test('carriers and services filters', async () => {
    const uspsOnly: Rate[] = (await shop({ ship_from: austin, ship_to: sanFrancisco, parcel: twoPounds, carriers: ['usps'] })).body.rates;
    assert.deepEqual([...new Set(uspsOnly.map((r) => r.carrier))], ['usps']);
    const filtered = (await shop({ ship_from: austin, ship_to: sanFrancisco, parcel: twoPounds, services: ['03', 'PRIORITY_MAIL'] })).body;
    const ground: Rate[] = filtered.rates;
    assert.deepEqual(ground.map((r) => r.service).sort(), ['03', 'PRIORITY_MAIL']);
    // FedEx, none of whose services was asked for, is left out rather than reported as offering none of them.
    assert.deepEqual(filtered.errors, []);
    const p = problem(await shop({ ship_from: austin, ship_to: sanFrancisco, parcel: twoPounds, carriers: ['ups'], services: ['PRIORITY_MAIL'] }), 400, 'validation_failed');
    assert.equal(p.errors[0].pointer, '/services/0');
  });
});

describe('failures stay per carrier', () => {
  test('an oversize parcel is a clear per-carrier error, not a rate', async () => {
    const heavy = await shop({ ship_from: austin, ship_to: sanFrancisco, parcel: { weight: { value: 80, unit: 'lb' } } });
    assert.equal(heavy.status, 200);
    assert.deepEqual(heavy.body.errors, [{ carrier: 'usps', code: 'parcel_too_large', detail: 'USPS takes parcels of at most 70 lb' }]);
    assert.ok(heavy.body.rates.length > 0 && heavy.body.rates.every((r: Rate) => r.carrier !== 'usps'));
    const long = await shop({ ship_from: austin, ship_to: sanFrancisco, parcel: { weight: { value: 5, unit: 'lb' }, dimensions: { length: 110, width: 2, height: 2, unit: 'in' } } });
    assert.deepEqual(long.body.errors.map((e: { carrier: string; code: string }) => `${e.carrier}:${e.code}`).sort(), ['fedex:parcel_too_large', 'ups:parcel_too_large', 'usps:parcel_too_large']);
    // 30 × 20 × 15 in: 30 + 70 = 100 in of length plus girth fits Ground Advantage (130) and Priority (108) …
    const big = byService((await shop({ ship_from: austin, ship_to: sanFrancisco, parcel: { weight: { value: 5, unit: 'lb' }, dimensions: { length: 30, width: 20, height: 15, unit: 'in' } } })).body.rates);
    assert.ok(big.has('usps:PRIORITY_MAIL'));
    // … 50 × 15 × 15: 110 in fits Ground Advantage only (its cube bills 68 lb, inside Notice 123's 70 lb grid).
    const bigger = byService((await shop({ ship_from: austin, ship_to: sanFrancisco, parcel: { weight: { value: 5, unit: 'lb' }, dimensions: { length: 50, width: 15, height: 15, unit: 'in' } } })).body.rates);
    assert.ok(bigger.has('usps:USPS_GROUND_ADVANTAGE') && !bigger.has('usps:PRIORITY_MAIL'));
  });

  test('a ZIP no carrier serves', async () => {
    const res = await shop({ ship_from: austin, ship_to: { ...sanFrancisco, zip: '99999' }, parcel: twoPounds });
    assert.equal(res.status, 200);
    assert.deepEqual(res.body.rates, []);
    assert.deepEqual(res.body.errors.map((e: { code: string }) => e.code), ['not_serviced', 'not_serviced', 'not_serviced']);
  });

  test('a carrier that times out costs the time-out, and the others still answer', async () => {
    const started = Date.now();
    const res = await shop({ ship_from: austin, ship_to: { ...sanFrancisco, name: 'Timeout UPS' }, parcel: twoPounds });
    const took = Date.now() - started;
    assert.equal(res.status, 200);
    assert.ok(took >= 290 && took < 2_000, `took ${took} ms`);
    assert.deepEqual(res.body.errors, [{ carrier: 'ups', code: 'carrier_timeout', detail: 'UPS did not answer within 300 ms' }]);
    assert.ok(res.body.rates.some((r: Rate) => r.carrier === 'usps') && res.body.rates.some((r: Rate) => r.carrier === 'fedex'));
  });

  test('a carrier that is down', async () => {
    const res = await shop({ ship_from: austin, ship_to: { ...sanFrancisco, name: 'Unavailable FedEx' }, parcel: twoPounds });
    assert.deepEqual(res.body.errors.map((e: { carrier: string; code: string }) => `${e.carrier}:${e.code}`), ['fedex:carrier_unavailable']);
  });

  test('a live key gets a per-carrier error for carriers it cannot use, not a crash, and /carriers agrees', async () => {
    const live = (await server.key(await server.account(), 'live')).secret;
    const res = await shop({ ship_from: austin, ship_to: sanFrancisco, parcel: twoPounds }, live);
    assert.equal(res.status, 200);
    assert.deepEqual(res.body.rates, []);
    assert.deepEqual(res.body.errors.map((e: { carrier: string; code: string }) => `${e.carrier}:${e.code}`), ['ups:carrier_unavailable', 'usps:credentials_missing', 'fedex:credentials_missing']);
    assert.match(res.body.errors[1].detail, /Set USPS_CLIENT_ID and USPS_CLIENT_SECRET/);
    const carriers = (await server.request('GET', '/carriers', { key: live })).body.data;
    assert.deepEqual(carriers.map((c: { connected: boolean }) => c.connected), [true, false, false], 'UPS has credentials, the others none');
  });
});

describe('rating an order', () => {
  test('order_id rates the order and ties the rates to it', async () => {
    const order = (await server.request('POST', '/orders', { key, body: orderBody() })).body;
    const res = await shop({ order_id: order.id, carriers: ['usps'] });
    assert.equal(res.status, 200);
    assert.equal(res.body.order_id, order.id);
    const rows = await server.services.database.db.selectFrom('rate_shops').select('order_id').where('id', '=', res.body.id).execute();
    assert.equal(rows[0]!.order_id, order.id);
  });

  test('an order without a parcel, another key\'s order, and mixed inputs are refused', async () => {
    const bare = (await server.request('POST', '/orders', { key, body: orderBody({ parcel: undefined }) })).body;
    assert.equal(problem(await shop({ order_id: bare.id }), 400, 'validation_failed').errors[0].pointer, '/order_id');
    const other = (await server.key(await server.account())).secret;
    problem(await shop({ order_id: bare.id }, other), 404, 'not_found');
    const mixed = problem(await shop({ order_id: bare.id, ship_to: sanFrancisco }), 400, 'validation_failed');
    assert.equal(mixed.errors[0].pointer, '/ship_to');
  });

  test('without order_id, ship_to and parcel are required and checked like an order', async () => {
    const p = problem(await shop({ ship_from: austin }), 400, 'validation_failed');
    assert.deepEqual(p.errors.map((e: { pointer: string }) => e.pointer).sort(), ['/parcel', '/ship_to']);
    const heavy = problem(await shop({ ship_from: austin, ship_to: sanFrancisco, parcel: { weight: { value: 200, unit: 'lb' } } }), 400, 'validation_failed');
    assert.equal(heavy.errors[0].pointer, '/parcel/weight/value');
  });
});
