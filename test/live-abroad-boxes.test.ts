import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { TestServer } from './harness.ts';
import { austin, orderBody } from './fixtures.ts';
import type { CarrierFakes } from './fakes/carriers.ts';
import { startLiveShop, type LiveShop } from './live-billing.ts';
import { isValidTrackingNumber } from '../src/carriers/tracking-numbers.ts';

// Several boxes, delivery options and insurance abroad with live keys, against the fake carrier servers, which hold
// each request to the contract schemas of the carriers' published specs: UPS's multi-piece shipment with one
// invoice and the signature on the shipment, FedEx's multiple-piece shipment with one customs clearance, USPS's label
// per box with each box's own customs form.

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- tests read whatever JSON came back

const london = { name: 'Charles Babbage', street1: '10 Downing Street', city: 'London', zip: 'SW1A 2AA', country: 'GB', phone: '+44 20 7946 0000' };
const boxes = [
  { weight: { value: 3, unit: 'lb' }, dimensions: { length: 10, width: 8, height: 4, unit: 'in' } },
  { weight: { value: 2, unit: 'lb' }, dimensions: { length: 8, width: 6, height: 4, unit: 'in' } },
];
const mug = { description: 'Stoneware mug', quantity: 2, unit_value: { amount: '12.50', currency: 'USD' }, weight: { value: 14, unit: 'oz' }, hs_tariff_number: '6912.00', origin_country: 'US' };
const towel = { description: 'Linen tea towel', quantity: 1, unit_value: { amount: '9.00', currency: 'USD' }, weight: { value: 3, unit: 'oz' }, hs_tariff_number: '6302.60', origin_country: 'PT' };
const customs = { contents_type: 'merchandise', non_delivery: 'return', signer: 'Grace Hopper', certify: true, items: [{ ...mug, parcel_index: 0 }, { ...towel, parcel_index: 1 }] };
/** FedEx labels need the shipper's phone. */
const twoBoxes = (n: string) => orderBody({ order_number: n, ship_from: { ...austin, phone: '512-555-0100' }, ship_to: london, parcel: undefined, parcels: boxes, customs });

