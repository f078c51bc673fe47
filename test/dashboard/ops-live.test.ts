import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, type TestServer } from '../harness.ts';
import { austin, orderBody, sanFrancisco } from '../fixtures.ts';
import { openPdf } from '../barcodes.ts';
import { startCarrierFakes, type CarrierFakes } from '../fakes/carriers.ts';
import { saveCard, startBilling } from '../live-billing.ts';
import type { FakeStripe } from '../fakes/stripe.ts';
import { addLocation } from '../../src/domain/locations/locations.ts';
import { localToday } from '../../src/domain/shipments/ship-date.ts';
import { usFederalHoliday } from '../../src/carriers/sim/calendar.ts';
import type { Address } from '../../src/schemas/address.ts';
import { accountWithUser, DashboardClient, password } from './client.ts';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- tests read whatever JSON came back

// The dashboard's Manifests and Pickups pages with live data, made over HTTP against the fake carriers: a USPS
// manifest with USPS's own SCAN form (its number, and the file that serves it), a UPS manifest that needs no form,
// a FedEx Ground close, and a UPS pickup with its price.

// FedEx wants a phone number for the shipper, UPS one at the pickup address; a company makes it a business.
const dock: Json = { ...austin, company: 'Mugs Inc', phone: '5125550100' };

const manifestRow = (html: string, id: string) => html.slice(html.indexOf(`data-manifest-id="${id}"`)).split('</tr>')[0]!;

