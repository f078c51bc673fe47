import PDFDocument from 'pdfkit';
import { fit, widthOf } from './layout.ts';
import { drawBarcode } from './pdf.ts';
import { placement } from './place.ts';
import { printable } from './printable.ts';
import type { BarcodeSymbol } from './symbols.ts';
import { vectorBarcode } from './vector-barcodes.ts';

export interface PageSize {
  width: number;
  height: number;
}

/** US Letter, what invoices and CN 23 forms print on. */
export const letterPage: PageSize = { width: 612, height: 792 };
/** A 4×6 label, the size of the CN 22 USPS integrates with its label. */
export const labelPage: PageSize = { width: 288, height: 432 };

export interface TextStyle {
  size: number;
  bold?: boolean;
  /** The space the text must stay within; longer text is cut short with an ellipsis. */
  width?: number;
  align?: 'left' | 'right' | 'center';
  /** White on black. */
  inverse?: boolean;
}

/**
 * Breaks client text into at most `maxLines` lines of `width`, at spaces where it can and inside a word where one
 * word is wider than the line; what does not fit ends the last line with an ellipsis.
 */
export function wrapText(raw: string, size: number, width: number, maxLines: number, bold = false): string[] {
  const words = printable(raw).split(/\s+/).filter(Boolean);
  const lines: string[] = [];
  let line = '';
  for (let i = 0; i < words.length; i++) {
    const word = words[i]!;
    const joined = line ? `${line} ${word}` : word;
    if (widthOf(joined, size, bold) <= width) {
      line = joined;
      continue;
    }
    if (lines.length === maxLines - 1) return [...lines, fit(`${joined} ${words.slice(i + 1).join(' ')}`.trim(), size, width, bold)];
    if (line) {
      lines.push(line);
      line = '';
      i--;
      continue;
    }
    // A word wider than the whole line: as much of it as fits, the rest starts the next line.
    let end = word.length - 1;
    while (end > 1 && widthOf(word.slice(0, end), size, bold) > width) end--;
    lines.push(word.slice(0, end));
    words[i] = word.slice(end);
    i--;
  }
  if (line) lines.push(line);
  return lines;
}

/** Splits `count` rows into pages of `perPage`; no rows still makes one page, the form itself. */
export function pageRows(count: number, perPage: number): [number, number][] {
  const pages: [number, number][] = [];
  for (let start = 0; start < Math.max(count, 1); start += perPage) pages.push([start, Math.min(start + perPage, count)]);
  return pages;
}

export const sampleBandHeight = 22;

/** Numbers as page content writes them: at most two decimals, a hundredth of a point being finer than any printer. */
const num = (n: number) => String(Math.round(n * 100) / 100);

const winAnsi = new Map<string, string>();

/** What text needs of one of pdfkit's standard fonts: its resource name, its ascent, its WinAnsi codes. */
interface StandardFont {
  id: string;
  ascender: number;
  font: { encodeText(text: string): string[] };
  ref(): unknown;
}

/**
 * A customs document being drawn: pages of text in the PDF's built-in Helvetica (no font embedded, as on labels),
 * rules, boxes and vector barcodes. Every string a client sent goes through `printable` and is kept inside its
 * space, so no text can run into the next field.
 *
 * Text and lines are written as page-content operators rather than through pdfkit's text(), which kerns every
 * pair of letters: a form holds a hundred strings, and that cost three times what the rest of the page did.
 * Unkerned, the text is exactly as wide as `widthOf` measures it.
 */
export class DocumentPen {
  private readonly doc: PDFKit.PDFDocument;
  private readonly bytes: Promise<Buffer>;
  private readonly fonts: { regular: StandardFont; bold: StandardFont };

  constructor(
    readonly size: PageSize,
    title: string,
    createdAt: Date,
  ) {
    this.doc = new PDFDocument({ size: [size.width, size.height], margin: 0, autoFirstPage: false, info: { Title: title, Producer: 'shipd', Creator: 'shipd', CreationDate: createdAt } });
    const standard = (name: string) => (this.doc.font(name) as unknown as { _font: StandardFont })._font;
    this.fonts = { bold: standard('Helvetica-Bold'), regular: standard('Helvetica') };
    const chunks: Buffer[] = [];
    this.bytes = new Promise((resolve, reject) => {
      this.doc.on('data', (c: Buffer) => chunks.push(c));
      this.doc.on('end', () => resolve(Buffer.concat(chunks)));
      this.doc.on('error', reject);
    });
  }