describe('several boxes, options and insurance abroad with live keys (fake carrier servers)', () => {
  let fakes: CarrierFakes;
  let server: TestServer;
  let key: string;
  let live: LiveShop;
  before(async () => {
    live = await startLiveShop();
    ({ server, fakes, key } = live);
  });
  after(() => live.close());

  const calls = (carrier: 'ups' | 'usps' | 'fedex', since: number, path: RegExp): Json[] => fakes[carrier].calls.slice(since).filter((c) => path.test(c.path)).map((c) => c.body as Json);

  async function shop(body: Json): Promise<Json> {
    const res = await server.request('POST', '/rates', { key, body });
    assert.equal(res.status, 200, res.text);
    return res.body;
  }

  async function buy(orderId: string, rate: Json): Promise<Json> {
    const res = await server.request('POST', '/shipments', { key, body: { order_id: orderId, rate_id: rate.id } });
    assert.equal(res.status, 201, res.text);
    return res.body;
  }

  test('UPS: two boxes to London are one shipment of two Packages with one invoice, each box its own 1Z, voided together', async () => {
    const o = await server.request('POST', '/orders', { key, body: twoBoxes('LIVE-UPS-2') });
    assert.equal(o.status, 201, o.text);
    const since = fakes.ups.calls.length;
    const rates = await shop({ order_id: o.body.id, carriers: ['ups'] });
    const rated = calls('ups', since, /\/rating\//)[0]!.RateRequest.Shipment;
    assert.equal(rated.NumOfPieces, '2');
    assert.equal(rated.Package.length, 2);
    const s = await buy(o.body.id, rates.rates[0]);
    const shipped = calls('ups', since, /\/shipments\/.*\/ship$/)[0]!.ShipmentRequest.Shipment;
    assert.deepEqual(shipped.Package.map((p: Json) => p.PackageWeight.Weight), ['3', '2']);
    assert.deepEqual(shipped.ShipmentServiceOptions.InternationalForms.Product.map((p: Json) => p.Description[0]), ['Stoneware mug', 'Linen tea towel']);
    assert.equal(s.packages.length, 2);
    assert.equal(s.master_tracking_number, s.packages[0].tracking_number);
    for (const p of s.packages) assert.ok(isValidTrackingNumber('ups', p.tracking_number), p.tracking_number);
    assert.deepEqual(s.documents.map((d: Json) => d.type), ['commercial_invoice']);
    const voided = await server.request('POST', `/shipments/${s.id}/void`, { key });
    assert.equal(voided.status, 200, voided.text);
    assert.deepEqual(fakes.ups.contractRefusals, []);
  });

  test('FedEx: two boxes to London are a multiple-piece shipment under one customs clearance, a master and two pieces', async () => {
    const o = await server.request('POST', '/orders', { key, body: twoBoxes('LIVE-FX-2') });
    const since = fakes.fedex.calls.length;
    const rates = await shop({ order_id: o.body.id, carriers: ['fedex'] });
    const rated = calls('fedex', since, /^\/rate\//)[0]!.requestedShipment;
    assert.equal(rated.requestedPackageLineItems.length, 2);
    assert.equal(rated.customsClearanceDetail.commodities.length, 2);
    const s = await buy(o.body.id, rates.rates.find((r: Json) => r.service === 'FEDEX_INTERNATIONAL_PRIORITY'));
    const shipped = calls('fedex', since, /^\/ship\/v1\/shipments$/)[0]!.requestedShipment;
    assert.equal(shipped.totalPackageCount, 2);
    assert.deepEqual(shipped.requestedPackageLineItems.map((l: Json) => l.sequenceNumber), [1, 2]);
    assert.equal(shipped.totalWeight, 5);
    assert.deepEqual(shipped.customsClearanceDetail.commodities.map((c: Json) => c.description), ['Stoneware mug', 'Linen tea towel']);
    assert.equal(s.packages.length, 2);
    assert.ok(s.master_tracking_number);
    for (const p of s.packages) assert.ok(isValidTrackingNumber('fedex', p.tracking_number), p.tracking_number);
    const voided = await server.request('POST', `/shipments/${s.id}/void`, { key });
    assert.equal(voided.status, 200, voided.text);
  });

  test("USPS: two boxes to London are two international labels bought together, each with its own box's customs lines", async () => {
    const o = await server.request('POST', '/orders', { key, body: twoBoxes('LIVE-USPS-2') });
    const since = fakes.usps.calls.length;
    const rates = await shop({ order_id: o.body.id, carriers: ['usps'] });
    const rate = rates.rates.find((r: Json) => r.service === 'PRIORITY_MAIL_INTERNATIONAL');
    assert.ok(rate, JSON.stringify(rates));
    const s = await buy(o.body.id, rate);
    const labels = calls('usps', since, /international-label$/);
    assert.equal(labels.length, 2);
    assert.deepEqual(labels.map((l) => l.customsForm.contents.map((c: Json) => c.itemDescription)), [['Stoneware mug'], ['Linen tea towel']]);
    assert.deepEqual(labels.map((l) => l.packageDescription.weight), [3, 2]);
    assert.equal(s.packages.length, 2);
    assert.equal(s.master_tracking_number, null);
    assert.notEqual(s.packages[0].tracking_number, s.packages[1].tracking_number);
    assert.deepEqual(fakes.usps.violations, []);

    const unsplit = await server.request('POST', '/orders', { key, body: orderBody({ ship_to: london, parcel: undefined, parcels: boxes, customs: { ...customs, items: [mug, towel] } }) });
    const refused = await shop({ order_id: unsplit.body.id, carriers: ['usps'] });
    assert.equal(refused.rates.length, 0);
    assert.match(refused.errors[0].detail, /parcel_index/);
  });

  test("a signature abroad goes on UPS's shipment and on FedEx's packages, and USPS is left out naming the option", async () => {
    const o = await server.request('POST', '/orders', { key, body: orderBody({ ship_from: { ...austin, phone: '512-555-0100' }, ship_to: london, customs: { ...customs, items: [mug] } }) });
    const upsSince = fakes.ups.calls.length;
    const fedexSince = fakes.fedex.calls.length;
    const rates = await shop({ order_id: o.body.id, options: { signature: 'adult' } });
    const usps = rates.errors.find((e: Json) => e.carrier === 'usps');
    assert.equal(usps.code, 'option_not_supported');
    assert.match(usps.detail, /adult's signature on delivery to another country/);
    const ups = rates.rates.find((r: Json) => r.carrier === 'ups');
    assert.ok(ups.surcharges.some((x: Json) => x.type === 'signature'), JSON.stringify(ups));
    const rated = calls('ups', upsSince, /\/rating\//)[0]!.RateRequest.Shipment;
    assert.deepEqual(rated.ShipmentServiceOptions.DeliveryConfirmation, { DCISType: '2' });
    assert.equal(rated.Package[0].PackageServiceOptions, undefined);
    const label = await buy(o.body.id, ups);
    assert.deepEqual(label.options, { signature: 'adult' });
    const shipped = calls('ups', upsSince, /\/ship$/)[0]!.ShipmentRequest.Shipment;
    assert.deepEqual(shipped.ShipmentServiceOptions.DeliveryConfirmation, { DCISType: '2' });
    assert.ok(shipped.ShipmentServiceOptions.InternationalForms);
    const fedexRated = calls('fedex', fedexSince, /^\/rate\//)[0]!.requestedShipment;
    assert.deepEqual(fedexRated.requestedPackageLineItems[0].packageSpecialServices, { specialServiceTypes: ['SIGNATURE_OPTION'], signatureOptionType: 'ADULT' });
    assert.deepEqual(fakes.ups.contractRefusals, []);
  });

  test('insurance abroad: UPS and FedEx send the declared value of each box, USPS prices each box insured', async () => {
    const o = await server.request('POST', '/orders', { key, body: twoBoxes('LIVE-INS-2') });
    const upsSince = fakes.ups.calls.length;
    const fedexSince = fakes.fedex.calls.length;
    const uspsSince = fakes.usps.calls.length;
    const rates = await shop({ order_id: o.body.id, insurance: { amount: { amount: '600.00', currency: 'USD' } } });
    assert.equal(rates.errors.find((e: Json) => e.carrier === 'usps'), undefined, JSON.stringify(rates.errors));
    const usps = rates.rates.find((r: Json) => r.carrier === 'usps');
    assert.ok(usps.surcharges.some((x: Json) => x.type === 'insurance'), JSON.stringify(usps));
    assert.deepEqual([...new Set(calls('usps', uspsSince, /total-rates\/search$/).map((q) => `${q.extraServices} ${q.itemValue}`))], ['930 300']);
    const ups = calls('ups', upsSince, /\/rating\//)[0]!.RateRequest.Shipment;
    assert.deepEqual(ups.Package.map((p: Json) => p.PackageServiceOptions.DeclaredValue.MonetaryValue), ['00300.00', '00300.00'].map((v) => v.padStart(8, '0')));
    const fedex = calls('fedex', fedexSince, /^\/rate\//)[0]!.requestedShipment;
    assert.deepEqual(fedex.requestedPackageLineItems.map((l: Json) => l.declaredValue), [{ amount: 300, currency: 'USD' }, { amount: 300, currency: 'USD' }]);
    const s = await buy(o.body.id, rates.rates.find((r: Json) => r.service === 'FEDEX_INTERNATIONAL_PRIORITY'));
    assert.deepEqual(s.insurance, { amount: { amount: '600.00', currency: 'USD' } });
    const shipped = calls('fedex', fedexSince, /^\/ship\/v1\/shipments$/)[0]!.requestedShipment;
    assert.deepEqual(shipped.totalDeclaredValue, { amount: 600, currency: 'USD' });
  });
});
