import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { PDFDocument, PDFName, PDFRawStream } from 'pdf-lib';
import { startServer, type TestServer } from './harness.ts';
import { austin, orderBody } from './fixtures.ts';
import { startCarrierFakes, type CarrierFakes } from './fakes/carriers.ts';
import { payingLiveKey, startBilling } from './live-billing.ts';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- tests read whatever JSON came back

let fakes: CarrierFakes;
let server: TestServer;
let key: string;
const billing = await startBilling();

before(async () => {
  fakes = await startCarrierFakes();
  server = await startServer({ env: { ...fakes.env(['ups']), ...billing.env } });
  key = await payingLiveKey(server);
});
after(async () => {
  await server.close();
  await fakes.close();
  await billing.stripe.close();
});

async function fetchLabel(url: string): Promise<Buffer> {
  const u = new URL(url);
  const res = await fetch(`${server.url}${u.pathname}${u.search}`);
  assert.equal(res.status, 200);
  return Buffer.from(await res.arrayBuffer());
}

/** The image XObjects a PDF's pages draw: a carrier's raster label placed on a page has exactly one. */
async function pdfImages(bytes: Buffer): Promise<number> {
  const pdf = await PDFDocument.load(bytes);
  return pdf.context
    .enumerateIndirectObjects()
    .filter(([, o]) => o instanceof PDFRawStream && o.dict.get(PDFName.of('Subtype')) === PDFName.of('Image')).length;
}

test("a UPS label asked as PDF whose label recovery fails is UPS's own image on a PDF page, never a label shipd drew", async () => {
  const o = await server.request('POST', '/orders', { key, body: orderBody({ ship_from: { ...austin, phone: '512-555-0100' } }) });
  assert.equal(o.status, 201, o.text);
  const shop = await server.request('POST', '/rates', { key, body: { order_id: o.body.id, carriers: ['ups'] } });
  assert.equal(shop.status, 200, shop.text);
  const ground = shop.body.rates.find((r: Json) => r.service === '03');
  fakes.ups.failNext({ kind: 'envelope', status: 400, code: '120521', message: 'Label recovery is not available for this shipment' }, '/api/labels/');
  const bought = await server.request('POST', '/shipments', { key, body: { order_id: o.body.id, rate_id: ground.id, label_format: 'pdf' }, headers: { 'idempotency-key': 'ups-recovery-down' } });
  assert.equal(bought.status, 201, bought.text);
  assert.equal(bought.body.label_format, 'pdf');
  const pdf = await fetchLabel(bought.body.label_url);
  assert.equal(pdf.subarray(0, 5).toString(), '%PDF-');
  assert.ok((await pdfImages(pdf)) > 0, "the PDF holds UPS's raster label");
  const png = await fetchLabel(bought.body.label_url.replace('.pdf?', '.png?'));
  assert.deepEqual([...png.subarray(0, 4)], [0x89, 0x50, 0x4e, 0x47]);
  const zpl = new URL(bought.body.label_url.replace('.pdf?', '.zpl?'));
  const refused = await fetch(`${server.url}${zpl.pathname}${zpl.search}`);
  assert.equal(refused.status, 409);
  assert.equal(((await refused.json()) as Json).code, 'label_format_unavailable');
});

test('a live label is served as the carrier sold it and never redrawn by shipd in another format', async () => {
  const o = await server.request('POST', '/orders', { key, body: orderBody({ ship_from: { ...austin, phone: '512-555-0100' } }) });
  const shop = await server.request('POST', '/rates', { key, body: { order_id: o.body.id, carriers: ['ups'] } });
  const ground = shop.body.rates.find((r: Json) => r.service === '03');
  const bought = await server.request('POST', '/shipments', { key, body: { order_id: o.body.id, rate_id: ground.id, label_format: 'zpl' }, headers: { 'idempotency-key': 'ups-zpl' } });
  assert.equal(bought.status, 201, bought.text);
  assert.equal(bought.body.label_format, 'zpl');
  assert.match((await fetchLabel(bought.body.label_url)).toString('latin1'), /\^XA/);
  for (const other of ['pdf', 'png']) {
    const url = new URL(bought.body.label_url.replace('.zpl?', `.${other}?`));
    const res = await fetch(`${server.url}${url.pathname}${url.search}`);
    assert.equal(res.status, 409, other);
    const body = (await res.json()) as Json;
    assert.equal(body.code, 'label_format_unavailable');
    assert.match(body.detail, /sold by the carrier as ZPL/);
  }
});
