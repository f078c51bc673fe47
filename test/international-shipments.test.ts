import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { problem, startServer, type TestServer } from './harness.ts';
import { austin, orderBody, sanFrancisco } from './fixtures.ts';
import { decodePng, openPdf } from './barcodes.ts';
import { setPaymentMethod } from '../src/domain/billing/payment-methods.ts';
import { isValidTrackingNumber } from '../src/carriers/tracking-numbers.ts';

// The test-mode international flow over HTTP: an order abroad (or to a territory or an APO) rated by every carrier,
// bought, its label and customs documents downloaded and read back, voided, bought again, tracked to delivery, with
// the events its webhooks carry.

let server: TestServer;
let key: string;

before(async () => {
  server = await startServer();
  const account = await server.account();
  await setPaymentMethod(server.services.database.db, server.clock, account, 'test', 'pm_test_visa');
  key = (await server.key(account)).secret;
});
after(() => server.close());

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- tests read whatever JSON came back

const day = 24 * 3_600_000;
const items = [{ sku: 'MUG-1', name: 'Stoneware mug', quantity: 2, unit_price: { amount: '12.50', currency: 'USD' }, weight: { value: 14, unit: 'oz' } }];
const customs = {
  contents_type: 'merchandise',
  non_delivery: 'return',
  invoice_number: 'INV-2026-77',
  signer: 'Grace Hopper',
  certify: true,
  items: [
    { sku: 'MUG-1', hs_tariff_number: '6912.00', origin_country: 'US' },
    { description: 'Linen tea towel', quantity: 1, unit_value: { amount: '9.00', currency: 'USD' }, weight: { value: 3, unit: 'oz' }, hs_tariff_number: '6302.60', origin_country: 'PT' },
  ],
};

type Pick = 'usps-cheapest' | 'usps-pmi' | 'fedex';
/** Each destination, the label bought there, and the document that label needs. */
const basket: { to: Json; buy: Pick; documents: string[]; country: string }[] = [
  { to: { name: 'Jean Tremblay', street1: '100 Queen St W', city: 'Toronto', state: 'ON', zip: 'M5H 2N2', country: 'CA', phone: '+1 416 555 0142' }, buy: 'fedex', documents: ['commercial_invoice'], country: 'CANADA' },
  { to: { name: 'Ana Garcia', street1: 'Av. Paseo de la Reforma 222', city: 'Ciudad de Mexico', state: 'CMX', zip: '06600', country: 'MX', phone: '+52 55 5555 0100' }, buy: 'usps-cheapest', documents: ['cn22'], country: 'MEXICO' },
  { to: { name: 'Charles Babbage', street1: '10 Downing Street', city: 'London', zip: 'SW1A 2AA', country: 'GB', phone: '+44 20 7946 0000' }, buy: 'usps-pmi', documents: ['cn23'], country: 'UNITED KINGDOM' },
  { to: { name: 'Konrad Zuse', street1: 'Unter den Linden 77', city: 'Berlin', zip: '10117', country: 'DE', phone: '+49 30 555 0100' }, buy: 'fedex', documents: ['commercial_invoice'], country: 'GERMANY' },
  { to: { name: 'Blaise Pascal', street1: '5 Rue de Rivoli', city: 'Paris', zip: '75001', country: 'FR', phone: '+33 1 55 55 01 00' }, buy: 'usps-cheapest', documents: ['cn22'], country: 'FRANCE' },
  { to: { name: 'Ada Byron', street1: '1 Macquarie St', city: 'Sydney', state: 'NSW', zip: '2000', country: 'AU', phone: '+61 2 5550 0100' }, buy: 'usps-pmi', documents: ['cn23'], country: 'AUSTRALIA' },
  { to: { name: 'Yamada Taro', street1: '1-1 Chiyoda', city: 'Chiyoda-ku', state: 'Tokyo', zip: '100-0001', country: 'JP', phone: '+81 3 5555 0100' }, buy: 'fedex', documents: ['commercial_invoice'], country: 'JAPAN' },
  { to: { name: 'Alberto Santos', street1: 'Av. Paulista 1578', city: 'Sao Paulo', state: 'SP', zip: '01310-200', country: 'BR', phone: '+55 11 5555 0100' }, buy: 'usps-cheapest', documents: ['cn22'], country: 'BRAZIL' },
  { to: { name: 'Srinivasa Ramanujan', street1: '12 Marine Drive', city: 'Mumbai', state: 'MH', zip: '400020', country: 'IN', phone: '+91 22 5555 0100' }, buy: 'usps-pmi', documents: ['cn23'], country: 'INDIA' },
  { to: { name: 'Edsger Dijkstra', street1: 'Dam 1', city: 'Amsterdam', zip: '1012 JS', country: 'NL', phone: '+31 20 555 0100' }, buy: 'fedex', documents: ['commercial_invoice'], country: 'NETHERLANDS' },
  { to: { name: 'Maria Cruz', street1: '176 Serenu Ave', city: 'Hagatna', state: 'GU', zip: '96910' }, buy: 'usps-cheapest', documents: ['cn22'], country: '' },
  { to: { name: 'SGT John Doe', street1: 'Unit 2050 Box 4190', city: 'APO', state: 'AE', zip: '09001' }, buy: 'usps-cheapest', documents: ['cn22'], country: '' },
];

