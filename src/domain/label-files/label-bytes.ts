import type { CarrierId } from '../../config.ts';
import { boughtBoxes, boxReferences, type PurchasedLabel } from '../../carriers/carrier.ts';
import type { ShipmentsTable } from '../../db/schema.ts';
import type { LabelData, LabelFormat } from '../../labels/label-data.ts';
import type { Context } from '../core/context.ts';
import { ApiError } from '../../kernel/errors.ts';
import { carrierLabelSize } from '../../carriers/label-options.ts';
import { boxFile, labelAskOf, recordBoxes, serviceName, storedBoxes, type PurchaseRecord } from '../shipments/shipments.ts';

/** Joins the labels of a shipment's boxes; pdf-lib and the canvas library load with the first (most have one box). */
async function mergeBoxLabels(format: LabelFormat, files: Buffer[]): Promise<Buffer> {
  return (await import('../../labels/merge.ts')).mergeBoxLabels(format, files);
}

/** What the label of box `box` (0-based; the only one, for one box) of this purchase shows. */
export function labelDataFor(row: ShipmentsTable, trackingNumber: string, box = 0): LabelData {
  const record: PurchaseRecord = JSON.parse(row.purchase);
  const ask = labelAskOf(record, row.label_format);
  const parcel = recordBoxes(record)[box]!;
  return {
    carrier: row.carrier as CarrierId,
    serviceCode: row.service,
    serviceName: serviceName(row.carrier, row.service),
    trackingNumber,
    from: record.from,
    to: record.to,
    weightLb: parcel.weightLb,
    ...(parcel.dimensionsIn && { dimensionsIn: parcel.dimensionsIn }),
    shipDate: record.shipDate.slice(0, 10),
    ...(record.zone !== null && { zone: record.zone }),
    references: boxReferences(ask.references, parcel.reference, 3),
    size: ask.size,
    ...(record.labelResolution && { resolution: record.labelResolution }),
    isReturn: row.is_return === 1,
    sample: row.mode === 'test',
  };
}

/**
 * Puts a bought label on file and says in which format. The simulators send no file, so shipd draws the one asked
 * for. A carrier's file is kept as the format it really is: a PNG where a PDF was asked (UPS when label recovery
 * fails) is still the PDF label, served as a 4×6 PDF page holding that same image (labelBytes makes the page when
 * first asked for), and any other mismatch keeps the carrier's own format, because a live label redrawn by shipd
 * would not be the carrier's.
 */
export async function fileBoughtLabel(ctx: Pick<Context, 'db' | 'labels' | 'renderer'>, row: ShipmentsTable, label: PurchasedLabel, at: string): Promise<LabelFormat> {
  const asked = row.label_format;
  const boxes = boughtBoxes(label);
  if (boxes.length > 1) {
    // Each box's own label beside the shipment's one merged file, in the same format.
    const files = await Promise.all(boxes.map(async (box, i) => box.file ?? { format: asked, bytes: await ctx.renderer.render(labelDataFor(row, box.trackingNumber, i), asked) }));
    const format = files[0]!.format;
    for (const [i, file] of files.entries()) await ctx.labels.put(ctx.db, boxFileKey(row.id, i), file.format, file.bytes, at);
    await ctx.labels.put(ctx.db, row.id, format, await mergeBoxLabels(format, files.map((f) => f.bytes)), at);
    return format;
  }
  if (!label.file) {
    await ctx.labels.put(ctx.db, row.id, asked, await ctx.renderer.render(labelDataFor(row, label.trackingNumber), asked), at);
    return asked;
  }
  await ctx.labels.put(ctx.db, row.id, label.file.format, await onTheSheetAsked(row, label.file, at), at);
  return label.file.format === 'png' && asked === 'pdf' ? 'pdf' : label.file.format;
}

