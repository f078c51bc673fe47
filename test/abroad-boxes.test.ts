import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, type TestServer } from './harness.ts';
import { austin, orderBody } from './fixtures.ts';
import { decodePng, openPdf } from './barcodes.ts';
import { setPaymentMethod } from '../src/domain/billing/payment-methods.ts';
import { isValidTrackingNumber } from '../src/carriers/tracking-numbers.ts';

// Several boxes, delivery options and insurance on shipments to another country, in test mode over HTTP: FedEx's
// multiple-piece shipment under one declaration, USPS's label per box with each box's own lines, insurance priced from
// the published figures and refunded with the void, and an option one carrier takes abroad and another refuses.

let server: TestServer;
let key: string;

before(async () => {
  // Labels are read back (barcodes decoded) before they are voided: on a busy machine that outlasts the harness's one minute to the first scan.
  server = await startServer({ env: { SHIPD_SIM_FIRST_SCAN_MINUTES: '30' } });
  const account = await server.account();
  await setPaymentMethod(server.services.database.db, server.clock, account, 'test', 'pm_test_visa');
  key = (await server.key(account)).secret;
});
after(() => server.close());

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- tests read whatever JSON came back

const call = (method: string, path: string, body?: unknown) => server.request(method, path, { key, ...(body !== undefined && { body }) });
const here = (link: string) => {
  const u = new URL(link);
  return `${server.url}${u.pathname}${u.search}`;
};

const london = { name: 'Charles Babbage', street1: '10 Downing Street', city: 'London', zip: 'SW1A 2AA', country: 'GB', phone: '+44 20 7946 0000' };
const toronto = { name: 'Jean Tremblay', street1: '100 Queen St W', city: 'Toronto', state: 'ON', zip: 'M5H 2N2', country: 'CA', phone: '+1 416 555 0142' };
const boxes = [
  { weight: { value: 3, unit: 'lb' }, dimensions: { length: 10, width: 8, height: 4, unit: 'in' } },
  { weight: { value: 2, unit: 'lb' }, dimensions: { length: 8, width: 6, height: 4, unit: 'in' } },
];
const mug = { description: 'Stoneware mug', quantity: 2, unit_value: { amount: '12.50', currency: 'USD' }, weight: { value: 14, unit: 'oz' }, hs_tariff_number: '6912.00', origin_country: 'US' };
const towel = { description: 'Linen tea towel', quantity: 1, unit_value: { amount: '9.00', currency: 'USD' }, weight: { value: 3, unit: 'oz' }, hs_tariff_number: '6302.60', origin_country: 'PT' };
const declaration = (items: unknown[]) => ({ contents_type: 'merchandise', non_delivery: 'return', signer: 'Grace Hopper', certify: true, items });

async function labelCodes(url: string): Promise<string[]> {
  const res = await fetch(here(url));
  assert.equal(res.status, 200);
  const pdf = await openPdf(Buffer.from(await res.arrayBuffer()));
  return (await decodePng(pdf.raster)).map((c) => c.text);
}

const ledger = (shipmentId: string) =>
  server.services.database.db.selectFrom('postage_ledger').select(['kind', 'amount_cents']).where('shipment_id', '=', shipmentId).orderBy('created_at').execute();

const reads = (codes: string[], tracking: string) => codes.some((c) => c === tracking || c.endsWith(tracking.slice(2)));

