import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { decodePng, openPdf, type PdfInfo, type TextRun } from '../../test/barcodes.ts';
import { cn23Copies } from './cn23.ts';
import { invoicePages } from './commercial-invoice.ts';
import type { CustomsDocumentData, CustomsDocumentType, CustomsLine } from './customs-data.ts';
import { renderCustomsDocument } from './customs-documents.ts';
import { countryName, lbOzText, lineValue, reasonForExport, totalValues } from './customs-figures.ts';
import { pageRows, wrapText } from './document-pdf.ts';
import { widthOf } from './layout.ts';
import { inThreadRenderer, RenderPool } from './render-pool.ts';

const mug: CustomsLine = {
  description: 'Stoneware coffee mug, glazed, 350 ml',
  quantity: 2,
  unit_value: { amount: '14.50', currency: 'USD' },
  weight: { value: 12, unit: 'oz' },
  hs_tariff_number: '6912004810',
  origin_country: 'US',
  sku: 'MUG-350',
};
const sweater: CustomsLine = {
  description: "Men's knitted merino wool sweater",
  quantity: 1,
  unit_value: { amount: '89.00', currency: 'USD' },
  weight: { value: 0.45, unit: 'kg' },
  hs_tariff_number: '611011',
  origin_country: 'PT',
};

const base: CustomsDocumentData = {
  carrier: 'ups',
  serviceCode: '65',
  serviceName: 'UPS Worldwide Saver',
  trackingNumber: '1Z1442YY6629014687',
  from: { name: 'Warehouse', company: 'Acme Goods Inc', street1: '1100 Congress Ave', city: 'Austin', state: 'TX', zip: '78701', country: 'US', phone: '+1 512 555 0100' },
  to: { name: 'Ada Lovelace', street1: '12 St James Square', city: 'London', zip: 'SW1Y 4LB', country: 'GB', phone: '+44 20 7946 0000', email: 'ada@example.co.uk' },
  customs: { contents_type: 'merchandise', non_delivery: 'return', incoterm: 'DDP', eel_pfc: 'NOEEI 30.37(a)', invoice_number: 'INV-1042', signer: 'Grace Hopper', certify: true, items: [mug, sweater] },
  shipDate: '2026-11-23',
  grossWeight: { value: 3, unit: 'lb' },
  packages: 1,
  reference: '1042',
  sample: true,
};
const invoice: CustomsDocumentData = base;
const cn22: CustomsDocumentData = {
  ...base,
  carrier: 'usps',
  serviceCode: 'FIRST-CLASS_PACKAGE_INTERNATIONAL_SERVICE',
  serviceName: 'First-Class Package International Service',
  trackingNumber: 'LZ123456785US',
  customs: { ...base.customs, contents_type: 'gift', incoterm: undefined, invoice_number: undefined },
};
const cn23: CustomsDocumentData = {
  ...cn22,
  serviceCode: 'PRIORITY_MAIL_INTERNATIONAL',
  serviceName: 'Priority Mail International',
  trackingNumber: 'CP123456785US',
  customs: { ...base.customs, contents_type: 'merchandise' },
  postage: { amount: '61.75', currency: 'USD' },
};

/** `n` distinct lines, each its own description, HS number and value, so each can be found on its page. */
const manyLines = (n: number): CustomsLine[] =>
  Array.from({ length: n }, (_, i) => ({ ...mug, description: `Item line ${String(i + 1).padStart(2, '0')} glazed bowl`, hs_tariff_number: `69120${String(i).padStart(2, '0')}`, quantity: 1, unit_value: { amount: `${i + 1}.25`, currency: 'USD' } }));

const sizes: Record<CustomsDocumentType, [number, number]> = { commercial_invoice: [612, 792], cn22: [288, 432], cn23: [612, 792] };
const samples: [CustomsDocumentType, CustomsDocumentData][] = [
  ['commercial_invoice', invoice],
  ['cn22', cn22],
  ['cn23', cn23],
];

const squeeze = (s: string) => s.replace(/\s+/g, '');

/** Runs on one line of one page must not overlap: text cut to its space never runs into the next field. */
function checkNoOverlap(runs: TextRun[], pageWidth: number): void {
  for (const r of runs) {
    assert.ok(r.x >= 0 && r.x + r.width <= pageWidth + 0.5, `${JSON.stringify(r.text)} stays on the page (${r.x}..${r.x + r.width})`);
  }
  for (const [i, a] of runs.entries()) {
    for (const b of runs.slice(i + 1)) {
      if (a.page !== b.page || Math.abs(a.y - b.y) > 2) continue;
      const apart = a.x + a.width <= b.x + 0.5 || b.x + b.width <= a.x + 0.5;
      assert.ok(apart, `${JSON.stringify(a.text)} and ${JSON.stringify(b.text)} overlap on page ${a.page}`);
    }
  }
}

