import type { LabelData, LabelFormat } from './label-data.ts';
import { layoutLabel } from './layout.ts';
import { writePdf } from './pdf.ts';
import { writePng } from './png.ts';
import { writeZpl } from './zpl.ts';

/** The label of a shipment in the format asked for. */
export async function renderLabel(data: LabelData, format: LabelFormat): Promise<Buffer> {
  const items = layoutLabel(data);
  if (format === 'zpl') return Buffer.from(writeZpl(items), 'utf8');
  if (format === 'png') return writePng(items);
  return writePdf(items, new Date(`${data.shipDate}T00:00:00Z`));
}
