import { constants, deflateSync } from 'node:zlib';
import PDFDocument from 'pdfkit';
import type { LabelItem, LabelPage } from './layout.ts';
import { placement, type Placement } from './place.ts';
import { vectorBarcode, type VectorBarcode } from './vector-barcodes.ts';

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

/** Whole and half units print as themselves; anything else is cut to what a 300 dpi printer could show. */
const num = (n: number) => (Number.isInteger(n * 2) ? String(n) : n.toFixed(3));

/** A circle as the four Bézier arcs PDF paths draw one with. */
function circle(cx: number, cy: number, r: number): string {
  const k = r * 0.5523;
  const p = (x: number, y: number) => `${num(cx + x)} ${num(cy + y)}`;
  return [
    `${p(r, 0)} m`,
    `${p(r, k)} ${p(k, r)} ${p(0, r)} c`,
    `${p(-k, r)} ${p(-r, k)} ${p(-r, 0)} c`,
    `${p(-r, -k)} ${p(-k, -r)} ${p(0, -r)} c`,
    `${p(k, -r)} ${p(r, -k)} ${p(r, 0)} c`,
  ].join('\n');
}

/**
 * A barcode as raw PDF path operators in its own units. pdfkit's path methods cost about 10 µs a shape, and a
 * MaxiCode has hundreds of hexagons: written out directly they cost a tenth.
 */
function barcodePaths(code: VectorBarcode): string {
  const ops = ['0 g'];
  const { rects } = code;
  for (let i = 0; i < rects.length; i += 4) ops.push(`${num(rects[i]!)} ${num(rects[i + 1]!)} ${num(rects[i + 2]!)} ${num(rects[i + 3]!)} re`);
  if (rects.length > 0) ops.push('f');
  for (const points of code.polygons) {
    ops.push(`${num(points[0]!)} ${num(points[1]!)} m`);
    for (let i = 2; i < points.length; i += 2) ops.push(`${num(points[i]!)} ${num(points[i + 1]!)} l`);
    ops.push('h');
  }
  if (code.polygons.length > 0) ops.push('f');
  for (const ring of code.rings) ops.push(circle(ring.cx, ring.cy, ring.outer), circle(ring.cx, ring.cy, ring.inner), 'f*');
  return ops.join('\n');
}

/**
 * Draws the barcode as a form XObject of its own. pdfkit deflates page content at zlib's default level, which for
 * a MaxiCode's 23 KB of hexagons took 1.3 ms; a stream that arrives already filtered is left alone, and the
 * fastest level takes a quarter of that for a file 1 KB larger.
 */
export function drawBarcode(doc: PDFKit.PDFDocument, code: VectorBarcode, at: Placement): void {
  const form = doc.ref({ Type: 'XObject', Subtype: 'Form', BBox: [0, 0, code.width, code.height], Filter: 'FlateDecode' });
  form.end(deflateSync(barcodePaths(code), { level: constants.Z_BEST_SPEED }));
  const name = `B${Object.keys(doc.page.xobjects as object).length + 1}`;
  (doc.page.xobjects as Record<string, unknown>)[name] = form;
  doc.addContent(`q ${at.sx.toFixed(4)} 0 0 ${at.sy.toFixed(4)} ${at.x.toFixed(3)} ${at.y.toFixed(3)} cm /${name} Do Q`);
}

function drawItems(doc: PDFKit.PDFDocument, items: LabelItem[]): void {
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
      drawBarcode(doc, code, placement(item, code, 1));
    }
  }
}

/** One page of the label's size; barcodes as vector paths, text in the PDF's built-in Helvetica so no font is embedded. */
export function writePdf(page: LabelPage, createdAt: Date): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const doc = new PDFDocument({ size: [page.width, page.height], margin: 0, info: { Title: 'Shipping label', Producer: 'shipd', Creator: 'shipd', CreationDate: createdAt } });
    const chunks: Buffer[] = [];
    doc.on('data', (c: Buffer) => chunks.push(c));
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
    drawItems(doc, page.sheet);
    doc.save();
    doc.transform(...page.place);
    drawItems(doc, page.label);
    doc.restore();
    doc.end();
  });
}
