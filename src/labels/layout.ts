import PDFDocument from 'pdfkit';
import type { AnyAddress } from '../schemas/address.ts';
import { countryName } from './customs-figures.ts';
import { abroadCountry, type LabelData, type LabelFormat, type LabelSize } from './label-data.ts';
import { printable } from './printable.ts';
import { fedexPdf417, trackingCode128, upsMaxiCode, uspsImpb, zip5, type BarcodeSymbol } from './symbols.ts';

// A label as a list of things to draw, in PDF points on a 4×6 in page (288 × 432), top-left origin; a 4×8 label
// is the same with a tab below, and a letter sheet holds the 4×6 label turned in its top half. The PDF, PNG and ZPL
// writers all draw these lists, so the three formats cannot disagree.

export const pageWidth = 288;
export const pageHeight = 432;

/** Each size's page, in points. */
export const pageSizes: Readonly<Record<LabelSize, { width: number; height: number }>> = {
  '4x6': { width: pageWidth, height: pageHeight },
  '4x8': { width: pageWidth, height: 576 },
  letter: { width: 612, height: 792 },
};

export interface TextItem {
  kind: 'text';
  x: number;
  /** Top of the text. */
  y: number;
  size: number;
  bold?: boolean;
  text: string;
  /** White on a black box drawn before it. */
  inverse?: boolean;
}

export interface BoxItem {
  kind: 'box';
  x: number;
  y: number;
  w: number;
  h: number;
  /** Filled black; otherwise a frame of this line width. */
  fill?: boolean;
  line?: number;
}

export interface BarcodeItem {
  kind: 'barcode';
  x: number;
  y: number;
  w: number;
  h: number;
  symbol: BarcodeSymbol;
}

export type LabelItem = TextItem | BoxItem | BarcodeItem;

/**
 * A pdfkit document kept only as a ruler: the layout is drawn for the PDF's Helvetica, whose metrics it holds.
 * The PNG's face is condensed to about the same widths, and the printer's font 0 runs narrower still.
 */
const ruler = new PDFDocument({ autoFirstPage: false });

/**
 * Each character's advance at 1 pt, asked of pdfkit once: measuring whole strings through it cost more than the
 * rest of a ZPL label. Kerning is left out; it mostly tightens Helvetica, and the few pairs it loosens (lower
 * case and punctuation, on a mostly upper-case label) add hundredths of an em.
 */
const advances = { regular: new Map<string, number>(), bold: new Map<string, number>() };

export function widthOf(text: string, size: number, bold: boolean): number {
  const known = bold ? advances.bold : advances.regular;
  let width = 0;
  for (const c of text) {
    let advance = known.get(c);
    if (advance === undefined) {
      advance = ruler.font(bold ? 'Helvetica-Bold' : 'Helvetica').fontSize(1).widthOfString(c);
      known.set(c, advance);
    }
    width += advance;
  }
  return width * size;
}

/** Lines too long for their space are cut short, with an ellipsis, rather than run off the label. */
export function fit(text: string, size: number, width: number, bold = false): string {
  if (widthOf(text, size, bold) <= width) return text;
  let end = text.length - 1;
  while (end > 1 && widthOf(`${text.slice(0, end)}…`, size, bold) > width) end--;
  return `${text.slice(0, end)}…`;
}

/** The address as a label prints it; abroad, the city line has what the country has and the country's name follows. */
function addressLines(a: AnyAddress): string[] {
  const cityLine = [a.city, a.state, a.zip].filter(Boolean).join(' ');
  const country = (a.country ?? 'US').toUpperCase();
  const lines = [a.name, a.company, a.street1, a.street2, cityLine, country === 'US' ? undefined : countryName(country)];
  return lines.filter((l): l is string => Boolean(l && l.trim())).map((l) => printable(l.toUpperCase()));
}

/** `1Z 144 2YY 72 2901 4688` */
function upsGrouping(tn: string): string {
  return [tn.slice(0, 2), tn.slice(2, 5), tn.slice(5, 8), tn.slice(8, 10), tn.slice(10, 14), tn.slice(14)].join(' ');
}

