// A real shipd process making live USPS manifests (SCAN forms, against the fake USPS) is SIGKILLed while USPS makes
// them: one form made by USPS whose answer never reached shipd, one request USPS never got to. Started again on the
// same database, each manifest left pending is finished: by a retry with its Idempotency-Key (the worker off), or by
// the worker's reconcile job. Asking USPS again never puts a label on a second form (USPS refuses labels already on
// one); the manifest whose form was made, which USPS's API gives no way to fetch again, ends `failed`, saying so, and
// the one USPS never got to ends `submitted` with its form.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { freePort, processDatabase, stopWhenDone, startShipd, type Shipd } from '../shipd-process.ts';
import { orderBody, sanFrancisco } from '../fixtures.ts';
import { runCli } from '../harness.ts';
import { connectOwnUsps, startCarrierFakes, type CarrierFakes } from '../fakes/carriers.ts';
import { fakeUspsCredentials } from '../fakes/usps.ts';
import { localToday } from '../../src/domain/shipments/ship-date.ts';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- tests read whatever JSON came back

let shipd: Shipd | undefined;
stopWhenDone(() => shipd);
const shared = processDatabase();
let fakes: CarrierFakes;
before(async () => {
  fakes = await startCarrierFakes();
});
after(() => fakes.close());

// A manifest's hold on its carrier call ends 10 s after the carrier time-out, its Idempotency-Key's 10 s after two.
// The time-out is long enough that the first request does not give up on USPS before the second reaches it and
// the kill comes.
const shipdEnv = (extra: Record<string, string> = {}) => ({ ...shared.env(), ...fakes.env(['usps']), SHIPD_FEATURES: 'manifests', SHIPD_CARRIER_TIMEOUT_MS: '8000', SHIPD_JOB_LEASE_MS: '3000', ...extra });

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function until<T>(check: () => Promise<T> | T, done: (value: T) => boolean, what: string, ms = 60_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await check();
    if (done(value)) return value;
    assert.ok(Date.now() < deadline, `${what} within ${ms} ms`);
    await sleep(50);
  }
}

