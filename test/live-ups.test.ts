import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { TestServer } from './harness.ts';
import { orderBody } from './fixtures.ts';
import { openPdf } from './barcodes.ts';
import type { CarrierFakes } from './fakes/carriers.ts';
import type { FakeStripe } from './fakes/stripe.ts';
import { startLiveShop, type LiveShop } from './live-billing.ts';
import { isValidTrackingNumber } from '../src/carriers/tracking-numbers.ts';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- tests read whatever JSON came back

const box = (lb: number, reference?: string) => ({
  weight: { value: lb, unit: 'lb' },
  dimensions: { length: 10, width: 8, height: 4 + lb, unit: 'in' },
  ...(reference && { reference }),
});
const threeBoxes = [box(2, 'Box 1: mugs'), box(1.5, 'Box 2: saucers'), box(4)];

const ratePath = /^\/api\/rating\//;
const shipPath = /^\/api\/shipments\/v\w+\/ship$/;

describe('UPS with live keys: several boxes and delivery options (fake UPS over HTTP)', () => {
  let live: LiveShop;
  let server: TestServer;
  let fakes: CarrierFakes;
  let stripe: FakeStripe;
  let key: string;
  before(async () => {
    live = await startLiveShop();
    ({ server, fakes, stripe, key } = live);
  });
  after(async () => {
    assert.deepEqual(fakes.ups.contractRefusals, [], 'every request shipd sent UPS kept its published contract');
    await live.close();
  });

  const post = (path: string, body: unknown) => server.request('POST', path, { key, body });
  const lastCall = (path: RegExp): Json => fakes.ups.calls.findLast((c) => path.test(c.path))!.body as Json;
  const ledger = (shipmentId: string) => server.services.database.db.selectFrom('postage_ledger').select(['kind', 'amount_cents']).where('shipment_id', '=', shipmentId).orderBy('kind').execute();
  async function download(labelUrl: string): Promise<Buffer> {
    const u = new URL(labelUrl);
    const res = await fetch(`${server.url}${u.pathname}${u.search}`);
    assert.equal(res.status, 200, labelUrl);
    return Buffer.from(await res.arrayBuffer());
  }

  /** An order, its UPS rate shop (one service when pinned) and the label bought from its first rate. */
  async function shopAndBuy(order: Json, shop: Json = {}, buy: Json = {}): Promise<{ order: Json; rate: Json; shipment: Json }> {
    const o = await post('/orders', orderBody(order));
    assert.equal(o.status, 201, o.text);
    const rated = await post('/rates', { order_id: o.body.id, carriers: ['ups'], ...shop });
    assert.equal(rated.status, 200, rated.text);
    const rate = rated.body.rates[0];
    assert.ok(rate, rated.text);
    const bought = await post('/shipments', { order_id: o.body.id, rate_id: rate.id, ...buy });
    assert.equal(bought.status, 201, bought.text);
    return { order: o.body, rate, shipment: bought.body };
  }

  test('a 3-box UPS Ground purchase: one rate for all, a master and a valid 1Z per box, a label per box and one merged, one void voids all, the card charged once and refunded', async () => {
    const { order, rate, shipment } = await shopAndBuy({ order_number: 'ups-boxes', parcel: undefined, parcels: threeBoxes }, { services: ['03'], insurance: { amount: { amount: '300.00', currency: 'USD' } } });

    // Rating: a Package per box, each with its own weight, dimensions and share of the declared value.
    const rated = lastCall(ratePath).RateRequest.Shipment;
    assert.equal(rated.Package.length, 3);
    assert.deepEqual(rated.Package.map((p: Json) => p.PackageWeight.Weight), ['2', '1.5', '4']);
    assert.deepEqual(rated.Package.map((p: Json) => p.Dimensions.Height), ['6', '6', '8']);
    const declared = rated.Package.map((p: Json) => Number(p.PackageServiceOptions.DeclaredValue.MonetaryValue));
    assert.equal(declared.reduce((a: number, b: number) => a + b, 0), 300, `each box declares its share: ${declared}`);
    // The fake's Ground: $11.25 + $0.90 a pound after the first, per box (2, 2 and 4 lb billed), 80% to the account.
    assert.equal(rate.amount.amount, '30.60');
    assert.equal(rate.billable_weight.value, 8);

    // Shipping: a Package per box in order, each with the shipment's reference and its own.
    const shipped = lastCall(shipPath).ShipmentRequest.Shipment;
    assert.equal(shipped.Package.length, 3);
    assert.deepEqual(shipped.Package.map((p: Json) => p.ReferenceNumber.map((r: Json) => r.Value)), [['ups-boxes', 'Box 1: mugs'], ['ups-boxes', 'Box 2: saucers'], ['ups-boxes']]);

    assert.equal(shipment.packages.length, 3);
    const numbers: string[] = shipment.packages.map((p: Json) => p.tracking_number);
    assert.equal(new Set(numbers).size, 3, 'a tracking number per box');
    for (const n of numbers) assert.ok(isValidTrackingNumber('ups', n), `${n} is a valid UPS 1Z`);
    assert.equal(shipment.master_tracking_number, numbers[0], "UPS's shipment number is its first package's 1Z");
    assert.equal(shipment.tracking_number, numbers[0]);
    assert.deepEqual(shipment.postage, rate.amount);

    // Each box's own label is UPS's, recovered as PDF by its own number; the merged file has a page per box in order.
    const recovered = fakes.ups.calls.filter((c) => c.path.startsWith('/api/labels/')).slice(-3).map((c) => (c.body as Json).LabelRecoveryRequest.TrackingNumber);
    assert.deepEqual([...recovered].sort(), [...numbers].sort());
    for (const p of shipment.packages) {
      const pdf = await openPdf(await download(p.label_url), 72);
      assert.equal(pdf.pages, 1);
      assert.ok(pdf.pageTexts[0]!.includes(p.tracking_number), `box ${p.tracking_number}'s label is its own: ${pdf.pageTexts[0]}`);
    }
    const merged = await openPdf(await download(shipment.label_url), 72);
    assert.equal(merged.pages, 3, 'the merged label has one page per box');
    numbers.forEach((n, i) => assert.ok(merged.pageTexts[i]!.includes(n), `page ${i + 1} is box ${i + 1}'s label`));

    // Charged once, for the whole shipment.
    assert.deepEqual(await ledger(shipment.id), [{ kind: 'charge', amount_cents: 3060 }]);
    const cards = stripe.charges().filter((c) => c.metadata.shipd_shipment === shipment.id);
    assert.deepEqual(cards.map((c) => c.captured), [3060], 'the card is charged once');

    const voidsBefore = fakes.ups.calls.filter((c) => c.method === 'DELETE').length;
    const voided = await post(`/shipments/${order.id}/void`, {});
    assert.equal(voided.status, 200, voided.text);
    assert.equal(voided.body.status, 'voided');
    const voids = fakes.ups.calls.filter((c) => c.method === 'DELETE').slice(voidsBefore);
    assert.deepEqual(voids.map((c) => c.path), [`/api/shipments/v2409/void/cancel/${numbers[0]}`], 'one void, by the shipment number, for every box');
    assert.equal(voided.body.packages.length, 3);
    const money = await ledger(shipment.id);
    assert.equal(money.reduce((sum, l) => sum + l.amount_cents, 0), 0, 'the whole postage is refunded');
    assert.deepEqual(stripe.charges().filter((c) => c.metadata.shipd_shipment === shipment.id).map((c) => [c.captured, c.refunded]), [[3060, 3060]]);
    assert.equal((await server.request('GET', `/orders/${order.id}`, { key })).body.status, 'incomplete');
  });

  test('a 2-box ZPL purchase: each box keeps the ZPL UPS printed for its own number, and the merged file holds both', async () => {
    const { shipment } = await shopAndBuy({ order_number: 'ups-boxes-zpl', parcel: undefined, parcels: [box(3), box(5)] }, { services: ['02'] }, { label_format: 'zpl' });
    assert.equal(shipment.label_format, 'zpl');
    assert.equal(lastCall(shipPath).ShipmentRequest.LabelSpecification.LabelImageFormat.Code, 'ZPL');
    const merged = (await download(shipment.label_url)).toString();
    assert.equal(merged.match(/\^XA/g)?.length, 2);
    for (const p of shipment.packages) {
      const own = (await download(p.label_url)).toString();
      assert.ok(own.includes(p.tracking_number) && merged.includes(p.tracking_number), p.tracking_number);
    }
  });

  test("a 2-box PNG purchase: each box's PDF is drawn from its own PNG, not from the shipment's merged one", async () => {
    const { shipment } = await shopAndBuy({ order_number: 'ups-boxes-png', parcel: undefined, parcels: [box(3), box(5)] }, { services: ['03'] }, { label_format: 'png' });
    assert.equal(shipment.label_format, 'png');
    const asPdf = (url: string) => url.replace(/\.png\?/, '.pdf?');
    const whole = await download(asPdf(shipment.label_url));
    for (const p of shipment.packages) {
      const own = await download(asPdf(p.label_url));
      const pdf = await openPdf(own, 72);
      assert.deepEqual([pdf.pages, pdf.width, pdf.height], [1, 288, 432]);
      assert.ok(!own.equals(whole), `box ${p.tracking_number}'s PDF is its own label, not the merged file`);
    }
  });

  const surcharge = (rate: Json, type: string) => rate.surcharges.find((s: Json) => s.type === type)?.amount.amount;

  // Each option UPS offers: where it reached the fake in both requests, and the charge the fake itemized for it.
  const cases: { name: string; options: Json; service?: string; parcels?: Json[]; sent: (shipment: Json) => unknown; expected: unknown; surcharges: Record<string, string> }[] = [
    { name: 'a signature', options: { signature: 'standard' }, sent: (s) => s.Package[0].PackageServiceOptions, expected: { DeliveryConfirmation: { DCISType: '2' } }, surcharges: { signature: '6.00' } },
    { name: "an adult's signature", options: { signature: 'adult' }, sent: (s) => s.Package[0].PackageServiceOptions, expected: { DeliveryConfirmation: { DCISType: '3' } }, surcharges: { signature: '8.00' } },
    { name: 'Saturday delivery by Next Day Air', options: { saturday_delivery: true }, service: '01', sent: (s) => s.ShipmentServiceOptions, expected: { SaturdayDeliveryIndicator: '' }, surcharges: { saturday_delivery: '16.00' } },
    { name: 'additional handling', options: { additional_handling: true }, sent: (s) => s.Package[0].AdditionalHandlingIndicator, expected: '', surcharges: { additional_handling: '25.00' } },
    {
      name: 'dry ice, in pounds rounded up to the tenth',
      options: { dry_ice: { weight: { value: 11, unit: 'oz' } } },
      sent: (s) => s.Package[0].PackageServiceOptions.DryIce,
      expected: { RegulationSet: 'CFR', DryIceWeight: { UnitOfMeasurement: { Code: '01', Description: 'LBS' }, Weight: '0.7' } },
      surcharges: { dry_ice: '5.00' },
    },
    { name: 'carbon neutral', options: { carbon_neutral: true }, sent: (s) => s.ShipmentServiceOptions, expected: { UPScarbonneutralIndicator: '' }, surcharges: { carbon_neutral: '0.50' } },
    {
      name: "alcohol to a consumer, with the adult's signature it needs",
      options: { signature: 'adult', alcohol: { recipient: 'consumer' } },
      sent: (s) => [s.ShipmentServiceOptions, s.Package[0].PackageServiceOptions],
      expected: [{ RestrictedArticles: { AlcoholicBeveragesIndicator: '' } }, { DeliveryConfirmation: { DCISType: '3' } }],
      surcharges: { signature: '8.00', alcohol: '5.00' },
    },
    {
      name: 'a signature on each of two boxes',
      options: { signature: 'standard' },
      parcels: [box(2), box(3)],
      sent: (s) => s.Package.map((p: Json) => p.PackageServiceOptions),
      expected: [{ DeliveryConfirmation: { DCISType: '2' } }, { DeliveryConfirmation: { DCISType: '2' } }],
      surcharges: { signature: '12.00' },
    },
  ];
  for (const c of cases) {
    test(`${c.name} goes to UPS in the rate and the ship request, and its charge shows in the rate's surcharges`, async () => {
      const order = c.parcels ? { order_number: 'ups-options', parcel: undefined, parcels: c.parcels } : { order_number: 'ups-options' };
      const { rate, shipment } = await shopAndBuy(order, { options: c.options, ...(c.service && { services: [c.service] }) });
      assert.deepEqual(shipment.options, c.options);
      assert.deepEqual(c.sent(lastCall(ratePath).RateRequest.Shipment), c.expected, 'in the rate request');
      assert.deepEqual(c.sent(lastCall(shipPath).ShipmentRequest.Shipment), c.expected, 'in the ship request');
      for (const [type, amount] of Object.entries(c.surcharges)) assert.equal(surcharge(rate, type), amount, `${type}: ${JSON.stringify(rate.surcharges)}`);
      assert.deepEqual(shipment.postage, rate.amount, 'UPS billed what it quoted');
      assert.deepEqual(shipment.surcharges, rate.surcharges);
    });
  }

  test('Saturday delivery leaves UPS Ground out of the rate shop; the air services that deliver on Saturdays stay', async () => {
    const o = await post('/orders', orderBody());
    const shop = await post('/rates', { order_id: o.body.id, carriers: ['ups'], options: { saturday_delivery: true } });
    assert.equal(shop.status, 200, shop.text);
    assert.deepEqual(shop.body.rates.map((r: Json) => r.service).sort(), ['01', '02', '14']);
    assert.deepEqual(lastCall(ratePath).RateRequest.Shipment.ShipmentServiceOptions, { SaturdayDeliveryIndicator: '' });
  });

  test('dangerous goods, which UPS needs described material by material, are refused with option_not_supported naming them, and UPS is not asked', async () => {
    const o = await post('/orders', orderBody());
    const before = fakes.ups.calls.length;
    const shop = await post('/rates', { order_id: o.body.id, carriers: ['ups'], options: { hazmat: 'lithium_ion_in_equipment' } });
    assert.equal(shop.status, 200, shop.text);
    assert.deepEqual(shop.body.rates, []);
    assert.equal(shop.body.errors[0].code, 'option_not_supported');
    assert.match(shop.body.errors[0].detail, /lithium-ion batteries/);
    assert.equal(fakes.ups.calls.slice(before).filter((c) => ratePath.test(c.path)).length, 0);
  });

  test("the fake refuses, as UPS's published contract does, a malformed option field", async () => {
    const call = fakes.ups.calls.findLast((c) => shipPath.test(c.path))!;
    const send = (path: string, body: Json) =>
      fetch(`${fakes.ups.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', authorization: String(call.headers.authorization) }, body: JSON.stringify(body) });
    const spoiled = (change: (shipment: Json) => void): Json => {
      const body = structuredClone(call.body as Json);
      change(body.ShipmentRequest.Shipment);
      return body;
    };
    const faults = async (body: Json) => {
      const res = await send(call.path, body);
      assert.equal(res.status, 400);
      return ((await res.json()) as Json).response.errors[0].message as string;
    };
    const refusedBefore = fakes.ups.contractRefusals.length;
    const pkg = (s: Json) => s.Package[0] as Json;
    assert.match(await faults(spoiled((s) => (pkg(s).PackageServiceOptions = { DeliveryConfirmation: { DCISType: '1' } }))), /DCISType/);
    assert.match(await faults(spoiled((s) => (pkg(s).PackageServiceOptions = { DryIce: { DryIceWeight: { UnitOfMeasurement: { Code: '01' }, Weight: '1.0' } } }))), /required property 'RegulationSet'/);
    assert.match(await faults(spoiled((s) => (pkg(s).PackageServiceOptions = { DryIce: { RegulationSet: 'CFR', DryIceWeight: { UnitOfMeasurement: { Code: '01' }, Weight: '0.75' } } }))), /Weight must match pattern/);
    assert.match(await faults(spoiled((s) => (pkg(s).PackageServiceOptions = { DryIce: { RegulationSet: 'CFR', DryIceWeight: { UnitOfMeasurement: { Code: '01' }, Weight: '90.0' } } }))), /cannot be more than package weight/);
    assert.match(await faults(spoiled((s) => (s.ShipmentServiceOptions = { AlcoholicBeveragesIndicator: '' }))), /additional properties \(AlcoholicBeveragesIndicator\)/);
    assert.match(await faults(spoiled((s) => (pkg(s).PackageServiceOptions = { AdditionalHandlingIndicator: '' }))), /additional properties \(AdditionalHandlingIndicator\)/);
    // These refusals were asked for; after() holds every other request to the contract.
    assert.equal(fakes.ups.contractRefusals.splice(refusedBefore).length, 6);
  });
});
