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
import { documentFile, documentFiles, recordBoxes, serviceName, type PurchaseRecord } from '../shipments/shipments.ts';
import { boxCustomsFormsFor } from '../../carriers/customs-forms.ts';
import type { CarrierId } from '../../config.ts';
import type { Customs } from '../../schemas/customs.ts';

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

/**
 * Where a shipment's customs document is kept in the label store: beside its label, under `{shp_id}.{type}`, or a
 * box's own form beside the box's label, `{shp_id}.box{n}.{type}`.
 */
export const documentKey = (shipmentId: string, type: CustomsDocumentType, box?: number) => `${shipmentId}.${documentFile(type, box)}`;

const documentAddress = (a: AnyAddress): DocumentAddress => ({ ...a, country: (a.country ?? 'US').toUpperCase() });

/**
 * What a shipment's customs document prints: the declaration kept with the purchase, the label's number, and every
 * box's weight. A box's own form (`box`) prints that box's: its number, its lines, its weight and its postage.
 */
function documentData(row: ShipmentsTable, record: PurchaseRecord, label: PurchasedLabel, box?: { index: number; customs: Customs }): CustomsDocumentData {
  const boxes = recordBoxes(record);
  const own = box && label.packages?.[box.index];
  const weighed = box ? [boxes[box.index]!] : boxes;
  return {
    carrier: row.carrier as CustomsDocumentData['carrier'],
    serviceCode: row.service,
    serviceName: serviceName(row.carrier, row.service),
    trackingNumber: own ? own.trackingNumber : label.trackingNumber,
    from: documentAddress(record.from),
    to: documentAddress(record.to),
    customs: box ? box.customs : record.customs!,
    shipDate: record.shipDate.slice(0, 10),
    grossWeight: { value: Math.round(weighed.reduce((sum, b) => sum + b.weightLb, 0) * 1000) / 1000, unit: 'lb' },
    packages: weighed.length,
    // A box's own postage where the carrier billed it alone (USPS's box by box), else the shipment's.
    ...(own ? own.postageCents !== undefined && { postage: money(own.postageCents) } : { postage: money(label.postageCents) }),
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
    const bytes = await ctx.renderer.renderDocument(type, documentData(row, record, label));
    await ctx.labels.put(ctx.db, documentKey(row.id, type), 'pdf', bytes, at);
  }
  if (record.boxDocuments) {
    const forms = boxCustomsFormsFor(row.carrier as CarrierId, row.service, record.customs ?? null, recordBoxes(record))!;
    for (const [index, { type, customs }] of forms.entries()) {
      const bytes = await ctx.renderer.renderDocument(type, documentData(row, record, label, { index, customs }));
      await ctx.labels.put(ctx.db, documentKey(row.id, type, index), 'pdf', bytes, at);
    }
  }
  const printed = label.documents ?? [];
  for (const d of printed) await ctx.labels.put(ctx.db, documentKey(row.id, d.type), 'pdf', d.bytes, at);
  if (printed.length === 0) return undefined;
  return JSON.stringify({ ...record, documents: [...new Set([...(record.documents ?? []), ...printed.map((d) => d.type)])] });
}

/** A bought label's customs document, or box `box`'s own (0-based); 404 for one the shipment does not have. */
export async function shipmentDocument(ctx: Pick<Context, 'labels'>, row: ShipmentsTable, type: CustomsDocumentType, box?: number): Promise<Buffer> {
  const record: PurchaseRecord = JSON.parse(row.purchase);
  const has = documentFiles(record).some((d) => d.type === type && d.box === box);
  const bytes = has ? await ctx.labels.get(documentKey(row.id, type, box), 'pdf') : undefined;
  if (!bytes) throw new ApiError('not_found', `Shipment ${row.id} has no ${type} document${box === undefined ? '' : ` for box ${box + 1}`}`);
  return bytes;
}
