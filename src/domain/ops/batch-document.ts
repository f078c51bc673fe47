import type { BatchesTable, ShipmentsTable } from '../../db/schema.ts';
import type { Context } from '../core/context.ts';
import { ApiError } from '../../kernel/errors.ts';
import { labelBytes } from '../label-files/label-bytes.ts';
import { shipmentDocument } from '../label-files/document-files.ts';
import { activeBox, documentFiles, storedBoxes, type PurchaseRecord } from '../shipments/shipments.ts';

type Deps = Pick<Context, 'db' | 'labels' | 'clock' | 'renderer'>;

const documentsOf = (row: ShipmentsTable) => documentFiles(JSON.parse(row.purchase) as PurchaseRecord);

/** The labels a batch bought, as shipments, in the order given. */
const batchShipments = (ctx: Deps, batchId: string) =>
  ctx.db
    .selectFrom('batch_items')
    .innerJoin('shipments', 'shipments.id', 'batch_items.shipment_id')
    .where('batch_items.batch_id', '=', batchId)
    .orderBy('batch_items.position');

/** The merged file of the batch's labels that are still good, kept beside the labels; null when none is. */
export async function buildBatchDocument(ctx: Deps, batch: BatchesTable): Promise<'pdf' | 'zpl' | null> {
  const rows = await batchShipments(ctx, batch.id).selectAll('shipments').where('batch_items.status', '=', 'purchased').where('shipments.status', '=', 'purchased').execute();
  const files: Buffer[] = [];
  for (const row of rows) {
    // A live label the carrier sold in another format than the batch's cannot join its file; it prints from its
    // own label_url, which the batch's results list.
    const file = await labelBytes(ctx, row, batch.label_format).catch((err: unknown) => {
      if (err instanceof ApiError && err.code === 'label_format_unavailable') return undefined;
      throw err;
    });
    if (!file) continue;
    files.push(file);
    // A PDF batch prints each label's customs documents right after it, as the parcel needs them with its label.
    // A box voided on its own is left out, its form with it.
    if (batch.label_format === 'pdf') {
      const boxes = storedBoxes(row);
      for (const { type, box } of documentsOf(row)) if (box === undefined || activeBox(row, boxes[box]!)) files.push(await shipmentDocument(ctx, row, type, box));
    }
  }
  if (files.length === 0) return null;
  // Loaded when first needed: the PDF libraries would otherwise sit in the API thread's memory for nothing, as
  // labels are drawn on the render threads.
  // The label layout module brings PDFKit: loaded by the first batch document, not by every process that starts.
  const [{ mergedFormat, mergeLabels }, { pageSizes }] = await Promise.all([import('../../labels/merge.ts'), import('../../labels/layout.ts')]);
  const format = mergedFormat(batch.label_format);
  // PNG labels are drawn onto pages of the paper the batch asked for, as each label's own PDF download is.
  const merged = await mergeLabels(batch.label_format, files, pageSizes[batch.label_size]);
  await ctx.labels.put(ctx.db, batch.id, format, merged, ctx.clock.now().toISOString());
  return format;
}

/**
 * The batch's merged file as it may be printed now: a label, or a box of one, voided since the file was made would
 * ship an unpaid parcel, so the file is made again without it (the batch's updated_at marks when the file was last
 * made).
 */
export async function currentBatchDocument(ctx: Deps, batch: BatchesTable): Promise<void> {
  const voided = await batchShipments(ctx, batch.id)
    .select('shipments.id')
    .where((eb) =>
      eb.or([
        eb.and([eb('shipments.status', '!=', 'purchased'), eb('shipments.voided_at', '>=', batch.updated_at)]),
        // A box voided on its own changes the label's boxes and its updated_at (StoredBox.voided_at).
        eb.and([eb('shipments.updated_at', '>=', batch.updated_at), eb('shipments.packages', 'like', '%"voided_at":%')]),
      ]),
    )
    .limit(1)
    .executeTakeFirst();
  if (!voided) return;
  const at = ctx.clock.now().toISOString();
  // With no label left there is no new file: the mark stays, so every later download finds the voids again and is
  // refused, rather than served the last file made, voided labels and all.
  if (!(await buildBatchDocument(ctx, batch))) throw new ApiError('label_voided', `Every label of ${batch.id} was voided; there is nothing to print`);
  await ctx.db.updateTable('batches').set({ updated_at: at }).where('id', '=', batch.id).execute();
}
