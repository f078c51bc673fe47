import type { LabelData, LabelFormat } from './label-data.ts';
import { layoutLabel } from './layout.ts';
import { writePdf } from './pdf.ts';
import { writePng } from './png.ts';
import { writeZpl } from './zpl.ts';

/**
 * What each format is served as. ZPL has no registered media type; `application/zpl` is what label printers'
 * print servers and carriers' APIs commonly send, and the file is plain ASCII.
 */
export const labelContentTypes: Record<LabelFormat, string> = {
  pdf: 'application/pdf',
  zpl: 'application/zpl',
  png: 'image/png',
};

/** The label of a shipment in the format asked for. */
export async function renderLabel(data: LabelData, format: LabelFormat): Promise<Buffer> {
  const items = layoutLabel(data);
  if (format === 'zpl') return Buffer.from(writeZpl(items), 'utf8');
  if (format === 'png') return writePng(items);
  return writePdf(items, new Date(`${data.shipDate}T00:00:00Z`));
}
