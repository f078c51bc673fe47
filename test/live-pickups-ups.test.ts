import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { problem, type TestServer } from './harness.ts';
import { austin, orderBody, sanFrancisco } from './fixtures.ts';
import { connectOwnUps, type CarrierFakes } from './fakes/carriers.ts';
import { upsPickupRefusals } from './fakes/ups-pickup.ts';
import { payingLiveKey, startLiveShop, type LiveShop } from './live-billing.ts';
import type { FakeStripe } from './fakes/stripe.ts';
import { pickupWeight } from '../src/carriers/ups/pickup.ts';
import { reconcilePendingPickups } from '../src/domain/ops/pickups.ts';
import { pendingStaleMs } from '../src/domain/shipments/purchase.ts';
import { serviceContext } from '../src/services.ts';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- tests read whatever JSON came back

// UPS on-call pickups with live keys, over HTTP against the fake UPS (its Pickup API) and the fake Stripe: quoted
// with UPS's Pickup Rate before booking, charged to the account's card as postage is, refunded on cancel; refusals
// mapped to their codes; a retry with the same Idempotency-Key never books twice, even when UPS's answer was lost.
// UPS's pending status lists today's and tomorrow's pickups only: a lost booking for a later day is not found there,
// and booking it again gets UPS's same PRN, charged once. UPS keeps one pickup per address and day (a second booking
// there gets the first one's PRN): a second pickup of the account there is refused before UPS is asked, and a PRN UPS
// answers that a booked pickup of ours already holds is never recorded or charged twice.

// Monday 25 November 2030, 09:00 in Austin (America/Chicago): the pickups are for Tuesday.
const mondayMorning = Date.parse('2030-11-25T15:00:00Z');
const tuesday = '2030-11-26';

// UPS asks a phone number and a company at the pickup address; a company makes it a business (no residential charge).
const dock: Json = { ...austin, company: 'Mugs Inc', phone: '512-555-0100' };

