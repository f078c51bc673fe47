import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, type TestServer } from '../harness.ts';
import { orderBody, torontoOrderBody } from '../fixtures.ts';
import { setPaymentMethod } from '../../src/domain/billing/payment-methods.ts';
import { accountWithUser, DashboardClient, password } from './client.ts';

// The shipment page of a label abroad lists its customs documents, each a link that downloads without the session,
// as the shipment's signed links in the API do.

let server: TestServer;
let client: DashboardClient;
let key: string;

before(async () => {
  server = await startServer();
  const { account, email } = await accountWithUser(server);
  await setPaymentMethod(server.services.database.db, server.clock, account, 'test', 'pm_test_visa');
  key = (await server.key(account)).secret;
  client = new DashboardClient(server);
  assert.equal((await client.signIn(email, password)).status, 303);
});
after(() => server.close());

/** Buys a label for an order made from this body with the carrier's cheapest rate; answers the shipment. */
async function bought(body: Record<string, unknown>, carrier: string) {
  const order = await server.request('POST', '/orders', { key, body });
  assert.equal(order.status, 201, order.text);
  const shop = await server.request('POST', '/rates', { key, body: { order_id: order.body.id } });
  const rate = shop.body.rates.find((r: { carrier: string }) => r.carrier === carrier);
  assert.ok(rate, shop.text);
  const shipment = await server.request('POST', '/shipments', { key, body: { order_id: order.body.id, rate_id: rate.id } });
  assert.equal(shipment.status, 201, shipment.text);
  return shipment.body;
}

/** The href of each link in the page's customs documents list, unescaped as a browser reads it. */
function documentLinks(html: string): { href: string; text: string }[] {
  const list = /<ul class="documents">([\s\S]*?)<\/ul>/.exec(html);
  if (!list) return [];
  return [...list[1]!.matchAll(/<a href="([^"]*)">([^<]*)<\/a>/g)].map((m) => ({ href: m[1]!.replaceAll('&amp;', '&'), text: m[2]! }));
}

for (const [carrier, type, name] of [
  ['usps', 'cn22', 'CN 22'],
  ['fedex', 'commercial_invoice', 'Commercial invoice'],
] as const) {
  test(`a ${carrier} label to Toronto: its ${name} is listed with a link that downloads the PDF; voided, it is gone`, async () => {
    const shipment = await bought(torontoOrderBody(), carrier);
    assert.deepEqual(shipment.documents.map((d: { type: string }) => d.type), [type]);
    const page = await client.get(`/dashboard/test/shipments/${shipment.id}`);
    assert.equal(page.status, 200, page.text);
    assert.match(page.text, /<h2>Customs documents<\/h2>/);
    assert.ok(page.text.includes(`<dt>Ship date</dt><dd>${shipment.ship_date}</dd>`), 'the day the label is for');
    const links = documentLinks(page.text);
    assert.deepEqual(links.map((l) => l.text), [name]);
    // Links are signed when drawn, so only their token can differ across a second boundary.
    const unsigned = (url: string) => url.split('?')[0];
    assert.equal(unsigned(links[0]!.href), unsigned(shipment.documents[0].url), 'the signed link the API answers');
    assert.match(links[0]!.href, /\?token=/);
    // As a printer or another browser would fetch it: no session, no API key.
    const link = new URL(links[0]!.href);
    const file = await fetch(`${server.url}${link.pathname}${link.search}`);
    assert.equal(file.status, 200);
    assert.equal(file.headers.get('content-type'), 'application/pdf');
    assert.equal(Buffer.from(await file.arrayBuffer()).subarray(0, 5).toString(), '%PDF-');

    const voided = await server.request('POST', `/shipments/${shipment.id}/void`, { key });
    assert.equal(voided.status, 200, voided.text);
    const after = await client.get(`/dashboard/test/shipments/${shipment.id}`);
    assert.deepEqual(documentLinks(after.text), []);
    assert.match(after.text, /its customs documents with it/);
  });
}