test('SIGKILL while USPS makes SCAN forms: each pending manifest is finished, by its retry or by the worker, and no label goes on a second form', { timeout: 240_000 }, async () => {
  const db = shared.db();
  const port = await freePort();
  shipd = await startShipd(port, shipdEnv());

  const cli = async (args: string[], env: Record<string, string> = {}) => {
    const out = await runCli(args, { ...shipdEnv(), ...env });
    assert.equal(out.code, 0, out.stderr);
    return out.stdout.trim();
  };
  const account = await cli(['accounts', 'create', '--name', 'manifest-crash']);
  const keyA = await cli(['keys', 'create', '--account', account, '--mode', 'live']);
  const keyB = await cli(['keys', 'create', '--account', account, '--mode', 'live']);
  const connected = await connectOwnUsps({ cli: (args, env) => runCli(args, { ...shipdEnv(), ...env }) }, account, ['--crid', fakeUspsCredentials.crid, '--mid', fakeUspsCredentials.mid]);
  assert.equal(connected.code, 0, connected.stderr);

  const api = async (key: string, method: string, path: string, body?: unknown, idem?: string): Promise<{ status: number; body: Json }> => {
    const res = await fetch(`${shipd!.url}/api/integrations/v1${path}`, {
      method,
      headers: { authorization: `Bearer ${key}`, ...(body !== undefined && { 'content-type': 'application/json' }), ...(idem && { 'idempotency-key': idem }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: res.status, body: (await res.json()) as Json };
  };
  const label = async (key: string): Promise<Json> => {
    const order = await api(key, 'POST', '/orders', orderBody({ ship_to: sanFrancisco, requested_service: { carrier: 'usps', service: 'USPS_GROUND_ADVANTAGE' } }));
    assert.equal(order.status, 201, JSON.stringify(order.body));
    const bought = await api(key, 'POST', '/shipments', { order_id: order.body.id });
    assert.equal(bought.status, 201, JSON.stringify(bought.body));
    return bought.body;
  };
  const labelsA = [await label(keyA), await label(keyA), await label(keyA)];
  const labelsB = [await label(keyB), await label(keyB)];
  const day = localToday({ state: 'TX' }, new Date());
  const body = { carrier: 'usps', ship_date: day };
  const forms = fakes.usps.scanForms;
  const formsBefore = forms.forms.length;

  // A: USPS makes the form and its answer is lost. B: USPS never gets to it. Both cut off by the kill.
  forms.hangNext = 'after';
  const asked = forms.asked;
  const cutA = api(keyA, 'POST', '/manifests', body, 'crash-a').catch(() => 'cut');
  await until(() => forms.asked, (n) => n > asked, 'USPS asked for A\'s form', 20_000);
  forms.hangNext = 'before';
  const cutB = api(keyB, 'POST', '/manifests', body, 'crash-b').catch(() => 'cut');
  await until(() => forms.asked, (n) => n > asked + 1, 'USPS asked for B\'s form', 20_000);
  shipd.child.kill('SIGKILL');
  assert.deepEqual(await Promise.all([cutA, cutB]), ['cut', 'cut'], 'neither request was answered');
  await shipd.closed;

  const left = await db.selectFrom('manifests').select(['id', 'owner_key_id', 'carrier_manifest', 'idempotency_key']).where('ship_date', '=', day).orderBy('id').execute();
  assert.deepEqual(left.map((m) => [m.carrier_manifest, m.idempotency_key]), [['pending', 'crash-a'], ['pending', 'crash-b']], 'both manifests were recorded pending before USPS was asked');
  const [manifestA, manifestB] = left.map((m) => m.id) as [string, string];
  assert.equal(forms.forms.length, formsBefore + 1, "USPS made A's form only");
  const formA = forms.forms.at(-1)!;
  assert.deepEqual([...formA.trackingNumbers].sort(), labelsA.map((l) => l.tracking_number).sort());

  // Started again without its worker: A's retry finishes A once the first request's holds have run out.
  shipd = await startShipd(port, shipdEnv({ SHIPD_WORKER: 'false' }));
  const retryA = await until(() => api(keyA, 'POST', '/manifests', body, 'crash-a'), (r) => !(r.status === 409 && r.body.code === 'idempotency_key_in_use'), "A's retry answered", 90_000);
  assert.equal(retryA.status, 201, JSON.stringify(retryA.body));
  assert.equal(retryA.body.id, manifestA, 'the retry finds the manifest its key made');
  assert.equal(retryA.body.carrier_manifest, 'failed');
  assert.match(retryA.body.carrier_error, /asked again, USPS refused: .*already been added to a SCAN Form/);
  assert.match(retryA.body.carrier_error, /print them from the USPS account/);
  assert.deepEqual(retryA.body.carrier_forms, []);
  assert.deepEqual([...retryA.body.shipment_ids].sort(), labelsA.map((l) => l.id).sort());
  assert.equal(forms.forms.length, formsBefore + 1, "A's retry made no second form");
  for (const l of labelsA) assert.equal(forms.formOf(l.tracking_number), formA.manifestNumber);
  // Its labels may be on USPS's form: they stay on the manifest, and cannot be voided.
  const voided = await api(keyA, 'POST', `/shipments/${labelsA[0]!.id}/void`);
  assert.equal(voided.status, 409);
  assert.equal(voided.body.code, 'label_manifested');
  const again = await api(keyA, 'POST', '/manifests', body, 'crash-a');
  assert.equal(again.status, 201);
  assert.equal(again.body.carrier_manifest, 'failed');
  assert.equal((await db.selectFrom('manifests').select('carrier_manifest').where('id', '=', manifestB).executeTakeFirstOrThrow()).carrier_manifest, 'pending', 'without a worker, B waits for its retry');

  // With its worker again: the reconcile job finishes B, whose form USPS never made, by making it now.
  shipd.child.kill('SIGTERM');
  await shipd.closed;
  shipd = await startShipd(port, shipdEnv());
  await until(() => db.selectFrom('manifests').select('carrier_manifest').where('id', '=', manifestB).executeTakeFirstOrThrow(), (m) => m.carrier_manifest !== 'pending', 'the worker finished B', 90_000);
  assert.equal(forms.forms.length, formsBefore + 2);
  const formB = forms.forms.at(-1)!;
  assert.deepEqual([...formB.trackingNumbers].sort(), labelsB.map((l) => l.tracking_number).sort());
  const retryB = await api(keyB, 'POST', '/manifests', body, 'crash-b');
  assert.equal(retryB.status, 201, JSON.stringify(retryB.body));
  assert.equal(retryB.body.id, manifestB);
  assert.equal(retryB.body.carrier_manifest, 'submitted');
  assert.equal(retryB.body.carrier_error, null);
  assert.deepEqual(retryB.body.carrier_forms.map((f: Json) => [f.kind, f.number, f.tracking_count]), [['usps_scan_form', formB.manifestNumber, 2]]);
  const pdf = await fetch(retryB.body.form_url.replace(/^https?:\/\/[^/]+/, shipd.url));
  assert.equal(pdf.status, 200);
  assert.equal(Buffer.from(await pdf.arrayBuffer()).subarray(0, 5).toString('latin1'), '%PDF-');
  assert.equal(forms.forms.length, formsBefore + 2, 'every label on one form, none on two');
  assert.deepEqual(fakes.usps.violations, []);
});