describe('customs documents', () => {
  test('each renders as a PDF of the expected size and pages', async () => {
    const expected: Record<CustomsDocumentType, number> = { commercial_invoice: 1, cn22: 1, cn23: 3 };
    for (const [type, d] of samples) {
      const pdf = await renderCustomsDocument(type, d);
      assert.equal(pdf.subarray(0, 5).toString(), '%PDF-', type);
      const opened = await openPdf(pdf, 72);
      assert.equal(opened.pages, expected[type], type);
      assert.deepEqual([opened.width, opened.height], sizes[type], type);
    }
    const toCanada = await openPdf(await renderCustomsDocument('cn23', { ...cn23, to: { ...cn23.to, city: 'Ottawa', state: 'ON', zip: 'K1A 0B1', country: 'CA' } }), 72);
    assert.equal(toCanada.pages, 1, 'one copy of the CN 23 for Canada');
  });

  test('the commercial invoice shows the parties, the terms, each line and the totals', async () => {
    const { text } = await openPdf(await renderCustomsDocument('commercial_invoice', invoice), 72);
    for (const s of ['COMMERCIAL INVOICE', 'Acme Goods Inc', 'Austin TX 78701', 'UNITED STATES', 'Ada Lovelace', 'London SW1Y 4LB', 'UNITED KINGDOM', 'Phone: +44 20 7946 0000']) {
      assert.ok(text.includes(s), `${s} in ${text}`);
    }
    for (const s of ['INV-1042', '1Z1442YY6629014687', 'UPS Worldwide Saver', 'DDP', 'Shipper (DDP)', 'Sale', 'NOEEI 30.37(a)', '2026-11-23', '1042']) {
      assert.ok(text.includes(s), `${s} in ${text}`);
    }
    // Two mugs at 14.50 and one sweater at 89.00: 29.00 + 89.00.
    for (const s of [mug.description, 'SKU MUG-350', '6912004810', '14.50', '29.00', sweater.description, '611011', 'PT', '89.00', '0.680 kg', '0.450 kg']) {
      assert.ok(text.includes(s), `${s} in ${text}`);
    }
    assert.ok(text.includes('Total invoice amount (USD)') && text.includes('118.00 USD'), text);
    assert.ok(text.includes('Total net weight') && text.includes('1.130 kg (2 lb 7.9 oz)'), text);
    assert.ok(text.includes('Total gross weight') && text.includes('1.361 kg (3 lb 0.0 oz)'), text);
    assert.ok(text.includes("Shipper's signature: Grace Hopper"), text);
    const dap = (await openPdf(await renderCustomsDocument('commercial_invoice', { ...invoice, customs: { ...invoice.customs, incoterm: undefined } }), 72)).text;
    assert.ok(dap.includes('DAP') && dap.includes('Receiver (DAP)'), dap);
  });

  for (const [type, d] of [['cn22', cn22], ['cn23', cn23]] as const) {
    test(`the ${type.toUpperCase()} shows its boxes, each line and the totals, and its barcode reads back as the item's number`, async () => {
      const opened = await openPdf(await renderCustomsDocument(type, d), 300);
      // A description may wrap onto a second line.
      const text = opened.text.replace(/\s+/g, ' ');
      assert.ok(text.includes(type === 'cn22' ? 'CN 22' : 'CN 23'), text);
      for (const s of ['CUSTOMS DECLARATION', 'May be opened officially', d.serviceName, `No. of item: ${d.trackingNumber}`, 'Ada Lovelace', 'UNITED KINGDOM', 'Warehouse']) {
        assert.ok(text.includes(s), `${s} in ${text}`);
      }
      for (const s of [mug.description, '6912004810', '29.00 USD', sweater.description, '611011', 'PT', '89.00 USD', '1 lb 8.0 oz', '0 lb 15.9 oz']) {
        assert.ok(text.includes(s), `${s} in ${text}`);
      }
      assert.ok(text.includes('118.00 USD'), `the total value in ${text}`);
      assert.ok(text.includes('3 lb 0.0 oz (1.361 kg)'), `the total gross weight in ${text}`);
      assert.ok(text.includes('NOEEI 30.37(a)'), text);
      assert.ok(text.includes('Return to sender') && text.includes('Treat as abandoned'), text);
      assert.ok(text.includes(type === 'cn22' ? 'Gift' : 'Sale of goods'), text);
      assert.ok(text.includes('2026-11-23 Grace Hopper'), text);
      assert.ok(text.includes('does not contain any dangerous article'), text);
      if (type === 'cn23') {
        for (const s of ['DISPATCH NOTE', 'CP 72', 'Postal charges/Fees (9)', '61.75 USD', 'INV-1042', 'Office of origin / date of posting: Austin TX 78701, 2026-11-23']) assert.ok(text.includes(s), `${s} in ${text}`);
      }
      const found = await decodePng(opened.raster);
      assert.ok(found.some((f) => f.format === 'Code128' && f.text === d.trackingNumber), JSON.stringify(found));
    });
  }

  test('every page of a test-mode document is marked SAMPLE, and none of a live one', async () => {
    for (const [type, d] of samples) {
      const many = { ...d, customs: { ...d.customs, items: manyLines(12) } };
      const sample = await openPdf(await renderCustomsDocument(type, many), 72);
      assert.ok(sample.pages > 1, `${type} has several pages`);
      sample.pageTexts.forEach((t, i) => assert.equal(t.split('SAMPLE — DO NOT SHIP').length - 1, 2, `${type} page ${i + 1}, top and bottom`));
      const live = await openPdf(await renderCustomsDocument(type, { ...many, sample: false }), 72);
      assert.equal(live.pages, sample.pages);
      live.pageTexts.forEach((t, i) => assert.ok(!t.includes('SAMPLE'), `${type} page ${i + 1}: ${t}`));
    }
  });

  test('a CN 22 of twelve lines: five a form, then additional forms without the number or barcode', async () => {
    const d = { ...cn22, customs: { ...cn22.customs, items: manyLines(12) } };
    const pdf = await renderCustomsDocument('cn22', d);
    const opened = await openPdf(pdf, 72);
    assert.equal(opened.pages, 3);
    const [first, second, third] = opened.pageTexts as [string, string, string];
    assert.ok(first.includes('Additional forms enclosed: 2'), first);
    assert.ok(first.includes(`No. of item: ${d.trackingNumber}`), first);
    for (const [page, text] of [[2, second], [3, third]] as const) {
      assert.ok(text.includes(`Additional form ${page} of 3`), text);
      assert.ok(!text.includes(d.trackingNumber), `no item number on additional form ${page}`);
      assert.ok(text.includes('Total weight and value: on the first form'), text);
      const raster = (await openPdf(pdf, 300, page)).raster;
      assert.deepEqual(await decodePng(raster), [], `no barcode on additional form ${page}`);
    }
    const lines = (text: string) => [...text.matchAll(/Item line (\d\d)/g)].map((m) => Number(m[1]));
    assert.deepEqual(lines(first), [1, 2, 3, 4, 5]);
    assert.deepEqual(lines(second), [6, 7, 8, 9, 10]);
    assert.deepEqual(lines(third), [11, 12]);
    // 1.25 + 2.25 + … + 12.25, once, on the first form.
    assert.ok(first.includes('Total value: 81.00 USD'), first);
    assert.ok(second.includes('6.25 USD') && second.includes('6912005'), second);
  });

  test('a CN 23 of twelve lines abroad: each of the three copies has its three forms, in order', async () => {
    const d = { ...cn23, customs: { ...cn23.customs, items: manyLines(12) } };
    const opened = await openPdf(await renderCustomsDocument('cn23', d), 72);
    assert.equal(opened.pages, 9);
    const marks = ['CUSTOMS DECLARATION - COPY 1', 'CUSTOMS DECLARATION - COPY 2', 'DISPATCH NOTE'];
    opened.pageTexts.forEach((text, i) => {
      const copy = Math.floor(i / 3);
      const form = i % 3;
      assert.ok(text.includes(marks[copy]!) && text.includes(`Page ${i + 1} of 9`), `page ${i + 1}: ${text}`);
      const lines = [...text.matchAll(/Item line (\d\d)/g)].map((m) => Number(m[1]));
      assert.deepEqual(lines, Array.from({ length: form === 2 ? 2 : 5 }, (_, n) => form * 5 + n + 1), `page ${i + 1}`);
      assert.equal(text.includes(d.trackingNumber), form === 0, `the item number only on the first form, page ${i + 1}`);
      assert.equal(text.includes('Additional forms enclosed: 2'), form === 0, `page ${i + 1}`);
    });
  });

  test('a commercial invoice of forty lines runs onto numbered pages, with the totals once, at the end', async () => {
    const d = { ...invoice, customs: { ...invoice.customs, items: manyLines(40) } };
    const opened = await openPdf(await renderCustomsDocument('commercial_invoice', d), 72);
    assert.equal(opened.pages, invoicePages(40).length);
    assert.equal(opened.pages, 3);
    const seen = opened.pageTexts.flatMap((text) => [...text.matchAll(/Item line (\d\d)/g)].map((m) => Number(m[1])));
    assert.deepEqual(seen, Array.from({ length: 40 }, (_, i) => i + 1), 'every line once, in order');
    opened.pageTexts.forEach((text, i) => {
      assert.ok(text.includes(`Page ${i + 1} of 3`), text);
      assert.equal(text.includes('Total invoice amount'), i === 2, `totals on the last page only, page ${i + 1}`);
    });
    assert.ok(opened.pageTexts[1]!.includes('COMMERCIAL INVOICE (continued)') && opened.pageTexts[1]!.includes('Invoice INV-1042'));
    // 1.25 + 2.25 + … + 40.25 = 820 + 10.
    assert.ok(opened.pageTexts[2]!.includes('830.00 USD'), opened.pageTexts[2]);
  });

  test('long, foreign and hostile text stays in its field and prints only what Helvetica can', async () => {
    const hostile: CustomsLine = {
      ...mug,
      description: `Łucja's 東京 gift 🎁 ) Tj ET /JavaScript (app.alert(1)) \u0000\u001b ${'W'.repeat(120)} and then some more words to wrap`,
      sku: `S${'K'.repeat(80)}`,
      hs_tariff_number: '6912004810',
    };
    const party = { name: `Zoë ${'N'.repeat(90)}`, company: 'Ŝmith & Søn <script>', street1: '1 Rue de la Paix\r\n/OpenAction', city: 'Paris', zip: '75002', country: 'FR', phone: '+33 1 23 45 67 89' };
    for (const [type, d] of samples) {
      const doc = { ...d, to: party, customs: { ...d.customs, signer: `Signer ${'S'.repeat(100)}`, contents_explanation: 'E'.repeat(200), items: [hostile, sweater, { ...hostile, description: 'M'.repeat(300) }] } };
      const pdf = await renderCustomsDocument(type, doc);
      const opened: PdfInfo = await openPdf(pdf, 72);
      const all = opened.pageTexts.join(' ').replace(/\s+/g, ' ');
      assert.ok(all.includes("Lucja's ?? gift ? ) Tj ET /JavaScript"), `${type}: ${all}`);
      assert.ok(all.includes('Zoë') && all.includes('Smith & Søn <script>'), `${type}: ${all}`);
      assert.match(all, /M{10,}…/, `${type}: the long word is cut with an ellipsis`);
      assert.ok(!all.includes('\u0000') && !all.includes('\u001b'), `${type}: no control characters`);
      checkNoOverlap(opened.runs, opened.width);
      const raw = pdf.toString('latin1');
      for (const name of ['/JavaScript', '/OpenAction', '/JS', '/Launch', '/URI']) assert.ok(!raw.includes(name), `${type}: no ${name} in the file`);
    }
  });

  test('the same document renders to the same bytes', async () => {
    for (const [type, d] of samples) assert.deepEqual(await renderCustomsDocument(type, d), await renderCustomsDocument(type, d), type);
  });
});

