// A real shipd process booking a priced UPS pickup with a live key is SIGKILLed after UPS has booked it and before
// shipd has recorded UPS's answer, then started again on the same database. The reconcile job must find the booking
// at UPS by its reference (the pickup's id) and record it, charged once, without booking a second driver; the
// client's retry with the same Idempotency-Key then gets that very pickup. UPS's pending status lists only today's
// and tomorrow's pickups, so a pickup further out (the next business day after a Friday) is booked again instead,
// and UPS answers it with the same PRN.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { freePort, processDatabase, stopWhenDone, startShipd, type Shipd } from '../shipd-process.ts';
import { austin } from '../fixtures.ts';
import { runCli } from '../harness.ts';
import { startCarrierFakes, type CarrierFakes } from '../fakes/carriers.ts';
import { startFakeStripe, type FakeStripe } from '../fakes/stripe.ts';
import { localClock } from '../../src/domain/core/local-time.ts';
import { usFederalHoliday } from '../../src/carriers/sim/calendar.ts';

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

const stripeEnv = () => ({ STRIPE_SECRET_KEY: stripe.secretKey, STRIPE_WEBHOOK_SECRET: stripe.webhookSecret, STRIPE_BASE_URL: stripe.url });
// A booking left pending is stale after the carrier time-out, 5 s and the card hold's time; the killed process's jobs
// are taken over once their lease lapses.
const shipdEnv = () => ({ ...shared.env(), ...fakes.env(['ups']), ...stripeEnv(), SHIPD_FEATURES: 'pickups', SHIPD_CARRIER_TIMEOUT_MS: '2500', SHIPD_JOB_LEASE_MS: '3000' });

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The next business day at the address after today there (by the real clock, as the process runs on it). */
function nextBusinessDay(): string {
  const today = localClock('TX', new Date())!.date;
  let d = new Date(`${today}T12:00:00Z`);
  for (;;) {
    d = new Date(d.getTime() + 86_400_000);
    const day = d.toISOString().slice(0, 10);
    if (d.getUTCDay() !== 0 && d.getUTCDay() !== 6 && !usFederalHoliday(day)) return day;
  }
}

test('SIGKILL between UPS booking a pickup and shipd recording it: the reconcile job finds it by reference, one booking, one charge', { timeout: 150_000 }, async () => {
  const db = shared.db();
  const port = await freePort();
  shipd = await startShipd(port, shipdEnv());

  const cli = async (args: string[]) => {
    const out = await runCli(args, { ...shared.env(), ...stripeEnv() });
    assert.equal(out.code, 0, out.stderr);
    return out.stdout.trim();
  };
  await cli(['accounts', 'create', '--name', 'pickup-crash']);
  const key = await cli(['keys', 'create', '--account', 'pickup-crash', '--mode', 'live']);
  await cli(['billing', 'set', '--account', 'pickup-crash', '--mode', 'live', '--payment-method', 'pm_card_visa']);
  const headers = { authorization: `Bearer ${key}`, 'content-type': 'application/json', 'idempotency-key': 'pickup-crash-1' };
  const date = nextBusinessDay();
  const body = JSON.stringify({
    carrier: 'ups',
    address: { ...austin, company: 'Mugs Inc', phone: '512-555-0100' },
    date,
    window: { start: '13:00', end: '17:00' },
    parcel_count: 2,
    total_weight: { value: 9, unit: 'lb' },
  });
  const creates = () => fakes.ups.calls.filter((c) => c.path.startsWith('/api/pickupcreation/')).length;
  const today = localClock('TX', new Date())!.date;
  const listedPending = (Date.parse(`${date}T00:00:00Z`) - Date.parse(`${today}T00:00:00Z`)) / 86_400_000 <= 1;

  // UPS books the pickup, and its answer never reaches shipd: shipd is killed while waiting for it.
  fakes.ups.pickupControls.holdAnswers = true;
  const answer = fetch(`${shipd.url}/api/integrations/v1/pickups`, { method: 'POST', headers, body }).then(
    (res) => res.status,
    () => 'cut' as const,
  );
  const deadline = Date.now() + 30_000;
  while (fakes.ups.pickups.size === 0) {
    assert.ok(Date.now() < deadline, 'UPS was asked to book the pickup');
    await sleep(5);
  }
  shipd.child.kill('SIGKILL');
  assert.equal(await answer, 'cut', 'the kill cut the booking off');
  await shipd.closed;
  fakes.ups.pickupControls.holdAnswers = false;

  const left = await db.selectFrom('pickups').selectAll().execute();
  assert.equal(left.length, 1);
  assert.equal(left[0]!.status, 'pending', 'the booking was recorded before UPS was asked, and left pending');
  assert.deepEqual(await db.selectFrom('pickup_ledger').select('id').execute(), [], 'nothing was charged before UPS answered');
  const [booked] = [...fakes.ups.pickups.values()];
  assert.equal(booked!.reference, left[0]!.id, "UPS filed the booking under the pickup's id");

  shipd = await startShipd(port, shipdEnv());
  const settled = Date.now() + 90_000;
  for (;;) {
    const row = await db.selectFrom('pickups').select('status').where('id', '=', left[0]!.id).executeTakeFirstOrThrow();
    const charge = await db.selectFrom('card_charges').select('status').where('shipment_id', '=', left[0]!.id).executeTakeFirst();
    if (row.status !== 'pending' && charge?.status === 'captured') break;
    assert.ok(Date.now() < settled, `the reconcile job finished the booking (${row.status}, charge ${charge?.status})`);
    await sleep(250);
  }

  const row = await db.selectFrom('pickups').selectAll().where('id', '=', left[0]!.id).executeTakeFirstOrThrow();
  assert.equal(row.status, 'scheduled');
  assert.equal(row.confirmation_number, booked!.prn, "the booking found at UPS is recorded, with UPS's PRN");
  assert.equal(creates(), listedPending ? 1 : 2, listedPending ? 'found in the pending status, UPS was asked to book it once' : 'not in the pending status, it was booked again');
  assert.equal(fakes.ups.pickups.size, 1, 'one driver is booked');
  const ledger = await db.selectFrom('pickup_ledger').select(['kind', 'amount_cents']).where('pickup_id', '=', row.id).execute();
  assert.deepEqual(ledger, [{ kind: 'charge', amount_cents: row.price_cents! }], 'charged once, the quoted price');
  const charges = stripe.charges().filter((c) => c.metadata.shipd_shipment === row.id);
  assert.equal(charges.length, 1);
  assert.equal(charges[0]!.captured, row.price_cents, 'the card is charged once');

  // The client comes back with the same Idempotency-Key (once the killed process's claim has lapsed) for the same pickup.
  const retryDeadline = Date.now() + 60_000;
  for (;;) {
    const res = await fetch(`${shipd.url}/api/integrations/v1/pickups`, { method: 'POST', headers, body });
    const text = await res.text();
    if (res.status === 409 && JSON.parse(text).code === 'idempotency_key_in_use') {
      assert.ok(Date.now() < retryDeadline, 'the killed request claim lapses');
      await sleep(500);
      continue;
    }
    assert.equal(res.status, 201, text);
    const pickup = JSON.parse(text) as { id: string; confirmation_number: string; status: string };
    assert.equal(pickup.id, row.id);
    assert.equal(pickup.confirmation_number, booked!.prn);
    break;
  }
  assert.equal(creates(), listedPending ? 1 : 2, 'the retry booked nothing');
});
