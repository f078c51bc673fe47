import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createCanvas, loadImage } from '@napi-rs/canvas';
import { decodePng, decodeRegion, openPdf, type Decoded } from '../../test/barcodes.ts';
import { isValidTrackingNumber } from '../carriers/tracking-numbers.ts';
import type { LabelData } from './label-data.ts';
import { labelBase as base, sampleLabels as labels } from '../../test/fixtures.ts';
import { layoutLabel, type BarcodeItem } from './layout.ts';
import { labelContentTypes } from './label-data.ts';
import { renderLabel } from './render.ts';

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

/** Every pixel opaque and either black or white, and most of them white: ink on a white label, not on glass. */
async function checkBlackOnWhite(png: Buffer): Promise<void> {
  const image = await loadImage(png);
  const canvas = createCanvas(image.width, image.height);
  const ctx = canvas.getContext('2d');
  ctx.drawImage(image, 0, 0);
  const { data } = ctx.getImageData(0, 0, image.width, image.height);
  let white = 0;
  for (let i = 0; i < data.length; i += 4) {
    if (data[i + 3] !== 255) assert.fail(`pixel ${i / 4} is not opaque`);
    if (data[i] !== data[i + 1] || data[i] !== data[i + 2] || (data[i] !== 0 && data[i] !== 255)) assert.fail(`pixel ${i / 4} is grey or coloured`);
    if (data[i] === 255) white++;
  }
  assert.ok(white / (data.length / 4) > 0.6, 'a white background');
}

