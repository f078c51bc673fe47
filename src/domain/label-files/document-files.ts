import type { PurchasedLabel } from '../../carriers/carrier.ts';
import type { ShipmentsTable } from '../../db/schema.ts';
import type { CustomsDocumentData, CustomsDocumentType, DocumentAddress } from '../../labels/customs-data.ts';
import type { LabelFormat } from '../../labels/label-data.ts';
import type { AnyAddress } from '../../schemas/address.ts';
import type { Context } from '../core/context.ts';
import { ApiError } from '../../kernel/errors.ts';
import { hasPrefix } from '../../kernel/ids.ts';
import { currentBatchDocument } from '../ops/batch-document.ts';
import { money } from '../core/money.ts';
import { serviceName, type PurchaseRecord } from '../shipments/shipments.ts';

/**
 * A batch's or manifest's file, kept in the label store beside the labels so any instance serves it. A batch's file
 * leaves out the labels voided since it was made.
 */
export async function storedDocument(ctx: Pick<Context, 'db' | 'labels' | 'clock' | 'renderer'>, id: string, format: LabelFormat): Promise<Buffer> {
  let known = false;
  if (hasPrefix(id, 'bat')) {
    const batch = await ctx.db.selectFrom('batches').selectAll().where('id', '=', id).executeTakeFirst();
    known = batch?.document_format === format;
    if (batch && known) await currentBatchDocument(ctx, batch);
  } else if (hasPrefix(id, 'man')) {
    known = format === 'pdf' && (await ctx.db.selectFrom('manifests').select('id').where('id', '=', id).executeTakeFirst()) !== undefined;
  }
  const bytes = known ? await ctx.labels.get(id, format) : undefined;
  if (!bytes) throw new ApiError('not_found', `No ${format} file for ${id}`);
  return bytes;
}

/** Where a shipment's customs document is kept in the label store: beside its label, under `{shp_id}.{type}`. */
export const documentKey = (shipmentId: string, type: CustomsDocumentType) => `${shipmentId}.${type}`;

const documentAddress = (a: AnyAddress): DocumentAddress => ({ ...a, country: (a.country ?? 'US').toUpperCase() });

/** What a shipment's customs document prints: the declaration kept with the purchase, and the label's number. */
function documentData(row: ShipmentsTable, record: PurchaseRecord, trackingNumber: string, postageCents: number): CustomsDocumentData {
  return {
    carrier: row.carrier as CustomsDocumentData['carrier'],
    serviceCode: row.service,
    serviceName: serviceName(row.carrier, row.service),
    trackingNumber,
    from: documentAddress(record.from),
    to: documentAddress(record.to),
    customs: record.customs!,
    shipDate: record.shipDate.slice(0, 10),
    grossWeight: { value: record.parcel.weightLb, unit: 'lb' },
    packages: 1,
    postage: money(postageCents),
    ...(record.reference !== null && { reference: record.reference }),
    sample: row.mode === 'test',
  };
}

/**
 * Keeps the customs documents of a bought label, before it is recorded as bought: those shipd draws
 * (PurchaseRecord.documents, test mode) and those the carrier printed (a live commercial invoice). Answers the
 * purchase record listing the carrier's too, when it printed any, for the row to be saved with.
 */
export async function fileCustomsDocuments(ctx: Pick<Context, 'db' | 'labels' | 'renderer'>, row: ShipmentsTable, label: PurchasedLabel, at: string): Promise<string | undefined> {
  const record: PurchaseRecord = JSON.parse(row.purchase);
  for (const type of record.documents ?? []) {
    const bytes = await ctx.renderer.renderDocument(type, documentData(row, record, label.trackingNumber, label.postageCents));
    await ctx.labels.put(ctx.db, documentKey(row.id, type), 'pdf', bytes, at);
  }
  const printed = label.documents ?? [];
  for (const d of printed) await ctx.labels.put(ctx.db, documentKey(row.id, d.type), 'pdf', d.bytes, at);
  if (printed.length === 0) return undefined;
  return JSON.stringify({ ...record, documents: [...new Set([...(record.documents ?? []), ...printed.map((d) => d.type)])] });
}

/** A bought label's customs document; 404 for a type the shipment does not have. */
export async function shipmentDocument(ctx: Pick<Context, 'labels'>, row: ShipmentsTable, type: CustomsDocumentType): Promise<Buffer> {
  const record: PurchaseRecord = JSON.parse(row.purchase);
  const bytes = record.documents?.includes(type) ? await ctx.labels.get(documentKey(row.id, type), 'pdf') : undefined;
  if (!bytes) throw new ApiError('not_found', `Shipment ${row.id} has no ${type} document`);
  return bytes;
}