const groupsOf = (tn: string, n: number) => tn.match(new RegExp(`.{1,${n}}`, 'g'))!.join(' ');

function humanTracking(d: LabelData): string {
  if (d.carrier === 'ups') return `TRACKING #: ${upsGrouping(d.trackingNumber)}`;
  if (d.carrier === 'usps') return `USPS TRACKING # ${groupsOf(d.trackingNumber, 4)}`;
  return `TRK# ${groupsOf(d.trackingNumber, 4)}`;
}

const uspsIcon: Record<string, string> = {
  PRIORITY_MAIL: 'P',
  PRIORITY_MAIL_EXPRESS: 'E',
  USPS_GROUND_ADVANTAGE: 'G',
  PRIORITY_MAIL_INTERNATIONAL: 'P',
  PRIORITY_MAIL_EXPRESS_INTERNATIONAL: 'E',
  'FIRST-CLASS_PACKAGE_INTERNATIONAL_SERVICE': 'F',
};

function weightText(lb: number): string {
  return `${Math.ceil(lb)} LB${Math.ceil(lb) === 1 ? '' : 'S'}`;
}

const sampleBandHeight = 22;

/**
 * A test-mode label is framed by a band top and bottom that no one can miss, both kept clear of every barcode so
 * the label still scans. 16 pt Helvetica Bold sets the words 195 pt wide, centred on the 288 pt page.
 */
function sampleBand(y: number): LabelItem[] {
  return [
    { kind: 'box', x: 0, y, w: pageWidth, h: sampleBandHeight, fill: true },
    { kind: 'text', x: 47, y: y + 3, size: 16, bold: true, text: 'SAMPLE — DO NOT SHIP', inverse: true },
  ];
}

/** The carrier's own middle section: service, routing, and its 2D symbol or postage block. */
function carrierSection(d: LabelData, top: number): LabelItem[] {
  const items: LabelItem[] = [];
  const service = d.serviceName.toUpperCase();
  if (d.carrier === 'ups') {
    items.push({ kind: 'barcode', x: 12, y: top + 6, w: 78, h: 74, symbol: upsMaxiCode(d) });
    const abroad = abroadCountry(d);
    const routing = abroad ? `${abroad} ${(d.to.zip ?? '').replace(/\s/g, '').slice(0, 3).toUpperCase()} ${d.zone ?? '0'}-01` : `${d.to.state!.toUpperCase()} ${zip5(d.to.zip!).slice(0, 3)} ${d.zone ?? '0'}-01`;
    items.push({ kind: 'text', x: 104, y: top + 10, size: 20, bold: true, text: routing });
    items.push({ kind: 'text', x: 104, y: top + 42, size: 9, text: 'BILLING: P/P' });
    items.push({ kind: 'text', x: 104, y: top + 56, size: 9, text: `SHIPPER #: ${d.trackingNumber.slice(2, 8)}` });
    items.push({ kind: 'box', x: 0, y: top + 86, w: pageWidth, h: 24, fill: true });
    items.push({ kind: 'text', x: 8, y: top + 91, size: 14, bold: true, text: fit(service, 14, 272, true), inverse: true });
    return items;
  }
  if (d.carrier === 'usps') {
    items.push({ kind: 'box', x: 8, y: top + 6, w: 56, h: 56, line: 3 });
    items.push({ kind: 'text', x: 22, y: top + 12, size: 40, bold: true, text: uspsIcon[d.serviceCode] ?? 'P' });
    items.push({ kind: 'box', x: 150, y: top + 6, w: 130, h: 56, line: 1 });
    items.push({ kind: 'text', x: 156, y: top + 10, size: 8, bold: true, text: 'US POSTAGE PAID' });
    items.push({ kind: 'text', x: 156, y: top + 22, size: 7, text: `${d.shipDate}  FROM ${zip5(d.from.zip)}` });
    items.push({ kind: 'text', x: 156, y: top + 32, size: 7, text: `${weightText(d.weightLb)}${d.zone ? `  ZONE ${d.zone}` : ''}` });
    items.push({ kind: 'text', x: 156, y: top + 42, size: 7, text: 'COMMERCIAL' });
    items.push({ kind: 'box', x: 0, y: top + 68, w: pageWidth, h: 22, fill: true });
    items.push({ kind: 'text', x: 8, y: top + 72, size: 13, bold: true, text: fit(service.startsWith('USPS ') ? service : `USPS ${service}`, 13, 272, true), inverse: true });
    return items;
  }
  items.push({ kind: 'text', x: 8, y: top + 6, size: 14, bold: true, text: fit(service, 14, 272, true) });
  items.push({ kind: 'text', x: 8, y: top + 26, size: 8, text: `SHIP DATE ${d.shipDate}   ACT WGT ${d.weightLb.toFixed(1)} LB   BILL SENDER` });
  items.push({ kind: 'barcode', x: 8, y: top + 40, w: 272, h: 48, symbol: fedexPdf417(d) });
  return items;
}