const call = (method: string, path: string, body?: unknown) => server.request(method, path, { key, ...(body !== undefined && { body }) });

/** label_url names SHIPD_PUBLIC_URL's host; the test server listens on a port of its own. */
const here = (link: string) => {
  const u = new URL(link);
  return `${server.url}${u.pathname}${u.search}`;
};

/** A signed file link, fetched as a printer would: no API key. */
async function download(url: string): Promise<{ status: number; headers: Headers; bytes: Buffer }> {
  const res = await fetch(here(url));
  return { status: res.status, headers: res.headers, bytes: Buffer.from(await res.arrayBuffer()) };
}

const squeeze = (s: string) => s.replace(/\s+/g, ' ');

function choose(rates: Json[], pick: Pick): Json {
  const rate =
    pick === 'fedex'
      ? rates.find((r) => r.carrier === 'fedex' && r.service === 'FEDEX_INTERNATIONAL_PRIORITY')
      : pick === 'usps-pmi'
        ? rates.find((r) => r.service === 'PRIORITY_MAIL_INTERNATIONAL')
        : rates.filter((r) => r.carrier === 'usps').sort((a, b) => Number(a.amount.amount) - Number(b.amount.amount))[0];
  assert.ok(rate, `a ${pick} rate among ${rates.map((r) => r.service).join(', ')}`);
  return rate;
}

async function checkLabel(shipment: Json, country: string): Promise<void> {
  const label = await download(shipment.label_url);
  assert.equal(label.status, 200);
  assert.equal(label.headers.get('content-type'), 'application/pdf');
  const pdf = await openPdf(label.bytes);
  assert.equal(pdf.pages, 1);
  assert.ok(pdf.text.includes('SAMPLE'), 'a test label is marked SAMPLE');
  if (country) assert.ok(squeeze(pdf.text).includes(country), `the label names ${country}: ${squeeze(pdf.text)}`);
  const codes = await decodePng(pdf.raster);
  assert.ok(codes.some((c) => c.text === shipment.tracking_number || c.text.endsWith(shipment.tracking_number.slice(2))), `a barcode reads ${shipment.tracking_number}: ${JSON.stringify(codes)}`);
}

