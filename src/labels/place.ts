import type { BarcodeItem } from './layout.ts';
import type { VectorBarcode } from './vector-barcodes.ts';

export interface Placement {
  x: number;
  y: number;
  sx: number;
  sy: number;
}

/** Where a barcode's own units land in a box: 2D symbols keep their shape, linear ones stretch to fill it. */
export function placement(item: BarcodeItem, code: VectorBarcode, unit: number): Placement {
  const w = item.w * unit;
  const h = item.h * unit;
  const square = item.symbol.type === 'maxicode' || item.symbol.type === 'pdf417';
  let sx = w / code.width;
  let sy = square ? sx : h / code.height;
  if (square && code.height * sy > h) sx = sy = h / code.height;
  // On a raster, whole pixels per module keep every bar edge sharp, which is what scanners need.
  if (unit !== 1 && !square && sx >= 1) sx = Math.floor(sx);
  return { x: item.x * unit + (w - code.width * sx) / 2, y: item.y * unit + (h - code.height * sy) / 2, sx, sy };
}
