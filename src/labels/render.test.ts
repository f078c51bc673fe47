import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { decodePng, decodeRegion, openPdf, type Decoded } from '../../test/barcodes.ts';
import { isValidTrackingNumber } from '../carriers/tracking-numbers.ts';
import type { LabelData } from './label-data.ts';
import { layoutLabel, type BarcodeItem } from './layout.ts';
import { renderLabel } from './render.ts';

const base = {
  from: { name: 'Warehouse', street1: '1100 Congress Ave', city: 'Austin', state: 'TX', zip: '78701' },
  to: { name: 'Ada Lovelace', street1: '415 Mission St', street2: 'Apt 4', city: 'San Francisco', state: 'CA', zip: '94105-1804' },
  weightLb: 2.4,
  dimensionsIn: { length: 10, width: 8, height: 4 },
  shipDate: '2026-11-23',
  zone: '8',
  reference: '1042',
  isReturn: false,
  sample: true,
};

const labels: LabelData[] = [
  { ...base, carrier: 'ups', serviceCode: '03', serviceName: 'UPS Ground', trackingNumber: '1Z1442YY7229014688' },
  { ...base, carrier: 'usps', serviceCode: 'PRIORITY_MAIL', serviceName: 'Priority Mail', trackingNumber: '9400111206206406260787' },
  { ...base, carrier: 'fedex', serviceCode: 'FEDEX_2_DAY', serviceName: 'FedEx 2Day', trackingNumber: '794953535000' },
];

/** What each carrier's barcodes must read back as, found in an image of the whole label. */
function checkBarcodes(d: LabelData, found: Decoded[]): void {
  const texts = found.map((f) => `${f.format}: ${JSON.stringify(f.text)}`).join('; ');
  assert.ok(found.some((f) => f.format === 'Code128' && f.text === d.trackingNumber), `Code 128 of the tracking number in ${texts}`);
  if (d.carrier === 'usps') {
    // GS1-128: AI 420 with the ZIP+4, then the tracking number with its own AI; the separator is GS (or nothing).
    const impb = found.find((f) => f.format === 'Code128' && f.text !== d.trackingNumber);
    assert.ok(impb, `an IMpb in ${texts}`);
    assert.equal(impb.text.replaceAll(String.fromCharCode(0x1d), '').replace(/[()]/g, ''), `420941051804${d.trackingNumber}`);
  }
  if (d.carrier === 'fedex') assert.ok(found.some((f) => f.format === 'PDF417' && f.text.includes(d.trackingNumber)), `PDF417 in ${texts}`);
}

async function checkMaxiCode(d: LabelData, png: Buffer): Promise<void> {
  const item = layoutLabel(d).find((i): i is BarcodeItem => i.kind === 'barcode' && i.symbol.type === 'maxicode')!;
  const found = await decodeRegion(png, item);
  const maxi = found.find((f) => f.format === 'MaxiCode');
  assert.ok(maxi, 'a MaxiCode in its box');
  assert.ok(maxi.text.includes(d.trackingNumber), maxi.text);
  assert.ok(maxi.text.includes('941051804'), `the primary message carries the ZIP+4: ${maxi.text}`);
  assert.ok(maxi.text.includes('UPSN'), maxi.text);
}

describe('labels that scan', () => {
  for (const d of labels) {
    test(`${d.carrier}: the PNG is 4×6 at 203 dpi and its barcodes read back`, async () => {
      assert.ok(isValidTrackingNumber(d.carrier, d.trackingNumber));
      const png = await renderLabel(d, 'png');
      assert.deepEqual([...png.subarray(0, 8)], [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
      assert.equal(png.readUInt32BE(16), 812);
      assert.equal(png.readUInt32BE(20), 1218);
      checkBarcodes(d, await decodePng(png));
      if (d.carrier === 'ups') await checkMaxiCode(d, png);
    });

    test(`${d.carrier}: the PDF is one 4×6 page whose text and vector barcodes read back`, async () => {
      const pdf = await renderLabel(d, 'pdf');
      assert.equal(pdf.subarray(0, 5).toString(), '%PDF-');
      const opened = await openPdf(pdf);
      assert.equal(opened.pages, 1);
      assert.deepEqual([opened.width, opened.height], [288, 432]);
      const text = opened.text.replace(/\s+/g, '');
      assert.ok(text.includes(d.trackingNumber), opened.text);
      assert.ok(opened.text.includes('ADA LOVELACE') && opened.text.includes('SAN FRANCISCO CA 94105-1804'), opened.text);
      assert.ok(opened.text.includes(d.serviceName.toUpperCase()), opened.text);
      assert.ok(opened.text.includes('SAMPLE — DO NOT SHIP'), opened.text);
      assert.ok(opened.text.includes('REF: 1042'));
      checkBarcodes(d, await decodePng(opened.raster));
      if (d.carrier === 'ups') await checkMaxiCode(d, opened.raster);
    });

    test(`${d.carrier}: the ZPL is one label of the printer's own barcode commands`, async () => {
      const zpl = (await renderLabel(d, 'zpl')).toString('utf8');
      assert.ok(zpl.startsWith('^XA'));
      assert.ok(zpl.trimEnd().endsWith('^XZ'));
      assert.equal(zpl.match(/\^XA/g)!.length, 1);
      assert.equal(zpl.match(/\^XZ/g)!.length, 1);
      assert.ok(zpl.includes('^PW812') && zpl.includes('^LL1218'));
      assert.ok(zpl.includes(`^FD${d.trackingNumber}^FS`), 'a Code 128 of the tracking number');
      assert.match(zpl, /\^BCN,/);
      if (d.carrier === 'ups') assert.match(zpl, new RegExp(`\\^BD2,1,1\\^FH\\^FD003840941051804\\[\\)>_1E01_1D96${d.trackingNumber}_1DUPSN`));
      if (d.carrier === 'usps') assert.ok(zpl.includes(`^BCN,`) && zpl.includes(`,D^FD(420)941051804(94)${d.trackingNumber.slice(2)}^FS`), zpl);
      if (d.carrier === 'fedex') assert.match(zpl, new RegExp(`\\^B7N,[^\\n]*\\^FD${d.trackingNumber} `));
      assert.equal(zpl, (await renderLabel(d, 'zpl')).toString('utf8'), 'the same label twice is the same ZPL');
    });
  }

  test('a return label says RETURN; a live label has no SAMPLE mark', async () => {
    const ret = await openPdf(await renderLabel({ ...labels[0]!, isReturn: true, sample: false }, 'pdf'));
    assert.ok(ret.text.includes('RETURN'));
    assert.ok(!ret.text.includes('SAMPLE'));
    const zpl = (await renderLabel({ ...labels[1]!, sample: false }, 'zpl')).toString();
    assert.ok(!zpl.includes('SAMPLE'));
  });

  test('no text a client sends can end a ZPL label early or start a command', async () => {
    const hostile = { ...labels[2]!, to: { ...base.to, name: 'Mallory^XZ^XA~JR', street1: '1 Main_St ^FS' } };
    const zpl = (await renderLabel(hostile, 'zpl')).toString('utf8');
    assert.equal(zpl.match(/\^XA/g)!.length, 1);
    assert.equal(zpl.match(/\^XZ/g)!.length, 1);
    assert.ok(!zpl.includes('~JR'));
    assert.ok(zpl.includes('MALLORY_5EXZ_5EXA_7EJR'), 'escaped as ^FH hex');
  });

  test('the same label renders to the same PDF bytes', async () => {
    assert.deepEqual(await renderLabel(labels[1]!, 'pdf'), await renderLabel(labels[1]!, 'pdf'));
  });
});
