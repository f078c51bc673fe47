import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { problem, type TestServer } from './harness.ts';
import { orderBody, sanFrancisco } from './fixtures.ts';
import { connectOwnUsps, type CarrierFakes } from './fakes/carriers.ts';
import { fakeUspsCredentials } from './fakes/usps.ts';
import { startLiveShop, type LiveShop } from './live-billing.ts';
import { localToday } from '../src/domain/shipments/ship-date.ts';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- tests read whatever JSON came back

// A live manifest whose carrier does not answer within shipd's carrier time-out: the request answers 504
// carrier_timeout, leaves no manifest and no label held, and a retry with the same Idempotency-Key makes it. The
// fakes answer past the time-out (2.5 s, generous for a loaded machine) after 8 s, and drop a request shipd gave up on.

const austin: Json = { ...(orderBody().ship_from as Json), phone: '5125550100' };
const timeoutMs = 2_500;
const lateMs = 8_000;

let shop: LiveShop;
let fakes: CarrierFakes;
let server: TestServer;
let key: string;
let uspsKey: string;

before(async () => {
  shop = await startLiveShop({ platform: ['usps', 'fedex'], env: { SHIPD_FEATURES: 'manifests', SHIPD_CARRIER_TIMEOUT_MS: String(timeoutMs) }, followClock: true });
  ({ server, fakes, key } = shop);
  const own = await server.account();
  const connected = await connectOwnUsps(server, own, ['--crid', fakeUspsCredentials.crid, '--mid', fakeUspsCredentials.mid]);
  assert.equal(connected.code, 0, connected.stderr);
  uspsKey = (await server.key(own, 'live')).secret;
});
after(() => shop.close());

const today = () => localToday({ state: 'TX' }, server.clock.now());

async function label(buyer: string, carrier: string, service: string): Promise<Json> {
  const order = await server.request('POST', '/orders', {
    key: buyer,
    body: orderBody({ ship_to: { ...sanFrancisco, company: 'Analytical Engines' }, ship_from: austin, requested_service: { carrier, service }, parcel: { weight: { value: 2, unit: 'lb' }, dimensions: { length: 10, width: 8, height: 4, unit: 'in' } } }),
  });
  assert.equal(order.status, 201, order.text);
  const bought = await server.request('POST', '/shipments', { key: buyer, body: { order_id: order.body.id } });
  assert.equal(bought.status, 201, bought.text);
  return bought.body;
}

/** No manifest of the key, and none of the labels held by one: nothing half made. */
async function nothingLeft(labels: Json[]): Promise<void> {
  const db = server.services.database.db;
  const held = await db.selectFrom('shipments').select(['id', 'manifest_id']).where('id', 'in', labels.map((l) => l.id)).execute();
  assert.deepEqual(held.map((r) => r.manifest_id), labels.map(() => null), 'no label is left on a manifest');
  const pending = await db.selectFrom('manifests').select('id').where('carrier_manifest', '=', 'pending').execute();
  assert.deepEqual(pending, [], 'no manifest is left pending');
}

test('USPS does not answer the SCAN form in time: 504 carrier_timeout, nothing left half made, and the retry makes the form', { timeout: 120_000 }, async () => {
  const labels = [await label(uspsKey, 'usps', 'USPS_GROUND_ADVANTAGE'), await label(uspsKey, 'usps', 'PRIORITY_MAIL')];
  const forms = fakes.usps.scanForms.forms.length;
  fakes.usps.slowMs = lateMs;
  fakes.usps.failNext = 'slow';
  const headers = { 'idempotency-key': 'usps-late' };
  const body = { carrier: 'usps', ship_date: today() };
  const started = Date.now();
  const p = problem(await server.request('POST', '/manifests', { key: uspsKey, headers, body }), 504, 'carrier_timeout');
  assert.ok(Date.now() - started < lateMs, 'answered at the time-out, not when USPS answered');
  // The call's deadline and the HTTP client's time-out are the same 2.5 s: whichever fires first words it.
  assert.match(p.detail, /USPS( did not answer| SCAN form: no answer) within 2500 ms; the labels are not on a manifest and can still be voided/);
  await nothingLeft(labels);
  assert.equal((await server.request('GET', `/manifests?carrier=usps&ship_date=${today()}`, { key: uspsKey })).body.data.length, 0);
  // Past the fake's delay: the request shipd gave up on made no form.
  await new Promise((r) => setTimeout(r, lateMs - (Date.now() - started) + 500));
  assert.equal(fakes.usps.scanForms.forms.length, forms);

  const retry = await server.request('POST', '/manifests', { key: uspsKey, headers, body });
  assert.equal(retry.status, 201, retry.text);
  assert.equal(retry.body.carrier_manifest, 'submitted');
  assert.deepEqual([...retry.body.shipment_ids].sort(), labels.map((l) => l.id).sort());
  assert.equal(fakes.usps.scanForms.forms.length, forms + 1);
  assert.equal(retry.body.carrier_forms[0].number, fakes.usps.scanForms.forms.at(-1)!.manifestNumber);
  const replay = await server.request('POST', '/manifests', { key: uspsKey, headers, body });
  assert.equal(replay.headers.get('idempotent-replayed'), 'true');
  assert.equal(replay.body.id, retry.body.id);
  assert.equal(fakes.usps.scanForms.forms.length, forms + 1, 'a replay makes no form');
});

test('FedEx does not answer the Ground close in time: 504 carrier_timeout, nothing left half made, and the retry closes the day', { timeout: 120_000 }, async () => {
  const ground = await label(key, 'fedex', 'FEDEX_GROUND');
  const closes = fakes.fedex.endOfDay.closes.length;
  fakes.fedex.faults.push({ kind: 'slow', ms: lateMs });
  const headers = { 'idempotency-key': 'fedex-late' };
  const body = { carrier: 'fedex', ship_date: today() };
  const started = Date.now();
  problem(await server.request('POST', '/manifests', { key, headers, body }), 504, 'carrier_timeout');
  await nothingLeft([ground]);
  await new Promise((r) => setTimeout(r, lateMs - (Date.now() - started) + 500));
  assert.equal(fakes.fedex.endOfDay.closes.length, closes, 'the close shipd gave up on did not happen');

  const retry = await server.request('POST', '/manifests', { key, headers, body });
  assert.equal(retry.status, 201, retry.text);
  assert.equal(retry.body.carrier_manifest, 'submitted');
  assert.deepEqual(retry.body.shipment_ids, [ground.id]);
  assert.deepEqual(fakes.fedex.endOfDay.closes.slice(closes).map((c) => c.trackingNumbers), [[ground.tracking_number]]);
});
