import type { LabelFormat } from '../../labels/label-data.ts';

const pngSignature = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/**
 * The format a label file really is, from its first bytes: a PDF starts "%PDF-" (ISO 32000-1, 7.5.2), a PNG with
 * its 8-byte signature (PNG specification, 5.2), a ZPL II label with the ^XA that opens a format, after any
 * ~ host commands (ZPL II Programming Guide). Undefined for anything else.
 */
export function labelFormatOf(bytes: Buffer): LabelFormat | undefined {
  if (bytes.subarray(0, 5).toString('latin1') === '%PDF-') return 'pdf';
  if (bytes.subarray(0, 8).equals(pngSignature)) return 'png';
  const head = bytes.subarray(0, 4096).toString('latin1').trimStart();
  if (/^(~[^^]*)?\^XA/.test(head)) return 'zpl';
  return undefined;
}
