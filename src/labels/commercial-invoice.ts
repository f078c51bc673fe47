import type { CustomsDocumentData } from './customs-data.ts';
import {
  addressLines,
  exportFiling,
  kgText,
  lbOzText,
  kilograms,
  lineKilograms,
  lineValue,
  netKilograms,
  reasonForExport,
  totalValues,
} from './customs-figures.ts';
import { DocumentPen, letterPage, type TextStyle } from './document-pdf.ts';

// A commercial invoice for a UPS or FedEx shipment of goods, from its customs declaration. What it shows is what the
// carriers ask of one: shipper/exporter and consignee with phone numbers, invoice date and number, the waybill
// (tracking) number, terms of sale (Incoterm), reason for export, and per line a full description, harmonized code,
// country of origin, units, unit value and total value, then the currency, total value, number of packages, total
// weight and the shipper's signed declaration (UPS, "Commercial Invoice" required items and its commercial invoice
// help index; FedEx, "How to complete a Commercial Invoice", customs documentation support; both read 2026).

const margin = 36;
const right = letterPage.width - margin;
const bottom = letterPage.height - 30;
const rowHeight = 30;
const headerHeight = 20;
/** Where the table's rows start on the first page and on the pages that continue it. */
const firstRowsTop = 282;
const nextRowsTop = 100;
/** The totals, declaration and signature under the last row. */
const tailHeight = 150;

const columns = [
  { title: '#', x: margin, width: 18, align: 'right' as const },
  { title: 'Units', x: margin + 22, width: 30, align: 'right' as const },
  { title: 'Description of goods', x: margin + 60, width: 176, align: 'left' as const },
  { title: 'Harmonized code', x: margin + 242, width: 62, align: 'left' as const },
  { title: 'Origin', x: margin + 308, width: 30, align: 'left' as const },
  { title: 'Net weight', x: margin + 342, width: 48, align: 'right' as const },
  { title: 'Unit value', x: margin + 394, width: 56, align: 'right' as const },
  { title: 'Total value', x: margin + 454, width: 60, align: 'right' as const },
  { title: 'Cur.', x: margin + 518, width: 22, align: 'left' as const },
];

const carrierNames = { ups: 'UPS', usps: 'USPS', fedex: 'FedEx' } as const;

const rowsBetween = (top: number, end: number) => Math.floor((end - top) / rowHeight);

/**
 * The invoice's rows page by page: as many as fit on each, and the totals on the last page, which moves to a page
 * of its own when the last rows leave no room for them.
 */
export function invoicePages(count: number): [number, number][] {
  const pages: [number, number][] = [];
  for (let start = 0, room = rowsBetween(firstRowsTop, bottom); start < count; room = rowsBetween(nextRowsTop, bottom)) {
    pages.push([start, Math.min(start + room, count)]);
    start += room;
  }
  if (pages.length === 0) return [[0, 0]];
  const [start, end] = pages.at(-1)!;
  const roomWithTotals = rowsBetween(pages.length === 1 ? firstRowsTop : nextRowsTop, bottom - tailHeight);
  if (end - start > roomWithTotals) pages.push([count, count]);
  return pages;
}

function party(pen: DocumentPen, title: string, a: CustomsDocumentData['from'], x: number, y: number): void {
  pen.box(x, y, 264, 112);
  pen.text(title, x + 6, y + 5, { size: 7.5, bold: true });
  const lines = [...addressLines(a), ...(a.phone ? [`Phone: ${a.phone}`] : []), ...(a.email ? [`Email: ${a.email}`] : [])];
  lines.slice(0, 8).forEach((line, i) => pen.text(line, x + 6, y + 17 + i * 11.5, { size: 9, width: 252 }));
}

function fields(pen: DocumentPen, pairs: [string, string | undefined][], x: number, y: number): void {
  pairs
    .filter((p): p is [string, string] => Boolean(p[1]))
    .forEach(([label, value], i) => {
      pen.text(label, x, y + i * 14 + 1, { size: 7.5, bold: true, width: 108 });
      pen.text(value, x + 112, y + i * 14, { size: 9, width: 152 });
    });
}

function cell(pen: DocumentPen, text: string, column: (typeof columns)[number], y: number, style: Omit<TextStyle, 'width' | 'align'>): void {
  const x = column.align === 'right' ? column.x + column.width : column.x;
  pen.text(text, x, y, { ...style, width: column.width, align: column.align });
}

function tableHeader(pen: DocumentPen, y: number): void {
  pen.fill(margin, y, right - margin, headerHeight);
  for (const column of columns) cell(pen, column.title, column, y + 6, { size: 7, bold: true, inverse: true });
}

