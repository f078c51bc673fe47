import type { CarrierId } from '../config.ts';
import type { ShipmentsTable } from '../db/schema.ts';
import type { LabelData, LabelFormat } from '../labels/label-data.ts';
import type { Context } from './context.ts';
import { serviceName, type PurchaseRecord } from './shipments.ts';

/** What the label of this purchase shows. */
export function labelDataFor(row: ShipmentsTable, trackingNumber: string): LabelData {
  const record: PurchaseRecord = JSON.parse(row.purchase);
  return {
    carrier: row.carrier as CarrierId,
    serviceCode: row.service,
    serviceName: serviceName(row.carrier, row.service),
    trackingNumber,
    from: record.from,
    to: record.to,
    weightLb: record.parcel.weightLb,
    ...(record.parcel.dimensionsIn && { dimensionsIn: record.parcel.dimensionsIn }),
    shipDate: record.shipDate.slice(0, 10),
    ...(record.zone !== null && { zone: record.zone }),
    ...(record.reference !== null && { reference: record.reference }),
    isReturn: row.is_return === 1,
    sample: row.mode === 'test',
  };
}

/** A bought label's file in a format: the stored one, else rendered once and kept. */
export async function labelBytes(ctx: Pick<Context, 'db' | 'labels' | 'clock' | 'renderer'>, row: ShipmentsTable, format: LabelFormat): Promise<Buffer> {
  const stored = await ctx.labels.get(row.id, format);
  if (stored) return stored;
  const bytes = await ctx.renderer.render(labelDataFor(row, row.tracking_number!), format);
  await ctx.labels.put(ctx.db, row.id, format, bytes, ctx.clock.now().toISOString());
  return bytes;
}
