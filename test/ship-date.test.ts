import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { problem, startServer, type TestServer } from './harness.ts';
import { austin, orderBody } from './fixtures.ts';
import { openPdf } from './barcodes.ts';
import { startCarrierFakes, type CarrierFakes } from './fakes/carriers.ts';
import { payingLiveKey, startBilling } from './live-billing.ts';
import { setPaymentMethod } from '../src/domain/billing/payment-methods.ts';
import { addDays, localToday } from '../src/domain/shipments/ship-date.ts';
import { estimatedDeliveryDate } from '../src/carriers/sim/transit.ts';
import type { CarrierId } from '../src/config.ts';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- tests read whatever JSON came back

const weekday = (day: string) => new Date(`${day}T00:00:00Z`).getUTCDay();
/** The instant the carriers are given for a day other than today's UTC date (ShipDay.at). */
const noon = (day: string) => new Date(`${day}T12:00:00Z`);

describe('ship_date in test mode', () => {
  let server: TestServer;
  let key: string;

  before(async () => {
    server = await startServer({ env: { SHIPD_FEATURES: 'manifests' } });
    const account = await server.account();
    await setPaymentMethod(server.services.database.db, server.clock, account, 'test', 'pm_test_visa');
    key = (await server.key(account)).secret;
  });
  after(() => server.close());

  // orderBody ships from Austin, TX: its day is Central time's.
  const today = () => localToday({ state: 'TX' }, server.clock.now());

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

  const estimateOf = (shopped: Json, r: Json) => shopped.rates.find((x: Json) => x.carrier === r.carrier && x.service === r.service)?.estimated_delivery_date;

  test('without ship_date the rates and the label are for today where the parcel ships from', async () => {
    const o = await order();
    const shopped = await shop({ order_id: o.id });
    assert.equal(shopped.ship_date, today());
    const bought = await server.request('POST', '/shipments', { key, body: { order_id: o.id, rate_id: shopped.rates[0].id } });
    assert.equal(bought.status, 201, bought.text);
    assert.equal(bought.body.ship_date, today());
  });

  test('a ship date 3 days ahead moves every delivery estimate to count from that day', async () => {
    const o = await order();
    const now = await shop({ order_id: o.id });
    const day = addDays(today(), 3);
    const later = await shop({ order_id: o.id, ship_date: day });
    assert.equal(later.ship_date, day);
    assert.deepEqual(later.errors, []);
    for (const r of later.rates as Json[]) {
      assert.equal(r.estimated_delivery_date, estimatedDeliveryDate(r.carrier as CarrierId, r.service, noon(day), r.delivery_days), `${r.carrier} ${r.service}`);
      assert.ok(r.estimated_delivery_date > estimateOf(now, r), `${r.carrier} ${r.service}: ${r.estimated_delivery_date} after ${estimateOf(now, r)}`);
    }
  });

  test('a weekend ship date is accepted by every carrier and picked up the Monday after', async () => {
    const o = await order();
    let saturday = addDays(today(), 1);
    while (weekday(saturday) !== 6) saturday = addDays(saturday, 1);
    const monday = addDays(saturday, 2);
    for (const day of [saturday, addDays(saturday, 1)].filter((d) => d <= addDays(today(), 7))) {
      const shopped = await shop({ order_id: o.id, ship_date: day });
      assert.deepEqual(shopped.errors, []);
      assert.deepEqual([...new Set(shopped.rates.map((r: Json) => r.carrier))].sort(), ['fedex', 'ups', 'usps']);
      for (const r of shopped.rates as Json[]) {
        assert.equal(r.estimated_delivery_date, estimatedDeliveryDate(r.carrier as CarrierId, r.service, noon(monday), r.delivery_days), `${day} ${r.carrier} ${r.service}`);
      }
    }
  });

  test('a past date or one over 7 days ahead is a 400 naming the range, on rates and purchases alike', async () => {
    const o = await order();
    for (const [day, why] of [
      [addDays(today(), -1), /is past/],
      [addDays(today(), 8), /more than 7 days ahead/],
    ] as const) {
      const rated = problem(await server.request('POST', '/rates', { key, body: { order_id: o.id, ship_date: day } }), 400, 'ship_date_out_of_range');
      assert.deepEqual(rated.errors.map((e: Json) => e.pointer), ['/ship_date']);
      assert.match(rated.errors[0].detail, why);
      assert.ok(rated.errors[0].detail.includes(`${today()}`) && rated.errors[0].detail.includes(addDays(today(), 7)), rated.errors[0].detail);
      const bought = problem(await server.request('POST', '/shipments', { key, body: { order_id: o.id, ship_date: day } }), 400, 'ship_date_out_of_range');
      assert.deepEqual(bought.errors.map((e: Json) => e.pointer), ['/ship_date']);
    }
    const malformed = problem(await server.request('POST', '/rates', { key, body: { order_id: o.id, ship_date: '2026-13-01' } }), 400, 'validation_failed');
    assert.deepEqual(malformed.errors.map((e: Json) => e.pointer), ['/ship_date']);
    const last = await shop({ order_id: o.id, ship_date: addDays(today(), 7) });
    assert.equal(last.ship_date, addDays(today(), 7));
    const got = await server.request('GET', `/orders/${o.id}`, { key });
    assert.equal(got.body.status, 'incomplete', 'nothing was bought');
  });

  test("a rate is bought for its own day: the shipment and its label carry it, and another day is refused", async () => {
    const o = await order();
    const day = addDays(today(), 2);
    const shopped = await shop({ order_id: o.id, ship_date: day });
    const rate = shopped.rates.find((r: Json) => r.carrier === 'ups');
    const other = problem(await server.request('POST', '/shipments', { key, body: { order_id: o.id, rate_id: rate.id, ship_date: today() } }), 409, 'rate_not_for_order');
    assert.deepEqual(other.errors.map((e: Json) => e.pointer), ['/ship_date']);
    const bought = await server.request('POST', '/shipments', { key, body: { order_id: o.id, rate_id: rate.id } });
    assert.equal(bought.status, 201, bought.text);
    assert.equal(bought.body.ship_date, day);
    assert.equal((await server.request('GET', `/shipments/${bought.body.id}`, { key })).body.ship_date, day);
    const u = new URL(bought.body.label_url);
    const pdf = await openPdf(Buffer.from(await (await fetch(`${server.url}${u.pathname}${u.search}`)).arrayBuffer()));
    assert.match(pdf.text, new RegExp(`DATE: ${day}`), "UPS's label prints its date as DATE:");
  });

  test('a purchase without a rate takes ship_date and is priced from it', async () => {
    const o = await order();
    const day = addDays(today(), 1);
    const bought = await server.request('POST', '/shipments', { key, body: { order_id: o.id, ship_date: day } });
    assert.equal(bought.status, 201, bought.text);
    assert.equal(bought.body.ship_date, day);
  });

  test("a future-dated label goes on its ship date's manifest, not today's", async () => {
    const o = await order();
    const day = addDays(today(), 4);
    const shopped = await shop({ order_id: o.id, ship_date: day, carriers: ['usps'] });
    const bought = await server.request('POST', '/shipments', { key, body: { order_id: o.id, rate_id: shopped.rates[0].id } });
    assert.equal(bought.status, 201, bought.text);
    const todays = await server.request('POST', '/manifests', { key, body: { carrier: 'usps', ship_date: today() } });
    if (todays.status === 201) assert.ok(!todays.body.shipment_ids.includes(bought.body.id));
    else problem(todays, 422, 'nothing_to_manifest');
    const thatDay = await server.request('POST', '/manifests', { key, body: { carrier: 'usps', ship_date: day } });
    assert.equal(thatDay.status, 201, thatDay.text);
    assert.deepEqual(thatDay.body.shipment_ids, [bought.body.id]);
  });
});