/** One reference as today's labels print the order number; several smaller, one a line and numbered. */
function referenceLines(d: LabelData, y: number): LabelItem[] {
  const refs = d.references.map((r) => printable(r));
  if (refs.length === 1) return [{ kind: 'text', x: 8, y, size: 8, text: fit(`REF: ${refs[0]}`, 8, 272) }];
  return refs.map((r, i) => ({ kind: 'text', x: 8, y: y + i * 8, size: 7, text: fit(`REF ${i + 1}: ${r}`, 7, 272) }));
}

/** A 4×8 label's last two inches: a tab with the references large enough to read across a warehouse, and the tracking number. */
function labelTab(d: LabelData, top: number): LabelItem[] {
  const items: LabelItem[] = [{ kind: 'box', x: 0, y: top, w: pageWidth, h: 1, fill: true }];
  let y = top + 8;
  if (d.references.length > 0) {
    items.push({ kind: 'text', x: 8, y, size: 8, bold: true, text: 'REFERENCES' });
    y += 12;
    for (const r of d.references) {
      items.push({ kind: 'text', x: 8, y, size: 12, bold: true, text: fit(printable(r), 12, 272, true) });
      y += 16;
    }
  }
  items.push({ kind: 'text', x: 8, y: y + 2, size: 8, text: `${humanTracking(d)}   SHIP DATE ${d.shipDate}` });
  return items;
}

