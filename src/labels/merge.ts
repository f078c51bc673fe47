import { PDFDocument } from 'pdf-lib';
import { createCanvas, loadImage } from '@napi-rs/canvas';
import { bilevelPng } from './bilevel-png.ts';
import type { LabelFormat } from './label-data.ts';
import { pageSizes } from './layout.ts';

/**
 * Many label files as one, for printing a whole batch in one go: PDF labels as the pages of one PDF, PNG labels
 * each drawn onto a page of their size (4×6 unless told) of one, ZPL labels as one stream (a printer takes ^XA…^XZ
 * formats back to back).
 */
export async function mergeLabels(format: LabelFormat, files: Buffer[], page: { width: number; height: number } = pageSizes['4x6']): Promise<Buffer> {
  if (format === 'zpl') return Buffer.concat(files.flatMap((f) => [f, Buffer.from('\n')]));
  const merged = await PDFDocument.create();
  merged.setProducer('shipd');
  for (const file of files) {
    if (format === 'png') {
      const image = await merged.embedPng(file);
      merged.addPage([page.width, page.height]).drawImage(image, { x: 0, y: 0, width: page.width, height: page.height });
      continue;
    }
    const source = await PDFDocument.load(file);
    for (const page of await merged.copyPages(source, source.getPageIndices())) merged.addPage(page);
  }
  return Buffer.from(await merged.save());
}

/** What a batch's labels merge into. */
export const mergedFormat = (format: LabelFormat): 'pdf' | 'zpl' => (format === 'zpl' ? 'zpl' : 'pdf');

/**
 * One shipment's box labels as its one label file: PDF labels as the pages of one PDF, ZPL formats back to back,
 * and PNG labels one below the other in one image (a PNG has no pages), so the file stays the format bought.
 */
export async function mergeBoxLabels(format: LabelFormat, files: Buffer[]): Promise<Buffer> {
  if (format !== 'png') return mergeLabels(format, files);
  const images = await Promise.all(files.map((f) => loadImage(f)));
  const width = Math.max(...images.map((i) => i.width));
  const height = images.reduce((sum, i) => sum + i.height, 0);
  const canvas = createCanvas(width, height);
  const ctx = canvas.getContext('2d');
  ctx.fillStyle = '#ffffff';
  ctx.fillRect(0, 0, width, height);
  let y = 0;
  for (const image of images) {
    ctx.drawImage(image, 0, y);
    y += image.height;
  }
  return bilevelPng(canvas.data(), width, height);
}
