import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { problem, type TestServer } from './harness.ts';
import { austin, orderBody, sanFrancisco } from './fixtures.ts';
import type { CarrierFakes } from './fakes/carriers.ts';
import { fakeExtraServices } from './fakes/usps.ts';
import { startLiveShop, type LiveShop } from './live-billing.ts';
import { openPdf } from './barcodes.ts';
import { isValidTrackingNumber } from '../src/carriers/tracking-numbers.ts';
import { optionCapabilities, type OptionAsk } from '../src/carriers/options.ts';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- tests read whatever JSON came back

// USPS with a live key, over HTTP against the fake USPS: several boxes bought as a label each, and delivery options
// sent as extra services.

const box = (lb: number, reference?: string) => ({ weight: { value: lb, unit: 'lb' }, dimensions: { length: 10 + lb, width: 8, height: 4, unit: 'in' }, ...(reference && { reference }) });
const cents = (m: { amount: string }) => Math.round(Number(m.amount) * 100);
const searchPath = /^\/shipments\/v3\/options\/search$/;
const labelPath = /^\/labels\/v3\/label$/;

describe('USPS with live keys (fake USPS)', () => {
  let fakes: CarrierFakes;
  let server: TestServer;
  let key: string;
  let live: LiveShop;
  before(async () => {
    live = await startLiveShop();
    ({ server, fakes, key } = live);
  });
  after(() => live.close());

  const post = (path: string, body: unknown) => server.request('POST', path, { key, body });
  const ledger = (shipmentId: string) => live.ledger(shipmentId);
  const chargesOf = (shipmentId: string) => live.chargesOf(shipmentId);
  const calls = (path: RegExp, method = 'POST') => fakes.usps.calls.filter((c) => c.method === method && path.test(c.path));
  const cancelled = () => calls(/^\/labels\/v3\/label\//, 'DELETE').map((c) => decodeURIComponent(c.path.split('/').at(-1)!));

  /** label_url names SHIPD_PUBLIC_URL's host; the test server listens on a port of its own. */
  async function download(labelUrl: string): Promise<Buffer> {
    const u = new URL(labelUrl);
    const res = await fetch(`${server.url}${u.pathname}${u.search}`);
    assert.equal(res.status, 200, labelUrl);
    return Buffer.from(await res.arrayBuffer());
  }

  async function order(overrides: Json = {}): Promise<Json> {
    const o = await post('/orders', orderBody({ order_number: `usps-${Math.random().toString(36).slice(2, 8)}`, ...overrides }));
    assert.equal(o.status, 201, o.text);
    return o.body;
  }

  async function shop(body: Json): Promise<Json> {
    const res = await post('/rates', { carriers: ['usps'], ...body });
    assert.equal(res.status, 200, res.text);
    return res.body;
  }

  test('a 2-box purchase: a label and a valid number per box, no master, one merged file, charged once for the total; the void cancels both and refunds it all', async () => {
    const boxes = [box(2, 'Box 1: mugs'), box(5)];
    const alone = await Promise.all(boxes.map(async (b) => cents((await shop({ ship_to: orderBody().ship_to, ship_from: orderBody().ship_from, parcel: b, services: ['PRIORITY_MAIL'] })).rates[0].amount)));
    const o = await order({ parcel: undefined, parcels: boxes });
    const shopped = await shop({ order_id: o.id, services: ['PRIORITY_MAIL'] });
    const rate = shopped.rates[0];
    assert.equal(cents(rate.amount), alone[0]! + alone[1]!, 'the shipment costs what its boxes cost one by one');
    const labelsBefore = calls(labelPath).length;
    const bought = await post('/shipments', { order_id: o.id, rate_id: rate.id });
    assert.equal(bought.status, 201, bought.text);
    const s = bought.body;
    assert.equal(s.carrier, 'usps');
    assert.equal(s.master_tracking_number, null);
    assert.equal(s.packages.length, 2);
    const numbers: string[] = s.packages.map((p: Json) => p.tracking_number);
    assert.equal(new Set(numbers).size, 2);
    for (const n of numbers) assert.ok(isValidTrackingNumber('usps', n), n);
    assert.equal(s.tracking_number, numbers[0]);
    assert.deepEqual(s.packages.map((p: Json) => p.reference), ['Box 1: mugs', undefined]);

    const sold = calls(labelPath).slice(labelsBefore);
    assert.equal(sold.length, 2, 'a label request per box');
    assert.equal(new Set(sold.map((c) => c.headers['x-idempotency-key'])).size, 2, 'each under its own key');
    const pages: string[] = [];
    for (const [i, p] of s.packages.entries()) {
      const file = await download(p.label_url);
      assert.ok(file.toString('latin1').includes(`USPS label ${numbers[i]}`), "each box's file is the one USPS sold for it");
      const pdf = await openPdf(file, 72);
      assert.equal(pdf.pages, 1);
      pages.push(pdf.pageTexts[0]!);
    }
    assert.notEqual(pages[0], pages[1]);
    const merged = await openPdf(await download(s.label_url), 72);
    assert.deepEqual(merged.pageTexts, pages, "one merged file holding each box's label, in order");

    const total = cents(rate.amount);
    assert.equal(cents(s.postage), total);
    assert.deepEqual(await ledger(s.id), [{ kind: 'charge', amount_cents: total }]);
    const [charge, ...more] = chargesOf(s.id);
    assert.equal(more.length, 0, 'one payment for the whole shipment');
    assert.equal(charge!.captured, total);

    const voided = await post(`/shipments/${o.id}/void`, {});
    assert.equal(voided.status, 200, voided.text);
    assert.equal(voided.body.status, 'voided');
    assert.deepEqual(cancelled().slice(-2), numbers, "every box's label is cancelled at USPS");
    assert.equal((await ledger(s.id)).reduce((sum, l) => sum + l.amount_cents, 0), 0, 'the whole postage is refunded');
    assert.equal(chargesOf(s.id)[0]!.refunded, total);
    assert.equal((await server.request('GET', `/orders/${o.id}`, { key })).body.status, 'incomplete');
  });

  test('a box USPS refuses: the box bought before it is cancelled, nothing is charged, the order stays open', async () => {
    const o = await order({ parcel: undefined, parcels: [box(2), box(3)] });
    const shopped = await shop({ order_id: o.id, services: ['USPS_GROUND_ADVANTAGE'] });
    const labelsBefore = calls(labelPath).length;
    const cancelsBefore = cancelled().length;
    fakes.usps.refuseLabelAfter = 1;
    const bought = await post('/shipments', { order_id: o.id, rate_id: shopped.rates[0].id });
    const refused = problem(bought, 502, 'carrier_error');
    assert.match(refused.detail, /box 2 of 2: .*The label could not be created.*the 1 box\(es\) bought before it were voided/);
    assert.equal(calls(labelPath).length - labelsBefore, 2);
    assert.equal(cancelled().length - cancelsBefore, 1, 'box 1 was cancelled');
    const rows = await server.services.database.db.selectFrom('shipments').select(['id', 'status']).where('order_id', '=', o.id).execute();
    assert.deepEqual(rows.map((r) => r.status), ['failed']);
    assert.deepEqual(await ledger(rows[0]!.id), []);
    assert.ok(chargesOf(rows[0]!.id).every((c) => c.captured === 0), 'the card is not charged');
    assert.equal((await server.request('GET', `/orders/${o.id}`, { key })).body.status, 'incomplete');
  });

  /**
   * Each option USPS does as a client asks it, the extra service code that goes with it and the surcharge it is shown
   * under; or the toAddress fields it puts on the label, with what the order then needs.
   */
  const asked: Partial<Record<OptionAsk, { options: Json; code?: number; surcharge?: string; toAddress?: Json; order?: Json }>> = {
    'signature:standard': { options: { signature: 'standard' }, code: 921, surcharge: 'signature' },
    'signature:adult': { options: { signature: 'adult' }, code: 922, surcharge: 'signature' },
    delivery_confirmation: { options: { delivery_confirmation: true }, code: 920 },
    non_machinable: { options: { non_machinable: true } },
    dry_ice: { options: { dry_ice: { weight: { value: 1, unit: 'lb' } } }, code: 819, surcharge: 'dry_ice' },
    'hazmat:limited_quantity': { options: { hazmat: 'limited_quantity' }, code: 831, surcharge: 'hazmat' },
    'hazmat:lithium_ion_in_equipment': { options: { hazmat: 'lithium_ion_in_equipment' }, code: 820, surcharge: 'hazmat' },
    'hazmat:lithium_metal_in_equipment': { options: { hazmat: 'lithium_metal_in_equipment' }, code: 820, surcharge: 'hazmat' },
    hold_for_pickup: {
      options: { hold_for_pickup: true, hold_location: { carrier: 'usps', id: '1390271' } },
      toAddress: { holdForPickup: true, facilityId: '1390271', email: 'ada@example.com', phone: '4155550100' },
      order: {
        ship_to: { ...sanFrancisco, email: 'ada@example.com', phone: '415-555-0100' },
        ship_from: { ...austin, name: 'Grace Hopper', email: 'ship@example.com', phone: '512-555-0100' },
      },
    },
  };

  for (const ask of Object.keys(optionCapabilities.usps) as OptionAsk[]) {
    test(`${ask}: its extra service reaches USPS in the search and on the label, and its price is in the rate's surcharges and the postage`, async () => {
      const a = asked[ask];
      assert.ok(a, `the test knows how to ask ${ask}`);
      const o = await order(a.order);
      const shopped = await shop({ order_id: o.id, options: a.options });
      const rate: Json = shopped.rates[0];
      assert.ok(rate, shopped.text);
      const searched = calls(searchPath).findLast((c) => (c.body as Json).packageDescription.mailClass === rate.service)!.body as Json;
      const bought = await post('/shipments', { order_id: o.id, rate_id: rate.id });
      assert.equal(bought.status, 201, bought.text);
      assert.deepEqual(bought.body.options, a.options);
      const labelled = (calls(labelPath).at(-1)!.body as Json).packageDescription;
      if (a.code) {
        assert.deepEqual(searched.packageDescription.extraServices, [a.code]);
        assert.deepEqual(labelled.extraServices, [a.code]);
      } else if (a.toAddress) {
        assert.equal(searched.packageDescription.extraServices, undefined);
        const to = (calls(labelPath).at(-1)!.body as Json).toAddress;
        assert.deepEqual(Object.fromEntries(Object.keys(a.toAddress).map((k) => [k, to[k]])), a.toAddress);
      } else {
        assert.equal(searched.packageDescription.hasNonstandardCharacteristics, true);
        assert.equal(labelled.hasNonstandardCharacteristics, true);
        assert.equal(labelled.processingCategory, 'NONSTANDARD');
      }
      const fee = a.code ? Math.round(fakeExtraServices[a.code]!.price * 100) : 0;
      const shown = (rate.surcharges as Json[]).find((x) => x.type === a.surcharge);
      if (fee > 0) assert.equal(cents(shown!.amount), fee, JSON.stringify(rate.surcharges));
      else assert.equal(shown, undefined);
      assert.deepEqual(bought.body.postage, rate.amount, 'USPS charged what it quoted, the extra service with it');
      assert.deepEqual(fakes.usps.violations, []);
    });
  }

  test('two boxes with an adult signature: each label asks 922, and the rate shows both boxes\' fees', async () => {
    const o = await order({ parcel: undefined, parcels: [box(2), box(3)] });
    const shopped = await shop({ order_id: o.id, services: ['PRIORITY_MAIL'], options: { signature: 'adult' } });
    const rate = shopped.rates[0];
    assert.equal(cents((rate.surcharges as Json[]).find((x) => x.type === 'signature')!.amount), 2 * Math.round(fakeExtraServices[922]!.price * 100));
    const labelsBefore = calls(labelPath).length;
    const bought = await post('/shipments', { order_id: o.id, rate_id: rate.id });
    assert.equal(bought.status, 201, bought.text);
    assert.deepEqual(calls(labelPath).slice(labelsBefore).map((c) => (c.body as Json).packageDescription.extraServices), [[922], [922]]);
    assert.deepEqual(bought.body.postage, rate.amount);
  });

  test('holding for pickup at a Post Office without the sender\'s first and last name, email and phone is a 400 naming them; USPS is not asked', async () => {
    const o = await order({ ship_to: { ...sanFrancisco, email: 'ada@example.com', phone: '415-555-0100' } });
    const before = calls(searchPath).length;
    const res = await server.request('POST', '/rates', { key, body: { order_id: o.id, options: { hold_for_pickup: true, hold_location: { carrier: 'usps', id: '1390271' } } } });
    assert.equal(res.status, 400, res.text);
    assert.deepEqual(
      res.body.errors.map((e: { detail: string }) => e.detail.replace(/ to hold .*/, '')),
      ["the sender's name must be a first and a last name", "the sender's email is required", "the sender's phone is required"],
    );
    assert.equal(calls(searchPath).length, before);
  });
});