describe('UPS pickups with live keys (fake UPS, fake Stripe)', () => {
  let shop: LiveShop;
  let fakes: CarrierFakes;
  let server: TestServer;
  let stripe: FakeStripe;
  let key: string;

  before(async () => {
    shop = await startLiveShop({ env: { SHIPD_FEATURES: 'pickups', SHIPD_CARRIER_TIMEOUT_MS: '4000' }, followClock: true });
    ({ server, fakes, stripe, key } = shop);
    server.clock.advance(mondayMorning - server.clock.now().getTime());
    // UPS's day is shipd's: its pending status lists the pickups of today and tomorrow by that clock.
    fakes.ups.pickupControls.now = () => server.clock.now().getTime();
  });
  after(() => shop.close());

  const db = () => server.services.database.db;
  const body = (overrides: Json = {}) => ({ carrier: 'ups', address: dock, date: tuesday, window: { start: '13:00', end: '17:00' }, parcel_count: 3, total_weight: { value: 12.5, unit: 'lb' }, ...overrides });
  const pickupCalls = (kind: 'rate' | 'create' | 'cancel' | 'pending') =>
    fakes.ups.calls.filter((c) =>
      kind === 'create'
        ? c.path.startsWith('/api/pickupcreation/')
        : kind === 'rate'
          ? c.method === 'POST' && /\/pickup\/oncall$/.test(c.path)
          : kind === 'pending'
            ? c.method === 'GET' && /\/pickup\/oncall$/.test(c.path)
            : c.method === 'DELETE' && /\/pickup\/02$/.test(c.path),
    ).length;
  const ledger = (id: string) => db().selectFrom('pickup_ledger').select(['kind', 'amount_cents']).where('pickup_id', '=', id).orderBy('created_at').orderBy('kind').execute();
  const cardCharge = (id: string) => stripe.charges().filter((c) => c.metadata.shipd_shipment === id);

  test('a UPS pickup is quoted, booked, read, charged to the card, then cancelled and refunded', async () => {
    const res = await server.request('POST', '/pickups', { key, headers: { 'idempotency-key': 'ups-pickup-1' }, body: body({ instructions: 'Dock 3, ring the bell' }) });
    assert.equal(res.status, 201, res.text);
    const p = res.body;
    // The fake's charge for a business address: its base, no residential surcharge.
    assert.deepEqual(p.price, { amount: '6.50', currency: 'USD' });
    assert.equal(p.status, 'scheduled');
    assert.equal(p.parcel_count, 3);
    assert.deepEqual(p.total_weight, { value: 12.5, unit: 'lb' });
    const booked = fakes.ups.pickups.get(p.confirmation_number);
    assert.ok(booked, 'the confirmation number is the PRN UPS gave');
    assert.equal(booked.reference, p.id, 'the pickup id is the reference UPS files it under');
    assert.equal(booked.date, '20301126');
    assert.equal(booked.readyTime, '1300');
    assert.equal(booked.closeTime, '1700');
    assert.equal(booked.quantity, 3);
    assert.equal(booked.weight, '0012.5');
    assert.equal(pickupCalls('rate'), 1, 'quoted once, before booking');
    assert.equal(fakes.ups.contractRefusals.length, 0, JSON.stringify(fakes.ups.contractRefusals));

    assert.deepEqual((await server.request('GET', `/pickups/${p.id}`, { key })).body, p);
    assert.ok((await server.request('GET', '/pickups', { key })).body.data.some((x: Json) => x.id === p.id));
    assert.deepEqual(await ledger(p.id), [{ kind: 'charge', amount_cents: 650 }]);
    const [charge] = cardCharge(p.id);
    assert.equal(charge?.captured, 650, 'the card is charged the quoted price');

    const cancelled = await server.request('POST', `/pickups/${p.id}/cancel`, { key });
    assert.equal(cancelled.status, 200, cancelled.text);
    assert.equal(cancelled.body.status, 'cancelled');
    assert.equal(fakes.ups.pickups.get(p.confirmation_number)!.cancelled, true, 'UPS cancelled it');
    const lines = await ledger(p.id);
    assert.deepEqual(lines.map((l) => l.amount_cents).sort((a, b) => a - b), [-650, 650], 'charged, then refunded in full');
    assert.equal(cardCharge(p.id)[0]?.refunded, 650, 'the card gets the price back');
  });

  test("the named labels' boxes are the parcels UPS is told of", async () => {
    const order = await server.request('POST', '/orders', {
      key,
      body: orderBody({ ship_from: dock, ship_to: { ...sanFrancisco, company: 'Analytical Engines' }, requested_service: { carrier: 'ups', service: '03' }, parcel: { weight: { value: 2.25, unit: 'lb' }, dimensions: { length: 10, width: 8, height: 4, unit: 'in' } } }),
    });
    assert.equal(order.status, 201, order.text);
    const label = await server.request('POST', '/shipments', { key, body: { order_id: order.body.id } });
    assert.equal(label.status, 201, label.text);
    const res = await server.request('POST', '/pickups', { key, body: body({ parcel_count: undefined, total_weight: undefined, shipment_ids: [label.body.id] }) });
    assert.equal(res.status, 201, res.text);
    assert.equal(res.body.parcel_count, 1);
    assert.deepEqual(res.body.total_weight, { value: 2.25, unit: 'lb' });
    const booked = fakes.ups.pickups.get(res.body.confirmation_number)!;
    assert.equal(booked.quantity, 1);
    assert.equal(booked.weight, pickupWeight(2.25));
    assert.equal(booked.weight, '0002.3', 'tenths of a pound, rounded up');
    const cancelled = await server.request('POST', `/pickups/${res.body.id}/cancel`, { key });
    assert.equal(cancelled.status, 200, cancelled.text);
  });

  test('a live key without shipment_ids must say how many parcels and their weight (400 naming the field)', async () => {
    const p = problem(await server.request('POST', '/pickups', { key, body: body({ parcel_count: undefined, total_weight: undefined }) }), 400, 'validation_failed');
    assert.equal(p.errors[0].pointer, '/parcel_count');
    const half = problem(await server.request('POST', '/pickups', { key, body: body({ total_weight: undefined }) }), 400, 'validation_failed');
    assert.equal(half.errors[0].pointer, '/total_weight');
  });

  test('402 without a payment method: UPS is asked nothing, neither a rate nor a booking', async () => {
    const account = await server.account();
    const noCard = (await server.key(account, 'live')).secret;
    const before = { rate: pickupCalls('rate'), create: pickupCalls('create') };
    problem(await server.request('POST', '/pickups', { key: noCard, body: body() }), 402, 'payment_method_required');
    assert.deepEqual({ rate: pickupCalls('rate'), create: pickupCalls('create') }, before);
    assert.deepEqual((await server.request('GET', '/pickups', { key: noCard })).body.data, []);
  });

  test("an account's own UPS account is billed by UPS: the price is shown, nothing is charged here, and it needs no payment method", async () => {
    const account = await server.account();
    await connectOwnUps(server, account);
    const own = (await server.key(account, 'live')).secret;
    const res = await server.request('POST', '/pickups', { key: own, body: body() });
    assert.equal(res.status, 201, res.text);
    assert.deepEqual(res.body.price, { amount: '6.50', currency: 'USD' });
    assert.deepEqual(await ledger(res.body.id), []);
    assert.deepEqual(cardCharge(res.body.id), []);
    const cancelled = await server.request('POST', `/pickups/${res.body.id}/cancel`, { key: own });
    assert.equal(cancelled.status, 200, cancelled.text);
    assert.deepEqual(await ledger(res.body.id), []);
  });

  test("UPS's refusals are mapped: a window past its call-by time is outside_pickup_window, no service pickup_unavailable; nothing is charged", async () => {
    fakes.ups.failNext(upsPickupRefusals.pastCallByTime, '/api/pickupcreation/');
    const late = problem(await server.request('POST', '/pickups', { key, body: body() }), 422, 'outside_pickup_window');
    assert.equal(late.errors[0].pointer, '/window');
    assert.match(late.detail, /CallByTime/);
    fakes.ups.failNext(upsPickupRefusals.noService, '/api/shipments/v2409/pickup/oncall');
    const none = problem(await server.request('POST', '/pickups', { key, body: body() }), 422, 'pickup_unavailable');
    assert.equal(none.errors[0].pointer, '/date');

    const failed = await db().selectFrom('pickups').select(['id', 'status']).where('status', '=', 'failed').execute();
    assert.equal(failed.length, 1, 'the refused booking is recorded failed, out of the API');
    assert.deepEqual(await ledger(failed[0]!.id), []);
    for (const c of cardCharge(failed[0]!.id)) assert.equal(c.captured, 0, 'its hold was let go of');
  });

  test("a retry with the same Idempotency-Key never books twice, even when UPS's answer was lost", async () => {
    const first = await server.request('POST', '/pickups', { key, headers: { 'idempotency-key': 'ups-pickup-retry' }, body: body({ date: '2030-11-27' }) });
    assert.equal(first.status, 201, first.text);
    const again = await server.request('POST', '/pickups', { key, headers: { 'idempotency-key': 'ups-pickup-retry' }, body: body({ date: '2030-11-27' }) });
    assert.equal(again.status, 201, again.text);
    assert.deepEqual(again.body, first.body);

    // UPS books a pickup for tomorrow, but its answer never comes: shipd gives up on it (504) with the booking
    // pending, out of sight.
    const creates = pickupCalls('create');
    fakes.ups.pickupControls.holdAnswers = true;
    const lost = problem(await server.request('POST', '/pickups', { key, headers: { 'idempotency-key': 'ups-pickup-lost' }, body: body({ date: tuesday }) }), 504, 'carrier_timeout');
    fakes.ups.pickupControls.holdAnswers = false;
    assert.match(lost.detail, /will be found at UPS or booked shortly/);
    assert.equal(pickupCalls('create'), creates + 1);
    const pending = await db().selectFrom('pickups').selectAll().where('idempotency_key', '=', 'ups-pickup-lost').executeTakeFirstOrThrow();
    assert.equal(pending.status, 'pending');
    assert.ok(!(await server.request('GET', '/pickups?limit=100', { key })).body.data.some((x: Json) => x.id === pending.id), 'a pending booking is not listed');
    problem(await server.request('GET', `/pickups/${pending.id}`, { key }), 404, 'not_found');

    // Once it is stale, the retry finds UPS's booking by its reference instead of booking again.
    server.clock.advance(30_000);
    const retried = await server.request('POST', '/pickups', { key, headers: { 'idempotency-key': 'ups-pickup-lost' }, body: body({ date: tuesday }) });
    assert.equal(retried.status, 201, retried.text);
    assert.equal(retried.body.id, pending.id);
    const prns = [...fakes.ups.pickups.values()].filter((x) => x.reference === pending.id);
    assert.equal(prns.length, 1);
    assert.equal(retried.body.confirmation_number, prns[0]!.prn);
    assert.equal(pickupCalls('create'), creates + 1, 'UPS was not asked to book it again');
    assert.ok(pickupCalls('pending') > 0, 'UPS was asked for its pending pickups');
    assert.deepEqual(await ledger(pending.id), [{ kind: 'charge', amount_cents: 650 }], 'charged once');
    assert.equal(cardCharge(pending.id).reduce((n, c) => n + c.captured, 0), 650);
  });

  test("a lost answer for a pickup beyond tomorrow: UPS's pending status does not list it, so it is booked again, and UPS answers the same PRN; one driver, one charge", async () => {
    const quiet = { info() {}, error() {} };
    const friday = '2030-11-29';
    const loseBooking = async (idempotencyKey: string, date: string) => {
      fakes.ups.pickupControls.holdAnswers = true;
      try {
        problem(await server.request('POST', '/pickups', { key, headers: { 'idempotency-key': idempotencyKey }, body: body({ date }) }), 504, 'carrier_timeout');
      } finally {
        fakes.ups.pickupControls.holdAnswers = false;
      }
      return db().selectFrom('pickups').selectAll().where('idempotency_key', '=', idempotencyKey).executeTakeFirstOrThrow();
    };
    const atUps = (id: string) => [...fakes.ups.pickups.values()].filter((x) => x.reference === id);

    const creates = pickupCalls('create');
    const pending = await loseBooking('ups-pickup-lost-friday', friday);
    assert.equal(pending.status, 'pending');
    const [prn] = atUps(pending.id).map((x) => x.prn);
    assert.ok(prn, 'UPS booked it');

    // The retry asks UPS's pending status first, which lists only today's and tomorrow's pickups: Friday's is not there.
    server.clock.advance(pendingStaleMs(server) + 1_000);
    const pendingCalls = pickupCalls('pending');
    const retried = await server.request('POST', '/pickups', { key, headers: { 'idempotency-key': 'ups-pickup-lost-friday' }, body: body({ date: friday }) });
    assert.equal(retried.status, 201, retried.text);
    assert.equal(pickupCalls('pending'), pendingCalls + 1, 'UPS was asked for its pending pickups');
    assert.equal(pickupCalls('create'), creates + 2, 'not found there, it was booked again');
    // "Same PRN will be returned if a pickup request already exists for a pickup address/ point": one driver.
    assert.equal(retried.body.id, pending.id);
    assert.equal(retried.body.confirmation_number, prn);
    assert.equal([...fakes.ups.pickups.values()].filter((x) => x.date === '20301129' && !x.cancelled).length, 1, 'one pickup at UPS for Friday');
    assert.deepEqual(await ledger(pending.id), [{ kind: 'charge', amount_cents: 650 }], 'charged once');
    const charges = cardCharge(pending.id);
    assert.equal(charges.length, 1, 'one card charge: the hold made before the first booking is the one captured');
    assert.equal(charges[0]!.captured, 650);
    const again = await server.request('POST', '/pickups', { key, headers: { 'idempotency-key': 'ups-pickup-lost-friday' }, body: body({ date: friday }) });
    assert.deepEqual(again.body, retried.body);
    assert.equal(pickupCalls('create'), creates + 2);

    // Left to the reconcile job, a lost booking for next Monday ends the same way.
    const monday = '2030-12-02';
    const left = await loseBooking('ups-pickup-lost-monday', monday);
    server.clock.advance(pendingStaleMs(server) + 1_000);
    await reconcilePendingPickups(serviceContext(server.services, 'test'), quiet);
    await reconcilePendingPickups(serviceContext(server.services, 'test'), quiet);
    const done = await db().selectFrom('pickups').selectAll().where('id', '=', left.id).executeTakeFirstOrThrow();
    assert.equal(done.status, 'scheduled');
    assert.equal(done.confirmation_number, atUps(left.id)[0]!.prn);
    assert.equal([...fakes.ups.pickups.values()].filter((x) => x.date === '20301202' && !x.cancelled).length, 1, 'one pickup at UPS for Monday');
    assert.deepEqual(await ledger(left.id), [{ kind: 'charge', amount_cents: 650 }]);
    assert.deepEqual(cardCharge(left.id).map((c) => c.captured), [650]);
  });
  describe('one UPS pickup per address and day', () => {
    const scheduled = (date: string) => db().selectFrom('pickups').select(['id', 'status', 'account_id', 'confirmation_number']).where('carrier', '=', 'ups').where('date', '=', date).orderBy('id').execute();
    const atUps = (yyyymmdd: string) => [...fakes.ups.pickups.values()].filter((x) => x.date === yyyymmdd && !x.cancelled);

    test("a second pickup of the account there is 409 before UPS is asked anything; once the first is cancelled, the same request books, charged once", async () => {
      const date = '2030-12-03';
      const first = await server.request('POST', '/pickups', { key, headers: { 'idempotency-key': 'ups-place-1' }, body: body({ date }) });
      assert.equal(first.status, 201, first.text);
      const before = { rate: pickupCalls('rate'), create: pickupCalls('create'), charges: stripe.charges().length };
      const second = { key, headers: { 'idempotency-key': 'ups-place-2' }, body: body({ date, window: { start: '09:00', end: '12:00' }, parcel_count: 1 }) };
      const refused = problem(await server.request('POST', '/pickups', second), 409, 'pickup_already_scheduled');
      assert.deepEqual(refused.errors, [{ in: 'body', pointer: '/address', detail: `already has UPS pickup ${first.body.id} on ${date}` }]);
      assert.match(refused.detail, new RegExp(`confirmation ${first.body.confirmation_number}`));
      assert.deepEqual({ rate: pickupCalls('rate'), create: pickupCalls('create'), charges: stripe.charges().length }, before, 'UPS and Stripe were asked nothing');
      assert.deepEqual((await scheduled(date)).map((r) => r.id), [first.body.id], 'nothing was recorded');

      assert.equal((await server.request('POST', `/pickups/${first.body.id}/cancel`, { key })).status, 200);
      const booked = await server.request('POST', '/pickups', second);
      assert.equal(booked.status, 201, booked.text);
      assert.notEqual(booked.body.confirmation_number, first.body.confirmation_number, 'UPS booked a new pickup, the first being cancelled');
      assert.deepEqual(atUps('20301203').map((x) => x.prn), [booked.body.confirmation_number]);
      assert.deepEqual(await ledger(booked.body.id), [{ kind: 'charge', amount_cents: 650 }]);
    });

    test('two bookings of the place at once: one is booked at UPS, the other is 409', async () => {
      const date = '2030-12-04';
      const creates = pickupCalls('create');
      const answers = await Promise.all(['ups-race-1', 'ups-race-2'].map((k) => server.request('POST', '/pickups', { key, headers: { 'idempotency-key': k }, body: body({ date }) })));
      assert.deepEqual(answers.map((a) => a.status).sort(), [201, 409], answers.map((a) => a.text).join('\n'));
      assert.equal(pickupCalls('create'), creates + 1, 'UPS was asked to book once');
      assert.equal(atUps('20301204').length, 1);
      const won = answers.find((a) => a.status === 201)!.body;
      assert.deepEqual(await ledger(won.id), [{ kind: 'charge', amount_cents: 650 }]);
      assert.deepEqual((await scheduled(date)).map((r) => r.status), ['scheduled']);
    });

    test("UPS answering the PRN of another account's booked pickup there: not recorded as a second pickup, not charged, and the first stays UPS's one", async () => {
      const date = '2030-12-05';
      const first = await server.request('POST', '/pickups', { key, body: body({ date }) });
      assert.equal(first.status, 201, first.text);
      // Another account on the platform's UPS account, at the same dock: shipd does not compare accounts' places, UPS does.
      const neighbour = await payingLiveKey(server);
      const creates = pickupCalls('create');
      const refused = problem(await server.request('POST', '/pickups', { key: neighbour, body: body({ date }) }), 409, 'pickup_already_scheduled');
      assert.equal(pickupCalls('create'), creates + 1, 'UPS was asked, and answered the PRN it already had');
      assert.match(refused.detail, /^UPS already has a pickup at this address on 2030-12-05, booked through another account: .*Nothing was booked or charged$/);
      assert.doesNotMatch(refused.detail, new RegExp(`${first.body.id}|${first.body.confirmation_number}`), "the other account's pickup is not named");
      assert.equal(refused.errors[0].pointer, '/address');

      const rows = await scheduled(date);
      assert.deepEqual(rows.map((r) => r.status), ['scheduled', 'failed']);
      const theirs = rows[1]!;
      assert.deepEqual(await ledger(theirs.id), [], 'not charged');
      const holds = cardCharge(theirs.id);
      assert.equal(holds.length, 1, 'its card was held before UPS booked');
      assert.equal(holds[0]!.captured, 0, 'and the hold was let go of');
      assert.deepEqual((await server.request('GET', '/pickups', { key: neighbour })).body.data, []);
      assert.deepEqual(atUps('20301205').map((x) => x.prn), [first.body.confirmation_number]);
      assert.equal((await server.request('GET', `/pickups/${first.body.id}`, { key })).body.status, 'scheduled');
    });

    test('two accounts booking the dock at once: UPS books one pickup, one of them is booked and charged, the other is 409', async () => {
      const date = '2030-12-09';
      const keys = [key, await payingLiveKey(server)];
      const answers = await Promise.all(keys.map((k) => server.request('POST', '/pickups', { key: k, body: body({ date }) })));
      assert.deepEqual(answers.map((a) => a.status).sort(), [201, 409], answers.map((a) => a.text).join('\n'));
      assert.equal(answers.find((a) => a.status === 409)!.body.code, 'pickup_already_scheduled');
      const won = answers.find((a) => a.status === 201)!.body;
      assert.deepEqual(atUps('20301209').map((x) => x.prn), [won.confirmation_number]);
      const rows = await scheduled(date);
      assert.deepEqual(rows.map((r) => r.status).sort(), ['failed', 'scheduled']);
      assert.deepEqual(await ledger(won.id), [{ kind: 'charge', amount_cents: 650 }]);
      assert.deepEqual(await ledger(rows.find((r) => r.status === 'failed')!.id), []);
    });

    test('a pickup booked before places were kept is still found by its PRN: the second booking is 409 naming it', async () => {
      const date = '2030-12-06';
      const first = await server.request('POST', '/pickups', { key, body: body({ date }) });
      assert.equal(first.status, 201, first.text);
      await db().updateTable('pickups').set({ place: null }).where('id', '=', first.body.id).execute();
      const refused = problem(await server.request('POST', '/pickups', { key, body: body({ date }) }), 409, 'pickup_already_scheduled');
      assert.match(refused.detail, new RegExp(`^Pickup ${first.body.id} is booked \\(confirmation ${first.body.confirmation_number}\\)`));
      assert.deepEqual((await scheduled(date)).map((r) => r.status), ['scheduled', 'failed']);
      const failed = (await scheduled(date))[1]!;
      assert.deepEqual(await ledger(failed.id), []);
      for (const c of cardCharge(failed.id)) assert.equal(c.captured, 0);
      const kept = await db().selectFrom('pickups').select('last_error').where('id', '=', failed.id).executeTakeFirstOrThrow();
      assert.match(kept.last_error!, new RegExp(`UPS answered the confirmation ${first.body.confirmation_number} of pickup ${first.body.id}`));
    });
  });
});
