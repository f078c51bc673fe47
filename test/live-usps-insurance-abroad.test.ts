import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { problem, type TestServer } from './harness.ts';
import { austin, orderBody } from './fixtures.ts';
import type { CarrierFakes } from './fakes/carriers.ts';
import { startLiveShop, type LiveShop } from './live-billing.ts';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- tests read whatever JSON came back

// USPS insurance abroad with a live key, over HTTP against the fake USPS, which holds the total-rates search and the
// international label to our schemas of international-prices.yaml 3.3.5 and international-labels.yaml 3.2.2.

const london = { name: 'Charles Babbage', street1: '10 Downing Street', city: 'London', zip: 'SW1A 2AA', country: 'GB', phone: '+44 20 7946 0000' };
const mug = { description: 'Stoneware mug', quantity: 2, unit_value: { amount: '12.50', currency: 'USD' }, weight: { value: 14, unit: 'oz' }, hs_tariff_number: '6912.00', origin_country: 'US' };
const towel = { description: 'Linen tea towel', quantity: 1, unit_value: { amount: '9.00', currency: 'USD' }, weight: { value: 3, unit: 'oz' }, hs_tariff_number: '6302.60', origin_country: 'PT' };
const customs = { contents_type: 'merchandise', non_delivery: 'return', signer: 'Grace Hopper', certify: true, items: [mug] };
const usd = (amount: string) => ({ amount: { amount, currency: 'USD' } });
const cents = (m: { amount: string }) => Math.round(Number(m.amount) * 100);
const insuranceOf = (r: Json): Json | undefined => r.surcharges.find((s: Json) => s.type === 'insurance');
/** The fake's insurance fee, as test/fakes/usps.ts prices it: $1.55 for each $100 (or part of $100) insured. */
const fakeFee = (dollars: number) => Math.ceil(dollars / 100) * 155;

const totalRates = /^\/international-prices\/v3\/total-rates\/search$/;
const priceList = /^\/international-prices\/v3\/base-rates-list\/search$/;
const internationalLabel = /^\/international-labels\/v3\/international-label$/;

