import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { problem, startServer, type TestServer } from './harness.ts';
import { austin, orderBody } from './fixtures.ts';
import { startCarrierFakes, type CarrierFakes } from './fakes/carriers.ts';
import { payingLiveKey, startBilling } from './live-billing.ts';
import { pollTracking } from '../src/domain/tracking/tracking.ts';
import { settleCardCharges } from '../src/domain/billing/card-charges.ts';
import { pendingStaleMs } from '../src/domain/shipments/purchase.ts';
import { serviceContext } from '../src/services.ts';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- tests read whatever JSON came back

let fakes: CarrierFakes;
let server: TestServer;
let key: string;
const billing = await startBilling();

before(async () => {
  fakes = await startCarrierFakes();
  server = await startServer({ env: { ...fakes.env(['ups', 'usps', 'fedex']), ...billing.env } });
  billing.follow(server);
  key = await payingLiveKey(server);
});
after(async () => {
  await server.close();
  await fakes.close();
  await billing.stripe.close();
});

const hour = 3_600_000;
const poll = () => pollTracking(serviceContext(server.services, 'live-returns'), { warn: () => undefined });
const ledger = (shipmentId: string) => server.services.database.db.selectFrom('postage_ledger').select(['kind', 'amount_cents']).where('shipment_id', '=', shipmentId).execute();
const stripeCharges = (shipmentId: string) => billing.stripe.charges().filter((c) => c.metadata.shipd_shipment === shipmentId);
const cents = (money: Json) => Math.round(Number(money.amount) * 100);

/** The carrier's first scan of a label, told the way each fake tells it. */
const firstScan: Record<'ups' | 'usps' | 'fedex', (trackingNumber: string) => void> = {
  ups: (tn) => fakes.ups.setStage(tn, 'in_transit'),
  usps: (tn) => fakes.usps.scan(tn, 'accepted'),
  fedex: (tn) => fakes.fedex.tendered.add(tn),
};

/** A live order shipped with the carrier, and its return label paid on use. */
async function unusedReturn(carrier: 'ups' | 'usps' | 'fedex'): Promise<Json> {
  // FedEx labels need the shipper's phone.
  const order = await server.request('POST', '/orders', { key, body: orderBody({ ship_from: { ...austin, phone: '512-555-0100' } }) });
  assert.equal(order.status, 201, order.text);
  const shop = await server.request('POST', '/rates', { key, body: { order_id: order.body.id } });
  const rate = shop.body.rates.find((r: Json) => r.carrier === carrier);
  const outbound = await server.request('POST', '/shipments', { key, body: { order_id: order.body.id, rate_id: rate.id } });
  assert.equal(outbound.status, 201, outbound.text);
  const made = await server.request('POST', `/shipments/${order.body.id}/return`, { key, body: { charge: 'on_use' } });
  assert.equal(made.status, 201, made.text);
  return made.body;
}

for (const carrier of ['ups', 'usps', 'fedex'] as const) {
  test(`a ${carrier} return paid on use is charged to the card only once the carrier scans it`, async () => {
    const ret = await unusedReturn(carrier);
    assert.equal(ret.carrier, carrier);
    assert.equal(ret.charge, 'on_use');
    assert.equal(ret.return_status, 'unused');
    assert.deepEqual(await ledger(ret.id), []);
    assert.deepEqual(stripeCharges(ret.id), [], 'no hold on the card for an unused return');

    server.clock.advance(2 * hour);
    await poll();
    assert.deepEqual(await ledger(ret.id), []);
    assert.deepEqual(stripeCharges(ret.id), []);

    firstScan[carrier](ret.tracking_number);
    server.clock.advance(2 * hour);
    await Promise.all([poll(), poll()]);
    const charged = cents(ret.postage);
    assert.deepEqual(await ledger(ret.id), [{ kind: 'charge', amount_cents: charged }]);
    const card = stripeCharges(ret.id);
    assert.equal(card.length, 1);
    assert.equal(card[0]!.captured, charged);
    const row = await server.services.database.db.selectFrom('card_charges').selectAll().where('shipment_id', '=', ret.id).executeTakeFirstOrThrow();
    assert.equal(row.status, 'captured');
    assert.equal((await server.request('GET', `/shipments/${ret.id}`, { key })).body.return_status, 'in_transit');
    problem(await server.request('POST', `/shipments/${ret.id}/void`, { key }), 409, 'label_in_transit');
  });
}

for (const [when, carrier, what] of [
  ['after', 'usps', 'a card charge whose answer Stripe lost at the first scan is finished by the settle job: the hold Stripe made is captured, once'],
  ['before', 'ups', 'a card charge Stripe never made at the first scan is made by the settle job'],
] as const) {
  test(what, async () => {
    const ret = await unusedReturn(carrier);
    firstScan[carrier](ret.tracking_number);
    server.clock.advance(2 * hour);
    // Stripe never answers the hold, neither the request nor the library's two retries.
    billing.stripe.failNext({ method: 'POST', path: '/v1/payment_intents', when, times: 3 });
    await poll();
    assert.deepEqual(await ledger(ret.id), [{ kind: 'charge', amount_cents: cents(ret.postage) }]);
    const db = server.services.database.db;
    const chargeStatus = async () => (await db.selectFrom('card_charges').select('status').where('shipment_id', '=', ret.id).executeTakeFirstOrThrow()).status;
    assert.equal(await chargeStatus(), 'authorizing');

    server.clock.advance(pendingStaleMs(server) + 1_000);
    await settleCardCharges({ db, clock: server.clock, config: server.config }, pendingStaleMs(server), { info: () => undefined, error: () => undefined });
    const card = stripeCharges(ret.id);
    assert.equal(card.length, 1);
    assert.equal(card[0]!.captured, cents(ret.postage));
    assert.equal(await chargeStatus(), 'captured');
  });
}