describe('several boxes abroad in test mode', () => {
  test('FedEx: two boxes to Toronto are one multiple-piece shipment under one declaration, each box its own label, one void voids both', async () => {
    const created = await call('POST', '/orders', orderBody({ order_number: 'ABROAD-FX', ship_to: toronto, ship_from: { ...austin, phone: '512 555 0100' }, parcel: undefined, parcels: boxes, customs: declaration([mug, towel]) }));
    assert.equal(created.status, 201, created.text);
    const shop = await call('POST', '/rates', { order_id: created.body.id, carriers: ['fedex', 'usps'] });
    assert.equal(shop.status, 200, shop.text);
    const fedex = shop.body.rates.find((r: Json) => r.service === 'FEDEX_INTERNATIONAL_PRIORITY');
    assert.ok(fedex, JSON.stringify(shop.body));
    // USPS draws a customs form per box and cannot tell which line is in which box.
    const usps = shop.body.errors.find((e: Json) => e.carrier === 'usps');
    assert.ok(usps, JSON.stringify(shop.body.errors));
    assert.match(usps.detail, /parcel_index/);

    const one = await call('POST', '/rates', { ship_from: austin, ship_to: toronto, parcel: boxes[0], customs: declaration([mug]), carriers: ['fedex'], services: ['FEDEX_INTERNATIONAL_PRIORITY'] });
    const two = await call('POST', '/rates', { ship_from: austin, ship_to: toronto, parcel: boxes[1], customs: declaration([towel]), carriers: ['fedex'], services: ['FEDEX_INTERNATIONAL_PRIORITY'] });
    const sum = Number(one.body.rates[0].amount.amount) + Number(two.body.rates[0].amount.amount);
    assert.equal(Number(fedex.amount.amount).toFixed(2), sum.toFixed(2), 'the boxes priced one by one, the quote their sum');

    const bought = await call('POST', '/shipments', { order_id: created.body.id, rate_id: fedex.id });
    assert.equal(bought.status, 201, bought.text);
    const s = bought.body;
    assert.equal(s.packages.length, 2);
    assert.ok(s.master_tracking_number, 'FedEx files the boxes under a master number');
    assert.deepEqual(s.documents.map((d: Json) => d.type), ['commercial_invoice']);
    for (const p of s.packages) {
      assert.ok(isValidTrackingNumber('fedex', p.tracking_number), p.tracking_number);
      assert.ok(reads(await labelCodes(p.label_url), p.tracking_number), `box ${p.tracking_number}'s label barcode`);
    }
    const voided = await call('POST', `/shipments/${s.id}/void`);
    assert.equal(voided.status, 200, voided.text);
    assert.equal(voided.body.status, 'voided');
  });

  test('USPS: two boxes to London, each line naming its box, are a label per box bought together', async () => {
    const items = [{ ...mug, parcel_index: 0 }, { ...towel, parcel_index: 1 }];
    const created = await call('POST', '/orders', orderBody({ order_number: 'ABROAD-US', ship_to: london, parcel: undefined, parcels: boxes, customs: declaration(items) }));
    assert.equal(created.status, 201, created.text);
    assert.deepEqual(created.body.customs.items.map((i: Json) => i.parcel_index), [0, 1]);
    const shop = await call('POST', '/rates', { order_id: created.body.id, carriers: ['usps'] });
    assert.equal(shop.status, 200, shop.text);
    const pmi = shop.body.rates.find((r: Json) => r.service === 'PRIORITY_MAIL_INTERNATIONAL');
    assert.ok(pmi, JSON.stringify(shop.body));
    const bought = await call('POST', '/shipments', { order_id: created.body.id, rate_id: pmi.id });
    assert.equal(bought.status, 201, bought.text);
    const s = bought.body;
    assert.equal(s.packages.length, 2);
    assert.equal(s.master_tracking_number, null, 'USPS has no master number');
    for (const p of s.packages) {
      assert.match(p.tracking_number, /^(EC|CP|LX)[0-9]{9}US$/);
      assert.ok(reads(await labelCodes(p.label_url), p.tracking_number));
    }
    // As USPS prints a form on each box's label, each box has its own, listing only the lines naming it.
    assert.deepEqual(
      s.documents.map((d: Json) => [d.type, d.package, new URL(d.url).pathname.split('/').pop()]),
      [
        ['cn23', 0, `${s.id}.box1.cn23.pdf`],
        ['cn23', 1, `${s.id}.box2.cn23.pdf`],
      ],
    );
    const lines = [mug.description, towel.description];
    for (const [i, d] of s.documents.entries()) {
      const res = await fetch(here(d.url));
      assert.equal(res.status, 200);
      const text = (await openPdf(Buffer.from(await res.arrayBuffer()))).pageTexts.join(' ');
      assert.ok(text.includes(lines[i]!), `box ${i + 1}'s form lists its line: ${text}`);
      assert.ok(!text.includes(lines[1 - i]!), `box ${i + 1}'s form lists no other box's line`);
      assert.ok(text.includes(s.packages[i].tracking_number), `box ${i + 1}'s form carries its own number`);
      assert.ok(!text.includes(s.packages[1 - i].tracking_number));
    }
    // The shipment-wide name is no document of this shipment.
    const whole = new URL(s.documents[0].url);
    whole.pathname = whole.pathname.replace('.box1.cn23.pdf', '.cn23.pdf');
    assert.equal((await fetch(here(whole.toString()))).status, 404);

    // A box voided on its own takes its form with it, as its label.
    const voided = await call('POST', `/shipments/${s.id}/void`, { package: 1 });
    assert.equal(voided.status, 200, voided.text);
    assert.equal((await fetch(here(s.documents[1].url))).status, 410);
    assert.equal((await fetch(here(s.documents[0].url))).status, 200);
  });

  test('a line naming a box the shipment does not have, or lines naming boxes for some only, are customs_invalid at the field', async () => {
    const beyond = await call('POST', '/rates', { ship_from: austin, ship_to: london, parcels: boxes, customs: declaration([{ ...mug, parcel_index: 2 }, { ...towel, parcel_index: 0 }]) });
    assert.equal(beyond.status, 400, beyond.text);
    assert.equal(beyond.body.code, 'customs_invalid');
    assert.ok(beyond.body.errors.some((e: Json) => e.pointer === '/customs/items/0/parcel_index'), beyond.text);
    const some = await call('POST', '/orders', orderBody({ ship_to: london, parcel: undefined, parcels: boxes, customs: declaration([{ ...mug, parcel_index: 1 }, towel]) }));
    assert.equal(some.status, 400, some.text);
    assert.equal(some.body.code, 'customs_invalid');
    assert.ok(some.body.errors.some((e: Json) => e.pointer === '/customs/items/1/parcel_index'), some.text);
    const heavy = await call('POST', '/rates', { ship_from: austin, ship_to: london, parcels: boxes, customs: declaration([{ ...mug, quantity: 3, parcel_index: 1 }, { ...towel, parcel_index: 0 }]) });
    assert.equal(heavy.status, 400, heavy.text);
    assert.match(heavy.text, /box 1/);
  });
});