/** The label of a shipment, item by item: 4×6, or 4×8 with its tab. */
export function layoutLabel(d: LabelData, height = pageHeight): LabelItem[] {
  const items: LabelItem[] = [];
  let y = 0;
  if (d.sample) {
    items.push(...sampleBand(0));
    y = 24;
  }
  const from = addressLines(d.from);
  from.forEach((line, i) => items.push({ kind: 'text', x: 8, y: y + 4 + i * 9, size: 7.5, text: fit(line, 7.5, 180) }));
  items.push({ kind: 'text', x: 200, y: y + 4, size: 10, bold: true, text: weightText(d.weightLb) });
  items.push({ kind: 'text', x: 200, y: y + 18, size: 8, text: '1 OF 1' });
  items.push({ kind: 'text', x: 200, y: y + 30, size: 7, text: `DATE: ${d.shipDate}` });
  if (d.dimensionsIn) {
    const { length, width, height } = d.dimensionsIn;
    items.push({ kind: 'text', x: 200, y: y + 40, size: 7, text: `DIMS: ${length}x${width}x${height} IN` });
  }
  y += 52;
  items.push({ kind: 'box', x: 0, y, w: pageWidth, h: 1, fill: true });

  items.push({ kind: 'text', x: 8, y: y + 6, size: 8, bold: true, text: d.isReturn ? 'RETURN TO:' : 'SHIP TO:' });
  if (d.isReturn) {
    items.push({ kind: 'box', x: 200, y: y + 4, w: 80, h: 20, line: 2 });
    items.push({ kind: 'text', x: 212, y: y + 8, size: 12, bold: true, text: 'RETURN' });
  }
  addressLines(d.to).forEach((line, i) => items.push({ kind: 'text', x: 24, y: y + 20 + i * 14, size: 12, bold: true, text: fit(line, 12, 256, true) }));
  y += 96;
  items.push({ kind: 'box', x: 0, y, w: pageWidth, h: 1, fill: true });

  items.push(...carrierSection(d, y));
  y += d.carrier === 'ups' ? 114 : 94;

  items.push({ kind: 'text', x: 8, y: y + 2, size: 10, bold: true, text: humanTracking(d) });
  y += 18;
  if (d.carrier === 'usps' && abroadCountry(d)) {
    // Abroad the item number is a UPU S10 number, barcoded in Code 128 as postal forms have it; there is no IMpb.
    items.push({ kind: 'barcode', x: 14, y, w: 260, h: 70, symbol: trackingCode128(d) });
    y += 76;
  } else if (d.carrier === 'usps') {
    // The IMpb is the barcode USPS sorts by; the plain Code 128 of the number follows it, smaller.
    items.push({ kind: 'barcode', x: 14, y, w: 260, h: 58, symbol: uspsImpb(d) });
    y += 62;
    items.push({ kind: 'text', x: 8, y, size: 8, text: `(420) ${d.to.zip!.replace('-', '')}  ${groupsOf(d.trackingNumber, 4)}` });
    y += 12;
    // Short enough to leave the references their three lines above the band.
    items.push({ kind: 'barcode', x: 24, y, w: 240, h: 24, symbol: trackingCode128(d) });
    y += 28;
  } else {
    items.push({ kind: 'barcode', x: 14, y, w: 260, h: 70, symbol: trackingCode128(d) });
    y += 76;
  }
  items.push(...referenceLines(d, y));
  if (height > pageHeight) items.push(...labelTab(d, pageHeight));
  if (d.sample) items.push(...sampleBand(height - sampleBandHeight));
  return items;
}

/** A page to draw: the sheet's own items, and the label's, placed on it by a matrix in points (top-left origin). */
export interface LabelPage {
  width: number;
  height: number;
  sheet: LabelItem[];
  label: LabelItem[];
  /** [a, b, c, d, e, f]: x' = a·x + c·y + e, y' = b·x + d·y + f. */
  place: readonly [number, number, number, number, number, number];
}

export const letterHalf = pageSizes.letter.height / 2;

/** A letter sheet's fold line across the middle, and how to fold it in the bottom half, as desktop printers' labels come. */
export const letterFold: readonly LabelItem[] = [
  { kind: 'box', x: 36, y: letterHalf, w: pageSizes.letter.width - 72, h: 0.5, fill: true },
  { kind: 'text', x: 36, y: letterHalf + 6, size: 8, bold: true, text: 'FOLD HERE' },
  { kind: 'text', x: 36, y: letterHalf + 24, size: 10, text: 'Fold the sheet along the line, with the label outside, and tape it flat to the largest side of the parcel.' },
  { kind: 'text', x: 36, y: letterHalf + 40, size: 10, text: 'Keep tape off the barcodes.' },
];

/** The letter sheet: the 4×6 label turned a quarter clockwise (its top to the sheet's right edge) and centred in the top half, above the fold. */
function letterSheet(d: LabelData): LabelPage {
  const { width } = pageSizes.letter;
  const x = (width - pageHeight) / 2;
  const y = (letterHalf - pageWidth) / 2;
  return {
    ...pageSizes.letter,
    sheet: [...letterFold],
    label: layoutLabel(d),
    place: [0, 1, -1, 0, x + pageHeight, y],
  };
}

/** What a label of this format draws: ZPL on its label stock (a letter sheet is not ZPL's, so 4×6), the others on the size asked. */
export function labelPage(d: LabelData, format: LabelFormat): LabelPage {
  const size = d.size ?? '4x6';
  if (size === 'letter' && format !== 'zpl') return letterSheet(d);
  const stock = size === '4x8' ? '4x8' : '4x6';
  return { ...pageSizes[stock], sheet: [], label: layoutLabel(d, pageSizes[stock].height), place: [1, 0, 0, 1, 0, 0] };
}
