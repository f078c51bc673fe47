import { labelContentTypes } from '../labels/render.ts';
import type { LabelFormat } from '../labels/label-data.ts';
import type { Context } from './context.ts';
import { ApiError } from './errors.ts';
import { hasPrefix } from './ids.ts';
import { checkLabelToken } from './label-tokens.ts';

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

/**
 * A batch's or manifest's file behind its URL, which needs no API key because the token in it is signed for this
 * id alone: the same links as labels, so the same printers and tools can fetch them.
 */
export async function documentFile(
  ctx: Pick<Context, 'db' | 'labels' | 'config' | 'clock'>,
  id: string,
  format: LabelFormat,
  token: string,
): Promise<{ bytes: Buffer; contentType: string }> {
  const check = checkLabelToken(ctx.config.secret, id, token, ctx.clock.now());
  if (check !== 'valid') {
    throw new ApiError('invalid_label_token', check === 'expired' ? 'This link has expired; GET the batch or manifest for a fresh one' : 'This link is not valid');
  }
  const bytes = (await documentFormat(ctx, id)) === format ? await ctx.labels.get(id, format) : undefined;
  if (!bytes) throw new ApiError('not_found', `No ${format} file for ${id}`);
  return { bytes, contentType: labelContentTypes[format] };
}
