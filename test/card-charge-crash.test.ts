// A real shipd process charging live platform postage to a Stripe card, killed with SIGKILL at chosen and random
// moments of purchases and voids (a hold made but its answer lost, a label's ship call at the carrier, a capture
// made but its answer lost, a refund made but its answer lost, a release made but its answer lost, anywhere) and
// started again on the same database; once the worker has reconciled and settled, Stripe and shipd must agree: one
// captured charge for each label, none for a purchase that bought nothing, every voided label's money given back.
// CRASH_SEED=<n> replays a run's choices (the moments themselves still depend on timing).
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomInt } from 'node:crypto';
import { freePort, processDatabase, stopWhenDone, startShipd, type Shipd } from './shipd-process.ts';
import { austin, orderBody } from './fixtures.ts';
import { databaseUnderTest, runCli } from './harness.ts';
import { startCarrierFakes, type CarrierFakes } from './fakes/carriers.ts';
import { startFakeStripe, type ChargeSummary, type FakeStripe } from './fakes/stripe.ts';
import { Rng } from './reliability/api-document.ts';

let shipd: Shipd | undefined;
stopWhenDone(() => shipd);
const shared = processDatabase();
let fakes: CarrierFakes;
let stripe: FakeStripe;
before(async () => {
  [fakes, stripe] = await Promise.all([startCarrierFakes(), startFakeStripe()]);
});
after(async () => {
  await Promise.all([fakes.close(), stripe.close()]);
});

const seed = process.env.CRASH_SEED ? Number(process.env.CRASH_SEED) : randomInt(2 ** 31);
const rng = new Rng(seed);

const stripeEnv = () => ({ STRIPE_SECRET_KEY: stripe.secretKey, STRIPE_WEBHOOK_SECRET: stripe.webhookSecret, STRIPE_BASE_URL: stripe.url });
// A purchase left pending is stale after the carrier time-out, 5 s and the card hold's time, and so is a card charge
// left unsettled; the jobs a killed process was running are taken over once their lease lapses. The time-out is
// short so that this comes soon, but long enough for a fake carrier on a CI machine busy restarting shipd.
const shipdEnv = () => ({ ...shared.env(), ...fakes.env(['ups', 'usps', 'fedex']), ...stripeEnv(), SHIPD_CARRIER_TIMEOUT_MS: '2500', SHIPD_JOB_LEASE_MS: '3000' });

/** Most orders go by USPS (which honours an idempotency key); some by UPS and FedEx (which do not); some USPS refuses. */
const orderPlan = (i: number): Record<string, unknown> => {
  const from = { ...austin, phone: '512-555-0100' };
  const kind = i % 8;
  if (kind === 5) return { requested_service: { carrier: 'ups', service: '03' }, ship_from: from };
  if (kind === 6) return { requested_service: { carrier: 'fedex', service: 'FEDEX_2_DAY' }, ship_from: from };
  const usps = { requested_service: { carrier: 'usps', service: 'PRIORITY_MAIL' }, ship_from: from };
  // USPS's label call refuses this street: the hold is made, then nothing is bought.
  return kind === 7 ? { ...usps, ship_to: { name: 'Nobody', street1: '1 Nowhere Rd', city: 'San Francisco', state: 'CA', zip: '94105' } } : usps;
};

interface Attempt {
  orderId: string;
  idem: string;
  status: number | 'cut' | 'unsent';
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- the answer as the client read it
  body?: any;
}

interface VoidAttempt {
  shipmentId: string;
  status: number | 'cut';
  code?: string;
}

const isShipCall = (c: { method: string; path: string }) =>
  c.method === 'POST' && (c.path.startsWith('/labels/v3/label') || /^\/api\/shipments\/v\w+\/ship$/.test(c.path) || c.path === '/ship/v1/shipments');
const shipCalls = () => [fakes.usps.calls, fakes.ups.calls, fakes.fedex.calls].reduce((n, calls) => n + calls.filter(isShipCall).length, 0);
const stripeCalls = (path: RegExp) => stripe.calls.filter((c) => c.method === 'POST' && path.test(c.path)).length;
const holds = /^\/v1\/payment_intents$/;
const captures = /^\/v1\/payment_intents\/[^/]+\/capture$/;
const captureTries = (pi: string) => stripe.calls.filter((c) => c.method === 'POST' && c.path === `/v1/payment_intents/${pi}/capture`).length;
const releases = /^\/v1\/payment_intents\/[^/]+\/cancel$/;
const refunds = /^\/v1\/refunds$/;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Waits until `done` holds, checking every few milliseconds: kills land right after what they wait for. */
async function until(done: () => boolean, what: string, ms = 20_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!done()) {
    assert.ok(Date.now() < deadline, `${what} within ${ms} ms (seed ${seed})`);
    await sleep(2);
  }
}

