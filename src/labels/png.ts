import { createCanvas, GlobalFonts, type Canvas, type SKRSContext2D } from '@napi-rs/canvas';
import { bilevelPng } from './bilevel-png.ts';
import type { LabelItem, LabelPage } from './layout.ts';
import { placement } from './place.ts';
import { vectorBarcode } from './vector-barcodes.ts';

/** Thermal label printers print 203 dots per inch: 812 × 1218 for 4×6 (a letter sheet is drawn at the same). */
const unit = 203 / 72;

/**
 * The PNG's text face: DejaVu Sans where the machine has it (most Linux images do), else another sans face it
 * has, else Skia's default. A missing font changes how the text looks, never whether a label renders.
 */
const family = (() => {
  const known = ['DejaVu Sans', 'Liberation Sans', 'Arial', 'Helvetica', 'Noto Sans'].find((f) => GlobalFonts.has(f));
  const any = known ?? GlobalFonts.families.map((f) => f.family).find((f) => /sans/i.test(f) && !/mono/i.test(f));
  return any ? `"${any}", sans-serif` : 'sans-serif';
})();

/**
 * One canvas for each page size: allocating and clearing 4 MB of pixels cost 2.5 ms a label, more than drawing it.
 * A label is drawn and read out in one synchronous call, so no two labels ever share one.
 */
const shared = new Map<string, Canvas>();

/** The label as a 203 dpi PNG, black on opaque white, drawn from the same items as the PDF. */
export function writePng(page: LabelPage): Buffer {
  const width = Math.round(page.width * unit);
  const height = Math.round(page.height * unit);
  let canvas = shared.get(`${width}x${height}`);
  if (!canvas) shared.set(`${width}x${height}`, (canvas = createCanvas(width, height)));
  const ctx = canvas.getContext('2d');
  ctx.setTransform(1, 0, 0, 1, 0, 0);
  ctx.fillStyle = '#ffffff';
  ctx.fillRect(0, 0, canvas.width, canvas.height);
  ctx.textBaseline = 'top';
  drawItems(ctx, page.sheet);
  const [a, b, c, d, e, f] = page.place;
  ctx.setTransform(a, b, c, d, e * unit, f * unit);
  drawItems(ctx, page.label);
  return bilevelPng(canvas.data(), canvas.width, canvas.height);
}

function drawItems(ctx: SKRSContext2D, items: LabelItem[]): void {
  for (const item of items) {
    if (item.kind === 'box') {
      if (item.fill) {
        ctx.fillStyle = '#000000';
        ctx.fillRect(item.x * unit, item.y * unit, item.w * unit, item.h * unit);
      } else {
        ctx.strokeStyle = '#000000';
        ctx.lineWidth = (item.line ?? 1) * unit;
        ctx.strokeRect(item.x * unit, item.y * unit, item.w * unit, item.h * unit);
      }
    } else if (item.kind === 'text') {
      ctx.fillStyle = item.inverse ? '#ffffff' : '#000000';
      // The layout fits lines by Helvetica's widths; DejaVu runs about a tenth wider, so it is condensed to match.
      ctx.font = `${item.bold ? 'bold ' : ''}${item.size * unit}px ${family}`;
      ctx.save();
      ctx.translate(item.x * unit, item.y * unit);
      ctx.scale(0.9, 1);
      ctx.fillText(item.text, 0, 0);
      ctx.restore();
    } else {
      const code = vectorBarcode(item.symbol);
      const at = placement(item, code, unit);
      ctx.save();
      ctx.transform(at.sx, 0, 0, at.sy, at.x, at.y);
      ctx.fillStyle = '#000000';
      for (let i = 0; i < code.rects.length; i += 4) ctx.fillRect(code.rects[i]!, code.rects[i + 1]!, code.rects[i + 2]!, code.rects[i + 3]!);
      if (code.polygons.length > 0) {
        ctx.beginPath();
        for (const points of code.polygons) {
          ctx.moveTo(points[0]!, points[1]!);
          for (let i = 2; i < points.length; i += 2) ctx.lineTo(points[i]!, points[i + 1]!);
          ctx.closePath();
        }
        ctx.fill();
      }
      for (const ring of code.rings) {
        ctx.beginPath();
        ctx.arc(ring.cx, ring.cy, ring.outer, 0, 2 * Math.PI);
        ctx.arc(ring.cx, ring.cy, ring.inner, 0, 2 * Math.PI);
        ctx.fill('evenodd');
      }
      ctx.restore();
    }
  }
}
