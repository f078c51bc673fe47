import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { problem, startServer, type TestServer } from './harness.ts';
import { austin, orderBody } from './fixtures.ts';
import { createCanvas, loadImage } from '@napi-rs/canvas';
import { decodePng, openPdf } from './barcodes.ts';
import type { CarrierFakes } from './fakes/carriers.ts';
import { type LiveShop, payingTestKey, startLiveShop } from './live-billing.ts';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- tests read whatever JSON came back

/** label_url names SHIPD_PUBLIC_URL's host; the test server listens on a port of its own. */
const here = (server: TestServer, labelUrl: string) => {
  const u = new URL(labelUrl);
  return `${server.url}${u.pathname}${u.search}`;
};

async function download(server: TestServer, labelUrl: string): Promise<Buffer> {
  const res = await fetch(here(server, labelUrl));
  assert.equal(res.status, 200, labelUrl);
  return Buffer.from(await res.arrayBuffer());
}

/** A PNG's size in pixels, from its IHDR chunk. */
const pngSize = (png: Buffer) => ({ width: png.readUInt32BE(16), height: png.readUInt32BE(20) });

/** A ZPL label's print width and label length, in dots. */
const zplSize = (zpl: Buffer) => ({ width: Number(/\^PW(\d+)/.exec(zpl.toString())?.[1]), length: Number(/\^LL(\d+)/.exec(zpl.toString())?.[1]) });

/** FedEx labels need the shipper's phone live; test mode takes it too. */
const anOrder = (overrides: Record<string, unknown> = {}) => orderBody({ ship_from: { ...austin, phone: '512-555-0100' }, ...overrides });