const finalCharge = ['captured', 'released', 'declined', 'refunded'] as const;

test('SIGKILL between charge and label: once reconciled, one captured charge per label and none for a purchase that bought nothing', { timeout: 180_000 }, async (t) => {
  t.diagnostic(`seed ${seed} (CRASH_SEED=${seed} replays its choices)`);
  const db = shared.db();
  const port = await freePort();
  let proc = await startShipd(port, shipdEnv());
  shipd = proc;

  // The account, its live key and its card, made with the CLI on the same database as an operator would.
  const cli = async (args: string[]) => {
    const out = await runCli(args, { ...shared.env(), ...stripeEnv() });
    assert.equal(out.code, 0, out.stderr);
    return out.stdout.trim();
  };
  const account = await cli(['accounts', 'create', '--name', 'card-crash']);
  const key = await cli(['keys', 'create', '--account', 'card-crash', '--mode', 'live']);
  await cli(['billing', 'set', '--account', 'card-crash', '--mode', 'live', '--payment-method', 'pm_card_visa']);
  const customer = (await db.selectFrom('billing_customers').select('customer_id').where('account_id', '=', account).executeTakeFirstOrThrow()).customer_id;
  const headers = { authorization: `Bearer ${key}`, 'content-type': 'application/json' };

  let made = 0;
  const newOrders = async (n: number) => {
    const ids: string[] = [];
    for (let i = 0; i < n; i++, made++) {
      const res = await fetch(`${proc.url}/api/integrations/v1/orders`, { method: 'POST', headers, body: JSON.stringify(orderBody({ order_number: `card-crash-${made}`, ...orderPlan(made) })) });
      const text = await res.text();
      assert.equal(res.status, 201, text);
      ids.push((JSON.parse(text) as { id: string }).id);
    }
    return ids;
  };

  const attempts: Attempt[] = [];
  const voids: VoidAttempt[] = [];
  let up = true;

  const buy = async (a: Attempt) => {
    try {
      const res = await fetch(`${proc.url}/api/integrations/v1/shipments`, { method: 'POST', headers: { ...headers, 'idempotency-key': a.idem }, body: JSON.stringify({ order_id: a.orderId }) });
      const text = await res.text();
      a.status = res.status;
      a.body = JSON.parse(text);
    } catch {
      a.status = 'cut';
    }
  };
  const voidLabel = async (v: VoidAttempt) => {
    try {
      const res = await fetch(`${proc.url}/api/integrations/v1/shipments/${v.shipmentId}/void`, { method: 'POST', headers: { authorization: headers.authorization } });
      v.status = res.status;
      v.code = ((await res.json()) as { code?: string }).code;
    } catch {
      v.status = 'cut';
    }
  };

  /** Sends the attempts, `concurrency` at a time, until shipd is killed; those not sent by then stay unsent. */
  const load = (batch: Attempt[], concurrency: number) => {
    let next = 0;
    const worker = async () => {
      while (up && next < batch.length) await buy(batch[next++]!);
    };
    return Promise.all(Array.from({ length: concurrency }, worker));
  };

  /** Purchased labels the client was told of and has not voided yet. */
  const voidable = () => attempts.filter((a) => a.status === 201 && !voids.some((v) => v.shipmentId === a.body.id));

  let kills = 0;
  const started = Date.now();
  const kill = async (running: Promise<unknown>) => {
    up = false;
    proc.child.kill('SIGKILL');
    kills++;
    await running;
    await proc.closed;
    const pending = await db.selectFrom('shipments').select('id').where('status', '=', 'pending').execute();
    const open = await db.selectFrom('card_charges').select('status').where('status', 'not in', finalCharge).execute();
    const left = [...new Set(open.map((c) => c.status))].map((st) => `${open.filter((c) => c.status === st).length} ${st}`).join(', ');
    t.diagnostic(`kill ${kills} at ${Date.now() - started} ms left ${pending.length} purchases pending, charges: ${left || 'all settled'}`);
    proc = await startShipd(port, shipdEnv());
    shipd = proc;
    up = true;
  };

  /** A round: fresh orders raced by two clients each, the cut attempts of earlier rounds retried, and a kill. */
  /** `trigger` waits for the moment to kill at, and gives what else is in flight then (in an array: not awaited before the kill). */
  const round = async (orders: number, trigger: (running: Promise<unknown>) => Promise<Promise<unknown>[] | void>) => {
    const retried = attempts.filter((a) => a.status === 'cut' || a.status === 'unsent');
    const fresh = (await newOrders(orders)).flatMap((orderId) => [0, 1].map((c) => ({ orderId, idem: `${orderId}-${c}`, status: 'unsent' as const })));
    attempts.push(...fresh);
    const batch = [...fresh, ...retried].sort(() => rng.next() - 0.5);
    for (const a of batch) a.status = 'unsent';
    const running = load(batch, 8);
    const alsoRunning = (await trigger(running)) ?? [];
    await kill(Promise.all([running, ...alsoRunning]));
  };
  const startVoid = (shipmentId: string): Promise<void> => {
    const v: VoidAttempt = { shipmentId, status: 'cut' };
    voids.push(v);
    return voidLabel(v);
  };

  // 1. A hold made at Stripe whose answer never reached shipd.
  await round(16, async () => {
    const at = stripeCalls(holds) + rng.int(2, 6);
    await until(() => stripeCalls(holds) >= at, 'holds asked for');
    stripe.hangNext({ method: 'POST', path: holds, when: 'after' });
    await until(() => stripeCalls(holds) > at, 'a hold whose answer is lost');
    await sleep(rng.int(0, 15));
  });

  // 2. A label's ship call at the carrier, before it answered (so before any capture).
  await round(16, async () => {
    const at = shipCalls() + rng.int(3, 10);
    await until(() => shipCalls() >= at, 'labels asked for');
  });

  // 3. Labels stored whose captures never reached Stripe (their charges still holds), then a capture whose answer was lost.
  let uncaptured: string[] = [];
  await round(16, async (running) => {
    const held = () => stripe.charges().filter((c) => c.status === 'requires_capture');
    await until(() => held().length >= 4, 'holds made');
    const chosen = held().map((c) => c.paymentIntent);
    const path = (pi: string) => `/v1/payment_intents/${pi}/capture`;
    for (const pi of chosen) {
      // The request's capture and the library's two retries are cut off.
      stripe.failNext({ method: 'POST', path: path(pi), when: 'before', times: 3 });
    }
    const cutOff = () => chosen.filter((pi) => captureTries(pi) >= 3);
    const others = () => stripe.calls.filter((c) => c.method === 'POST' && captures.test(c.path) && !chosen.some((pi) => c.path === path(pi))).length;
    const before = others();
    stripe.hangNext({ method: 'POST', path: captures, when: 'after' });
    let loaded = false;
    void running.then(() => (loaded = true));
    await until(() => (others() > before && cutOff().length >= 2) || loaded, 'captures cut off and one whose answer is lost');
    uncaptured = cutOff();
    assert.ok(uncaptured.length >= 2, `two labels whose captures never reached Stripe (seed ${seed}): ${chosen.length} chosen`);
    await sleep(rng.int(0, 10));
  });

  // 4. Anywhere. Meanwhile one label whose capture never reached Stripe is voided before the settle job captures it,
  // and another while the settle job's capture is on its way (made at Stripe, its answer never coming).
  const shipmentOf = (pi: string) => stripe.charges().find((c) => c.paymentIntent === pi)!.metadata.shipd_shipment!;
  await round(16, async (running) => {
    await startVoid(shipmentOf(uncaptured[0]!));
    stripe.hangNext({ method: 'POST', path: `/v1/payment_intents/${uncaptured[1]!}/capture`, when: 'after' });
    await until(() => captureTries(uncaptured[1]!) >= 4, "the settle job's capture");
    await startVoid(shipmentOf(uncaptured[1]!));
    await Promise.race([running, sleep(rng.int(0, 300))]);
  });

  // 5. Voids whose transactions are over (a kill between the carrier's void and it is not a billing matter), their
  // refunds under way: one made at Stripe with its answer lost, one never sent (cut off three times), others answered.
  await round(8, async () => {
    const before = stripeCalls(refunds);
    stripe.hangNext({ method: 'POST', path: refunds, when: 'after' });
    stripe.failNext({ method: 'POST', path: refunds, when: 'before', times: 3 });
    const ids = voidable()
      .sort(() => rng.next() - 0.5)
      .slice(0, 6)
      .map((a) => a.body.id as string);
    const voiding = Promise.all(ids.map(startVoid));
    await until(() => stripeCalls(refunds) > before, 'a refund whose answer is lost');
    for (const deadline = Date.now() + 20_000; ; await sleep(5)) {
      const done = await db.selectFrom('shipments').select('id').where('id', 'in', ids).where('status', '<>', 'purchased').execute();
      const answered = voids.filter((v) => ids.includes(v.shipmentId) && v.status !== 'cut');
      if (ids.every((id) => done.some((d) => d.id === id) || answered.some((v) => v.shipmentId === id))) break;
      assert.ok(Date.now() < deadline, `the voids' transactions ended (seed ${seed})`);
    }
    await sleep(rng.int(0, 10));
    return [voiding];
  });

  // 6. A hold released for a label the carrier refused, its answer lost.
  await round(16, async () => {
    const before = stripeCalls(releases);
    stripe.hangNext({ method: 'POST', path: releases, when: 'after' });
    await until(() => stripeCalls(releases) > before, 'a release whose answer is lost');
    await sleep(rng.int(0, 10));
  });
  // Every 2xx the client got names a label that exists, as it was told of it.
  for (const a of attempts.filter((x) => x.status === 201)) {
    const row = await db.selectFrom('shipments').select(['id', 'order_id', 'tracking_number']).where('id', '=', a.body.id).executeTakeFirstOrThrow();
    assert.equal(row.order_id, a.orderId);
    assert.equal(row.tracking_number, a.body.tracking_number);
  }

  // The clients retry what the kills cut off, with the same Idempotency-Keys, until the killed process's claims lapse.
  const deadline = Date.now() + 60_000;
  // A careful client also comes back for an answer it was told is still being worked on.
  for (const a of attempts.filter((x) => x.status === 'cut' || x.status === 'unsent' || x.body?.code === 'idempotency_key_in_use')) {
    for (;;) {
      await buy(a);
      if (a.status !== 409 || a.body?.code !== 'idempotency_key_in_use') break;
      assert.ok(Date.now() < deadline, `claims of the killed processes lapse (seed ${seed})`);
      await sleep(500);
    }
    assert.notEqual(a.status, 'cut', `shipd answers a retry (seed ${seed})`);
  }
  for (const v of voids.filter((x) => x.status === 'cut')) await voidLabel(v);
  for (const a of attempts) {
    if (a.status === 201) continue;
    assert.ok(['order_already_shipped', 'carrier_error', 'carrier_timeout', 'billing_unavailable'].includes(a.body?.code), `an attempt ended ${a.status}: ${JSON.stringify(a.body)} (seed ${seed})`);
  }

  // The worker finishes pending purchases and settles every card charge.
  const settled = async () => {
    const pending = await db.selectFrom('shipments').select('id').where('status', '=', 'pending').execute();
    const open = await db.selectFrom('card_charges').select(['shipment_id', 'status']).execute();
    return pending.length === 0 && open.every((c) => (finalCharge as readonly string[]).includes(c.status)) && stripe.charges().every((c) => c.status !== 'requires_capture');
  };
  while (!(await settled())) {
    const open = await db.selectFrom('card_charges').select(['shipment_id', 'status', 'last_error']).where('status', 'not in', finalCharge).execute();
    assert.ok(Date.now() < deadline, `every charge settled (seed ${seed}): ${JSON.stringify(open)}`);
    await sleep(250);
  }

  const shipments = await db.selectFrom('shipments').select(['id', 'order_id', 'status', 'is_return']).where('account_id', '=', account).execute();
  const charges = await db.selectFrom('card_charges').selectAll().where('account_id', '=', account).execute();
  const ledger = await db.selectFrom('postage_ledger').select(['shipment_id', 'kind', 'amount_cents']).where('account_id', '=', account).execute();
  const orders = await db.selectFrom('orders').select(['id', 'status', 'shipment_id']).where('account_id', '=', account).execute();
  const intents = stripe.charges().filter((c) => c.customer === customer);
  assert.equal(intents.length, stripe.charges().length, 'every charge is on the account');

  const statusOf = new Map(shipments.map((s) => [s.id, s.status]));
  const byShipment = new Map<string, ChargeSummary[]>();
  for (const pi of intents) {
    const id = pi.metadata.shipd_shipment!;
    assert.ok(statusOf.has(id), `${pi.paymentIntent} is for ${id}, a shipment shipd has`);
    byShipment.set(id, [...(byShipment.get(id) ?? []), pi]);
  }
  const net = (id: string) => ledger.filter((l) => l.shipment_id === id).reduce((sum, l) => sum + l.amount_cents, 0);
  const kept = (pi: ChargeSummary) => pi.captured - pi.refunded;
  const chargeOf = new Map(charges.map((c) => [c.shipment_id, c]));

  for (const s of shipments) {
    const pis = byShipment.get(s.id) ?? [];
    const row = chargeOf.get(s.id);
    const what = `${s.id} (${s.status}): ${JSON.stringify(pis)} ${JSON.stringify(row)} (seed ${seed})`;
    assert.ok(pis.length <= 1, `one PaymentIntent at most for ${what}`);
    if (s.status === 'purchased') {
      assert.equal(pis.length, 1, `a label has its charge: ${what}`);
      const pi = pis[0]!;
      assert.ok(pi.status === 'succeeded' && pi.captured > 0 && pi.refunded === 0, `a label's charge is captured and kept: ${what}`);
      assert.equal(net(s.id), pi.captured, `the ledger charges what Stripe captured: ${what}`);
      assert.equal(row?.status, 'captured', what);
      assert.equal(row?.captured_cents, pi.captured, what);
    } else {
      for (const pi of pis) assert.ok(pi.status === 'canceled' || (pi.status === 'succeeded' && kept(pi) === 0), `no money kept without a label: ${what}`);
      assert.equal(net(s.id), 0, `the ledger keeps nothing without a label: ${what}`);
      if (row) assert.ok(['released', 'declined', 'refunded'].includes(row.status), what);
      if (s.status === 'voided' && pis[0]?.status === 'succeeded') assert.equal(row?.status, 'refunded', what);
    }
  }

  // No order with two labels, and an order is shipped exactly when it has one.
  const labelOf = new Map<string, string>();
  for (const s of shipments.filter((x) => x.status === 'purchased' && x.is_return === 0)) {
    assert.ok(!labelOf.has(s.order_id), `${s.order_id} has two labels (seed ${seed})`);
    labelOf.set(s.order_id, s.id);
  }
  for (const o of orders) assert.equal(o.status === 'shipped' ? o.shipment_id : undefined, labelOf.get(o.id), `${o.id} is ${o.status} (seed ${seed})`);

  // Every void the clients asked for happened (a retry of one cut off hears it was done), and gave the money back.
  for (const v of voids) {
    assert.ok(v.status === 200 || v.code === 'shipment_already_voided', `the void of ${v.shipmentId} answered ${v.status} ${v.code} (seed ${seed})`);
    assert.equal(statusOf.get(v.shipmentId), 'voided', `${v.shipmentId} is voided (seed ${seed})`);
  }
  // Voided before its capture: released, unless the settle job captured it first; voided while it was captured: refunded.
  const beforeCapture = byShipment.get(shipmentOf(uncaptured[0]!))![0]!;
  const duringCapture = byShipment.get(shipmentOf(uncaptured[1]!))![0]!;
  assert.ok(duringCapture.status === 'succeeded' && duringCapture.refunded === duringCapture.captured, `the label voided during its capture was refunded: ${JSON.stringify(duringCapture)}`);
  const count = (status: string) => charges.filter((c) => c.status === status).length;
  t.diagnostic(
    `${databaseUnderTest}: ${attempts.length} purchase requests for ${made} orders, ${kills} kills, ${shipments.length} shipments ` +
      `(${shipments.filter((s) => s.status === 'purchased').length} purchased, ${shipments.filter((s) => s.status === 'voided').length} voided, ` +
      `${shipments.filter((s) => s.status === 'failed').length} failed, ${shipments.filter((s) => s.status === 'abandoned').length} abandoned); ` +
      `card charges ${count('captured')} captured, ${count('released')} released, ${count('refunded')} refunded, ${count('declined')} declined; ` +
      `Stripe: ${intents.length} PaymentIntents, ${stripe.refunds().length} refunds; the label voided before its capture was ${beforeCapture.status === 'canceled' ? 'released' : 'refunded'}`,
  );
});
