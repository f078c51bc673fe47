import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { problem, startServer, type TestServer } from './harness.ts';
import { austin, orderBody } from './fixtures.ts';
import type { CarrierFakes } from './fakes/carriers.ts';
import { type LiveShop, payingTestKey, startLiveShop } from './live-billing.ts';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- tests read whatever JSON came back

const usd = (amount: string) => ({ amount: { amount, currency: 'USD' } });
const cents = (m: { amount: string }) => Math.round(Number(m.amount) * 100);
const insuranceOf = (r: Json) => r.surcharges.find((s: Json) => s.type === 'insurance');

/**
 * Each carrier's charge for a parcel declared or insured at the value, worked out by hand from the published figures
 * src/carriers/insurance.ts cites: UPS $1.70 per $100 (or part) of the whole value, at least $5.11, nothing to $100;
 * FedEx $4.95 from $100.01 to $300, then $1.65 per $100 (or part) of the whole value; USPS the Notice 123 band of the
 * value above the $100 its services include.
 */
const expected: Record<string, Record<string, number>> = {
  // UPS: max(5.11, 5 × 1.70); FedEx 5 × 1.65; USPS $350 above $100: the $300.01–$400 band.
  '450.00': { ups: 850, fedex: 825, usps: 605 },
  // UPS: max(5.11, 3 × 1.70 = 5.10); FedEx the $100.01–$300 charge; USPS $150 above $100: the $100.01–$200 band.
  '250.00': { ups: 511, fedex: 495, usps: 450 },
  // UPS: 31 × 1.70 (3,000.01 is 31 hundreds or part); FedEx 31 × 1.65; USPS: above the stored bands (see below).
  '3000.01': { ups: 5270, fedex: 5115 },
  // UPS and FedEx carry $100 without charge, USPS includes it.
  '80.00': { ups: 0, fedex: 0, usps: 0 },
};

