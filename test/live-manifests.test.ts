import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { problem, type TestServer } from './harness.ts';
import { orderBody, sanFrancisco } from './fixtures.ts';
import { openPdf } from './barcodes.ts';
import { connectOwnUsps, type CarrierFakes } from './fakes/carriers.ts';
import { fakeUspsCredentials } from './fakes/usps.ts';
import { startLiveShop, type LiveShop } from './live-billing.ts';
import { localToday } from '../src/domain/shipments/ship-date.ts';
import { scanFormBatches, scanFormMaxLabels } from '../src/carriers/usps/scan-form.ts';
import type { ClosingLabel } from '../src/carriers/carrier.ts';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- tests read whatever JSON came back

// Manifests with live keys, over HTTP against the fake carriers: USPS SCAN forms made through the SCAN Form API,
// FedEx's Ground End of Day Close, and UPS, which needs no end-of-day form.

// FedEx wants a phone number for the shipper.
const austin: Json = { ...(orderBody().ship_from as Json), phone: '5125550100' };
const dallas = { name: 'Dock Two', company: 'Mugs Inc', street1: '1500 Marilla St', city: 'Dallas', state: 'TX', zip: '75201', country: 'US', phone: '2145550100' };

describe('manifests with live keys (fake carriers)', () => {
  let shop: LiveShop;
  let fakes: CarrierFakes;
  let server: TestServer;
  /** A live key paying platform postage by card: FedEx and UPS labels. */
  let key: string;
  /** A live key of an account with its own USPS account: the SCAN form labels, billed by USPS. */
  let uspsKey: string;

  before(async () => {
    // A day of 250 labels is 500 requests of one key in a few seconds, more than its default limit (100/s after a
    // burst of 200) on a fast machine; the key's limit has tests of its own.
    shop = await startLiveShop({ env: { SHIPD_FEATURES: 'manifests', SHIPD_RATE_LIMIT_BURST: '100000' }, followClock: true });
    ({ server, fakes, key } = shop);
    const own = await server.account();
    const connected = await connectOwnUsps(server, own, ['--crid', fakeUspsCredentials.crid, '--mid', fakeUspsCredentials.mid]);
    assert.equal(connected.code, 0, connected.stderr);
    uspsKey = (await server.key(own, 'live')).secret;
  });
  after(() => shop.close());

  const today = () => localToday({ state: 'TX' }, server.clock.now());

  /** A label of the service for a new order from `from`, bought without a rate (the order's requested service). */
  async function label(buyer: string, carrier: string, service: string, from: Json = austin, weightLb = 2): Promise<Json> {
    const order = await server.request('POST', '/orders', {
      key: buyer,
      // A business recipient: FedEx Ground delivers to businesses (Home Delivery to homes).
      body: orderBody({ ship_to: { ...sanFrancisco, company: 'Analytical Engines' }, ship_from: from, requested_service: { carrier, service }, parcel: { weight: { value: weightLb, unit: 'lb' }, dimensions: { length: 10, width: 8, height: 4, unit: 'in' } } }),
    });
    assert.equal(order.status, 201, order.text);
    const bought = await server.request('POST', '/shipments', { key: buyer, body: { order_id: order.body.id } });
    assert.equal(bought.status, 201, bought.text);
    return bought.body;
  }

  /** n labels, a few bought at once. */
  async function labels(n: number, buy: (i: number) => Promise<Json>): Promise<Json[]> {
    const out: Json[] = new Array(n);
    let next = 0;
    await Promise.all(
      Array.from({ length: 4 }, async () => {
        while (next < n) {
          const i = next++;
          out[i] = await buy(i);
        }
      }),
    );
    return out;
  }

  const form = async (m: Json) => {
    const u = new URL(m.form_url);
    const res = await fetch(`${server.url}${u.pathname}${u.search}`);
    assert.equal(res.status, 200);
    assert.equal(res.headers.get('content-type'), 'application/pdf');
    const info = await openPdf(Buffer.from(await res.arrayBuffer()), 72);
    // Every page: the forms follow one another in one file.
    return { ...info, text: info.pageTexts.join('\n') };
  };

  test('the split follows the SCAN Form API: one form per origin, at most 40,000 labels on each', () => {
    // scan-forms.yaml 3.1.14 LabelShipment.trackingNumbers maxItems is 40,000, far above a day of 250 labels.
    assert.equal(scanFormMaxLabels, 40_000);
    const at = (from: Json, n: number, start = 0): ClosingLabel[] =>
      Array.from({ length: n }, (_, i) => ({ trackingNumbers: [`9400${String(start + i).padStart(18, '0')}`], service: 'USPS_GROUND_ADVANTAGE', from: from as ClosingLabel['from'] }));
    const big = scanFormBatches('2026-11-27', [...at(austin, 40_001), ...at(dallas, 3, 50_000)]);
    assert.deepEqual(big.map((b) => [b.from.zip, b.trackingNumbers.length]), [[austin.zip, 40_000], [austin.zip, 1], [dallas.zip, 3]]);
    assert.equal(new Set(big.flatMap((b) => b.trackingNumbers)).size, 40_004, 'every label on exactly one form');
    assert.deepEqual(scanFormBatches('2026-11-27', at(austin, 250)).map((b) => b.trackingNumbers.length), [250]);
  });

  test('USPS: 250 labels of two origins become SCAN forms made by USPS, one per origin; form_url is USPS\'s forms; a label on one cannot be voided', { timeout: 600_000 }, async () => {
    const day = today();
    const bought = await labels(250, (i) => label(uspsKey, 'usps', 'USPS_GROUND_ADVANTAGE', i < 200 ? austin : dallas));
    const voided = await label(uspsKey, 'usps', 'USPS_GROUND_ADVANTAGE');
    assert.equal((await server.request('POST', `/shipments/${voided.id}/void`, { key: uspsKey })).status, 200);
    const formsBefore = fakes.usps.scanForms.forms.length;

    const res = await server.request('POST', '/manifests', { key: uspsKey, headers: { 'idempotency-key': 'usps-day' }, body: { carrier: 'usps', ship_date: day } });
    assert.equal(res.status, 201, res.text);
    const m = res.body;
    assert.equal(m.mode, 'live');
    assert.equal(m.shipment_count, 250);
    assert.equal(m.carrier_manifest, 'submitted');
    assert.deepEqual([...m.shipment_ids].sort(), bought.map((s) => s.id).sort());
    assert.ok(!m.shipment_ids.includes(voided.id), 'a voided label is not on a form');

    // USPS's limit is 40,000 labels a form, so the 250 split only by origin: 200 entered in Austin, 50 in Dallas.
    const made = fakes.usps.scanForms.forms.slice(formsBefore);
    assert.deepEqual(made.map((f) => [f.entryFacilityZIPCode, f.trackingNumbers.length, f.mailingDate]), [[austin.zip, 200, day], [dallas.zip, 50, day]]);
    assert.deepEqual(m.carrier_forms.map((f: Json) => [f.kind, f.number, f.tracking_count, f.shipment_ids.length]), made.map((f) => ['usps_scan_form', f.manifestNumber, f.trackingNumbers.length, f.trackingNumbers.length]));
    const byId = new Map(bought.map((s) => [s.id, s]));
    for (const [i, f] of m.carrier_forms.entries()) {
      assert.deepEqual(f.shipment_ids.map((id: string) => byId.get(id)!.tracking_number).sort(), [...made[i]!.trackingNumbers].sort());
    }
    assert.equal(fakes.usps.violations.length, 0, fakes.usps.violations.join('\n'));

    const pdf = await form(m);
    assert.equal(pdf.pageTexts.length, 2, "USPS's two forms, and not shipd's summary");
    made.forEach((f, i) => assert.ok(pdf.pageTexts[i]!.includes(`EFN ${f.manifestNumber}`), `${f.manifestNumber}'s page is served`));

    const replay = await server.request('POST', '/manifests', { key: uspsKey, headers: { 'idempotency-key': 'usps-day' }, body: { carrier: 'usps', ship_date: day } });
    assert.equal(replay.body.id, m.id);
    assert.equal(fakes.usps.scanForms.forms.length, formsBefore + 2, 'a replay makes no form');

    const onForm = bought[7]!;
    const cancels = fakes.usps.calls.filter((c) => c.method === 'DELETE').length;
    problem(await server.request('POST', `/shipments/${onForm.id}/void`, { key: uspsKey }), 409, 'label_manifested');
    assert.equal(fakes.usps.calls.filter((c) => c.method === 'DELETE').length, cancels, 'USPS is not asked to cancel a label on a SCAN form');
    assert.equal(fakes.usps.scanForms.formOf(onForm.tracking_number), made[0]!.manifestNumber);
    problem(await server.request('POST', '/manifests', { key: uspsKey, body: { carrier: 'usps', ship_date: day } }), 422, 'nothing_to_manifest');
    const got = await server.request('GET', `/manifests/${m.id}`, { key: uspsKey });
    assert.deepEqual(got.body.carrier_forms, m.carrier_forms);
  });

  test('USPS refuses the form: 422 manifest_rejected in its words, no manifest, and the labels can still be voided', async () => {
    const one = await label(uspsKey, 'usps', 'PRIORITY_MAIL');
    fakes.usps.scanForms.refuseNext = 'The SCAN Form could not be created for the requested mailing date.';
    const p = problem(await server.request('POST', '/manifests', { key: uspsKey, body: { carrier: 'usps', ship_date: today() } }), 422, 'manifest_rejected');
    assert.match(p.detail, /could not be created for the requested mailing date/);
    assert.equal((await server.request('GET', `/manifests?carrier=usps&ship_date=${today()}`, { key: uspsKey })).body.data.filter((x: Json) => x.shipment_ids.includes(one.id)).length, 0);
    assert.equal((await server.request('POST', `/shipments/${one.id}/void`, { key: uspsKey })).status, 200);
  });

  test('FedEx: the Ground labels are closed with FedEx, whose manifest report follows the summary; Express needs no close', async () => {
    const day = today();
    const ground = [await label(key, 'fedex', 'FEDEX_GROUND'), await label(key, 'fedex', 'FEDEX_GROUND', austin, 5)];
    const express = await label(key, 'fedex', 'FEDEX_2_DAY');
    const res = await server.request('POST', '/manifests', { key, body: { carrier: 'fedex', ship_date: day } });
    assert.equal(res.status, 201, res.text);
    const m = res.body;
    assert.equal(m.carrier_manifest, 'submitted');
    assert.deepEqual([...m.shipment_ids].sort(), [...ground, express].map((s) => s.id).sort());
    const close = fakes.fedex.endOfDay.closes.at(-1)!;
    assert.equal(close.closeDate, day);
    assert.deepEqual([...close.trackingNumbers].sort(), ground.map((s) => s.tracking_number).sort());
    const call = fakes.fedex.calls.filter((c) => c.method === 'PUT' && c.path === '/ship/v1/endofday/').at(-1)!;
    assert.deepEqual(call.body, { closeReqType: 'GCDR', groundServiceCategory: 'GROUND', accountNumber: { value: fakes.fedex.accountNumber }, closeDate: day, closeDocumentSpecification: { closeDocumentTypes: ['MANIFEST'] } });
    assert.equal(m.carrier_forms.length, 1);
    assert.equal(m.carrier_forms[0].kind, 'fedex_ground_close');
    assert.match(m.carrier_forms[0].number, new RegExp(`^${day.replace(/-/g, '')}`));
    assert.deepEqual([...m.carrier_forms[0].shipment_ids].sort(), ground.map((s) => s.id).sort());
    const pdf = await form(m);
    assert.match(pdf.text, /FedEx Ground Close Manifest/, "shipd's summary first");
    assert.match(pdf.pageTexts.at(-1)!, new RegExp(`FedEx MANIFEST ${day}`), "then FedEx's report");
    assert.ok(pdf.text.includes(express.tracking_number));

    const onlyExpress = await label(key, 'fedex', 'FEDEX_2_DAY');
    const closes = fakes.fedex.endOfDay.closes.length;
    const second = await server.request('POST', '/manifests', { key, body: { carrier: 'fedex', ship_date: day } });
    assert.equal(second.status, 201, second.text);
    assert.deepEqual(second.body.shipment_ids, [onlyExpress.id]);
    assert.equal(second.body.carrier_manifest, 'not_required');
    assert.equal(fakes.fedex.endOfDay.closes.length, closes, 'no close for Express alone');
  });

  test('FedEx refuses the close: 422 manifest_rejected naming its code', async () => {
    const g = await label(key, 'fedex', 'FEDEX_GROUND');
    fakes.fedex.endOfDay.refuseNext = { code: 'AVAILABILITY.SHIP.DATE.INVALID', message: 'Ship date is invalid.' };
    const p = problem(await server.request('POST', '/manifests', { key, body: { carrier: 'fedex', ship_date: today() } }), 422, 'manifest_rejected');
    assert.match(p.detail, /AVAILABILITY\.SHIP\.DATE\.INVALID/);
    const again = await server.request('POST', '/manifests', { key, body: { carrier: 'fedex', ship_date: today(), shipment_ids: [g.id] } });
    assert.equal(again.status, 201, again.text);
    assert.equal(again.body.carrier_manifest, 'submitted');
  });

  test('UPS: no end-of-day form is needed, so the manifest answers not_required with shipd\'s summary and asks UPS nothing', async () => {
    const ups = await label(key, 'ups', '03');
    const calls = fakes.ups.calls.length;
    const res = await server.request('POST', '/manifests', { key, body: { carrier: 'ups', ship_date: today() } });
    assert.equal(res.status, 201, res.text);
    assert.equal(res.body.carrier_manifest, 'not_required');
    assert.deepEqual(res.body.carrier_forms, []);
    assert.deepEqual(res.body.shipment_ids, [ups.id]);
    assert.equal(fakes.ups.calls.length, calls);
    const pdf = await form(res.body);
    assert.match(pdf.text, /UPS End of Day Summary/);
    assert.ok(pdf.text.includes(ups.tracking_number));
    assert.doesNotMatch(pdf.text, /SAMPLE/);
  });
});
