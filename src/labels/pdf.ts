import PDFDocument from 'pdfkit';
import { pageHeight, pageWidth, type LabelItem } from './layout.ts';
import { placement } from './place.ts';
import { vectorBarcode } from './vector-barcodes.ts';

/** One 4×6 page; barcodes as vector paths, text in the PDF's built-in Helvetica so no font is embedded. */
export function writePdf(items: LabelItem[], createdAt: Date): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const doc = new PDFDocument({ size: [pageWidth, pageHeight], margin: 0, info: { Title: 'Shipping label', Producer: 'shipd', Creator: 'shipd', CreationDate: createdAt } });
    const chunks: Buffer[] = [];
    doc.on('data', (c: Buffer) => chunks.push(c));
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
    for (const item of items) {
      if (item.kind === 'box') {
        if (item.fill) doc.rect(item.x, item.y, item.w, item.h).fill('black');
        else doc.lineWidth(item.line ?? 1).rect(item.x, item.y, item.w, item.h).stroke('black');
      } else if (item.kind === 'text') {
        doc
          .font(item.bold ? 'Helvetica-Bold' : 'Helvetica')
          .fontSize(item.size)
          .fillColor(item.inverse ? 'white' : 'black')
          .text(item.text, item.x, item.y, { lineBreak: false });
      } else {
        const code = vectorBarcode(item.symbol);
        const at = placement(item, code, 1);
        doc.save().translate(at.x, at.y).scale(at.sx, at.sy);
        for (const p of code.paths) {
          if (p.strokeWidth !== undefined) doc.path(p.d).lineWidth(p.strokeWidth).stroke('black');
          else doc.path(p.d).fill('black', p.evenOdd ? 'even-odd' : 'non-zero');
        }
        doc.restore();
      }
    }
    doc.end();
  });
}
