import type { LabelFormat } from '../../labels/label-data.ts';

export type ImageKind = LabelFormat | 'gif';

const png = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/**
 * What the bytes are, by their signatures: PDF `%PDF-`, PNG's 8 bytes, GIF `GIF8`, ZPL a format starting `^XA`
 * (after blank lines, or after `~` download commands that may come first). UPS's ImageFormat.Code can disagree.
 */
export function sniffImage(bytes: Buffer): ImageKind | undefined {
  if (bytes.subarray(0, 5).toString('latin1') === '%PDF-') return 'pdf';
  if (bytes.subarray(0, 8).equals(png)) return 'png';
  if (bytes.subarray(0, 4).toString('latin1') === 'GIF8') return 'gif';
  const head = bytes.subarray(0, 4096).toString('latin1').trimStart();
  if (head.startsWith('^XA') || (head.startsWith('~') && head.includes('^XA'))) return 'zpl';
  return undefined;
}

/**
 * A label file from UPS's bytes, in the format they really are. GIF, which we do not serve, is redrawn as PNG
 * pixel for pixel: still UPS's own label, in another container. Undefined when the bytes are no image we know.
 */
export async function labelFileOf(bytes: Buffer): Promise<{ format: LabelFormat; bytes: Buffer } | undefined> {
  const kind = sniffImage(bytes);
  if (kind === undefined) return undefined;
  if (kind !== 'gif') return { format: kind, bytes };
  // The image library is loaded on the first live UPS GIF, not into every process that never buys one.
  const { gifToPng } = await import('./label-image.ts');
  const redrawn = await gifToPng(bytes).catch(() => undefined);
  return redrawn && { format: 'png', bytes: redrawn };
}