async function checkDocument(shipment: Json, doc: Json): Promise<void> {
  assert.equal(doc.format, 'pdf');
  assert.match(doc.url, new RegExp(`/labels/${shipment.id}\\.${doc.type}\\.pdf\\?token=`));
  const file = await download(doc.url);
  assert.equal(file.status, 200);
  assert.equal(file.headers.get('content-type'), 'application/pdf');
  assert.equal(file.headers.get('x-content-type-options'), 'nosniff');
  assert.ok(file.headers.get('content-security-policy'));
  assert.equal(file.headers.get('content-disposition'), `inline; filename="${shipment.id}.${doc.type}.pdf"`);
  const pdf = await openPdf(file.bytes);
  assert.ok(pdf.pages >= 1);
  const text = squeeze(pdf.pageTexts.join(' '));
  for (const words of ['Stoneware mug', 'Linen tea towel', '691200', '630260', 'SAMPLE', shipment.tracking_number]) {
    assert.ok(text.includes(words), `${doc.type} of ${shipment.id} shows ${words}: ${text.slice(0, 400)}`);
  }
  if (doc.type !== 'commercial_invoice') {
    const codes = await decodePng(pdf.raster);
    assert.ok(codes.some((c) => c.text === shipment.tracking_number), `the ${doc.type} barcode reads ${shipment.tracking_number}: ${JSON.stringify(codes)}`);
  }
}

describe('the international flow in test mode, destination by destination', () => {
  for (const { to, buy, documents, country } of basket) {
    const where = to.country ?? `US ${to.state}`;
    test(`${where}: rated by every carrier, bought with ${documents.join(', ')}, downloaded, voided, bought again and tracked to delivery`, async () => {
      const created = await call('POST', '/orders', orderBody({ ship_to: to, ship_from: austin, items, customs, order_number: `INTL-${where}` }));
      assert.equal(created.status, 201, created.text);
      const order = created.body;

      const shop = await call('POST', '/rates', { order_id: order.id });
      assert.equal(shop.status, 200, shop.text);
      const { rates, errors } = shop.body;
      assert.ok(rates.some((r: Json) => r.carrier === 'usps'), `USPS rates ${where}`);
      const ups = errors.find((e: Json) => e.carrier === 'ups');
      assert.ok(ups, `UPS answers in errors: ${JSON.stringify(errors)}`);
      if (to.country) {
        assert.equal(ups.code, 'service_unavailable');
        assert.match(ups.detail, /international zone chart/);
        assert.ok(rates.some((r: Json) => r.carrier === 'fedex'), `FedEx rates ${where}`);
        assert.ok(rates.every((r: Json) => r.delivery_days === null && r.estimated_delivery_date === null), 'no invented transit times abroad');
        assert.ok(rates.filter((r: Json) => r.carrier === 'usps').every((r: Json) => r.service.endsWith('INTERNATIONAL') || r.service.endsWith('INTERNATIONAL_SERVICE')));
      } else {
        assert.ok(rates.every((r: Json) => r.carrier === 'usps' && !r.service.includes('INTERNATIONAL')), 'territories and APOs go by USPS domestic services');
      }

      const rate = choose(rates, buy);
      const first = await call('POST', '/shipments', { order_id: order.id, rate_id: rate.id });
      assert.equal(first.status, 201, first.text);
      const shipment = first.body;
      assert.deepEqual(shipment.documents.map((d: Json) => d.type), documents);
      assert.ok(isValidTrackingNumber(shipment.carrier, shipment.tracking_number));
      if (shipment.carrier === 'usps' && to.country) assert.match(shipment.tracking_number, /^(EC|CP|LX)[0-9]{9}US$/);
      await checkLabel(shipment, country);
      for (const doc of shipment.documents) await checkDocument(shipment, doc);
      const got = await call('GET', `/shipments/${shipment.id}`);
      assert.deepEqual(got.body.documents.map((d: Json) => d.type), documents);

      const voided = await call('POST', `/shipments/${shipment.id}/void`);
      assert.equal(voided.status, 200, voided.text);
      assert.equal(voided.body.status, 'voided');
      for (const url of [shipment.label_url, shipment.documents[0].url]) {
        const gone = await fetch(here(url));
        assert.equal(gone.status, 410);
        assert.equal(((await gone.json()) as Json).code, 'label_voided');
      }

      const again = await call('POST', '/shipments', { order_id: order.id, rate_id: rate.id });
      assert.equal(again.status, 201, again.text);
      const bought = again.body;
      assert.notEqual(bought.tracking_number, shipment.tracking_number);
      await checkDocument(bought, bought.documents[0]);

      let tracked: Json = {};
      for (let i = 0; i < 80 && tracked.status !== 'delivered'; i++) {
        server.clock.advance(day / 4);
        tracked = (await call('POST', '/tracking', { order_id: order.id })).body;
      }
      assert.equal(tracked.status, 'delivered', JSON.stringify(tracked));
      const last = tracked.events.at(-1);
      if (to.country) {
        assert.ok(tracked.events.some((e: Json) => e.description === 'Released by customs' && e.location.country === to.country), 'the parcel clears customs where it goes');
        assert.equal(last.location.country, to.country);
      } else {
        assert.equal(last.location.zip, to.zip);
      }

      const events = (await call('GET', '/events?limit=100')).body.data.filter((e: Json) => e.data.id === shipment.id || e.data.id === bought.id || e.data.shipment_id === bought.id);
      const created2 = events.filter((e: Json) => e.type === 'shipment.created');
      assert.equal(created2.length, 2);
      for (const e of created2) assert.deepEqual(e.data.documents.map((d: Json) => d.type), documents);
      assert.equal(events.filter((e: Json) => e.type === 'shipment.voided' && e.data.id === shipment.id).length, 1);
      assert.ok(events.some((e: Json) => e.type === 'tracking.updated' && e.data.status === 'delivered'));
    });
  }
});

