import type { LabelFormat } from '../labels/label-data.ts';
import type { Context } from './context.ts';
import { ApiError } from './errors.ts';
import { hasPrefix } from './ids.ts';

/** Which stored documents a file URL may name beside labels: a batch's merged labels, a manifest's form. */
async function documentFormat(ctx: Pick<Context, 'db'>, id: string): Promise<LabelFormat | null | undefined> {
  if (hasPrefix(id, 'bat')) {
    return (await ctx.db.selectFrom('batches').select('document_format').where('id', '=', id).executeTakeFirst())?.document_format;
  }
  if (hasPrefix(id, 'man')) {
    return (await ctx.db.selectFrom('manifests').select('id').where('id', '=', id).executeTakeFirst()) ? 'pdf' : undefined;
  }
  return undefined;
}

/** A batch's or manifest's file, kept in the label store beside the labels so any instance serves it. */
export async function storedDocument(ctx: Pick<Context, 'db' | 'labels'>, id: string, format: LabelFormat): Promise<Buffer> {
  const bytes = (await documentFormat(ctx, id)) === format ? await ctx.labels.get(id, format) : undefined;
  if (!bytes) throw new ApiError('not_found', `No ${format} file for ${id}`);
  return bytes;
}
