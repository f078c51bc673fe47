import type { CustomsDocumentData } from './customs-data.ts';
import { addressLines, exportFiling, kgText, kilograms, lbOzText, moneyText, totalValues } from './customs-figures.ts';
import { DocumentPen, labelPage, wrapText } from './document-pdf.ts';
import { additionalFormsNote, categoryBoxes, certificates, itemRows, nonDeliveryBoxes, postalForms, type ItemColumns } from './postal-form.ts';

// The CN 22 customs declaration (USPS PS Form 2976) for First-Class Package International Service, on a 4×6 page
// like the label it goes with, so the two print on one roll. What it shows is the UPU form's: the designated
// operator, "may be opened officially", the item's number and barcode, the category of item, each article's
// detailed description, quantity, net weight, value, HS tariff number and country of origin, the total gross
// weight and total value, and the sender's dated, signed certificate (UPU CN 22 as India Post prints it; IMM 123).
// USPS adds the sender's and addressee's names and addresses, the non-delivery choice and the US export filing
// (PS Form 2976-A and 2976-B instructions). USPS takes a CN 22 for items valued up to $400 (Pitney Bowes customs
// FAQ); which form a shipment gets is the caller's choice.

const x0 = 6;
const right = labelPage.width - 6;

const columns: ItemColumns = {
  description: { x: x0, width: 98 },
  quantity: { x: 106, width: 18 },
  weight: { x: 127, width: 46 },
  value: { x: 176, width: 46 },
  hs: { x: 226, width: 40 },
  origin: { x: 268, width: 14 },
  size: 6,
  rowHeight: 15,
  kilograms: false,
};

function header(pen: DocumentPen, d: CustomsDocumentData, y: number, continuation: string | undefined): number {
  pen.text('CUSTOMS DECLARATION', x0, y, { size: 10, bold: true });
  pen.text('CN 22', right, y - 2, { size: 16, bold: true, align: 'right' });
  pen.text('Designated operator: USPS', x0, y + 13, { size: 6.5 });
  pen.text('May be opened officially', right, y + 15, { size: 6.5, align: 'right' });
  pen.text(continuation ?? d.serviceName, x0, y + 23, { size: 7, bold: true, width: right - x0 });
  return y + 34;
}

function parties(pen: DocumentPen, d: CustomsDocumentData, y: number): number {
  const half = (right - x0) / 2;
  for (const [i, title, a] of [[0, 'FROM', d.from], [1, 'TO', d.to]] as const) {
    const x = x0 + i * half;
    pen.text(title, x, y, { size: 6, bold: true });
    const lines = [...addressLines(a), ...(a.phone ? [`Tel. ${a.phone}`] : [])].slice(0, 6);
    lines.forEach((line, n) => pen.text(line, x, y + 8 + n * 7.5, { size: 6.5, width: half - 6 }));
  }
  return y + 56;
}

function tableHeader(pen: DocumentPen, y: number): number {
  const c = columns;
  pen.fill(x0 - 2, y, right - x0 + 4, 14);
  const titles: [string, { x: number; width: number }, boolean][] = [
    ['Detailed description of contents', c.description, false],
    ['Qty', c.quantity, true],
    ['Net weight', c.weight, true],
    ['Value', c.value, true],
    ['HS tariff no.', c.hs, false],
    ['Orig.', c.origin, false],
  ];
  for (const [title, column, alignRight] of titles) {
    pen.text(title, alignRight ? column.x + column.width : column.x, y + 4, { size: 5.5, bold: true, inverse: true, width: column.width + 2, align: alignRight ? 'right' : 'left' });
  }
  return y + 14;
}

/** The CN 22 as a PDF of 4×6 pages: the form, then an additional form for each further five lines. */
export function writeCn22(d: CustomsDocumentData): Promise<Buffer> {
  const pen = new DocumentPen(labelPage, `${d.sample ? 'SAMPLE ' : ''}CN 22 ${d.trackingNumber}`, new Date(`${d.shipDate}T00:00:00Z`));
  const forms = postalForms(d);
  forms.forEach((range, f) => {
    pen.page(d.sample);
    let y = header(pen, d, d.sample ? 26 : 6, f === 0 ? undefined : `Additional form ${f + 1} of ${forms.length}`);
    if (f === 0) {
      pen.text(`No. of item: ${d.trackingNumber}`, x0, y, { size: 8, bold: true });
      pen.barcode({ type: 'code128', data: d.trackingNumber }, 14, y + 11, 260, 36);
      y += 52;
    }
    y = parties(pen, d, y);
    y += categoryBoxes(pen, d, x0, y, 92, 3, 6.5, right - x0) + 2;
    y = tableHeader(pen, y);
    itemRows(pen, d, range, y, columns);
    y += 5 * columns.rowHeight + 4;
    if (f === 0) {
      const gross = kilograms(d.grossWeight);
      pen.text(`Total gross weight: ${lbOzText(gross)} (${kgText(gross)})`, x0, y, { size: 7, bold: true, width: right - x0 });
      pen.text(`Total value: ${totalValues(d.customs.items).map(moneyText).join(' + ')}`, x0, y + 9, { size: 7, bold: true, width: right - x0 });
    } else pen.text('Total weight and value: on the first form', x0, y, { size: 7, bold: true });
    y += 20;
    const notes = [exportFiling(d.customs), f === 0 && forms.length > 1 ? additionalFormsNote(forms.length) : undefined].filter(Boolean).join('   ');
    if (notes) pen.text(notes, x0, y, { size: 6.5, width: right - x0 });
    nonDeliveryBoxes(pen, d, x0, y + 10, 6.5);
    y += 22;
    wrapText(certificates.cn22, 5.5, right - x0, 3).forEach((line, i) => pen.text(line, x0, y + i * 6.5, { size: 5.5 }));
    pen.text(`Date and sender's signature: ${d.shipDate}  ${d.customs.signer}`, x0, y + 22, { size: 7, bold: true, width: right - x0 });
  });
  return pen.end();
}
