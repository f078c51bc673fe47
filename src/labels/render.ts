import type { LabelData, LabelFormat } from './label-data.ts';
import { labelPage } from './layout.ts';
import { writePdf } from './pdf.ts';
import { writeZpl } from './zpl.ts';

/** The label of a shipment in the format, size and (ZPL) resolution asked for. */
export async function renderLabel(data: LabelData, format: LabelFormat): Promise<Buffer> {
  const page = labelPage(data, format);
  if (format === 'zpl') return Buffer.from(writeZpl(page, data.resolution ?? 203), 'utf8');
  // Skia (@napi-rs/canvas) loads with the first PNG only: a process that prints PDF or ZPL never maps it.
  if (format === 'png') return (await import('./png.ts')).writePng(page);
  return writePdf(page, new Date(`${data.shipDate}T00:00:00Z`));
}
