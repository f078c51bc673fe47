import type { LabelFormat } from '../../labels/label-data.ts';
import type { Context } from '../core/context.ts';
import { ApiError } from '../../kernel/errors.ts';
import { hasPrefix } from '../../kernel/ids.ts';
import { currentBatchDocument } from '../ops/batch-document.ts';

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