describe('the dashboard with live manifests and pickups (fake carriers)', () => {
  let fakes: CarrierFakes;
  let stripe: FakeStripe;
  let server: TestServer;
  let client: DashboardClient;
  let key: string;

  before(async () => {
    const billing = await startBilling();
    stripe = billing.stripe;
    fakes = await startCarrierFakes();
    server = await startServer({ env: { ...fakes.env(['ups', 'usps', 'fedex']), ...billing.env, SHIPD_FEATURES: 'manifests,pickups', SHIPD_CARRIER_TIMEOUT_MS: '10000' } });
    billing.follow(server);
    const { account, email } = await accountWithUser(server);
    await saveCard(server, account);
    key = (await server.key(account, 'live')).secret;
    // The default location says which day is today on the pages.
    await addLocation(server.services.database.db, server.clock, account, { name: 'Austin dock', address: dock as Address });
    client = new DashboardClient(server);
    assert.equal((await client.signIn(email, password)).status, 303);
  });
  after(async () => {
    await server.close();
    await fakes.close();
    await stripe.close();
  });

  async function label(carrier: string, service: string, weightLb = 2): Promise<Json> {
    const order = await server.request('POST', '/orders', {
      key,
      body: orderBody({ ship_from: dock, ship_to: { ...sanFrancisco, company: 'Analytical Engines' }, requested_service: { carrier, service }, parcel: { weight: { value: weightLb, unit: 'lb' }, dimensions: { length: 10, width: 8, height: 4, unit: 'in' } } }),
    });
    assert.equal(order.status, 201, order.text);
    const bought = await server.request('POST', '/shipments', { key, body: { order_id: order.body.id } });
    assert.equal(bought.status, 201, bought.text);
    return bought.body;
  }

  async function manifest(carrier: string, day: string): Promise<Json> {
    const res = await server.request('POST', '/manifests', { key, body: { carrier, ship_date: day } });
    assert.equal(res.status, 201, res.text);
    return res.body;
  }

  test("Manifests: USPS's SCAN form by its number with USPS's file, UPS not required, FedEx's Ground close", { timeout: 120_000 }, async () => {
    const day = localToday({ state: 'TX' }, server.clock.now());
    await label('usps', 'USPS_GROUND_ADVANTAGE');
    await label('usps', 'USPS_GROUND_ADVANTAGE', 3);
    await label('ups', '03');
    await label('fedex', 'FEDEX_GROUND');
    const usps = await manifest('usps', day);
    const ups = await manifest('ups', day);
    const fedex = await manifest('fedex', day);
    assert.deepEqual([usps.carrier_manifest, ups.carrier_manifest, fedex.carrier_manifest], ['submitted', 'not_required', 'submitted']);
    const scanForm = usps.carrier_forms[0];
    const close = fedex.carrier_forms[0];
    assert.equal(scanForm.kind, 'usps_scan_form');
    assert.equal(close.kind, 'fedex_ground_close');

    const page = await client.get('/dashboard/live/manifests');
    assert.equal(page.status, 200, page.text);
    assert.match(page.text, new RegExp(`name="ship_date" type="date" value="${day}"`), 'today at the default location');
    assert.match(page.text, /what each carrier was told: USPS SCAN forms, FedEx Ground closes; UPS needs none/);

    const uspsRow = manifestRow(page.text, usps.id);
    assert.match(uspsRow, /badge-on">submitted</);
    assert.ok(uspsRow.includes(`<li>USPS SCAN form <code>${scanForm.number}</code> (2 parcels)</li>`), uspsRow);
    assert.ok(uspsRow.includes(`href="/dashboard/live/manifests/${usps.id}/form.pdf">SCAN forms (PDF)`), uspsRow);

    const upsRow = manifestRow(page.text, ups.id);
    assert.match(upsRow, /badge-on">not required</);
    assert.match(upsRow, /<td data-label="Carrier forms">—<\/td>/);
    assert.ok(upsRow.includes(`href="/dashboard/live/manifests/${ups.id}/form.pdf">Summary (PDF)`), upsRow);

    const fedexRow = manifestRow(page.text, fedex.id);
    assert.match(fedexRow, /badge-on">submitted</);
    assert.ok(fedexRow.includes(`<li>FedEx Ground close <code>${close.number}</code> (1 parcel)</li>`), fedexRow);
    assert.ok(fedexRow.includes(`href="/dashboard/live/manifests/${fedex.id}/form.pdf">Summary and close reports (PDF)`), fedexRow);

    // The USPS manifest's page: the form by number, and the file is USPS's form, for the driver to scan.
    const one = await client.get(`/dashboard/live/manifests/${usps.id}`);
    assert.equal(one.status, 200, one.text);
    assert.ok(one.text.includes(`<tr data-form-number="${scanForm.number}"><td data-label="Form">USPS SCAN form</td><td data-label="Number"><code>${scanForm.number}</code></td>`), one.text);
    assert.ok(one.text.includes(`href="/dashboard/live/manifests/${usps.id}/form.pdf">USPS&#39;s SCAN forms (PDF)`), one.text);
    const pdf = await fetch(`${server.url}/dashboard/live/manifests/${usps.id}/form.pdf`, { headers: { cookie: [...client.cookies].map(([k, v]) => `${k}=${v}`).join('; ') } });
    assert.equal(pdf.status, 200);
    assert.equal(pdf.headers.get('content-type'), 'application/pdf');
    const text = (await openPdf(Buffer.from(await pdf.arrayBuffer()), 72)).pageTexts.join('\n');
    assert.ok(text.includes(`EFN ${scanForm.number}`), "USPS's form, by its number");

    const upsPage = await client.get(`/dashboard/live/manifests/${ups.id}`);
    assert.match(upsPage.text, /badge-on">not required</);
    assert.doesNotMatch(upsPage.text, /<h2>Carrier forms<\/h2>/);
    const fedexPage = await client.get(`/dashboard/live/manifests/${fedex.id}`);
    assert.ok(fedexPage.text.includes(`<code>${close.number}</code>`), fedexPage.text);

    assert.deepEqual((await client.get('/dashboard/test/manifests')).text.match(/data-manifest-id/g), null, 'test mode shows no live manifest');
  });

  test("Pickups: a priced UPS pickup with its price, parcels and UPS's PRN", { timeout: 120_000 }, async () => {
    // The next business day at the dock, by the real clock the fakes and the server keep.
    let date = localToday({ state: 'TX' }, server.clock.now());
    do date = new Date(Date.parse(`${date}T12:00:00Z`) + 86_400_000).toISOString().slice(0, 10);
    while ([0, 6].includes(new Date(`${date}T12:00:00Z`).getUTCDay()) || usFederalHoliday(date));
    const res = await server.request('POST', '/pickups', {
      key,
      body: { carrier: 'ups', address: dock, date, window: { start: '13:00', end: '17:00' }, parcel_count: 3, total_weight: { value: 12.5, unit: 'lb' } },
    });
    assert.equal(res.status, 201, res.text);
    const pickup = res.body;
    assert.deepEqual(pickup.price, { amount: '6.50', currency: 'USD' });

    const page = await client.get(`/dashboard/live/pickups?date=${date}`);
    assert.equal(page.status, 200, page.text);
    const row = page.text.slice(page.text.indexOf(`data-pickup-id="${pickup.id}"`)).split('</tr>')[0]!;
    assert.ok(row.length > 0 && page.text.includes(`data-pickup-id="${pickup.id}"`), page.text);
    assert.match(row, /<td data-label="Carrier">UPS<\/td>/);
    assert.match(row, /<td data-label="Price">\$6\.50<\/td>/);
    assert.match(row, /<td data-label="Parcels">3, 12\.5 lb<\/td>/);
    assert.ok(row.includes(`<code>${pickup.confirmation_number}</code>`), row);
    assert.match(row, /badge-on">scheduled</);
  });
});
