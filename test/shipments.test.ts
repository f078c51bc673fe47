import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { problem, startServer, type TestServer } from './harness.ts';
import { orderBody, sanFrancisco } from './fixtures.ts';
import { setPaymentMethod } from '../src/domain/billing/payment-methods.ts';
import { isValidTrackingNumber } from '../src/carriers/tracking-numbers.ts';
import { decodePng, openPdf } from './barcodes.ts';

let server: TestServer;
let account: string;
let key: string;
let otherKey: string;

before(async () => {
  server = await startServer({ idempotencyWaitMs: 20_000 });
  account = await server.account();
  await setPaymentMethod(server.services.database.db, server.clock, account, 'test', 'pm_test_visa');
  key = (await server.key(account)).secret;
  otherKey = (await server.key(await server.account())).secret;
});
after(() => server.close());

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- tests read whatever JSON came back

async function newOrder(overrides: Record<string, unknown> = {}, k = key): Promise<Json> {
  const res = await server.request('POST', '/orders', { key: k, body: orderBody(overrides) });
  assert.equal(res.status, 201, res.text);
  return res.body;
}

async function rateFor(orderId: string, k = key): Promise<Json[]> {
  const res = await server.request('POST', '/rates', { key: k, body: { order_id: orderId } });
  assert.equal(res.status, 200, res.text);
  return res.body.rates;
}

const buy = (body: Json, k = key, idem?: string) =>
  server.request('POST', '/shipments', { key: k, body, ...(idem && { headers: { 'idempotency-key': idem } }) });

async function ledger(shipmentId?: string): Promise<{ kind: string; amount_cents: number; shipment_id: string }[]> {
  let q = server.services.database.db.selectFrom('postage_ledger').select(['kind', 'amount_cents', 'shipment_id']).where('account_id', '=', account);
  if (shipmentId) q = q.where('shipment_id', '=', shipmentId);
  return q.execute();
}

async function events(type: string, resourceId: string, k = key): Promise<Json[]> {
  const res = await server.request('GET', `/events?type=${type}&limit=100`, { key: k });
  return res.body.data.filter((e: Json) => e.data.id === resourceId);
}

const cents = (m: { amount: string }) => Math.round(Number(m.amount) * 100);

/** label_url names SHIPD_PUBLIC_URL's host; the test server listens on a port of its own. */
const here = (labelUrl: string) => {
  const u = new URL(labelUrl);
  return `${server.url}${u.pathname}${u.search}`;
};

