import type { LabelFormat } from '../../labels/label-data.ts';

/** What a carrier's label bytes can be: our three formats, or GIF (UPS's raster labels). */
export type ImageKind = LabelFormat | 'gif';

const pngSignature = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/**
 * What label bytes really are, by their signatures: a PDF starts `%PDF-` (ISO 32000-1, 7.5.2), a PNG with its
 * eight-byte signature (PNG specification, 5.2), a GIF with `GIF8`, a ZPL II label with the `^XA` that opens a
 * format, after blank lines or `~` device commands such as a graphic download. Carriers can answer another type
 * than the one asked, or mislabel it, so a label is described by its bytes. Undefined for anything else.
 */
export function imageKindOf(bytes: Buffer): ImageKind | undefined {
  if (bytes.subarray(0, 5).toString('latin1') === '%PDF-') return 'pdf';
  if (bytes.subarray(0, 8).equals(pngSignature)) return 'png';
  if (bytes.subarray(0, 4).toString('latin1') === 'GIF8') return 'gif';
  const head = bytes.subarray(0, 4096).toString('latin1').trimStart();
  if (head.startsWith('^XA') || (head.startsWith('~') && head.includes('^XA'))) return 'zpl';
  return undefined;
}

/** The label format of bytes shipd can serve as they are: PDF, PNG or ZPL; undefined for GIF and anything else. */
export function labelFormatOf(bytes: Buffer): LabelFormat | undefined {
  const kind = imageKindOf(bytes);
  return kind === 'gif' ? undefined : kind;
}
