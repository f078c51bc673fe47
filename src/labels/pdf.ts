import PDFDocument from 'pdfkit';
import { pageHeight, pageWidth, type LabelItem } from './layout.ts';
import { placement } from './place.ts';
import { vectorBarcode } from './vector-barcodes.ts';

/**
 * pdfkit parses the AFM metrics of a standard font anew for every document, which was most of a label's render
 * time (about 3 ms a font). The metrics never change, so each font file is parsed once per process.
 */
function rememberFontMetrics(): void {
  const probe = new PDFDocument({ autoFirstPage: false });
  const afm = (probe as unknown as { _font: { font: { constructor: { prototype: AfmParser } } } })._font.font.constructor.prototype;
  if (afm.remembered) return;
  const parse = afm.parse;
  const parsed = new Map<string, Pick<AfmParser, 'attributes' | 'glyphWidths' | 'boundingBoxes' | 'kernPairs'>>();
  afm.parse = function (this: AfmParser, contents: string) {
    const known = parsed.get(contents);
    if (known) return Object.assign(this, known);
    parse.call(this, contents);
    parsed.set(contents, { attributes: this.attributes, glyphWidths: this.glyphWidths, boundingBoxes: this.boundingBoxes, kernPairs: this.kernPairs });
  };
  afm.remembered = true;
}

interface AfmParser {
  parse(contents: string): void;
  remembered?: boolean;
  attributes: object;
  glyphWidths: object;
  boundingBoxes: object;
  kernPairs: object;
}

rememberFontMetrics();

function pairs(flat: number[]): [number, number][] {
  const out: [number, number][] = [];
  for (let i = 0; i < flat.length; i += 2) out.push([flat[i]!, flat[i + 1]!]);
  return out;
}

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
        for (let i = 0; i < code.rects.length; i += 4) doc.rect(code.rects[i]!, code.rects[i + 1]!, code.rects[i + 2]!, code.rects[i + 3]!);
        if (code.rects.length > 0) doc.fill('black');
        for (const points of code.polygons) doc.polygon(...pairs(points));
        if (code.polygons.length > 0) doc.fill('black');
        for (const ring of code.rings) doc.circle(ring.cx, ring.cy, ring.outer).circle(ring.cx, ring.cy, ring.inner).fill('black', 'even-odd');
        doc.restore();
      }
    }
    doc.end();
  });
}