describe('buying a label', () => {
  test('order → rate → buy the chosen rate: the label, the order shipped, the postage charged, the events', async () => {
    const order = await newOrder();
    const rates = await rateFor(order.id);
    const chosen = rates.find((r) => r.carrier === 'usps' && r.service === 'PRIORITY_MAIL')!;
    const res = await buy({ order_id: order.id, rate_id: chosen.id });
    assert.equal(res.status, 201, res.text);
    const shp = res.body;
    assert.match(shp.id, /^shp_[0-9a-z]{26}$/);
    assert.equal(shp.object, 'shipment');
    assert.equal(shp.order_id, order.id);
    assert.equal(shp.status, 'purchased');
    assert.equal(shp.carrier, 'usps');
    assert.equal(shp.service, 'PRIORITY_MAIL');
    assert.equal(shp.service_name, 'Priority Mail');
    assert.equal(shp.rate_id, chosen.id);
    assert.deepEqual(shp.postage, chosen.amount);
    assert.equal(shp.payment, 'platform');
    assert.equal(shp.is_return, false);
    assert.equal(shp.label_format, 'pdf');
    assert.equal(shp.mode, 'test');
    assert.ok(isValidTrackingNumber('usps', shp.tracking_number), shp.tracking_number);
    assert.match(shp.tracking_number, /^9\d{21}$/);
    assert.match(shp.label_url, new RegExp(`^${server.config.publicUrl}/api/integrations/v1/labels/${shp.id}\\.pdf\\?token=`));

    const after = await server.request('GET', `/orders/${order.id}`, { key });
    assert.equal(after.body.status, 'shipped');
    assert.equal(after.body.shipment_id, shp.id);
    assert.deepEqual(await ledger(shp.id), [{ kind: 'charge', amount_cents: cents(chosen.amount), shipment_id: shp.id }]);
    assert.equal((await events('shipment.created', shp.id)).length, 1);
    const updates = await events('order.updated', order.id);
    assert.equal(updates.length, 1);
    assert.equal(updates[0]!.data.status, 'shipped');

    // The same shipment by its id and by its order's id.
    for (const id of [shp.id, order.id]) {
      const got = await server.request('GET', `/shipments/${id}`, { key });
      assert.equal(got.status, 200);
      assert.equal(got.body.id, shp.id);
      assert.equal(got.body.tracking_number, shp.tracking_number);
    }
    const list = await server.request('GET', `/shipments?order_id=${order.id}`, { key });
    assert.deepEqual(list.body.data.map((s: Json) => s.id), [shp.id]);
  });

  test('without rate_id: the cheapest rate, or the order\'s requested service', async () => {
    const order = await newOrder();
    const cheapest = (await rateFor(order.id))[0]!;
    const res = await buy({ order_id: order.id, label_format: 'zpl' });
    assert.equal(res.status, 201, res.text);
    assert.equal(`${res.body.carrier}:${res.body.service}`, `${cheapest.carrier}:${cheapest.service}`);
    assert.equal(res.body.rate_id, null);
    assert.equal(res.body.label_format, 'zpl');

    const wanted = await newOrder({ requested_service: { carrier: 'ups', service: '02' } });
    const ups = await buy({ order_id: wanted.id });
    assert.equal(ups.status, 201, ups.text);
    assert.equal(ups.body.carrier, 'ups');
    assert.equal(ups.body.service, '02');
    assert.equal(ups.body.service_name, 'UPS 2nd Day Air');
    assert.ok(isValidTrackingNumber('ups', ups.body.tracking_number), ups.body.tracking_number);

    const fedex = await newOrder({ requested_service: { carrier: 'fedex', service: 'FEDEX_2_DAY' } });
    const fx = await buy({ order_id: fedex.id, label_format: 'png' });
    assert.equal(fx.status, 201, fx.text);
    assert.ok(isValidTrackingNumber('fedex', fx.body.tracking_number), fx.body.tracking_number);
  });

  test('a second purchase for a shipped order is 409 order_already_shipped, and charges nothing', async () => {
    const order = await newOrder();
    const first = await buy({ order_id: order.id });
    assert.equal(first.status, 201);
    const again = await buy({ order_id: order.id });
    problem(again, 409, 'order_already_shipped');
    assert.equal((await ledger()).filter((l) => l.shipment_id === first.body.id).length, 1);
    const list = await server.request('GET', `/shipments?order_id=${order.id}`, { key });
    assert.equal(list.body.data.length, 1);
  });

  test('orders that are cancelled, unknown or another key\'s cannot be bought', async () => {
    const cancelled = await newOrder();
    await server.request('POST', `/orders/${cancelled.id}/cancel`, { key });
    problem(await buy({ order_id: cancelled.id }), 409, 'order_not_purchasable');
    problem(await buy({ order_id: 'ord_00000000000000000000000000' }), 404, 'not_found');
    const theirs = await newOrder({}, otherKey);
    problem(await buy({ order_id: theirs.id }), 404, 'not_found');
    const noParcel = await newOrder({ parcel: undefined });
    problem(await buy({ order_id: noParcel.id }), 400, 'validation_failed');
  });

  test('a rate is bought only by its key, unexpired, and for the order it was quoted for', async () => {
    const order = await newOrder();
    const theirOrder = await newOrder({}, otherKey);
    const theirRate = (await rateFor(theirOrder.id, otherKey))[0]!;
    problem(await buy({ order_id: order.id, rate_id: theirRate.id }), 404, 'not_found');
    problem(await buy({ order_id: order.id, rate_id: 'rate_000000000000000000000000000' }), 404, 'not_found');

    const elsewhere = await server.request('POST', '/rates', {
      key,
      body: { ship_from: orderBody().ship_from, ship_to: { ...sanFrancisco, zip: '94110', street1: '1 Valencia St' }, parcel: orderBody().parcel },
    });
    problem(await buy({ order_id: order.id, rate_id: elsewhere.body.rates[0].id }), 409, 'rate_not_for_order');

    // The same shipment quoted without the order is the same shipment: its rate fits.
    const same = await server.request('POST', '/rates', { key, body: { ship_from: order.ship_from, ship_to: order.ship_to, parcel: order.parcel } });
    const rate = await rateFor(order.id);
    server.clock.advance(24 * 3_600_000 + 1_000);
    try {
      problem(await buy({ order_id: order.id, rate_id: rate[0]!.id }), 409, 'rate_expired');
    } finally {
      server.clock.advance(-(24 * 3_600_000 + 1_000));
    }
    const ok = await buy({ order_id: order.id, rate_id: same.body.rates[0].id });
    assert.equal(ok.status, 201, ok.text);
  });

  test('a carrier that refuses the purchase leaves the order incomplete and charges nothing', async () => {
    const order = await newOrder({ ship_to: { ...sanFrancisco, name: 'Purchase fails ups' }, requested_service: { carrier: 'ups', service: '03' } });
    const res = await buy({ order_id: order.id });
    problem(res, 502, 'carrier_error');
    const after = await server.request('GET', `/orders/${order.id}`, { key });
    assert.equal(after.body.status, 'incomplete');
    problem(await server.request('GET', `/shipments/${order.id}`, { key }), 404, 'not_found');
    const usps = await server.request('PATCH', `/orders/${order.id}`, { key, body: { requested_service: { carrier: 'usps', service: 'PRIORITY_MAIL' } } });
    assert.equal(usps.status, 200);
    assert.equal((await buy({ order_id: order.id })).status, 201);
  });
});