describe('insurance in test mode', () => {
  let server: TestServer;
  let key: string;

  before(async () => {
    server = await startServer();
    key = await payingTestKey(server);
  });
  after(() => server.close());

  async function order(): Promise<Json> {
    const res = await server.request('POST', '/orders', { key, body: orderBody() });
    assert.equal(res.status, 201, res.text);
    return res.body;
  }

  async function shop(body: Json): Promise<Json> {
    const res = await server.request('POST', '/rates', { key, body });
    assert.equal(res.status, 200, res.text);
    return res.body;
  }

  const same = (rates: Json[], r: Json) => rates.find((x) => x.carrier === r.carrier && x.service === r.service);

  for (const [value, byCarrier] of Object.entries(expected)) {
    test(`a parcel insured for $${value} pays each carrier's published charge, in the rate's amount`, async () => {
      const o = await order();
      const plain = await shop({ order_id: o.id });
      const insured = await shop({ order_id: o.id, insurance: usd(value) });
      assert.deepEqual(insured.insurance, usd(value));
      assert.equal(plain.insurance, null);
      const carriers = Object.keys(byCarrier);
      assert.deepEqual([...new Set(insured.rates.map((r: Json) => r.carrier))].sort(), carriers.sort());
      for (const r of insured.rates as Json[]) {
        const want = byCarrier[r.carrier]!;
        const base = same(plain.rates, r);
        assert.ok(base, `${r.carrier} ${r.service} is rated without insurance too`);
        assert.equal(cents(r.amount) - cents(base.amount), want, `${r.carrier} ${r.service} amount`);
        assert.equal(cents(r.list_amount) - cents(base.list_amount), want, `${r.carrier} ${r.service} list_amount`);
        if (want === 0) assert.equal(insuranceOf(r), undefined);
        else assert.deepEqual(insuranceOf(r), { type: 'insurance', amount: { amount: (want / 100).toFixed(2), currency: 'USD' } });
        const total = r.surcharges.reduce((sum: number, s: Json) => sum + cents(s.amount), 0);
        assert.ok(total <= cents(r.amount));
      }
    });
  }

  test('USPS insures no more than its stored price list prices, and says so', async () => {
    const o = await order();
    const shopped = await shop({ order_id: o.id, insurance: usd('3000.01') });
    const err = shopped.errors.find((e: Json) => e.carrier === 'usps');
    assert.equal(err.code, 'service_unavailable');
    assert.match(err.detail, /more than \$600 above the \$100/);
    // $700 is the most it prices: $600 above the included $100, the $500.01–$600 band.
    const top = await shop({ order_id: o.id, carriers: ['usps'], insurance: usd('700.00') });
    assert.deepEqual(top.errors, []);
    for (const r of top.rates as Json[]) assert.deepEqual(insuranceOf(r).amount, { amount: '9.05', currency: 'USD' });
  });

  test('a carrier above its limit drops out with insurance_above_limit; above every limit the request is a 400', async () => {
    const o = await order();
    const shopped = await shop({ order_id: o.id, insurance: usd('6000.00') });
    assert.deepEqual(shopped.errors.map((e: Json) => [e.carrier, e.code]), [['usps', 'insurance_above_limit']]);
    assert.match(shopped.errors[0].detail, /at most \$5,000\.00/);
    assert.deepEqual([...new Set(shopped.rates.map((r: Json) => r.carrier))].sort(), ['fedex', 'ups']);

    const above = await server.request('POST', '/rates', { key, body: { order_id: o.id, insurance: usd('50000.01') } });
    const p = problem(above, 400, 'insurance_above_limit');
    assert.equal(p.errors[0].pointer, '/insurance/amount');
    assert.match(p.errors[0].detail, /UPS insures a package for at most \$50,000\.00/);
    const bought = await server.request('POST', '/shipments', { key, body: { order_id: o.id, insurance: usd('50000.01') } });
    assert.equal(problem(bought, 400, 'insurance_above_limit').errors[0].pointer, '/insurance/amount');
    assert.equal((await server.request('GET', `/orders/${o.id}`, { key })).body.status, 'incomplete');
  });

  test('an amount of zero or in another currency is a 400 naming the field', async () => {
    const o = await order();
    const zero = await server.request('POST', '/rates', { key, body: { order_id: o.id, insurance: usd('0.00') } });
    assert.equal(problem(zero, 400, 'validation_failed').errors[0].pointer, '/insurance/amount');
    const euros = await server.request('POST', '/rates', { key, body: { order_id: o.id, insurance: { amount: { amount: '10.00', currency: 'EUR' } } } });
    assert.match(problem(euros, 400, 'validation_failed').errors[0].pointer, /^\/insurance\/amount/);
    const onPurchase = await server.request('POST', '/shipments', { key, body: { order_id: o.id, insurance: usd('0') } });
    assert.equal(problem(onPurchase, 400, 'validation_failed').errors[0].pointer, '/insurance/amount');
  });

  async function ledger(shipmentId: string) {
    return server.services.database.db.selectFrom('postage_ledger').select(['kind', 'amount_cents']).where('shipment_id', '=', shipmentId).orderBy('created_at').execute();
  }

  test('buying an insured rate charges its cost with the postage, shows it, and a void refunds it all', async () => {
    const o = await order();
    const shopped = await shop({ order_id: o.id, insurance: usd('450.00'), carriers: ['ups'] });
    const rate = shopped.rates[0];
    const bought = await server.request('POST', '/shipments', { key, body: { order_id: o.id, rate_id: rate.id } });
    assert.equal(bought.status, 201, bought.text);
    assert.deepEqual(bought.body.insurance, usd('450.00'));
    assert.deepEqual(bought.body.postage, rate.amount);
    assert.deepEqual((await server.request('GET', `/shipments/${bought.body.id}`, { key })).body.insurance, usd('450.00'));
    const charged = await ledger(bought.body.id);
    assert.equal(charged.reduce((sum, e) => sum + e.amount_cents, 0), cents(rate.amount));
    assert.ok(cents(rate.amount) > expected['450.00']!.ups!);

    const voided = await server.request('POST', `/shipments/${o.id}/void`, { key });
    assert.equal(voided.status, 200, voided.text);
    const entries = await ledger(bought.body.id);
    assert.equal(entries.length, 2);
    assert.equal(entries.reduce((sum, e) => sum + e.amount_cents, 0), 0, JSON.stringify(entries));
  });

  test('a rate is bought as insured as it was quoted: the same insurance or none, never another', async () => {
    const o = await order();
    const insured = await shop({ order_id: o.id, insurance: usd('450.00') });
    const other = await server.request('POST', '/shipments', { key, body: { order_id: o.id, rate_id: insured.rates[0].id, insurance: usd('500.00') } });
    assert.equal(problem(other, 409, 'rate_not_for_order').errors[0].pointer, '/insurance');
    const plain = await shop({ order_id: o.id });
    const added = await server.request('POST', '/shipments', { key, body: { order_id: o.id, rate_id: plain.rates[0].id, insurance: usd('450.00') } });
    assert.match(problem(added, 409, 'rate_not_for_order').errors[0].detail, /quoted with no insurance/);
    const again = await server.request('POST', '/shipments', { key, body: { order_id: o.id, rate_id: insured.rates[0].id, insurance: usd('450') } });
    assert.equal(again.status, 201, again.text);
    assert.deepEqual(again.body.insurance, usd('450.00'));
  });

  test('without a rate id the cheapest rate is bought with the insurance asked, its cost in the postage', async () => {
    const o = await order();
    const shopped = await shop({ order_id: o.id, insurance: usd('250.00') });
    const bought = await server.request('POST', '/shipments', { key, body: { order_id: o.id, insurance: usd('250.00') } });
    assert.equal(bought.status, 201, bought.text);
    assert.deepEqual(bought.body.insurance, usd('250.00'));
    assert.deepEqual(bought.body.postage, shopped.rates[0].amount);
    const plain = await order();
    const uninsured = await server.request('POST', '/shipments', { key, body: { order_id: plain.id } });
    assert.equal(uninsured.body.insurance, null);
  });
});