describe('customs document figures', () => {
  test('line values and totals are exact decimal sums, one per currency', () => {
    assert.deepEqual(lineValue({ ...mug, quantity: 3, unit_value: { amount: '0.1', currency: 'USD' } }), { amount: '0.30', currency: 'USD' });
    assert.deepEqual(lineValue({ ...mug, quantity: 999, unit_value: { amount: '1234567.89', currency: 'EUR' } }), { amount: '1233333322.11', currency: 'EUR' });
    const lines = [
      { ...mug, quantity: 3, unit_value: { amount: '0.10', currency: 'EUR' } },
      { ...mug, quantity: 1, unit_value: { amount: '1500', currency: 'JPY' } },
      { ...mug, quantity: 2, unit_value: { amount: '0.20', currency: 'EUR' } },
      { ...mug, quantity: 1, unit_value: { amount: '1.125', currency: 'KWD' } },
    ];
    assert.deepEqual(totalValues(lines), [
      { amount: '0.70', currency: 'EUR' },
      { amount: '1500.00', currency: 'JPY' },
      { amount: '1.125', currency: 'KWD' },
    ]);
    assert.throws(() => lineValue({ ...mug, unit_value: { amount: '1e3', currency: 'USD' } }), /not a decimal amount/);
    assert.throws(() => lineValue({ ...mug, quantity: 1.5 }), /not a quantity/);
  });

  test('weights in pounds and ounces, countries by name, reasons for export', () => {
    assert.equal(lbOzText(0.45359237), '1 lb 0.0 oz');
    assert.equal(lbOzText(0.4535), '1 lb 0.0 oz', 'an ounce that rounds up to 16.0 carries into the pounds');
    assert.equal(lbOzText(1), '2 lb 3.3 oz');
    assert.equal(countryName('gb'), 'UNITED KINGDOM');
    assert.equal(countryName('DE'), 'GERMANY');
    assert.equal(reasonForExport({ ...base.customs, contents_type: 'returned_goods' }), 'Return');
    assert.equal(reasonForExport({ ...base.customs, contents_type: 'other', contents_explanation: 'Repair parts' }), 'Other: Repair parts');
    assert.equal(reasonForExport({ ...base.customs, contents_type: 'documents' }), 'Other: documents');
  });

  test('text wraps at spaces, breaks words too wide for a line, and ends with an ellipsis when cut', () => {
    assert.deepEqual(wrapText('one two three', 8, 1000, 2), ['one two three']);
    const wrapped = wrapText('alpha beta gamma delta epsilon zeta eta theta', 8, 60, 2);
    assert.equal(wrapped.length, 2);
    assert.ok(wrapped[1]!.endsWith('…'), wrapped[1]);
    for (const line of wrapText('X'.repeat(200), 8, 60, 3)) assert.ok(widthOf(line, 8, false) <= 60, line);
    assert.deepEqual(wrapText('  ', 8, 60, 2), []);
  });

  test('postal forms hold five lines; invoice pages leave room for the totals; copies by destination', () => {
    assert.deepEqual(pageRows(0, 5), [[0, 0]]);
    assert.deepEqual(pageRows(11, 5), [[0, 5], [5, 10], [10, 11]]);
    assert.deepEqual(invoicePages(1), [[0, 1]]);
    assert.deepEqual(invoicePages(11), [[0, 11]]);
    assert.deepEqual(invoicePages(12), [[0, 12], [12, 12]], 'twelve rows leave the first page no room for the totals');
    assert.deepEqual(invoicePages(40), [[0, 16], [16, 38], [38, 40]]);
    assert.equal(cn23Copies('ca').length, 1);
    assert.equal(cn23Copies('AU').length, 1);
    assert.equal(cn23Copies('US').length, 1, 'territories and military addresses are US');
    assert.deepEqual(cn23Copies('DE'), ['CUSTOMS DECLARATION - COPY 1', 'CUSTOMS DECLARATION - COPY 2', 'DISPATCH NOTE']);
  });
});

describe('customs documents on the render threads', () => {
  const pool = new RenderPool(2);
  after(() => pool.close());

  test('draw exactly the bytes the calling thread draws, alongside labels', async () => {
    const drawn = await Promise.all(samples.map(([type, d]) => pool.renderDocument(type, d)));
    for (const [i, bytes] of drawn.entries()) {
      const [type, d] = samples[i]!;
      assert.ok(Buffer.isBuffer(bytes));
      assert.ok(bytes.equals(await renderCustomsDocument(type, d)), `${type} is byte for byte the in-thread document`);
      assert.ok(bytes.equals(await inThreadRenderer.renderDocument(type, d)), `${type}: SHIPD_RENDER_THREADS=0 draws the same`);
    }
  });

  test('a document that cannot be drawn fails with the reason', async () => {
    const broken = { ...cn22, customs: { ...cn22.customs, items: [{ ...mug, unit_value: { amount: 'twelve', currency: 'USD' } }] } };
    await assert.rejects(pool.renderDocument('cn22', broken), /not a decimal amount/);
    assert.ok(squeeze((await openPdf(await pool.renderDocument('cn22', cn22), 72)).text).includes(cn22.trackingNumber));
  });
});