describe('USPS insurance abroad with live keys (fake USPS)', () => {
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
  const callsSince = (since: number, path: RegExp) => fakes.usps.calls.slice(since).filter((c) => path.test(c.path));

  async function order(overrides: Json = {}): Promise<Json> {
    const o = await post('/orders', orderBody({ order_number: `usps-ins-${Math.random().toString(36).slice(2, 8)}`, ship_from: { ...austin, phone: '512-555-0100' }, ship_to: london, customs, ...overrides }));
    assert.equal(o.status, 201, o.text);
    return o.body;
  }

  async function shop(body: Json): Promise<Json> {
    const res = await post('/rates', { carriers: ['usps'], ...body });
    assert.equal(res.status, 200, res.text);
    return res.body;
  }

  test('an insured parcel to London: priced with 930 and its value, the fee a surcharge of the rate, charged with the postage and refunded by the void', async () => {
    const o = await order();
    const since = fakes.usps.calls.length;
    const shopped = await shop({ order_id: o.id, insurance: usd('450.00') });
    assert.deepEqual(shopped.errors, []);
    assert.deepEqual(shopped.insurance, usd('450.00'));
    const searches = callsSince(since, totalRates).map((c) => c.body as Json);
    assert.deepEqual(searches.map((q) => q.priceType).sort(), ['COMMERCIAL', 'RETAIL']);
    for (const q of searches) assert.deepEqual([q.extraServices, q.itemValue], [[930], 450]);
    assert.equal(callsSince(since, priceList).length, 0, 'the price list alone prices no insurance');
    // The fake prices insurance on the two Priority classes only: First-Class Package International is left out.
    assert.deepEqual(shopped.rates.map((r: Json) => r.service).sort(), ['PRIORITY_MAIL_EXPRESS_INTERNATIONAL', 'PRIORITY_MAIL_INTERNATIONAL']);
    for (const r of shopped.rates) assert.deepEqual(insuranceOf(r), { type: 'insurance', amount: usd((fakeFee(450) / 100).toFixed(2)).amount });

    const plain = await shop({ order_id: o.id, services: ['PRIORITY_MAIL_INTERNATIONAL'] });
    const rate = shopped.rates.find((r: Json) => r.service === 'PRIORITY_MAIL_INTERNATIONAL');
    assert.equal(cents(rate.amount), cents(plain.rates[0].amount) + fakeFee(450), "the rate is the postage and the insurance's fee");
    assert.equal(insuranceOf(plain.rates[0]), undefined);

    const labelsBefore = fakes.usps.calls.length;
    const bought = await post('/shipments', { order_id: o.id, rate_id: rate.id });
    assert.equal(bought.status, 201, bought.text);
    const s = bought.body;
    assert.deepEqual(s.insurance, usd('450.00'));
    const [label, ...more] = callsSince(labelsBefore, internationalLabel).map((c) => c.body as Json);
    assert.equal(more.length, 0);
    assert.deepEqual(label!.packageDescription.extraServices, [930]);
    assert.deepEqual(label!.packageDescription.packageOptions, { packageValue: 450, nonDeliveryOption: 'RETURN' });

    const total = cents(rate.amount);
    assert.equal(cents(s.postage), total, 'charged the postage with the insurance USPS itemized beside it');
    assert.deepEqual(await ledger(s.id), [{ kind: 'charge', amount_cents: total }]);
    assert.equal(chargesOf(s.id)[0]!.captured, total);

    const voided = await post(`/shipments/${o.id}/void`, {});
    assert.equal(voided.status, 200, voided.text);
    assert.equal(voided.body.status, 'voided');
    assert.equal((await ledger(s.id)).reduce((sum, l) => sum + l.amount_cents, 0), 0, 'the insurance is refunded with the postage');
    assert.equal(chargesOf(s.id)[0]!.refunded, total);
    assert.deepEqual(fakes.usps.violations, []);
  });

  test('insurance above $500 abroad is 931, in the search and on the label', async () => {
    const o = await order();
    const since = fakes.usps.calls.length;
    const shopped = await shop({ order_id: o.id, insurance: usd('1200.00') });
    for (const q of callsSince(since, totalRates).map((c) => c.body as Json)) assert.deepEqual([q.extraServices, q.itemValue], [[931], 1200]);
    const rate = shopped.rates.find((r: Json) => r.service === 'PRIORITY_MAIL_EXPRESS_INTERNATIONAL');
    assert.equal(cents(insuranceOf(rate)!.amount), fakeFee(1200));
    const bought = await post('/shipments', { order_id: o.id, rate_id: rate.id });
    assert.equal(bought.status, 201, bought.text);
    const label = callsSince(since, internationalLabel).at(-1)!.body as Json;
    assert.deepEqual(label.packageDescription.extraServices, [931]);
    assert.equal(label.packageDescription.packageOptions.packageValue, 1200);
    assert.equal(cents(bought.body.postage), cents(rate.amount));
    assert.deepEqual(fakes.usps.violations, []);
  });

  test('two insured boxes abroad: each label insures its share, and the charge is the sum the rate said', async () => {
    const boxes = [
      { weight: { value: 3, unit: 'lb' }, dimensions: { length: 10, width: 8, height: 4, unit: 'in' } },
      { weight: { value: 2, unit: 'lb' }, dimensions: { length: 8, width: 6, height: 4, unit: 'in' } },
    ];
    const o = await order({ parcel: undefined, parcels: boxes, customs: { ...customs, items: [{ ...mug, parcel_index: 0 }, { ...towel, parcel_index: 1 }] } });
    const since = fakes.usps.calls.length;
    const shopped = await shop({ order_id: o.id, insurance: usd('600.00') });
    const rate = shopped.rates.find((r: Json) => r.service === 'PRIORITY_MAIL_INTERNATIONAL');
    assert.ok(rate, JSON.stringify(shopped));
    assert.equal(cents(insuranceOf(rate)!.amount), 2 * fakeFee(300));
    const bought = await post('/shipments', { order_id: o.id, rate_id: rate.id });
    assert.equal(bought.status, 201, bought.text);
    const labels = callsSince(since, internationalLabel).map((c) => (c.body as Json).packageDescription);
    assert.deepEqual(labels.map((p) => [p.extraServices, p.packageOptions.packageValue]), [[[930], 300], [[930], 300]]);
    assert.equal(cents(bought.body.postage), cents(rate.amount));
    assert.deepEqual(await ledger(bought.body.id), [{ kind: 'charge', amount_cents: cents(rate.amount) }]);
    const voided = await post(`/shipments/${o.id}/void`, {});
    assert.equal(voided.status, 200, voided.text);
    assert.equal((await ledger(bought.body.id)).reduce((sum, l) => sum + l.amount_cents, 0), 0);
    assert.deepEqual(fakes.usps.violations, []);
  });

  test('above the $5,000 USPS insures any parcel abroad for: USPS drops out of the shop unasked, and alone it is a 400 at the field', async () => {
    const o = await order();
    const since = fakes.usps.calls.length;
    const shopped = await post('/rates', { order_id: o.id, carriers: ['usps', 'ups'], insurance: usd('5000.01') });
    assert.equal(shopped.status, 200, shopped.text);
    const err = shopped.body.errors.find((e: Json) => e.carrier === 'usps');
    assert.equal(err.code, 'insurance_above_limit');
    assert.match(err.detail, /at most \$5,000\.00, less where the country sets a lower limit; this parcel asks \$5,000\.01/);
    assert.ok(shopped.body.rates.some((r: Json) => r.carrier === 'ups'));
    assert.equal(callsSince(since, /^\/international-/).length, 0, 'USPS is not asked');

    const alone = await post('/rates', { order_id: o.id, carriers: ['usps'], insurance: usd('5000.01') });
    const p = problem(alone, 400, 'insurance_above_limit');
    assert.equal(p.errors[0].pointer, '/insurance/amount');
    assert.match(p.errors[0].detail, /USPS insures a parcel to another country for at most \$5,000\.00/);

    const atLimit = await shop({ order_id: o.id, insurance: usd('5000.00') });
    assert.deepEqual(atLimit.errors, []);
    assert.equal(cents(insuranceOf(atLimit.rates[0])!.amount), fakeFee(5000));
  });

  test('the fake refuses insurance abroad as the specs do: two insurance codes, no value, no itemValue in the search', async () => {
    const labelCall = fakes.usps.calls.findLast((c) => internationalLabel.test(c.path))!;
    const send = (body: Json) =>
      fetch(`${fakes.usps.url}${labelCall.path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: String(labelCall.headers.authorization), 'x-payment-authorization-token': String(labelCall.headers['x-payment-authorization-token']) },
        body: JSON.stringify(body),
      });
    const twice = structuredClone(labelCall.body as Json);
    twice.packageDescription.extraServices = [930, 931];
    const refusedTwice = await send(twice);
    assert.equal(refusedTwice.status, 400);
    assert.match(await refusedTwice.text(), /one insurance extra service/);
    const valueless = structuredClone(labelCall.body as Json);
    delete valueless.packageDescription.packageOptions.packageValue;
    const refusedValueless = await send(valueless);
    assert.equal(refusedValueless.status, 400);
    assert.match(await refusedValueless.text(), /packageValue is required/);

    const searchCall = fakes.usps.calls.findLast((c) => totalRates.test(c.path))!;
    const { itemValue: _dropped, ...search } = searchCall.body as Json;
    const searched = await fetch(`${fakes.usps.url}${searchCall.path}`, { method: 'POST', headers: { 'content-type': 'application/json', authorization: String(searchCall.headers.authorization) }, body: JSON.stringify(search) });
    assert.equal(searched.status, 400);
    assert.match(await searched.text(), /itemValue is required/);
  });
});
