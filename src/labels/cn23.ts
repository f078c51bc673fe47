import type { CustomsDocumentData } from './customs-data.ts';
import { addressLines, exportFiling, kgText, kilograms, lbOzText, moneyText, totalValues } from './customs-figures.ts';
import { DocumentPen, letterPage, wrapText } from './document-pdf.ts';
import { additionalFormsNote, categoryBoxes, certificates, itemRows, nonDeliveryBoxes, postalForms, type ItemColumns } from './postal-form.ts';

// The CN 23 customs declaration with its CP 72 dispatch note (USPS PS Form 2976-A) for Priority Mail International
// and Priority Mail Express International, on US Letter. Its boxes are the UPU CN 23's, numbered as the form numbers
// them: detailed description of contents (1), quantity (2), net weight (3), total gross weight (4), value (5), total
// value (6), HS tariff number (7), country of origin (8), postal charges/fees (9), category of item (10), comments
// (11), licence (12), certificate (13), invoice (14), date and sender's signature (15), with the sender, the
// addressee, the item's number and barcode, "may be opened officially", and the office of origin and date of posting
// (UPU CN 23 as reproduced in OECD, "Misuse of Small Parcels for Trade in Counterfeit Goods", 2018, Annex A). The
// CP 72 adds the sender's instructions in case of non-delivery (PS Form 2976-A instructions).

const margin = 36;
const right = letterPage.width - margin;

const columns: ItemColumns = {
  description: { x: 40, width: 200 },
  quantity: { x: 244, width: 40 },
  weight: { x: 290, width: 64 },
  value: { x: 358, width: 72 },
  hs: { x: 438, width: 74 },
  origin: { x: 516, width: 56 },
  size: 8,
  rowHeight: 28,
  kilograms: true,
};

/**
 * Single-ply destinations: one copy of the form for Canada, Australia and Costa Rica, and for US territories,
 * APO/FPO/DPO and the Freely Associated States (MH, FM, PW); three copies everywhere else, two marked "Customs
 * Declaration" and one "Dispatch Note" (Pitney Bowes shipping API customs FAQ; Teapplix, "USPS Custom Form";
 * both read 2026).
 */
const singleCopyCountries = new Set(['CA', 'AU', 'CR', 'US', 'MH', 'FM', 'PW']);

/** The copies of the form a destination needs, by what each is marked. */
export function cn23Copies(country: string): string[] {
  if (singleCopyCountries.has(country.toUpperCase())) return ['CUSTOMS DECLARATION'];
  return ['CUSTOMS DECLARATION - COPY 1', 'CUSTOMS DECLARATION - COPY 2', 'DISPATCH NOTE'];
}

function party(pen: DocumentPen, title: string, a: CustomsDocumentData['from'], x: number, y: number): void {
  pen.box(x, y, 264, 104);
  pen.text(title, x + 6, y + 5, { size: 7.5, bold: true });
  const lines = [...addressLines(a), ...(a.phone ? [`Tel. ${a.phone}`] : []), ...(a.email ? [`Email ${a.email}`] : [])];
  lines.slice(0, 8).forEach((line, i) => pen.text(line, x + 6, y + 16 + i * 10.5, { size: 8.5, width: 252 }));
}

function tableHeader(pen: DocumentPen, y: number): void {
  const c = columns;
  pen.fill(margin, y, right - margin, 24);
  const titles: [string, string, { x: number; width: number }, boolean][] = [
    ['Detailed description of contents (1)', '', c.description, false],
    ['Quantity', '(2)', c.quantity, true],
    ['Net weight', '(3)', c.weight, true],
    ['Value', '(5)', c.value, true],
    ['HS tariff', 'number (7)', c.hs, false],
    ['Country of origin', 'of goods (8)', c.origin, false],
  ];
  for (const [first, second, column, alignRight] of titles) {
    const x = alignRight ? column.x + column.width : column.x;
    const style = { size: 6.5, bold: true, inverse: true, width: column.width + 2, align: alignRight ? ('right' as const) : ('left' as const) };
    pen.text(first, x, y + 4, style);
    if (second) pen.text(second, x, y + 13, style);
  }
}

/** A labelled box of the form; its content, if any, in bold. */
function field(pen: DocumentPen, label: string, value: string, x: number, y: number, w: number, h: number): void {
  pen.box(x, y, w, h);
  pen.text(label, x + 4, y + 3, { size: 6.5, width: w - 8 });
  if (value) pen.text(value, x + 4, y + 13, { size: 9, bold: true, width: w - 8 });
}