describe('idempotent purchases', () => {
  test('50 concurrent purchases with one Idempotency-Key: one shipment, one charge, 50 identical answers', async () => {
    const order = await newOrder();
    const rate = (await rateFor(order.id))[0]!;
    const answers = await Promise.all(Array.from({ length: 50 }, () => buy({ order_id: order.id, rate_id: rate.id }, key, `buy-${order.id}`)));
    assert.deepEqual([...new Set(answers.map((a) => a.status))], [201], answers.map((a) => a.text).find((t) => !t.includes('"shipment"')));
    assert.equal(new Set(answers.map((a) => a.text)).size, 1, 'every answer is the same bytes');
    assert.equal(answers.filter((a) => a.headers.get('idempotent-replayed') === 'true').length, 49);
    const shipments = await server.request('GET', `/shipments?order_id=${order.id}`, { key });
    assert.equal(shipments.body.data.length, 1);
    assert.equal((await ledger(answers[0]!.body.id)).length, 1);
  });

  test('50 concurrent purchases with 50 keys: one shipment and 49 answers of 409', async () => {
    const order = await newOrder();
    const rate = (await rateFor(order.id))[0]!;
    const answers = await Promise.all(Array.from({ length: 50 }, (_, i) => buy({ order_id: order.id, rate_id: rate.id }, key, `many-${order.id}-${i}`)));
    const statuses = answers.map((a) => a.status).sort();
    if (statuses.includes(500)) console.error(server.logs.filter((l) => l.includes('"level":50')).join("\n"));
    assert.equal(statuses.filter((s) => s === 201).length, 1, JSON.stringify(statuses));
    assert.equal(statuses.filter((s) => s === 409).length, 49, JSON.stringify(statuses));
    for (const a of answers.filter((x) => x.status === 409)) problem(a, 409, 'order_already_shipped');
    const shipments = await server.request('GET', `/shipments?order_id=${order.id}`, { key });
    assert.equal(shipments.body.data.length, 1);
    const charges = (await ledger()).filter((l) => l.shipment_id === shipments.body.data[0].id);
    assert.equal(charges.length, 1);
  });
});

