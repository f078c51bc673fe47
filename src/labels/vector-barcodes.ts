import bwipjs from 'bwip-js';
import type { BarcodeSymbol } from './symbols.ts';

/** One path of a drawn barcode: filled, or stroked at the given width. */
export interface BarcodePath {
  d: string;
  strokeWidth?: number;
  evenOdd?: boolean;
}

/** A barcode as vector paths in its own units (one module of a linear code per unit), to place and scale. */
export interface VectorBarcode {
  width: number;
  height: number;
  paths: BarcodePath[];
}

const pathElement = /<path ([^>]*?)\s*\/>/g;
const attribute = (attrs: string, name: string) => new RegExp(`${name}="([^"]*)"`).exec(attrs)?.[1];

type RenderOptions = Parameters<typeof bwipjs.toSVG>[0];

function options(symbol: BarcodeSymbol): RenderOptions {
  const base: RenderOptions = { bcid: symbol.type, text: symbol.data, scale: 1 };
  // MaxiCode's mode and PDF417's shape are options of those symbologies, which bwip-js's types do not list.
  if (symbol.type === 'maxicode') return Object.assign(base, { mode: symbol.mode ?? 2 });
  if (symbol.type === 'pdf417') return Object.assign(base, { columns: 6, rowmult: 3 });
  return { ...base, height: 10 };
}

/**
 * Draws the symbol with bwip-js and keeps its geometry as SVG path data, which both pdfkit and canvas take as
 * they are: the PDF stays vector (small and fast, STACK.md) and the PNG draws the very same shapes.
 */
export function vectorBarcode(symbol: BarcodeSymbol): VectorBarcode {
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
  return { width: Number(box[1]), height: Number(box[2]), paths };
}
