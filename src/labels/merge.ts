import { PDFDocument } from 'pdf-lib';
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