function firstFormBoxes(pen: DocumentPen, d: CustomsDocumentData, forms: number): void {
  const gross = kilograms(d.grossWeight);
  const third = (right - margin) / 3;
  field(pen, 'Total gross weight (4)', `${lbOzText(gross)} (${kgText(gross)})`, margin, 426, third, 30);
  field(pen, 'Total value (6)', totalValues(d.customs.items).map(moneyText).join(' + '), margin + third, 426, third, 30);
  field(pen, 'Postal charges/Fees (9)', d.postage ? moneyText(d.postage) : '', margin + 2 * third, 426, third, 30);

  pen.text('Category of item (10)', margin, 464, { size: 7.5, bold: true });
  categoryBoxes(pen, d, margin, 476, 88, 3, 7.5, 264);
  pen.box(312, 462, 264, 48);
  pen.text('Comments (11)', 316, 465, { size: 6.5 });
  const comments = [exportFiling(d.customs), forms > 1 ? additionalFormsNote(forms) : undefined].filter((c): c is string => Boolean(c));
  comments.forEach((comment, i) => pen.text(comment, 316, 477 + i * 11, { size: 8.5, bold: true, width: 256 }));

  pen.checkbox(margin + 4, 530, false, 'Licence (12)  No(s). of licence(s)', 6.5);
  pen.checkbox(margin + third + 4, 530, false, 'Certificate (13)  No(s). of certificate(s)', 6.5);
  pen.checkbox(margin + 2 * third + 4, 530, Boolean(d.customs.invoice_number), 'Invoice (14)  No. of invoice', 6.5);
  if (d.customs.invoice_number) pen.text(d.customs.invoice_number, margin + 2 * third + 14, 542, { size: 9, bold: true, width: third - 18 });
  pen.box(margin, 518, right - margin, 38);
}

/**
 * The CN 23 and CP 72 as a US Letter PDF: for each copy the destination needs, the form and then an additional
 * form for each further five lines. Only the first form of each copy carries the item's number and barcode.
 */
export function writeCn23(d: CustomsDocumentData): Promise<Buffer> {
  const pen = new DocumentPen(letterPage, `${d.sample ? 'SAMPLE ' : ''}CN 23 ${d.trackingNumber}`, new Date(`${d.shipDate}T00:00:00Z`));
  const forms = postalForms(d);
  const copies = cn23Copies(d.to.country);
  const total = forms.length * copies.length;
  const origin = [d.from.city, d.from.state, d.from.zip].filter(Boolean).join(' ');
  copies.forEach((copy, c) =>
    forms.forEach((range, f) => {
      pen.page(d.sample);
      pen.text('CUSTOMS DECLARATION   CN 23', margin, 32, { size: 16, bold: true });
      pen.text('DISPATCH NOTE   CP 72', margin, 52, { size: 11, bold: true });
      pen.text('Designated operator: United States Postal Service', margin, 67, { size: 8 });
      pen.text(copy, right, 32, { size: 10, bold: true, align: 'right', width: 240 });
      pen.text(`Page ${c * forms.length + f + 1} of ${total}`, right, 46, { size: 8, align: 'right' });
      pen.text('May be opened officially', right, 67, { size: 8, align: 'right' });
      pen.box(margin, 80, right - margin, 0, 1);
      pen.text(d.serviceName, margin, 88, { size: 10, bold: true, width: 270 });
      if (f === 0) {
        pen.text(`No. of item: ${d.trackingNumber}`, margin, 104, { size: 10, bold: true, width: 270 });
        pen.barcode({ type: 'code128', data: d.trackingNumber }, 320, 86, 256, 50);
      } else {
        pen.text(`Additional form ${f + 1} of ${forms.length}`, margin, 104, { size: 10, bold: true });
      }
      party(pen, 'FROM (sender)', d.from, margin, 144);
      party(pen, 'TO (addressee)', d.to, 312, 144);
      tableHeader(pen, 258);
      itemRows(pen, d, range, 282, columns);
      if (f === 0) firstFormBoxes(pen, d, forms.length);
      else pen.text('Totals, category of item, comments and documents: on the first form', margin, 430, { size: 8, bold: true });
      pen.text(`Office of origin / date of posting: ${origin}, ${d.shipDate}`, margin, 566, { size: 8.5, width: 300 });
      nonDeliveryBoxes(pen, d, 340, 566, 7.5);
      wrapText(certificates.cn23, 8, right - margin, 2).forEach((line, i) => pen.text(line, margin, 590 + i * 10, { size: 8 }));
      pen.box(margin, 630, 330, 0, 0.5);
      pen.text(`Date and sender's signature (15): ${d.shipDate}  ${d.customs.signer}`, margin, 634, { size: 9, bold: true, width: right - margin });
    }),
  );
  return pen.end();
}