describe('services, documents and rates by destination', () => {
  test('a domestic label has no documents; an international service is refused within the US and a domestic one abroad', async () => {
    const domestic = await call('POST', '/orders', orderBody({ ship_to: sanFrancisco }));
    const bought = await call('POST', '/shipments', { order_id: domestic.body.id });
    assert.equal(bought.status, 201, bought.text);
    assert.deepEqual(bought.body.documents, []);
    // A declaration kept on a domestic order prints no form: the parcel crosses no customs border.
    const declared = await call('POST', '/orders', orderBody({ ship_to: sanFrancisco, items, customs }));
    assert.equal(declared.status, 201, declared.text);
    assert.deepEqual((await call('POST', '/shipments', { order_id: declared.body.id })).body.documents, []);

    const abroad = (service: Json) => call('POST', '/orders', orderBody({ ship_to: basket[2]!.to, items, customs, requested_service: service }));
    const home = (service: Json) => call('POST', '/orders', orderBody({ requested_service: service }));
    const cases: [Promise<unknown>, RegExp][] = [
      [home({ carrier: 'usps', service: 'PRIORITY_MAIL_INTERNATIONAL' }), /is an international USPS service, for parcels leaving the US; within the US USPS ships by USPS_GROUND_ADVANTAGE, PRIORITY_MAIL, PRIORITY_MAIL_EXPRESS/],
      [abroad({ carrier: 'usps', service: 'PRIORITY_MAIL' }), /is a domestic USPS service, for parcels within the US; to the United Kingdom USPS ships by PRIORITY_MAIL_EXPRESS_INTERNATIONAL/],
      [abroad({ carrier: 'fedex', service: 'FEDEX_GROUND' }), /is a domestic FedEx service/],
      [abroad({ carrier: 'ups', service: 'XX' }), /is not a UPS service; use one of 07, 08, 65, 11/],
    ];
    for (const [sent, detail] of cases) {
      const p = problem((await sent) as never, 400, 'validation_failed');
      assert.match(p.errors.find((e: Json) => e.pointer === '/requested_service/service').detail, detail);
    }
    const toronto = await call('POST', '/orders', orderBody({ ship_to: basket[0]!.to, items, customs, requested_service: { carrier: 'fedex', service: 'FEDEX_GROUND' } }));
    assert.equal(toronto.status, 201, 'FedEx International Ground to Canada is FEDEX_GROUND');
  });

  test('a rate abroad is for its declaration: changed after rating, the rate is refused', async () => {
    const order = (await call('POST', '/orders', orderBody({ ship_to: basket[3]!.to, items, customs }))).body;
    const rate = (await call('POST', '/rates', { order_id: order.id })).body.rates[0];
    const patched = await call('PATCH', `/orders/${order.id}`, { customs: { ...customs, invoice_number: 'INV-2026-78' } });
    assert.equal(patched.status, 200, patched.text);
    problem(await call('POST', '/shipments', { order_id: order.id, rate_id: rate.id }), 409, 'rate_not_for_order');
  });

  test('delivered duty paid: UPS and FedEx take it, USPS says why not in errors, and a USPS label for it is not bought', async () => {
    const order = (await call('POST', '/orders', orderBody({ ship_to: basket[0]!.to, items, customs: { ...customs, incoterm: 'DDP' } }))).body;
    const shop = (await call('POST', '/rates', { order_id: order.id })).body;
    assert.ok(shop.rates.length > 0 && shop.rates.every((r: Json) => r.carrier !== 'usps'), JSON.stringify(shop.rates.map((r: Json) => r.carrier)));
    const usps = shop.errors.find((e: Json) => e.carrier === 'usps');
    assert.equal(usps?.code, 'not_serviced');
    assert.match(usps.detail, /USPS does not take DDP \(customs\/incoterm\)/);
    const asked = await call('PATCH', `/orders/${order.id}`, { requested_service: { carrier: 'usps', service: 'PRIORITY_MAIL_INTERNATIONAL' } });
    assert.equal(asked.status, 200, asked.text);
    const refused = problem(await call('POST', '/shipments', { order_id: order.id }), 422, 'no_rate_available');
    assert.match(refused.detail, /does not take DDP/);
    assert.equal((await call('GET', `/orders/${order.id}`)).body.status, 'incomplete');
  });

  test('First-Class Package International takes contents worth $400 at most: above it USPS offers Priority Mail International, and asked for alone says why', async () => {
    const dear = { ...customs, items: [{ ...customs.items[1], unit_value: { amount: '401.00', currency: 'USD' } }] };
    const fcpis = 'FIRST-CLASS_PACKAGE_INTERNATIONAL_SERVICE';
    const shop = async (c: Json, services?: string[]) => (await call('POST', '/rates', { ship_from: austin, ship_to: basket[2]!.to, parcel: { weight: { value: 1, unit: 'lb' } }, customs: c, ...(services && { services }) })).body;
    const cheap = await shop({ ...dear, items: [{ ...dear.items[0], unit_value: { amount: '400.00', currency: 'USD' } }] });
    assert.ok(cheap.rates.some((r: Json) => r.service === fcpis), 'at $400 it is offered');
    const over = await shop(dear);
    assert.ok(!over.rates.some((r: Json) => r.service === fcpis), 'above $400 it is not');
    assert.ok(over.rates.some((r: Json) => r.service === 'PRIORITY_MAIL_INTERNATIONAL'));
    const alone = await shop(dear, [fcpis]);
    assert.deepEqual(alone.rates, []);
    assert.equal(alone.errors[0].code, 'not_serviced');
    assert.match(alone.errors[0].detail, /USPS First-Class Package International Service takes contents worth at most \$400; this declaration's items are worth \$401\.00: ship it Priority Mail International/);

    // Asked for by the order, the label is not bought.
    const order = (await call('POST', '/orders', orderBody({ ship_to: basket[2]!.to, customs: dear, requested_service: { carrier: 'usps', service: fcpis } }))).body;
    problem(await call('POST', '/shipments', { order_id: order.id }), 422, 'no_rate_available');
    assert.equal((await call('GET', `/orders/${order.id}`)).body.status, 'incomplete');
  });

  test('USPS takes customs values in dollars only: a declaration in euros is rated by UPS and FedEx, and USPS says why', async () => {
    const euros = { ...customs, eel_pfc: 'NOEEI 30.37(a)', items: [{ ...customs.items[1], unit_value: { amount: '9.00', currency: 'EUR' } }] };
    const shop = (await call('POST', '/rates', { ship_to: basket[3]!.to, ship_from: { ...austin, phone: '+1 512 555 0100' }, parcel: { weight: { value: 1, unit: 'lb' } }, customs: euros })).body;
    assert.ok(shop.rates.some((r: Json) => r.carrier === 'fedex'), JSON.stringify(shop));
    assert.ok(!shop.rates.some((r: Json) => r.carrier === 'usps'));
    const usps = shop.errors.find((e: Json) => e.carrier === 'usps');
    assert.equal(usps?.code, 'not_serviced');
    assert.match(usps.detail, /USPS takes customs values in USD only; this declaration is in EUR/);
  });

  test("a street or a customs description a carrier's API cannot hold whole: that carrier says why in errors, the others rate it, and its label is not bought", async () => {
    const order = async (number: string, to: Json, items_: Json[]) => {
      const created = await call('POST', '/orders', orderBody({ order_number: number, ship_to: to, items, customs: { ...customs, items: items_ } }));
      assert.equal(created.status, 201, created.text);
      return created.body;
    };
    // Two streets of 45 characters: FedEx wraps each onto two of its three lines; USPS's street and secondary address hold them.
    const twoStreets = await order('LIMITS-1', { ...basket[0]!.to, street1: 'Suite 4 Kensington Court Mansions Queen St W', street2: 'Care of the building manager by the back door' }, customs.items);
    // A street word longer than a UPS address line, and a description longer than a line of USPS's customs form.
    const towel = { ...customs.items[1]!, description: 'Hand-woven linen tea towel, natural colour' };
    const longWords = await order('LIMITS-2', { ...basket[0]!.to, street1: 'Konstantynopolitanczykowianeczkowskiego 5' }, [customs.items[0]!, towel]);

    const shop = async (o: Json) => (await call('POST', '/rates', { order_id: o.id })).body;
    const first = await shop(twoStreets);
    assert.deepEqual([...new Set(first.rates.map((r: Json) => r.carrier))], ['usps'], JSON.stringify(first.errors));
    const fedex = first.errors.find((e: Json) => e.carrier === 'fedex');
    assert.equal(fedex?.code, 'address_invalid');
    assert.match(fedex.detail, /FedEx takes 3 street lines of 35 characters \(streetLines\); the ship-to street "Suite 4 Kensington/);
    const second = await shop(longWords);
    assert.deepEqual([...new Set(second.rates.map((r: Json) => r.carrier))], ['fedex'], JSON.stringify(second.errors));
    const ups = second.errors.find((e: Json) => e.carrier === 'ups');
    assert.equal(ups?.code, 'address_invalid');
    assert.match(ups.detail, /UPS takes 3 address lines of 35 characters \(AddressLine\); the ship-to street "Konstantynopolitanczykowianeczkowskiego 5"/);
    const usps = second.errors.find((e: Json) => e.carrier === 'usps');
    assert.equal(usps?.code, 'not_serviced');
    assert.match(usps.detail, /USPS takes a customs form line description of at most 30 characters; customs\/items\/1\/description has 42/);

    for (const [o, requested, why] of [
      [twoStreets, { carrier: 'fedex', service: 'FEDEX_INTERNATIONAL_PRIORITY' }, /FedEx takes 3 street lines/],
      [longWords, { carrier: 'usps', service: 'PRIORITY_MAIL_INTERNATIONAL' }, /USPS takes a customs form line description/],
    ] as const) {
      assert.equal((await call('PATCH', `/orders/${o.id}`, { requested_service: requested })).status, 200);
      assert.match(problem(await call('POST', '/shipments', { order_id: o.id }), 422, 'no_rate_available').detail, why);
      assert.equal((await call('GET', `/orders/${o.id}`)).body.status, 'incomplete');
    }
  });

  test('a return label from abroad is refused; nothing is bought', async () => {
    const order = (await call('POST', '/orders', orderBody({ ship_to: basket[1]!.to, items, customs }))).body;
    assert.equal((await call('POST', '/shipments', { order_id: order.id })).status, 201);
    const p = problem(await call('POST', `/shipments/${order.id}/return`, {}), 422, 'country_not_served');
    assert.match(p.detail, /^Return labels from Mexico \(MX\) are not sold: a return label leaves from the US/);
  });
});
