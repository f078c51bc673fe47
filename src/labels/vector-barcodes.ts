import bwipjs from 'bwip-js';
import type { BarcodeSymbol } from './symbols.ts';

/**
 * A barcode as geometry in its own units, to place and scale: dark rectangles as flat `x, y, w, h` runs, and for
 * MaxiCode its hexagons (flat point lists) and the rings of its bullseye.
 */
export interface VectorBarcode {
  width: number;
  height: number;
  rects: number[];
  polygons: number[][];
  rings: { cx: number; cy: number; inner: number; outer: number }[];
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
  return { width: x, height: 1, rects, polygons: [], rings: [] };
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
  return { width: pixx, height: pixy, rects, polygons: [], rings: [] };
}

/**
 * MaxiCode from the indexes of its dark modules in the 30 × 33 grid: pointed-top hexagons, odd rows shifted half
 * a module, and the three-ring bullseye in the middle; the same geometry bwip-js draws, without its SVG to parse.
 */
function maxiCode(dark: number[]): VectorBarcode {
  const polygons = dark.map((i) => {
    const row = Math.floor(i / 30);
    const cx = 1.5 + 4 * (i % 30) + (row % 2 ? 2 : 0);
    const top = 1 + 3 * row;
    return [cx, top, cx - 1.5, top + 1, cx - 1.5, top + 2, cx, top + 3, cx + 1.5, top + 2, cx + 1.5, top + 1];
  });
  const rings = [
    { inner: 2, outer: 4 },
    { inner: 7, outer: 10 },
    { inner: 12, outer: 15 },
  ].map((r) => ({ cx: 58, cy: 50, ...r }));
  return { width: 121, height: 101, rects: [], polygons, rings };
}

/**
 * The symbol's geometry, from the modules bwip-js encodes (ten times faster than asking it for SVG). The PDF
 * stays vector, and the PNG draws the very same shapes.
 */
export function vectorBarcode(symbol: BarcodeSymbol): VectorBarcode {
  const [raw] = bwipjs.raw(options(symbol)) as unknown as [{ sbs?: number[]; pixs?: number[]; pixx?: number; pixy?: number }];
  if (raw?.sbs) return linear(raw.sbs);
  if (symbol.type === 'maxicode' && raw?.pixs) return maxiCode(raw.pixs);
  if (raw?.pixs && raw.pixx && raw.pixy) return matrix(raw.pixs, raw.pixx, raw.pixy);
  throw new Error(`bwip-js gave no modules for ${symbol.type}`);
}