describe('the 402 rule', () => {
  test('no payment method, then a declined one: 402, nothing written, nothing bought; after billing set the same request succeeds', async () => {
    const acct = await server.account();
    const k = (await server.key(acct)).secret;
    const order = await newOrder({}, k);
    const rate = (await rateFor(order.id, k))[0]!;
    const shipmentsBefore = await server.services.database.db.selectFrom('shipments').select(({ fn }) => fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
    const eventsBefore = (await server.request('GET', '/events?limit=100', { key: k })).body.data.length;

    const none = await buy({ order_id: order.id, rate_id: rate.id }, k, 'pay-1');
    problem(none, 402, 'payment_method_required');
    // A header cannot stand in for the account's payment method.
    const sneaky = await server.request('POST', '/shipments', {
      key: k,
      body: { order_id: order.id },
      headers: { 'x-payment-method': 'pm_test_visa', 'x-shipd-billing': 'skip' },
    });
    problem(sneaky, 402, 'payment_method_required');

    const set = await server.cli(['billing', 'set', '--account', acct, '--mode', 'test', '--payment-method', 'pm_test_declined']);
    assert.equal(set.code, 0, set.stderr);
    problem(await buy({ order_id: order.id, rate_id: rate.id }, k, 'pay-1'), 402, 'payment_declined');
    problem(await buy({ order_id: order.id }, k), 402, 'payment_declined');

    const shipmentsAfter = await server.services.database.db.selectFrom('shipments').select(({ fn }) => fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
    assert.equal(Number(shipmentsAfter.n), Number(shipmentsBefore.n), 'no purchase record was written');
    const accountLedger = await server.services.database.db.selectFrom('postage_ledger').selectAll().where('account_id', '=', acct).execute();
    assert.deepEqual(accountLedger, []);
    assert.equal((await server.request('GET', '/events?limit=100', { key: k })).body.data.length, eventsBefore);
    assert.equal((await server.request('GET', `/orders/${order.id}`, { key: k })).body.status, 'incomplete');

    const fixed = await server.cli(['billing', 'set', '--account', acct, '--mode', 'test', '--payment-method', 'pm_test_visa']);
    assert.equal(fixed.code, 0, fixed.stderr);
    const ok = await buy({ order_id: order.id, rate_id: rate.id }, k, 'pay-1');
    assert.equal(ok.status, 201, ok.text);
    assert.equal(ok.headers.get('idempotent-replayed'), null);
  });
});

describe('label files', () => {
  let shp: Json;
  before(async () => {
    const order = await newOrder();
    shp = (await buy({ order_id: order.id, label_format: 'pdf' })).body;
  });

  const fetchLabel = (url: string) => fetch(here(url)).then(async (r) => ({ status: r.status, type: r.headers.get('content-type'), bytes: Buffer.from(await r.arrayBuffer()), text: '' }));

  test('label_url serves the label without an API key, in every format', async () => {
    const pdf = await fetchLabel(shp.label_url);
    assert.equal(pdf.status, 200);
    assert.equal(pdf.type, 'application/pdf');
    assert.equal(pdf.bytes.subarray(0, 5).toString(), '%PDF-');
    const png = await fetchLabel(shp.label_url.replace('.pdf?', '.png?'));
    assert.equal(png.status, 200);
    assert.equal(png.type, 'image/png');
    assert.deepEqual([...png.bytes.subarray(0, 8)], [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
    const zpl = await fetchLabel(shp.label_url.replace('.pdf?', '.zpl?'));
    assert.equal(zpl.status, 200);
    const text = zpl.bytes.toString();
    assert.ok(text.startsWith('^XA') && text.trimEnd().endsWith('^XZ'), text.slice(0, 40));
    assert.ok(text.includes(shp.tracking_number));
    // The same bytes every time.
    assert.deepEqual((await fetchLabel(shp.label_url)).bytes, pdf.bytes);
  });

  test('a label file is only shown, never run: nosniff, a policy without scripts, its id as its name, no markup from the order', async () => {
    const order = await newOrder({ order_number: '<script>alert(1)</script>', ship_to: { ...sanFrancisco, name: 'Eve^XZ^XA~JA' } });
    const hostile = (await buy({ order_id: order.id, label_format: 'zpl' })).body;
    for (const format of ['zpl', 'pdf', 'png']) {
      const res = await fetch(here(hostile.label_url.replace('.zpl?', `.${format}?`)));
      assert.equal(res.status, 200);
      assert.equal(res.headers.get('x-content-type-options'), 'nosniff');
      const policy = res.headers.get('content-security-policy') ?? '';
      assert.match(policy, /default-src 'none'/);
      assert.doesNotMatch(policy, /script-src|unsafe-eval|sandbox/);
      assert.equal(res.headers.get('content-disposition'), `inline; filename="${hostile.id}.${format}"`);
      if (format !== 'zpl') continue;
      const zpl = await res.text();
      assert.ok(!zpl.includes('<'), 'no markup in the ZPL');
      assert.ok(zpl.includes('^FDREF: _3Cscript>alert(1)_3C/script>^FS'), zpl);
      assert.equal(zpl.match(/\^XA/g)?.length, 1);
      assert.equal(zpl.match(/\^XZ/g)?.length, 1);
      assert.ok(!zpl.includes('~'), 'no control command');
    }
  });

  test('for every carrier, every format opens and scans back to a tracking number that passes its check digit', async () => {
    for (const [carrier, service] of [['ups', '03'], ['usps', 'USPS_GROUND_ADVANTAGE'], ['fedex', 'GROUND_HOME_DELIVERY']] as const) {
      const order = await newOrder({ requested_service: { carrier, service } });
      const bought = (await buy({ order_id: order.id, label_format: 'png' })).body;
      assert.equal(bought.carrier, carrier);
      assert.ok(isValidTrackingNumber(carrier, bought.tracking_number), `${carrier} ${bought.tracking_number}`);
      const png = await fetchLabel(bought.label_url);
      assert.equal(png.type, 'image/png');
      const read = await decodePng(png.bytes);
      assert.ok(read.some((r) => r.format === 'Code128' && r.text === bought.tracking_number), `${carrier}: ${JSON.stringify(read)}`);
      const pdf = await openPdf((await fetchLabel(bought.label_url.replace('.png?', '.pdf?'))).bytes);
      assert.equal(pdf.pages, 1);
      assert.deepEqual([pdf.width, pdf.height], [288, 432]);
      assert.ok(pdf.text.includes('SAMPLE — DO NOT SHIP'));
      assert.ok((await decodePng(pdf.raster)).some((r) => r.format === 'Code128' && r.text === bought.tracking_number));
      const zpl = (await fetchLabel(bought.label_url.replace('.png?', '.zpl?'))).bytes.toString();
      assert.ok(zpl.startsWith('^XA') && zpl.trimEnd().endsWith('^XZ'));
    }
  });

  test('a bad, borrowed or expired token is a 403 problem', async () => {
    const url = new URL(shp.label_url);
    const token = url.searchParams.get('token')!;
    const other = await newOrder();
    const otherShp = (await buy({ order_id: other.id })).body;
    for (const bad of [`${token.slice(0, -2)}xx`, new URL(otherShp.label_url).searchParams.get('token')!, 'nonsense']) {
      const res = await server.raw('GET', `${url.pathname}?token=${encodeURIComponent(bad)}`);
      problem(res, 403, 'invalid_label_token');
    }
    problem(await server.raw('GET', url.pathname), 400, 'validation_failed');
    server.clock.advance(8 * 24 * 3_600_000);
    try {
      const expired = problem(await server.raw('GET', `${url.pathname}${url.search}`), 403, 'invalid_label_token');
      assert.match(expired.detail, /expired/);
    } finally {
      server.clock.advance(-8 * 24 * 3_600_000);
    }
    problem(await server.raw('GET', `/api/integrations/v1/labels/${shp.id}.gif?token=${token}`), 404, 'not_found');
  });
});

describe('voiding', () => {
  test('void refunds the postage, reopens the order and emits shipment.voided; a new label can then be bought', async () => {
    const order = await newOrder();
    const shp = (await buy({ order_id: order.id })).body;
    const res = await server.request('POST', `/shipments/${order.id}/void`, { key });
    assert.equal(res.status, 200, res.text);
    assert.equal(res.body.status, 'voided');
    assert.ok(res.body.voided_at);
    const entries = await ledger(shp.id);
    assert.equal(entries.reduce((sum, e) => sum + e.amount_cents, 0), 0);
    assert.deepEqual(entries.map((e) => e.kind).sort(), ['charge', 'refund']);
    const reopened = await server.request('GET', `/orders/${order.id}`, { key });
    assert.equal(reopened.body.status, 'incomplete');
    assert.equal(reopened.body.shipment_id, null);
    assert.equal((await events('shipment.voided', shp.id)).length, 1);
    // The voided label no longer prints.
    problem(await server.raw('GET', new URL(shp.label_url).pathname + new URL(shp.label_url).search), 410, 'label_voided');

    problem(await server.request('POST', `/shipments/${order.id}/void`, { key }), 409, 'shipment_already_voided');
    problem(await server.request('POST', `/shipments/${shp.id}/void`, { key }), 409, 'shipment_already_voided');
    const second = await buy({ order_id: order.id });
    assert.equal(second.status, 201, second.text);
    assert.notEqual(second.body.tracking_number, shp.tracking_number);
  });

  test('a label the carrier has scanned cannot be voided', async () => {
    const order = await newOrder();
    await buy({ order_id: order.id });
    server.clock.advance(4 * 24 * 3_600_000);
    try {
      problem(await server.request('POST', `/shipments/${order.id}/void`, { key }), 409, 'label_in_transit');
    } finally {
      server.clock.advance(-4 * 24 * 3_600_000);
    }
    assert.equal((await server.request('GET', `/shipments/${order.id}`, { key })).body.status, 'purchased');
  });

  test('an order with no label, or another key\'s, cannot be voided', async () => {
    const order = await newOrder();
    problem(await server.request('POST', `/shipments/${order.id}/void`, { key }), 409, 'order_not_shipped');
    await buy({ order_id: order.id });
    problem(await server.request('POST', `/shipments/${order.id}/void`, { key: otherKey }), 404, 'not_found');
  });
});

describe('return labels', () => {
  test('a return label swaps the addresses, keeps the carrier, and is one per order', async () => {
    const order = await newOrder({ requested_service: { carrier: 'fedex', service: 'FEDEX_2_DAY' } });
    problem(await server.request('POST', `/shipments/${order.id}/return`, { key }), 409, 'order_not_shipped');
    const outbound = (await buy({ order_id: order.id })).body;
    const res = await server.request('POST', `/shipments/${order.id}/return`, { key, body: { label_format: 'zpl' } });
    assert.equal(res.status, 201, res.text);
    const ret = res.body;
    assert.equal(ret.is_return, true);
    assert.equal(ret.carrier, 'fedex');
    assert.equal(ret.order_id, order.id);
    assert.notEqual(ret.tracking_number, outbound.tracking_number);
    const zpl = await (await fetch(here(ret.label_url))).text();
    // The return goes to the warehouse in Austin, from the customer in San Francisco.
    assert.ok(zpl.indexOf('AUSTIN') !== -1 || zpl.indexOf('Austin') !== -1, zpl);
    assert.ok(/RETURN/i.test(zpl));
    const row = await server.services.database.db.selectFrom('shipments').select('purchase').where('id', '=', ret.id).executeTakeFirstOrThrow();
    const record = JSON.parse(row.purchase);
    assert.equal(record.from.zip, '94105');
    assert.equal(record.to.zip, '78701');

    problem(await server.request('POST', `/shipments/${order.id}/return`, { key }), 409, 'order_already_shipped');
    // The outbound label is still the order's shipment.
    assert.equal((await server.request('GET', `/shipments/${order.id}`, { key })).body.id, outbound.id);
    // A return is voided by its own id, and leaves the order shipped.
    const voided = await server.request('POST', `/shipments/${ret.id}/void`, { key });
    assert.equal(voided.status, 200, voided.text);
    assert.equal((await server.request('GET', `/orders/${order.id}`, { key })).body.status, 'shipped');
  });
});

describe('the ledger balances', () => {
  test('charges less refunds equal the postage of every label still purchased', async () => {
    const rows = await server.services.database.db.selectFrom('shipments').select(['id', 'status', 'postage_cents']).where('account_id', '=', account).execute();
    const owed = rows.filter((r) => r.status === 'purchased').reduce((sum, r) => sum + (r.postage_cents ?? 0), 0);
    const entries = await ledger();
    assert.equal(entries.reduce((sum, e) => sum + e.amount_cents, 0), owed);
    assert.equal(rows.filter((r) => r.status === 'pending').length, 0);
  });
});