describe('ship_date with live keys: each carrier gets the day in its own field', () => {
  let fakes: CarrierFakes;
  let server: TestServer;
  let key: string;
  const billing = { started: undefined as Awaited<ReturnType<typeof startBilling>> | undefined };

  before(async () => {
    fakes = await startCarrierFakes();
    billing.started = await startBilling();
    server = await startServer({ env: { ...fakes.env(['ups', 'usps', 'fedex']), ...billing.started.env } });
    key = await payingLiveKey(server);
  });
  after(async () => {
    await server.close();
    await billing.started?.stripe.close();
    await fakes.close();
  });

  const body = (calls: { path: string; body?: unknown }[], path: RegExp) => calls.findLast((c) => path.test(c.path))!.body as Json;

  test('rates and labels of UPS, USPS and FedEx are dated with ship_date', async () => {
    const day = addDays(localToday({ state: 'TX' }, server.clock.now()), 2);
    for (const carrier of ['ups', 'usps', 'fedex'] as const) {
      // FedEx labels need the shipper's phone.
      const o = await server.request('POST', '/orders', { key, body: orderBody({ ship_from: { ...austin, phone: '512-555-0100' } }) });
      assert.equal(o.status, 201, o.text);
      const shopped = await server.request('POST', '/rates', { key, body: { order_id: o.body.id, ship_date: day, carriers: [carrier] } });
      assert.equal(shopped.status, 200, shopped.text);
      assert.deepEqual(shopped.body.errors, []);
      const bought = await server.request('POST', '/shipments', { key, body: { order_id: o.body.id, rate_id: shopped.body.rates[0].id } });
      assert.equal(bought.status, 201, bought.text);
      assert.equal(bought.body.ship_date, day);
    }
    const compact = day.replaceAll('-', '');
    assert.equal(body(fakes.ups.calls, /^\/api\/rating\//).RateRequest.Shipment.DeliveryTimeInformation.Pickup.Date, compact);
    assert.equal(body(fakes.ups.calls, /\/ship$/).ShipmentRequest.Shipment.ShipmentDate, compact);
    assert.equal(body(fakes.usps.calls, /^\/shipments\/v3\/options\/search$/).packageDescription.mailingDate, day);
    assert.equal(body(fakes.usps.calls, /^\/labels\/v3\/label$/).packageDescription.mailingDate, day);
    assert.equal(body(fakes.fedex.calls, /^\/rate\/v1\/rates\/quotes$/).requestedShipment.shipDateStamp, day);
    assert.equal(body(fakes.fedex.calls, /^\/ship\/v1\/shipments$/).requestedShipment.shipDatestamp, day);
  });
});
