import type { LabelFormat } from '../../labels/label-data.ts';
import { labelContentTypes } from '../../labels/label-data.ts';
import type { Context } from '../core/context.ts';
import { ApiError } from '../../kernel/errors.ts';
import { hasPrefix } from '../../kernel/ids.ts';
import { labelBytes } from './label-bytes.ts';
import { checkLabelToken } from './label-tokens.ts';
import { shipmentDocument, storedDocument } from './document-files.ts';
import type { CustomsDocumentType } from '../../labels/customs-data.ts';
import { activeBox, storedBoxes } from '../shipments/shipments.ts';

const idPattern = /^(shp|bat|man)_[0-9a-z]{26}$/;

/**
 * The file behind a label URL: GET /labels/{id}.{format}?token=…, which needs no API key because the token signs
 * it for that id alone. A shp_ id is a label, in any format (those other than the one bought are rendered on first
 * request and kept), and `document` one of its customs documents, as a PDF; a bat_ or manifest id is the batch's merged labels or the manifest's form.
 */
export async function labelFile(
  ctx: Pick<Context, 'db' | 'labels' | 'renderer' | 'config' | 'clock'>,
  id: string,
  format: LabelFormat,
  token: string,
  /** One box's own label (0-based) instead of the label, a customs document, or a box's own customs form (both). */
  part: { box?: number; document?: CustomsDocumentType } = {},
): Promise<{ bytes: Buffer; contentType: string }> {
  const { document, box } = part;
  const check = idPattern.test(id) ? checkLabelToken(ctx.config.secret, id, token, ctx.clock.now()) : 'invalid';
  if (check !== 'valid') {
    throw new ApiError('invalid_label_token', check === 'expired' ? 'This link has expired; GET the shipment, batch or manifest for a fresh one' : 'This link is not valid');
  }
  if (box !== undefined && !hasPrefix(id, 'shp')) throw new ApiError('not_found', `No box file for ${id}; boxes are shipments'`);
  if (document && (!hasPrefix(id, 'shp') || format !== 'pdf')) throw new ApiError('not_found', `No ${document} ${format} file for ${id}; customs documents are PDFs of shipments`);
  if (!hasPrefix(id, 'shp')) return { bytes: await storedDocument(ctx, id, format), contentType: labelContentTypes[format] };
  const row = await ctx.db.selectFrom('shipments').selectAll().where('id', '=', id).executeTakeFirst();
  if (!row || row.tracking_number === null) throw new ApiError('not_found', `No label for ${id}`);
  if (row.status !== 'purchased') throw new ApiError('label_voided', `The label of ${id} was voided; printing it would ship an unpaid parcel`);
  const boxes = storedBoxes(row);
  if (box !== undefined && box < boxes.length && !activeBox(row, boxes[box]!)) {
    throw new ApiError('label_voided', `Box ${box + 1} of ${id} was voided on its own; printing its label would ship an unpaid parcel`);
  }
  const bytes = document ? await shipmentDocument(ctx, row, document, box) : await labelBytes(ctx, row, format, box);
  return { bytes, contentType: labelContentTypes[format] };
}
