import type { LabelFormat } from '../../labels/label-data.ts';

const pngSignature = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/**
 * What a label file is, from its bytes: PDF starts `%PDF-` (ISO 32000-1 7.5.2), PNG with its eight-byte signature
 * (RFC 2083 3.1), a ZPL label with `^XA` (start of format), possibly after `~` device commands such as a graphic
 * download. USPS may answer another type than the one asked, so the file is described by what it is; anything
 * else is undefined.
 */
export function sniffLabelFormat(bytes: Buffer): LabelFormat | undefined {
  if (bytes.subarray(0, 5).toString('latin1') === '%PDF-') return 'pdf';
  if (bytes.subarray(0, 8).equals(pngSignature)) return 'png';
  const head = bytes.subarray(0, 4096).toString('latin1').trimStart();
  if (head.startsWith('^XA') || (head.startsWith('~') && head.includes('^XA'))) return 'zpl';
  return undefined;
}