/** The carrier's file on the letter sheet asked, where the carrier printed its 4×6 label instead (carrierLabelSize). */
async function onTheSheetAsked(row: ShipmentsTable, file: NonNullable<PurchasedLabel['file']>, at: string): Promise<Buffer> {
  const size = labelAskOf(JSON.parse(row.purchase), file.format).size;
  if (size !== 'letter' || file.format === 'zpl' || carrierLabelSize(row.carrier as CarrierId, file.format, size) === size) return file.bytes;
  const { placePdfOnLetter, placePngOnLetter } = await import('../../labels/letter-placement.ts');
  return file.format === 'pdf' ? placePdfOnLetter(file.bytes, new Date(at)) : placePngOnLetter(file.bytes);
}

/**
 * A bought label's file in a format: the stored one, else, for a test label, drawn once and kept. A live label is
 * the carrier's own file, so it is served only as the carrier sold it, or its PNG placed on a PDF page of its size: a
 * label shipd drew for a live tracking number would not be the carrier's.
 */
export async function labelBytes(ctx: Pick<Context, 'db' | 'labels' | 'clock' | 'renderer'>, row: ShipmentsTable, format: LabelFormat, box?: number): Promise<Buffer> {
  if (box === undefined) {
    const boxes = storedBoxes(row);
    // The file merged at purchase holds every box: once one is voided on its own, the boxes left are merged anew on
    // each download (rarely asked for, and never then a file that would print a voided box's label).
    if (boxes.some((b) => b.status !== undefined)) {
      const left = boxes.flatMap((b, i) => (b.status === undefined ? [i] : []));
      return mergeBoxLabels(format, await Promise.all(left.map((i) => labelBytes(ctx, row, format, i))));
    }
  }
  const id = box === undefined ? row.id : boxFileKey(row.id, box);
  const stored = await ctx.labels.get(id, format);
  if (stored) return stored;
  if (row.mode === 'live') return carrierFileAs(ctx, row, id, format);
  const boxes = storedBoxes(row);
  if (box !== undefined && box >= boxes.length) throw new ApiError('not_found', `Shipment ${row.id} has ${boxes.length} box(es); there is no box ${box + 1}`);
  const bytes =
    box !== undefined
      ? await ctx.renderer.render(labelDataFor(row, boxes[box]!.tracking_number, box), format)
      : boxes.length === 1
        ? await ctx.renderer.render(labelDataFor(row, row.tracking_number!), format)
        : await mergeBoxLabels(format, await Promise.all(boxes.map((_, i) => labelBytes(ctx, row, format, i))));
  await ctx.labels.put(ctx.db, id, format, bytes, ctx.clock.now().toISOString());
  return bytes;
}

/** Where box `index`'s own label file is kept: beside the shipment's, as its customs documents are. */
const boxFileKey = (shipmentId: string, index: number) => `${shipmentId}.${boxFile(index)}`;

/** The live file kept under `id` (the shipment's, or one box's: boxFileKey) in `format`, from the carrier's PNG if need be. */
async function carrierFileAs(ctx: Pick<Context, 'db' | 'labels' | 'clock'>, row: ShipmentsTable, id: string, format: LabelFormat): Promise<Buffer> {
  const png = format === 'pdf' ? await ctx.labels.get(id, 'png') : undefined;
  if (png) {
    const [{ mergeLabels }, { pageSizes }] = await Promise.all([import('../../labels/merge.ts'), import('../../labels/layout.ts')]);
    const pdf = await mergeLabels('png', [png], pageSizes[labelAskOf(JSON.parse(row.purchase), 'png').size]);
    await ctx.labels.put(ctx.db, id, 'pdf', pdf, ctx.clock.now().toISOString());
    return pdf;
  }
  throw new ApiError(
    'label_format_unavailable',
    `${serviceName(row.carrier, row.service)} label ${row.tracking_number} was sold by the carrier as ${row.label_format.toUpperCase()}; a live label is the carrier's own file and shipd does not redraw it as ${format.toUpperCase()}`,
  );
}

/** The formats a bought label can be served in now, without asking the carrier: every one for a test label. */
export function servableFormats(row: ShipmentsTable): LabelFormat[] {
  if (row.mode !== 'live') return ['pdf', 'png', 'zpl'];
  return row.label_format === 'png' ? ['png', 'pdf'] : [row.label_format];
}
