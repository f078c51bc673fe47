import type { LabelFormat } from '../../labels/label-data.ts';
import { imageKindOf } from '../live/image-kind.ts';

/**
 * A label file from UPS's bytes, in the format they really are. GIF, which we do not serve, is redrawn as PNG
 * pixel for pixel: still UPS's own label, in another container. Undefined when the bytes are no image we know.
 */
export async function labelFileOf(bytes: Buffer): Promise<{ format: LabelFormat; bytes: Buffer } | undefined> {
  const kind = imageKindOf(bytes);
  if (kind === undefined) return undefined;
  if (kind !== 'gif') return { format: kind, bytes };
  // The image library is loaded on the first live UPS GIF, not into every process that never buys one.
  const { gifToPng } = await import('./label-image.ts');
  const redrawn = await gifToPng(bytes).catch(() => undefined);
  return redrawn && { format: 'png', bytes: redrawn };
}