function rows(pen: DocumentPen, d: CustomsDocumentData, [start, end]: [number, number], top: number): number {
  let y = top;
  for (let i = start; i < end; i++) {
    const line = d.customs.items[i]!;
    const value = lineValue(line);
    cell(pen, String(i + 1), columns[0]!, y + 4, { size: 8 });
    cell(pen, String(line.quantity), columns[1]!, y + 4, { size: 8 });
    const used = pen.paragraph(line.description, columns[2]!.x, y + 4, columns[2]!.width, 2, { size: 8 });
    if (line.sku) pen.text(`SKU ${line.sku}`, columns[2]!.x, y + 4 + used * 9.2, { size: 7, width: columns[2]!.width });
    cell(pen, line.hs_tariff_number, columns[3]!, y + 4, { size: 8 });
    cell(pen, line.origin_country.toUpperCase(), columns[4]!, y + 4, { size: 8 });
    cell(pen, kgText(lineKilograms(line)), columns[5]!, y + 4, { size: 8 });
    cell(pen, line.unit_value.amount, columns[6]!, y + 4, { size: 8 });
    cell(pen, value.amount, columns[7]!, y + 4, { size: 8 });
    cell(pen, value.currency, columns[8]!, y + 4, { size: 8 });
    y += rowHeight;
    pen.box(margin, y, right - margin, 0, 0.25);
  }
  return y;
}

function totalsAndDeclaration(pen: DocumentPen, d: CustomsDocumentData, top: number): void {
  const net = netKilograms(d.customs.items);
  const gross = kilograms(d.grossWeight);
  fields(
    pen,
    [
      ['Total number of packages', String(d.packages)],
      ['Total net weight', `${kgText(net)} (${lbOzText(net)})`],
      ['Total gross weight', `${kgText(gross)} (${lbOzText(gross)})`],
    ],
    margin,
    top + 8,
  );
  totalValues(d.customs.items).forEach((total, i) => {
    const y = top + 8 + i * 16;
    pen.text(`Total invoice amount (${total.currency})`, right - 120, y + 1, { size: 8, bold: true, align: 'right', width: 150 });
    pen.text(`${total.amount} ${total.currency}`, right, y - 1, { size: 11, bold: true, align: 'right', width: 110 });
  });
  const y = top + 62;
  pen.text('Declaration', margin, y, { size: 7.5, bold: true });
  pen.text('I declare that all the information contained in this invoice is true and correct, and that the contents of this', margin, y + 12, { size: 8.5 });
  pen.text('shipment are as stated above.', margin, y + 23, { size: 8.5 });
  pen.box(margin, y + 40, 330, 0, 0.5);
  pen.text(`Shipper's signature: ${d.customs.signer}`, margin, y + 44, { size: 9, bold: true, width: 330 });
  pen.text('Certified electronically by the signer named above', margin, y + 57, { size: 7 });
  pen.text(`Date: ${d.shipDate}`, right, y + 44, { size: 9, bold: true, align: 'right' });
}

/** The commercial invoice as a US Letter PDF: one page, or as many as its lines need, each numbered. */
export function writeCommercialInvoice(d: CustomsDocumentData): Promise<Buffer> {
  const pen = new DocumentPen(letterPage, `${d.sample ? 'SAMPLE ' : ''}Commercial invoice ${d.trackingNumber}`, new Date(`${d.shipDate}T00:00:00Z`));
  const pages = invoicePages(d.customs.items.length);
  // FedEx asks for an invoice number on every invoice; without one of its own, the order's number is the seller's.
  const invoiceNumber = d.customs.invoice_number ?? d.reference;
  const carrier = carrierNames[d.carrier];
  const service = d.serviceName.startsWith(carrier) ? d.serviceName : `${carrier} ${d.serviceName}`;
  pages.forEach((range, p) => {
    pen.page(d.sample);
    pen.text(`Page ${p + 1} of ${pages.length}`, right, 36, { size: 8, align: 'right' });
    let top: number;
    if (p === 0) {
      pen.text('COMMERCIAL INVOICE', margin, 32, { size: 18, bold: true });
      pen.box(margin, 58, right - margin, 0, 1);
      party(pen, 'SHIPPER / EXPORTER', d.from, margin, 64);
      party(pen, 'CONSIGNEE / SHIP TO', d.to, 312, 64);
      fields(
        pen,
        [
          ['Invoice date', d.shipDate],
          ['Invoice number', invoiceNumber],
          ['Waybill / tracking no.', d.trackingNumber],
          ['Carrier and service', service],
          ['Order reference', d.customs.invoice_number && d.reference ? d.reference : undefined],
        ],
        margin,
        186,
      );
      fields(
        pen,
        [
          ['Terms of sale (Incoterm)', d.customs.incoterm ?? 'DAP'],
          ['Reason for export', reasonForExport(d.customs)],
          ['Duties and taxes paid by', d.customs.incoterm === 'DDP' ? 'Shipper (DDP)' : 'Receiver (DAP)'],
          ['US export filing', exportFiling(d.customs)],
        ],
        312,
        186,
      );
      top = firstRowsTop - headerHeight;
    } else {
      pen.text('COMMERCIAL INVOICE (continued)', margin, 32, { size: 14, bold: true });
      const heading = [invoiceNumber && `Invoice ${invoiceNumber}`, `Waybill ${d.trackingNumber}`, d.shipDate].filter(Boolean).join('   ');
      pen.text(heading, margin, 54, { size: 9, width: 420 });
      top = nextRowsTop - headerHeight;
    }
    const [start, end] = range;
    if (start < end || p === 0) tableHeader(pen, top);
    const after = rows(pen, d, range, top + headerHeight);
    if (p === pages.length - 1) totalsAndDeclaration(pen, d, start < end || p === 0 ? after : top);
  });
  return pen.end();
}
