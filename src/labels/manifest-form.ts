import bwipjs from 'bwip-js';
import PDFDocument from 'pdfkit';
import { printable } from './printable.ts';

export interface ManifestLine {
  trackingNumber: string;
  service: string;
  weightLb: number;
  destinationZip: string;
  postage: string;
}

/** What an end-of-day form shows: who hands over what, on which day, to which carrier. */
export interface ManifestForm {
  id: string;
  /** The form's name at this carrier, e.g. "USPS SCAN Form". */
  title: string;
  carrierName: string;
  shipDate: string;
  createdAt: Date;
  origin: string[];
  lines: ManifestLine[];
  totalWeightLb: number;
  totalPostage: string;
  /** Test mode: the form must never be handed to a driver. */
  sample: boolean;
}

const margin = 40;
const pageWidth = 612;
const pageHeight = 792;
const rowHeight = 14;
const columns = [
  { title: '#', x: margin, width: 30, align: 'right' as const },
  { title: 'Tracking number', x: margin + 40, width: 170, align: 'left' as const },
  { title: 'Service', x: margin + 215, width: 140, align: 'left' as const },
  { title: 'Weight (lb)', x: margin + 360, width: 60, align: 'right' as const },
  { title: 'Dest. ZIP', x: margin + 430, width: 55, align: 'left' as const },
  { title: 'Postage', x: margin + 480, width: 52, align: 'right' as const },
];

const lb = (n: number) => n.toFixed(2);

/** The manifest id as a Code 128 barcode a driver's scanner reads to accept every parcel on the form at once. */
function barcode(id: string): Promise<Buffer> {
  return bwipjs.toBuffer({ bcid: 'code128', text: id, scale: 3, height: 12, includetext: true, textxalign: 'center' });
}

/** A US Letter PDF: the heading and barcode, then one row per label, page after page, then the totals. */
export async function writeManifestForm(form: ManifestForm): Promise<Buffer> {
  const code = await barcode(form.id);
  return new Promise((resolve, reject) => {
    const doc = new PDFDocument({ size: 'LETTER', margin, info: { Title: `${form.title} ${form.id}`, Producer: 'shipd', Creator: 'shipd', CreationDate: form.createdAt } });
    const chunks: Buffer[] = [];
    doc.on('data', (c: Buffer) => chunks.push(c));
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);

    const cell = (text: string, column: (typeof columns)[number], y: number, bold = false) =>
      doc
        .font(bold ? 'Helvetica-Bold' : 'Helvetica')
        .fontSize(9)
        .text(printable(text), column.x, y, { width: column.width, align: column.align, lineBreak: false, ellipsis: true });
    const tableHeader = (y: number) => {
      for (const column of columns) cell(column.title, column, y, true);
      doc.moveTo(margin, y + rowHeight - 3).lineTo(pageWidth - margin, y + rowHeight - 3).lineWidth(0.5).stroke();
      return y + rowHeight;
    };

    doc.font('Helvetica-Bold').fontSize(18).text(printable(form.title), margin, margin, { lineBreak: false });
    doc.font('Helvetica').fontSize(10);
    doc.text(`Manifest ${form.id}`, margin, margin + 30, { lineBreak: false });
    doc.text(`Carrier: ${form.carrierName}    Ship date: ${form.shipDate}`, margin, margin + 44, { lineBreak: false });
    doc.text(`Created: ${form.createdAt.toISOString().replace('T', ' ').slice(0, 16)} UTC`, margin, margin + 58, { lineBreak: false });
    doc.image(code, pageWidth - margin - 290, margin, { fit: [290, 70], align: 'right' });
    if (form.sample) {
      doc.font('Helvetica-Bold').fontSize(12).text('SAMPLE - TEST MODE - NOT FOR CARRIER USE', margin, margin + 82, { width: pageWidth - 2 * margin, align: 'center', lineBreak: false });
    }
    doc.font('Helvetica').fontSize(10);
    form.origin.forEach((line, i) => doc.text(printable(line), margin, margin + 102 + i * 12, { width: pageWidth - 2 * margin, lineBreak: false, ellipsis: true }));

    let y = tableHeader(margin + 130);
    form.lines.forEach((line, i) => {
      if (y > pageHeight - margin - 3 * rowHeight) {
        doc.addPage();
        doc.font('Helvetica').fontSize(9).text(`${form.title} ${form.id} (continued)`, margin, margin, { lineBreak: false });
        y = tableHeader(margin + 20);
      }
      cell(String(i + 1), columns[0]!, y);
      cell(line.trackingNumber, columns[1]!, y);
      cell(line.service, columns[2]!, y);
      cell(lb(line.weightLb), columns[3]!, y);
      cell(line.destinationZip, columns[4]!, y);
      cell(line.postage, columns[5]!, y);
      y += rowHeight;
    });
    doc.moveTo(margin, y).lineTo(pageWidth - margin, y).lineWidth(0.5).stroke();
    y += 4;
    cell(`Total: ${form.lines.length} ${form.lines.length === 1 ? 'package' : 'packages'}`, { ...columns[1]!, width: 300 }, y, true);
    cell(lb(form.totalWeightLb), columns[3]!, y, true);
    cell(form.totalPostage, columns[5]!, y, true);
    doc.end();
  });
}