describe('labels that scan', () => {
  for (const d of labels) {
    test(`${d.carrier}: the PNG is 4×6 at 203 dpi and its barcodes read back`, async () => {
      assert.ok(isValidTrackingNumber(d.carrier, d.trackingNumber));
      const png = await renderLabel(d, 'png');
      assert.deepEqual([...png.subarray(0, 8)], [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
      assert.equal(png.readUInt32BE(16), 812);
      assert.equal(png.readUInt32BE(20), 1218);
      await checkBlackOnWhite(png);
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
      assert.ok(!opened.text.includes('USPS USPS'), 'the banner names the carrier once');
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
      assert.ok(zpl.includes('^FDSAMPLE - DO NOT SHIP^FS'), 'the sample mark, in ASCII for the printer\'s font');
      if (d.carrier === 'ups') assert.match(zpl, new RegExp(`\\^BD2,1,1\\^FH\\^FD003840941051804\\[\\)>_1E01_1D96${d.trackingNumber}_1DUPSN`));
      // GS1-128 as Zebra's guide chains AIs: subset C, FNC1 (>8) before 420 and before the tracking number.
      if (d.carrier === 'usps') assert.ok(zpl.includes(`^FD>;>8420941051804>8${d.trackingNumber}^FS`), zpl);
      if (d.carrier === 'fedex') assert.match(zpl, new RegExp(`\\^B7N,[^\\n]*\\^FD${d.trackingNumber} `));
      assert.equal(zpl, (await renderLabel(d, 'zpl')).toString('utf8'), 'the same label twice is the same ZPL');
    });
  }

  for (const d of labels) {
    test(`${d.carrier}: a live return label says RETURN and has no SAMPLE mark`, async () => {
      const live = { ...d, isReturn: true, sample: false };
      const pdf = await openPdf(await renderLabel(live, 'pdf'), 72);
      assert.ok(pdf.text.includes('RETURN'), pdf.text);
      assert.ok(!pdf.text.includes('SAMPLE'), pdf.text);
      assert.ok(pdf.text.replace(/\s+/g, '').includes(d.trackingNumber), pdf.text);
      const zpl = (await renderLabel(live, 'zpl')).toString();
      assert.ok(zpl.includes('^FDRETURN^FS'));
      assert.ok(!zpl.includes('SAMPLE'));
      const plain = await openPdf(await renderLabel({ ...d, sample: false }, 'pdf'), 72);
      assert.ok(!plain.text.includes('RETURN') && !plain.text.includes('SAMPLE'), plain.text);
    });
  }

  test('no text a client sends can end a ZPL label early or start a command', async () => {
    for (const name of ['a^XZ', 'Mallory^XZ^XA~JR']) {
      const hostile = { ...labels[2]!, to: { ...base.to, name, street1: '1 Main_St ^FS' }, references: ['~JA^XZ'] };
      const zpl = (await renderLabel(hostile, 'zpl')).toString('utf8');
      assert.ok(zpl.startsWith('^XA') && zpl.trimEnd().endsWith('^XZ'));
      assert.equal(zpl.match(/\^XA/g)!.length, 1);
      assert.equal(zpl.match(/\^XZ/g)!.length, 1);
      assert.ok(!zpl.includes('~'), 'no control command');
      assert.ok(zpl.includes(`^FH^FD${name.toUpperCase().replaceAll('^', '_5E').replaceAll('~', '_7E')}^FS`), 'escaped as ^FH hex');
    }
  });

  test('names in scripts Helvetica lacks print as their nearest Latin letters, not as stray bytes', async () => {
    const d = { ...labels[0]!, to: { ...base.to, name: 'Łucja Zoë Ŝmith 東京' } };
    const pdf = await openPdf(await renderLabel(d, 'pdf'), 72);
    assert.ok(pdf.text.includes('LUCJA ZOË SMITH ??'), pdf.text);
    assert.ok((await renderLabel(d, 'zpl')).toString().includes('^FDLUCJA ZO_C3_8B SMITH ??^FS'));
  });

  test('lines too long for the label are cut short with an ellipsis', async () => {
    const d = { ...labels[1]!, to: { ...base.to, company: 'W'.repeat(100) }, references: ['R'.repeat(200)] };
    const pdf = await openPdf(await renderLabel(d, 'pdf'), 72);
    assert.match(pdf.text, /\nW{10,}…\n/);
    assert.match(pdf.text, /REF: R{10,}…/);
  });

  test('each format is served as its own media type', () => {
    assert.deepEqual(labelContentTypes, { pdf: 'application/pdf', zpl: 'application/zpl', png: 'image/png' });
  });

  test('the same label renders to the same PDF bytes', async () => {
    assert.deepEqual(await renderLabel(labels[1]!, 'pdf'), await renderLabel(labels[1]!, 'pdf'));
  });
});

describe('labels abroad', () => {
  const london = { name: 'Charles Babbage', street1: '10 Downing Street', city: 'London', zip: 'SW1A 2AA', country: 'GB', phone: '+44 20 7946 0000' };
  const abroad: LabelData[] = [
    { ...base, to: london, carrier: 'ups', serviceCode: '07', serviceName: 'UPS Worldwide Express', trackingNumber: '1ZSHPD010704010609' },
    { ...base, to: london, carrier: 'usps', serviceCode: 'PRIORITY_MAIL_INTERNATIONAL', serviceName: 'Priority Mail International', trackingNumber: 'CP123456785US' },
    { ...base, to: london, carrier: 'fedex', serviceCode: 'FEDEX_INTERNATIONAL_PRIORITY', serviceName: 'FedEx International Priority', trackingNumber: '794953535000' },
  ];
  for (const d of abroad) {
    test(`${d.carrier}: the address ends with the country's name, and the barcodes carry the postal code and country`, async () => {
      const opened = await openPdf(await renderLabel(d, 'pdf'));
      assert.ok(opened.text.includes('LONDON SW1A 2AA') && opened.text.includes('UNITED KINGDOM'), opened.text);
      const found = await decodePng(opened.raster);
      const texts = found.map((f) => `${f.format}: ${JSON.stringify(f.text)}`).join('; ');
      assert.ok(found.some((f) => f.format === 'Code128' && f.text === d.trackingNumber), `Code 128 of the tracking number in ${texts}`);
      if (d.carrier === 'usps') assert.equal(found.filter((f) => f.format === 'Code128').length, 1, `no IMpb abroad: ${texts}`);
      if (d.carrier === 'fedex') assert.ok(found.some((f) => f.format === 'PDF417' && f.text.includes('SW1A2AA') && f.text.endsWith(' GB')), texts);
      if (d.carrier === 'ups') {
        const item = layoutLabel(d).find((i): i is BarcodeItem => i.kind === 'barcode' && i.symbol.type === 'maxicode')!;
        assert.equal(item.symbol.mode, 3);
        const maxi = (await decodeRegion(opened.raster, item)).find((f) => f.format === 'MaxiCode');
        // Mode 3's primary message: the postal code's first six characters, ISO 3166 numeric 826, service 007.
        assert.ok(maxi && maxi.text.includes('SW1A2A') && maxi.text.includes('826') && maxi.text.includes(d.trackingNumber), maxi?.text);
      }
    });
  }
});
