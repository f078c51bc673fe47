import type { LabelResolution } from './label-data.ts';
import type { BarcodeItem, LabelPage } from './layout.ts';
import { vectorBarcode } from './vector-barcodes.ts';

type Dots = (pt: number) => number;

/**
 * Field data for ^FH: `_`, `^`, `~`, control characters and every non-ASCII byte become `_XX`, so no text a
 * client sends (a name of "^XZ", say) can end the label or start a command; ^CI28 reads the bytes as UTF-8.
 * `<` is escaped too, so the file holds no markup should something show it as HTML (a reference of "<script>").
 */
function zplField(text: string): string {
  let out = '';
  for (const byte of Buffer.from(text, 'utf8')) {
    const c = String.fromCharCode(byte);
    out += byte < 0x20 || byte > 0x7e || '_^~<'.includes(c) ? `_${byte.toString(16).toUpperCase().padStart(2, '0')}` : c;
  }
  return out;
}

/**
 * GS1-128 the way Zebra's guide chains application identifiers: start in subset C, and FNC1 (`>8`) before each
 * AI, so the reader knows where the variable-length ZIP of AI 420 ends. Mode D's parentheses are not used: the
 * guide promises they are stripped, not that an FNC1 is put after a variable-length field.
 */
function gs1Field(data: string): string {
  return `>;${[...data.matchAll(/\((\d+)\)([^(]*)/g)].map(([, ai, value]) => `>8${ai}${value}`).join('')}`;
}

/**
 * The printer draws the barcodes itself (^BC, ^BD, ^B7), sharper at its own resolution than any image. MaxiCode
 * has one size whatever the printer; PDF417's module and row heights are given in dots, so they grow with them.
 */
function barcode(item: BarcodeItem, dots: Dots): string {
  const x = dots(item.x);
  const y = dots(item.y);
  const h = dots(item.h);
  const { symbol } = item;
  if (symbol.type === 'maxicode') {
    const [, secondary] = symbol.data.split('\x1d96');
    const fields = (secondary ?? '').split('\x1d');
    const [zip, country, cls] = fields;
    const rest = fields.slice(3).join('\x1d');
    // The high-priority message is class of service, country and ZIP; the rest follows the 96 header.
    return `^FO${x},${y}^BD${symbol.mode ?? 2},1,1^FH^FD${zplField(`${cls}${country}${zip}[)>\x1e01\x1d96${rest}`)}^FS`;
  }
  if (symbol.type === 'pdf417') return `^FO${x},${y}^BY${dots(2 * (72 / 203))}^B7N,${dots(6 * (72 / 203))},5,6^FH^FD${zplField(symbol.data)}^FS`;
  const modules = vectorBarcode(symbol).width;
  const module = Math.max(1, Math.min(4, Math.floor(dots(item.w) / modules)));
  const left = x + Math.max(0, Math.floor((dots(item.w) - modules * module) / 2));
  const data = symbol.type === 'gs1-128' ? gs1Field(symbol.data) : zplField(symbol.data);
  return `^FO${left},${y}^BY${module}^BCN,${h},N,N,N,A^FH^FD${data}^FS`;
}

/**
 * The printer's resident font 0 has the Latin letters ^CI28 maps, but Zebra does not promise it has typographic
 * punctuation, which could print as a gap: the em dash and ellipsis go out as ASCII ("SAMPLE - DO NOT SHIP").
 */
const asciiPunctuation = (text: string) => text.replaceAll('—', '-').replaceAll('…', '...');

/** ZPL II for a 4×6 or 4×8 label at the printer's resolution. */
export function writeZpl(page: LabelPage, dpi: LabelResolution): string {
  const dots: Dots = (pt) => Math.round((pt * dpi) / 72);
  const out = ['^XA', '^CI28', `^PW${dots(page.width)}`, `^LL${dots(page.height)}`, '^LH0,0'];
  for (const item of page.label) {
    if (item.kind === 'box') {
      const w = dots(item.w);
      const h = dots(item.h);
      const thickness = item.fill ? Math.min(w, h) : Math.max(1, dots(item.line ?? 1));
      out.push(`^FO${dots(item.x)},${dots(item.y)}^GB${w},${h},${thickness}^FS`);
    } else if (item.kind === 'text') {
      const h = dots(item.size);
      out.push(`^FO${dots(item.x)},${dots(item.y)}^A0N,${h},${Math.round(h * 0.9)}${item.inverse ? '^FR' : ''}^FH^FD${zplField(asciiPunctuation(item.text))}^FS`);
    } else {
      out.push(barcode(item, dots));
    }
  }
  out.push('^XZ');
  return `${out.join('\n')}\n`;
}