describe('insurance and options abroad in test mode', () => {
  test('insurance abroad is priced from the published figures, charged, and refunded with the void', async () => {
    const created = await call('POST', '/orders', orderBody({ order_number: 'ABROAD-INS', ship_to: london, parcel: boxes[0], customs: declaration([mug]) }));
    assert.equal(created.status, 201, created.text);
    const shop = await call('POST', '/rates', { order_id: created.body.id, insurance: { amount: { amount: '350.00', currency: 'USD' } } });
    assert.equal(shop.status, 200, shop.text);
    const pmi = shop.body.rates.find((r: Json) => r.service === 'PRIORITY_MAIL_INTERNATIONAL');
    // Notice 123, International Insurance: $300.01 to $400, $17.55.
    assert.deepEqual(pmi.surcharges.find((x: Json) => x.type === 'insurance'), { type: 'insurance', amount: { amount: '17.55', currency: 'USD' } });
    const plain = await call('POST', '/rates', { order_id: created.body.id });
    const bare = plain.body.rates.find((r: Json) => r.service === 'PRIORITY_MAIL_INTERNATIONAL');
    assert.equal((Number(pmi.amount.amount) - Number(bare.amount.amount)).toFixed(2), '17.55');
    assert.ok(!shop.body.rates.some((r: Json) => r.service === 'FIRST-CLASS_PACKAGE_INTERNATIONAL_SERVICE'), 'FCPIS takes no insurance');
    const fedex = shop.body.rates.find((r: Json) => r.service === 'FEDEX_INTERNATIONAL_PRIORITY');
    // FedEx, International Package Services: $1.65 per $100 above the greater of $100 or $9.07 a pound (3 lb: $100).
    assert.deepEqual(fedex.surcharges.find((x: Json) => x.type === 'insurance'), { type: 'insurance', amount: { amount: '4.95', currency: 'USD' } });

    const bought = await call('POST', '/shipments', { order_id: created.body.id, rate_id: pmi.id });
    assert.equal(bought.status, 201, bought.text);
    assert.deepEqual(bought.body.insurance, { amount: { amount: '350.00', currency: 'USD' } });
    assert.deepEqual(bought.body.postage, pmi.amount);
    const charged = await ledger(bought.body.id);
    assert.equal(charged.reduce((sum, e) => sum + e.amount_cents, 0), Math.round(Number(pmi.amount.amount) * 100));
    const voided = await call('POST', `/shipments/${bought.body.id}/void`);
    assert.equal(voided.status, 200, voided.text);
    const entries = await ledger(bought.body.id);
    assert.equal(entries.length, 2);
    assert.equal(entries.reduce((sum, e) => sum + e.amount_cents, 0), 0, `the void gives back the postage with its insurance: ${JSON.stringify(entries)}`);

    const tooMuch = await call('POST', '/rates', { order_id: created.body.id, carriers: ['usps'], insurance: { amount: { amount: '950.00', currency: 'USD' } } });
    assert.equal(tooMuch.status, 200, tooMuch.text);
    assert.match(tooMuch.body.errors.find((e: Json) => e.carrier === 'usps').detail, /\$900/);
  });

  test('a signature abroad is quoted by FedEx with its published charge and refused by USPS with the option named', async () => {
    const shop = await call('POST', '/rates', { ship_from: austin, ship_to: london, parcel: boxes[0], customs: declaration([mug]), options: { signature: 'adult' } });
    assert.equal(shop.status, 200, shop.text);
    const fedex = shop.body.rates.find((r: Json) => r.service === 'FEDEX_INTERNATIONAL_PRIORITY');
    assert.deepEqual(fedex.surcharges.find((x: Json) => x.type === 'signature'), { type: 'signature', amount: { amount: '10.00', currency: 'USD' } });
    assert.ok(shop.body.rates.every((r: Json) => r.carrier === 'fedex'));
    const usps = shop.body.errors.find((e: Json) => e.carrier === 'usps');
    assert.equal(usps.code, 'option_not_supported');
    assert.match(usps.detail, /adult's signature on delivery to another country/);
    const saturday = await call('POST', '/rates', { ship_from: austin, ship_to: london, parcel: boxes[0], customs: declaration([mug]), options: { saturday_delivery: true }, carriers: ['fedex'] });
    assert.equal(saturday.status, 200, saturday.text);
    assert.deepEqual(saturday.body.rates.map((r: Json) => r.service), ['FEDEX_INTERNATIONAL_PRIORITY']);
    const pinned = await call('POST', '/rates', { ship_from: austin, ship_to: london, parcel: boxes[0], customs: declaration([mug]), options: { saturday_delivery: true }, carriers: ['fedex'], services: ['INTERNATIONAL_ECONOMY'] });
    assert.equal(pinned.status, 400, pinned.text);
    assert.ok(pinned.body.errors.some((e: Json) => e.pointer === '/options/saturday_delivery'), pinned.text);
  });
});