describe('label sizes and references in test mode', () => {
  let server: TestServer;
  let key: string;
  before(async () => {
    server = await startServer();
    key = await payingTestKey(server);
  });
  after(() => server.close());

  async function rateOf(carrier: string, overrides: Record<string, unknown> = {}): Promise<{ order: Json; rate: Json }> {
    const order = await server.request('POST', '/orders', { key, body: anOrder(overrides) });
    assert.equal(order.status, 201, order.text);
    const shop = await server.request('POST', '/rates', { key, body: { order_id: order.body.id } });
    assert.equal(shop.status, 200, shop.text);
    return { order: order.body, rate: shop.body.rates.find((r: Json) => r.carrier === carrier) };
  }

  async function buy(carrier: string, ask: Json): Promise<Json> {
    const { order, rate } = await rateOf(carrier);
    const res = await server.request('POST', '/shipments', { key, body: { order_id: order.id, rate_id: rate.id, ...ask } });
    assert.equal(res.status, 201, res.text);
    return res.body;
  }

  test('by default a 4×6 label printing the order number as its reference', async () => {
    const shp = await buy('usps', {});
    assert.deepEqual([shp.label_size, shp.label_resolution, shp.references], ['4x6', null, ['1042']]);
    const pdf = await openPdf(await download(server, shp.label_url));
    assert.deepEqual([pdf.width, pdf.height], [288, 432]);
    assert.ok(pdf.text.includes('REF: 1042'), pdf.text);
  });

  test('letter and 4×8 PDFs: the page in the MediaBox, the references printed, the same size on every download', async () => {
    const letter = await buy('fedex', { label_size: 'letter', references: ['PO-88213', 'INV-2026-0042'] });
    assert.deepEqual([letter.label_size, letter.references], ['letter', ['PO-88213', 'INV-2026-0042']]);
    const bytes = await download(server, letter.label_url);
    assert.match(bytes.toString('latin1'), /\/MediaBox \[0 0 612 792\]/);
    const sheet = await openPdf(bytes);
    assert.deepEqual([sheet.pages, sheet.width, sheet.height], [1, 612, 792]);
    for (const text of ['REF 1: PO-88213', 'REF 2: INV-2026-0042', 'FOLD HERE', 'SAMPLE']) assert.ok(sheet.text.includes(text), `${text} in ${sheet.text}`);
    assert.ok(!sheet.text.includes('REF: 1042'), 'the references asked replace the order number');
    // The label stands on the top half, turned: its runs all lie above the fold, and its barcodes still scan.
    assert.ok(sheet.runs.filter((r) => r.text.startsWith('REF')).every((r) => r.y < 396));
    const scanned = await decodePng(sheet.raster);
    assert.ok(scanned.some((d) => d.text.includes(letter.tracking_number)), JSON.stringify(scanned));
    const png = await buy('fedex', { label_format: 'png', label_size: 'letter' });
    assert.ok((await decodePng(await download(server, png.label_url))).some((d) => d.text.includes(png.tracking_number)));

    const again = await server.request('GET', `/shipments/${letter.id}`, { key });
    assert.equal(again.body.label_size, 'letter');
    assert.deepEqual(await download(server, again.body.label_url), bytes);

    const tall = await buy('fedex', { label_size: '4x8', references: ['PO-88213'] });
    const tab = await openPdf(await download(server, tall.label_url));
    assert.deepEqual([tab.width, tab.height], [288, 576]);
    assert.ok(tab.text.includes('REF: PO-88213') && tab.text.includes('REFERENCES'), tab.text);
  });

  test('PNG labels are drawn at 203 dpi on the size asked', async () => {
    const tall = await buy('fedex', { label_format: 'png', label_size: '4x8' });
    assert.deepEqual(pngSize(await download(server, tall.label_url)), { width: 812, height: 1624 });
    const letter = await buy('fedex', { label_format: 'png', label_size: 'letter' });
    assert.deepEqual(pngSize(await download(server, letter.label_url)), { width: 1726, height: 2233 });
  });

  test('ZPL labels on 4×8 stock and at 300 dpi', async () => {
    const ups = await buy('ups', { label_format: 'zpl', label_size: '4x8' });
    assert.deepEqual([ups.label_size, ups.label_resolution], ['4x8', 203]);
    assert.deepEqual(zplSize(await download(server, ups.label_url)), { width: 812, length: 1624 });
    const usps = await buy('usps', { label_format: 'zpl', label_resolution: 300 });
    assert.deepEqual(zplSize(await download(server, usps.label_url)), { width: 1200, length: 1800 });
    const fedex = await buy('fedex', { label_format: 'zpl', label_size: '4x8', label_resolution: 300, references: ['PO-1', 'INV-2', 'DEPT-3'] });
    const zpl = await download(server, fedex.label_url);
    assert.deepEqual(zplSize(zpl), { width: 1200, length: 2400 });
    for (const ref of ['REF 1: PO-1', 'REF 2: INV-2', 'REF 3: DEPT-3']) assert.ok(zpl.toString().includes(ref), ref);
  });

  test('an ask that breaks its own rules is a 400 with a pointer, before anything is bought', async () => {
    const { order, rate } = await rateOf('fedex');
    const ask = (extra: Json) => server.request('POST', '/shipments', { key, body: { order_id: order.id, rate_id: rate.id, ...extra } });
    const pointers = async (extra: Json) => problem(await ask(extra), 400, 'validation_failed').errors.map((e: Json) => e.pointer);
    assert.deepEqual(await pointers({ references: ['a', 'b', 'c', 'd'] }), ['/references']);
    assert.deepEqual(await pointers({ references: ['x'.repeat(36)] }), ['/references/0']);
    assert.deepEqual(await pointers({ label_format: 'zpl', label_size: 'letter' }), ['/label_size']);
    assert.deepEqual(await pointers({ label_format: 'pdf', label_resolution: 300 }), ['/label_resolution']);
    assert.deepEqual(await pointers({ label_size: 'a4' }), ['/label_size']);
    const after = await server.request('GET', `/orders/${order.id}`, { key });
    assert.equal(after.body.status, 'incomplete');
  });

  test("what the carrier does not print is a 422 naming the carrier's limit, with nothing stored; without a rate, only carriers that print it are chosen", async () => {
    const usps = await rateOf('usps');
    const tall = problem(await server.request('POST', '/shipments', { key, body: { order_id: usps.order.id, rate_id: usps.rate.id, label_size: '4x8' } }), 422, 'not_supported_by_carrier');
    assert.equal(tall.errors[0].pointer, '/label_size');
    assert.match(tall.detail, /USPS prints PDF labels 4×6 only \(labelType, or its 4×6 label on a letter sheet\), not 4×8/);
    const long = problem(await server.request('POST', '/shipments', { key, body: { order_id: usps.order.id, rate_id: usps.rate.id, references: ['x'.repeat(31)] } }), 422, 'not_supported_by_carrier');
    assert.equal(long.errors[0].pointer, '/references/0');
    const ups = await rateOf('ups');
    const three = problem(await server.request('POST', '/shipments', { key, body: { order_id: ups.order.id, rate_id: ups.rate.id, references: ['a', 'b', 'c'] } }), 422, 'not_supported_by_carrier');
    assert.equal(three.errors[0].pointer, '/references/2');
    const stored = await server.services.database.db.selectFrom('shipments').select('id').where('order_id', 'in', [usps.order.id, ups.order.id]).execute();
    assert.deepEqual(stored, []);

    const cheapest = await server.request('POST', '/shipments', { key, body: { order_id: usps.order.id, label_size: '4x8' } });
    assert.equal(cheapest.status, 201, cheapest.text);
    assert.equal(cheapest.body.carrier, 'fedex');
  });

  test('UPS and USPS letter sheets in test mode: the 4×6 label turned above the fold, its barcodes scanning', async () => {
    for (const carrier of ['ups', 'usps']) {
      const letter = await buy(carrier, { label_size: 'letter' });
      const sheet = await openPdf(await download(server, letter.label_url));
      assert.deepEqual([sheet.pages, sheet.width, sheet.height], [1, 612, 792], carrier);
      assert.ok(sheet.text.includes('FOLD HERE'), sheet.text);
      const scanned = await decodePng(sheet.raster);
      assert.ok(scanned.some((d) => d.text.includes(letter.tracking_number)), `${carrier}: ${JSON.stringify(scanned)}`);
    }
  });

  test('a return label takes its own size and references', async () => {
    const outbound = await buy('fedex', {});
    const res = await server.request('POST', `/shipments/${outbound.order_id}/return`, { key, body: { label_size: '4x8', references: ['RMA-2291'] } });
    assert.equal(res.status, 201, res.text);
    assert.deepEqual([res.body.is_return, res.body.label_size, res.body.references], [true, '4x8', ['RMA-2291']]);
    const pdf = await openPdf(await download(server, res.body.label_url));
    assert.deepEqual([pdf.height, pdf.text.includes('REF: RMA-2291')], [576, true]);
  });
});