describe('insurance with live keys (fake carrier servers)', () => {
  let fakes: CarrierFakes;
  let server: TestServer;
  let key: string;
  let live: LiveShop;
  before(async () => {
    live = await startLiveShop();
    ({ server, fakes, key } = live);
  });
  after(() => live.close());

  const lastCall = (calls: { path: string; body: unknown }[], path: RegExp): Json => calls.findLast((c) => path.test(c.path))!.body as Json;

  async function buyInsured(carrier: string, amount = '450.00'): Promise<{ rate: Json; shipment: Json }> {
    // FedEx labels need the merchant's phone.
    const o = await server.request('POST', '/orders', { key, body: orderBody({ ship_from: { ...austin, phone: '512-555-0100' } }) });
    const shop = await server.request('POST', '/rates', { key, body: { order_id: o.body.id, carriers: [carrier], insurance: usd(amount) } });
    assert.equal(shop.status, 200, shop.text);
    assert.deepEqual(shop.body.insurance, usd(amount));
    const rate = shop.body.rates[0];
    assert.ok(rate, shop.text);
    const bought = await server.request('POST', '/shipments', { key, body: { order_id: o.body.id, rate_id: rate.id } });
    assert.equal(bought.status, 201, bought.text);
    assert.deepEqual(bought.body.insurance, usd(amount));
    return { rate, shipment: bought.body };
  }

  test("UPS is told the package's declared value in the rate and the ship request, as each spec writes it", async () => {
    await buyInsured('ups');
    const rated = lastCall(fakes.ups.calls, /\/rating\//).RateRequest;
    assert.deepEqual(rated.Shipment.Package[0].PackageServiceOptions, { DeclaredValue: { CurrencyCode: 'USD', MonetaryValue: '00450.00' } });
    const shipped = lastCall(fakes.ups.calls, /\/ship$/).ShipmentRequest;
    assert.deepEqual(shipped.Shipment.Package[0].PackageServiceOptions, { DeclaredValue: { CurrencyCode: 'USD', MonetaryValue: '450.00' } });
  });

  test("FedEx is told the package's declared value, and the shipment's total on the label", async () => {
    await buyInsured('fedex');
    const rated = lastCall(fakes.fedex.calls, /^\/rate\/v1\/rates\/quotes$/).requestedShipment;
    assert.deepEqual(rated.requestedPackageLineItems[0].declaredValue, { amount: 450, currency: 'USD' });
    const shipped = lastCall(fakes.fedex.calls, /^\/ship\/v1\/shipments$/).requestedShipment;
    assert.deepEqual(shipped.requestedPackageLineItems[0].declaredValue, { amount: 450, currency: 'USD' });
    assert.deepEqual(shipped.totalDeclaredValue, { amount: 450, currency: 'USD' });
  });

  test('USPS is asked for insurance (930) with the value in the options search and the label, and the rate itemizes its fee', async () => {
    const { rate, shipment } = await buyInsured('usps');
    const searched = lastCall(fakes.usps.calls, /^\/shipments\/v3\/options\/search$/).packageDescription;
    assert.deepEqual(searched.extraServices, [930]);
    assert.equal(searched.packageValue, 450);
    const labelled = lastCall(fakes.usps.calls, /^\/labels\/v3\/label$/).packageDescription;
    assert.deepEqual(labelled.extraServices, [930]);
    assert.deepEqual(labelled.packageOptions, { packageValue: 450 });
    assert.equal(labelled.physicalSignatureRequired, undefined);
    // The fake's fee: $1.55 for each $100 of $450.
    assert.deepEqual(rate.surcharges.find((s: Json) => s.type === 'insurance'), { type: 'insurance', amount: { amount: '7.75', currency: 'USD' } });
    assert.deepEqual(shipment.postage, rate.amount);
    assert.deepEqual(fakes.usps.violations, []);
  });

  test('USPS insurance above $500 is 931, and the label states the signature the Labels spec asks with it', async () => {
    const { rate } = await buyInsured('usps', '1200.00');
    assert.deepEqual(lastCall(fakes.usps.calls, /^\/shipments\/v3\/options\/search$/).packageDescription.extraServices, [931]);
    const labelled = lastCall(fakes.usps.calls, /^\/labels\/v3\/label$/).packageDescription;
    assert.deepEqual(labelled.extraServices, [931]);
    assert.deepEqual(labelled.packageOptions, { packageValue: 1200 });
    assert.equal(labelled.physicalSignatureRequired, false);
    assert.deepEqual(rate.surcharges.find((s: Json) => s.type === 'insurance'), { type: 'insurance', amount: { amount: '18.60', currency: 'USD' } });
  });

  test('the USPS fake refuses insurance without its value, or above $500 without physicalSignatureRequired, as the specs do', async () => {
    const searchCall = fakes.usps.calls.findLast((c) => c.path === '/shipments/v3/options/search')!;
    const search = structuredClone(searchCall.body as Json);
    delete search.packageDescription.packageValue;
    const searched = await fetch(`${fakes.usps.url}/shipments/v3/options/search`, { method: 'POST', headers: { 'content-type': 'application/json', authorization: String(searchCall.headers.authorization) }, body: JSON.stringify(search) });
    assert.equal(searched.status, 400);
    assert.match(await searched.text(), /packageValue is required/);
    const labelCall = fakes.usps.calls.findLast((c) => c.path === '/labels/v3/label')!;
    const send = (body: Json) =>
      fetch(`${fakes.usps.url}/labels/v3/label`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: String(labelCall.headers.authorization), 'x-payment-authorization-token': String(labelCall.headers['x-payment-authorization-token']) },
        body: JSON.stringify(body),
      });
    const valueless = structuredClone(labelCall.body as Json);
    delete valueless.packageDescription.packageOptions;
    const refused = await send(valueless);
    assert.equal(refused.status, 400);
    assert.match(await refused.text(), /packageValue is required/);
    const unsigned = structuredClone(labelCall.body as Json);
    delete unsigned.packageDescription.physicalSignatureRequired;
    const unsignedAnswer = await send(unsigned);
    assert.equal(unsignedAnswer.status, 400);
    assert.match(await unsignedAnswer.text(), /physicalSignatureRequired is required/);
  });

  test('the fakes refuse a declared value of the wrong shape, as the carriers would', async () => {
    const ship = lastCall(fakes.fedex.calls, /^\/ship\/v1\/shipments$/);
    const authorization = String(fakes.fedex.calls.findLast((c) => c.path === '/ship/v1/shipments')!.headers.authorization);
    const send = (body: Json) => fetch(`${fakes.fedex.url}/ship/v1/shipments`, { method: 'POST', headers: { 'content-type': 'application/json', authorization }, body: JSON.stringify(body) });
    const mismatch = structuredClone(ship);
    mismatch.requestedShipment.totalDeclaredValue = { amount: 500, currency: 'USD' };
    const refused = await send(mismatch);
    assert.equal(refused.status, 400);
    assert.match(await refused.text(), /TOTALDECLAREDVALUE\.MISMATCH/);
    const shape = structuredClone(ship);
    shape.requestedShipment.requestedPackageLineItems[0].declaredValue = { amount: '450', currency: 'US Dollars' };
    assert.equal((await send(shape)).status, 400);
  });
});
