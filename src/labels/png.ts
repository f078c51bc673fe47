import { createCanvas } from '@napi-rs/canvas';
import { pageHeight, pageWidth, type LabelItem } from './layout.ts';
import { placement } from './place.ts';
import { vectorBarcode } from './vector-barcodes.ts';

/** Thermal label printers print 203 dots per inch: 812 × 1218 for 4×6. */
export const pngDpi = 203;
const unit = pngDpi / 72;

/** The label as a 203 dpi PNG: white, opaque, black ink only, drawn from the same items as the PDF. */
export async function writePng(items: LabelItem[]): Promise<Buffer> {
  const canvas = createCanvas(Math.round(pageWidth * unit), Math.round(pageHeight * unit));
  const ctx = canvas.getContext('2d');
  ctx.fillStyle = '#ffffff';
  ctx.fillRect(0, 0, canvas.width, canvas.height);
  ctx.textBaseline = 'top';
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
      // DejaVu ships with the machine's fonts; it runs wider than Helvetica, so condense it to the PDF's widths.
      ctx.font = `${item.bold ? 'bold ' : ''}${item.size * unit}px "DejaVu Sans", sans-serif`;
      ctx.save();
      ctx.translate(item.x * unit, item.y * unit);
      ctx.scale(0.9, 1);
      ctx.fillText(item.text, 0, 0);
      ctx.restore();
    } else {
      const code = vectorBarcode(item.symbol);
      const at = placement(item, code, unit);
      ctx.save();
      ctx.setTransform(at.sx, 0, 0, at.sy, at.x, at.y);
      ctx.fillStyle = '#000000';
      ctx.strokeStyle = '#000000';
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
  return canvas.encode('png');
}