describe('label sizes and references with live keys (fake carrier servers)', () => {
  let fakes: CarrierFakes;
  let server: TestServer;
  let key: string;
  let live: LiveShop;
  before(async () => {
    live = await startLiveShop();
    ({ server, fakes, key } = live);
  });
  after(() => live.close());

  async function buyLive(carrier: string, ask: Json): ReturnType<TestServer['request']> {
    const order = await server.request('POST', '/orders', { key, body: anOrder() });
    const shop = await server.request('POST', '/rates', { key, body: { order_id: order.body.id } });
    const rate = shop.body.rates.find((r: Json) => r.carrier === carrier);
    assert.ok(rate, shop.text);
    return server.request('POST', '/shipments', { key, body: { order_id: order.body.id, rate_id: rate.id, ...ask } });
  }

  const lastCall = (calls: { path: string; body: unknown }[], path: RegExp): Json => calls.findLast((c) => path.test(c.path))!.body as Json;

  test("FedEx is asked for the letter sheet's top half, the 4×8 ZPL roll at 300 dpi, and the references as its customer references", async () => {
    const letter = await buyLive('fedex', { label_size: 'letter', references: ['PO-88213', 'INV-2026-0042'] });
    assert.equal(letter.status, 201, letter.text);
    assert.deepEqual([letter.body.label_size, letter.body.references], ['letter', ['PO-88213', 'INV-2026-0042']]);
    let sent = lastCall(fakes.fedex.calls, /^\/ship\/v1\/shipments$/).requestedShipment;
    assert.deepEqual(sent.labelSpecification, { imageType: 'PDF', labelStockType: 'PAPER_85X11_TOP_HALF_LABEL', labelFormatType: 'COMMON2D' });
    assert.deepEqual(sent.requestedPackageLineItems[0].customerReferences, [
      { customerReferenceType: 'CUSTOMER_REFERENCE', value: 'PO-88213' },
      { customerReferenceType: 'P_O_NUMBER', value: 'INV-2026-0042' },
    ]);

    const zpl = await buyLive('fedex', { label_format: 'zpl', label_size: '4x8', label_resolution: 300 });
    assert.equal(zpl.status, 201, zpl.text);
    assert.deepEqual([zpl.body.label_size, zpl.body.label_resolution, zpl.body.references], ['4x8', 300, ['1042']]);
    sent = lastCall(fakes.fedex.calls, /^\/ship\/v1\/shipments$/).requestedShipment;
    assert.deepEqual(sent.labelSpecification, { imageType: 'ZPLII', labelStockType: 'STOCK_4X8', labelFormatType: 'COMMON2D', resolution: 300 });
    assert.deepEqual(sent.requestedPackageLineItems[0].customerReferences, [{ customerReferenceType: 'CUSTOMER_REFERENCE', value: '1042' }]);
  });

  test("a letter sheet from USPS and UPS is the carrier's own 4×6 label, asked as 4×6 and placed turned above the fold", async () => {
    const usps = await buyLive('usps', { label_size: 'letter' });
    assert.equal(usps.status, 201, usps.text);
    assert.equal(usps.body.label_size, 'letter');
    assert.equal(lastCall(fakes.usps.calls, /^\/labels\/v3\/label$/).imageInfo.imageType, 'PDF');
    const sheet = await openPdf(await download(server, usps.body.label_url));
    assert.deepEqual([sheet.pages, sheet.width, sheet.height], [1, 612, 792]);
    assert.ok(sheet.text.includes('FOLD HERE'), sheet.text);
    // USPS's page, embedded whole: its text is there, turned so that its top edge runs along the sheet's right side.
    const top = sheet.runs.find((r) => r.text.includes(`USPS label ${usps.body.tracking_number}`));
    assert.ok(top, JSON.stringify(sheet.runs));
    assert.ok(top.x > 306 && top.y < 396, JSON.stringify(top));

    const png = await buyLive('usps', { label_format: 'png', label_size: 'letter' });
    assert.equal(png.status, 201, png.text);
    const image = await download(server, png.body.label_url);
    assert.deepEqual(pngSize(image), { width: 1726, height: 2233 });
    // The fake's label has a black band along its top: turned clockwise, it is the rightmost column of the label.
    const canvas = createCanvas(1726, 2233);
    const ctx = canvas.getContext('2d');
    ctx.drawImage(await loadImage(image), 0, 0);
    const dark = (x: number, y: number) => ctx.getImageData(x, y, 1, 1).data[0]! < 128;
    const [left, right] = [(1726 - 1218) / 2 + 10, (1726 + 1218) / 2 - 10];
    assert.deepEqual([dark(right, 558), dark(left, 558), dark(863, 2000)], [true, false, false]);

    const ups = await buyLive('ups', { label_size: 'letter' });
    assert.equal(ups.status, 201, ups.text);
    const sent = lastCall(fakes.ups.calls, /\/ship$/).ShipmentRequest;
    assert.equal(sent.LabelSpecification.LabelImageFormat.Code, 'GIF');
    const upsSheet = await openPdf(await download(server, ups.body.label_url));
    assert.deepEqual([upsSheet.width, upsSheet.height], [612, 792]);
  });

  test('UPS is asked for 4×8 ZPL stock and the references as the package ReferenceNumber', async () => {
    const res = await buyLive('ups', { label_format: 'zpl', label_size: '4x8', references: ['PO-88213', 'INV-2026-0042'] });
    assert.equal(res.status, 201, res.text);
    const sent = lastCall(fakes.ups.calls, /\/ship$/).ShipmentRequest;
    assert.deepEqual(sent.LabelSpecification.LabelStockSize, { Height: '8', Width: '4' });
    assert.deepEqual(sent.Shipment.Package[0].ReferenceNumber, [{ Value: 'PO-88213' }, { Value: 'INV-2026-0042' }]);
  });

  test('USPS is asked for 300 dpi ZPL and a customerReference each; a size it does not print is refused before it is asked', async () => {
    const res = await buyLive('usps', { label_format: 'zpl', label_resolution: 300, references: ['PO-88213', 'INV-2026-0042', 'DEPT-7'] });
    assert.equal(res.status, 201, res.text);
    const sent = lastCall(fakes.usps.calls, /^\/labels\/v3\/label$/);
    assert.equal(sent.imageInfo.imageType, 'ZPL300DPI');
    assert.deepEqual(sent.packageDescription.customerReference, ['PO-88213', 'INV-2026-0042', 'DEPT-7'].map((referenceNumber) => ({ referenceNumber, printReferenceNumber: true })));

    const labels = fakes.usps.calls.filter((c) => c.path === '/labels/v3/label').length;
    problem(await buyLive('usps', { label_size: '4x8' }), 422, 'not_supported_by_carrier');
    assert.equal(fakes.usps.calls.filter((c) => c.path === '/labels/v3/label').length, labels, 'USPS was not asked');
  });
});