  /** Starts a page; a sample's page is framed top and bottom by the band labels carry. */
  page(sample: boolean): void {
    this.doc.addPage({ size: [this.size.width, this.size.height], margin: 0 });
    const resources = this.doc.page.fonts as Record<string, unknown>;
    for (const font of [this.fonts.regular, this.fonts.bold]) resources[font.id] = font.ref();
    if (!sample) return;
    for (const y of [0, this.size.height - sampleBandHeight]) {
      this.fill(0, y, this.size.width, sampleBandHeight);
      this.text('SAMPLE — DO NOT SHIP', this.size.width / 2, y + 4, { size: 14, bold: true, align: 'center', inverse: true });
    }
  }

  /** One line of text whose top is at y; `align` right or center places it by its right edge or middle at x. */
  text(raw: string, x: number, y: number, style: TextStyle): void {
    const bold = style.bold ?? false;
    const clean = printable(raw);
    const line = style.width === undefined ? clean : fit(clean, style.size, style.width, bold);
    if (!line) return;
    const width = widthOf(line, style.size, bold);
    const left = style.align === 'right' ? x - width : style.align === 'center' ? x - width / 2 : x;
    const font = bold ? this.fonts.bold : this.fonts.regular;
    let hex = '';
    for (const c of line) hex += this.code(font, c);
    // The page's user space is pdfkit's, y downwards; text is set in the PDF's own, y upwards, from its baseline.
    const baseline = this.size.height - y - (font.ascender / 1000) * style.size;
    this.doc.addContent(
      `q 1 0 0 -1 0 ${num(this.size.height)} cm ${style.inverse ? 1 : 0} g BT /${font.id} ${num(style.size)} Tf 1 0 0 1 ${num(left)} ${num(baseline)} Tm <${hex}> Tj ET Q`,
    );
  }

  /** Client text over several lines (see wrapText); returns how many it took. */
  paragraph(raw: string, x: number, y: number, width: number, maxLines: number, style: TextStyle): number {
    const lines = wrapText(raw, style.size, width, maxLines, style.bold);
    lines.forEach((line, i) => this.text(line, x, y + i * style.size * 1.15, { ...style, width }));
    return lines.length;
  }

  /** A frame of the given line width; of no height, a rule. */
  box(x: number, y: number, w: number, h: number, line = 0.5): void {
    this.doc.addContent(`q ${num(line)} w 0 G ${num(x)} ${num(y)} ${num(w)} ${num(h)} re S Q`);
  }

  fill(x: number, y: number, w: number, h: number): void {
    this.doc.addContent(`q 0 g ${num(x)} ${num(y)} ${num(w)} ${num(h)} re f Q`);
  }

  /** A tick box, crossed when checked, with its label to the right. */
  checkbox(x: number, y: number, checked: boolean, label: string, size: number): void {
    const side = size + 1;
    this.box(x, y, side, side, 0.6);
    if (checked) {
      const [a, b] = [num(x + 1.5), num(x + side - 1.5)];
      const [top, end] = [num(y + 1.5), num(y + side - 1.5)];
      this.doc.addContent(`q 1 w 0 G ${a} ${top} m ${b} ${end} l ${b} ${top} m ${a} ${end} l S Q`);
    }
    this.text(label, x + side + 3, y + 0.5, { size, bold: checked });
  }

  barcode(symbol: BarcodeSymbol, x: number, y: number, w: number, h: number): void {
    const code = vectorBarcode(symbol);
    drawBarcode(this.doc, code, placement({ kind: 'barcode', x, y, w, h, symbol }, code, 1));
  }

  end(): Promise<Buffer> {
    this.doc.end();
    return this.bytes;
  }

  /** A character's two-digit WinAnsi code, asked of pdfkit once a process: both faces encode alike. */
  private code(font: StandardFont, c: string): string {
    let code = winAnsi.get(c);
    if (code === undefined) {
      code = font.font.encodeText(c)[0]!.padStart(2, '0');
      winAnsi.set(c, code);
    }
    return code;
  }
}
