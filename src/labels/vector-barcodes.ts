import bwipjs from 'bwip-js';
import type { BarcodeSymbol } from './symbols.ts';

/** One path of a drawn barcode: filled, or stroked at the given width. */
export interface BarcodePath {
  d: string;
  strokeWidth?: number;
  evenOdd?: boolean;
}

/**
 * A barcode as geometry in its own units (one module per unit), to place and scale: dark rectangles as flat
 * `x, y, w, h` runs, and paths for shapes rectangles cannot draw (MaxiCode's hexagons and bullseye).
 */
export interface VectorBarcode {
  width: number;
  height: number;
  rects: number[];
  paths: BarcodePath[];
}

type RenderOptions = Parameters<typeof bwipjs.raw>[0];

function options(symbol: BarcodeSymbol): RenderOptions {
  const base: RenderOptions = { bcid: symbol.type, text: symbol.data, scale: 1 };
  // MaxiCode's mode and PDF417's shape are options of those symbologies, which bwip-js's types do not list.
  if (symbol.type === 'maxicode') return Object.assign(base, { mode: symbol.mode ?? 2 });
  if (symbol.type === 'pdf417') return Object.assign(base, { columns: 6, rowmult: 3 });
  return { ...base, height: 10 };
}

/** Bars of a linear code from its bar and space widths: one rectangle per bar, one unit tall. */
function linear(sbs: number[]): VectorBarcode {
  const rects: number[] = [];
  let x = 0;
  for (let i = 0; i < sbs.length; i++) {
    if (i % 2 === 0) rects.push(x, 0, sbs[i]!, 1);
    x += sbs[i]!;
  }
  return { width: x, height: 1, rects, paths: [] };
}

/** A module matrix (PDF417), each row's runs of dark modules as one rectangle. */
function matrix(pixs: number[], pixx: number, pixy: number): VectorBarcode {
  const rows = pixs.length / pixx;
  const rowHeight = pixy / rows;
  const rects: number[] = [];
  for (let r = 0; r < rows; r++) {
    for (let c = 0; c < pixx; c++) {
      if (!pixs[r * pixx + c]) continue;
      let end = c;
      while (end + 1 < pixx && pixs[r * pixx + end + 1]) end++;
      rects.push(c, r * rowHeight, end - c + 1, rowHeight);
      c = end;
    }
  }
  return { width: pixx, height: pixy, rects, paths: [] };
}

const pathElement = /<path ([^>]*?)\s*\/>/g;
const attribute = (attrs: string, name: string) => new RegExp(`${name}="([^"]*)"`).exec(attrs)?.[1];

/** MaxiCode's hexagons and rings, as bwip-js draws them in SVG. */
function fromSvg(symbol: BarcodeSymbol): VectorBarcode {
  const svg = bwipjs.toSVG(options(symbol));
  const box = /viewBox="0 0 ([0-9.]+) ([0-9.]+)"/.exec(svg);
  if (!box) throw new Error(`bwip-js drew ${symbol.type} without a viewBox`);
  const paths: BarcodePath[] = [];
  for (const [, attrs] of svg.matchAll(pathElement)) {
    const d = attribute(attrs!, 'd');
    if (!d) continue;
    const stroke = attribute(attrs!, 'stroke-width');
    paths.push({ d, ...(stroke && { strokeWidth: Number(stroke) }), ...(attribute(attrs!, 'fill-rule') === 'evenodd' && { evenOdd: true }) });
  }
  return { width: Number(box[1]), height: Number(box[2]), rects: [], paths };
}

/**
 * The symbol's geometry, encoded by bwip-js. Linear codes and PDF417 come from bwip-js's raw modules (ten times
 * faster than its SVG); the PDF stays vector and the PNG draws the very same shapes.
 */
export function vectorBarcode(symbol: BarcodeSymbol): VectorBarcode {
  if (symbol.type === 'maxicode') return fromSvg(symbol);
  const [raw] = bwipjs.raw(options(symbol)) as unknown as [{ sbs?: number[]; pixs?: number[]; pixx?: number; pixy?: number }];
  if (raw?.sbs) return linear(raw.sbs);
  if (raw?.pixs && raw.pixx && raw.pixy) return matrix(raw.pixs, raw.pixx, raw.pixy);
  throw new Error(`bwip-js gave no modules for ${symbol.type}`);
}
