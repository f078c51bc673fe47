import type { CarrierId } from '../config.ts';
import type { ShipmentsTable } from '../db/schema.ts';
import type { LabelData, LabelFormat } from '../labels/label-data.ts';
import { labelContentTypes, renderLabel } from '../labels/render.ts';
import type { Context } from './context.ts';
import { ApiError } from './errors.ts';
import { hasPrefix } from './ids.ts';
import { checkLabelToken } from './label-tokens.ts';
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

/**
 * The label file behind a label URL: GET /labels/{shp_id}.{format}?token=…, which needs no API key because the
 * token signs it. Formats other than the one bought are rendered on first request and kept.
 */
export async function labelFile(
  ctx: Pick<Context, 'db' | 'labels' | 'config' | 'clock'>,
  shipmentId: string,
  format: LabelFormat,
  token: string,
): Promise<{ bytes: Buffer; contentType: string }> {
  const check = hasPrefix(shipmentId, 'shp') ? checkLabelToken(ctx.config.secret, shipmentId, token, ctx.clock.now()) : 'invalid';
  if (check !== 'valid') {
    throw new ApiError('invalid_label_token', check === 'expired' ? 'This label link has expired; GET the shipment for a fresh label_url' : 'This label link is not valid');
  }
  const row = await ctx.db.selectFrom('shipments').selectAll().where('id', '=', shipmentId).executeTakeFirst();
  if (!row || row.tracking_number === null) throw new ApiError('not_found', `No label for ${shipmentId}`);
  if (row.status !== 'purchased') throw new ApiError('label_voided', `The label of ${shipmentId} was voided; printing it would ship an unpaid parcel`);
  return { bytes: await labelBytes(ctx, row, format), contentType: labelContentTypes[format] };
}

/** A bought label's file in a format: the stored one, else rendered once and kept. */
export async function labelBytes(ctx: Pick<Context, 'db' | 'labels' | 'clock'>, row: ShipmentsTable, format: LabelFormat): Promise<Buffer> {
  const stored = await ctx.labels.get(row.id, format);
  if (stored) return stored;
  const bytes = await renderLabel(labelDataFor(row, row.tracking_number!), format);
  await ctx.labels.put(ctx.db, row.id, format, bytes, ctx.clock.now().toISOString());
  return bytes;
}