test('a domestic label has no customs documents section', async () => {
  const shipment = await bought(orderBody(), 'usps');
  const page = await client.get(`/dashboard/test/shipments/${shipment.id}`);
  assert.equal(page.status, 200);
  assert.doesNotMatch(page.text, /Customs documents/);
});

test('the shipment page lists the surcharges its postage includes', async () => {
  const heavy = { weight: { value: 55, unit: 'lb' }, dimensions: { length: 20, width: 14, height: 10, unit: 'in' } };
  const shipment = await bought(orderBody({ parcel: heavy }), 'ups');
  assert.ok(shipment.surcharges.length > 0, JSON.stringify(shipment));
  const page = await client.get(`/dashboard/test/shipments/${shipment.id}`);
  const list = /<ul class="surcharges">([\s\S]*?)<\/ul>/.exec(page.text)?.[1] ?? '';
  const shown = [...list.matchAll(/<li>([^<]*)<\/li>/g)].map((m) => m[1]);
  assert.deepEqual(shown, shipment.surcharges.map((s: { type: string; amount: { amount: string } }) => `${s.type.replace(/_/g, ' ')} $${s.amount.amount}`));
});

test('the shipment page shows the delivery options and the insurance the label was bought with', async () => {
  const order = await server.request('POST', '/orders', { key, body: orderBody() });
  const insurance = { amount: { amount: '450.00', currency: 'USD' } };
  const shop = await server.request('POST', '/rates', { key, body: { order_id: order.body.id, carriers: ['fedex'], options: { signature: 'adult' }, insurance } });
  assert.equal(shop.status, 200, shop.text);
  const rate = shop.body.rates[0];
  assert.ok(rate, shop.text);
  const insured = await server.request('POST', '/shipments', { key, body: { order_id: order.body.id, rate_id: rate.id } });
  assert.equal(insured.status, 201, insured.text);
  assert.deepEqual(insured.body.options, { signature: 'adult' });
  const page = await client.get(`/dashboard/test/shipments/${insured.body.id}`);
  assert.equal(page.status, 200);
  const list = /<ul class="options">([\s\S]*?)<\/ul>/.exec(page.text)?.[1] ?? '';
  assert.deepEqual([...list.matchAll(/<li>([^<]*)<\/li>/g)].map((m) => m[1]), ['signature: adult']);
  assert.match(page.text, /<dt>Insurance<\/dt><dd class="insurance">\$450\.00 /);

  const plain = await bought(orderBody(), 'usps');
  const bare = await client.get(`/dashboard/test/shipments/${plain.id}`);
  assert.doesNotMatch(bare.text, /Delivery options|<dt>Insurance/);
});

test("a shipment insured box by box shows its total and each box's insurance", async () => {
  const insurance = { amount: { amount: '450.00', currency: 'USD' } };
  const box = (lb: number) => ({ weight: { value: lb, unit: 'lb' }, dimensions: { length: 10, width: 8, height: 6, unit: 'in' } });
  const shipment = await bought(orderBody({ parcel: undefined, parcels: [box(2), { ...box(3), reference: 'lamp <glass>', insurance }] }), 'ups');
  const page = await client.get(`/dashboard/test/shipments/${shipment.id}`);
  assert.equal(page.status, 200);
  assert.match(page.text, /<dt>Insurance<\/dt><dd class="insurance">\$450\.00 /);
  const list = /<ul class="box-insurance">([\s\S]*?)<\/ul>/.exec(page.text)?.[1] ?? '';
  assert.deepEqual([...list.matchAll(/<li>([^<]*)<\/li>/g)].map((m) => m[1]), ['Box 1: not insured', 'Box 2 (lamp &lt;glass&gt;): $450.00']);

  const one = await bought(orderBody({ parcel: { ...box(2), insurance } }), 'ups');
  const single = await client.get(`/dashboard/test/shipments/${one.id}`);
  assert.match(single.text, /<dd class="insurance">\$450\.00 <small>insured with the carrier<\/small><\/dd>/, 'one box needs no list');
});
