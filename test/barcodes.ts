// Reads labels back the way a scanner would: zxing-cpp (compiled to WebAssembly) over the label's pixels, and
// pdf.js to rasterize PDF labels first. Test support only; nothing here is shipped.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { createCanvas, DOMMatrix, ImageData, loadImage, Path2D } from '@napi-rs/canvas';
import { prepareZXingModule, readBarcodes, type ReadResult } from 'zxing-wasm/reader';

const require = createRequire(import.meta.url);
let ready: Promise<unknown> | undefined;

/** zxing's WebAssembly from node_modules, never from its default CDN. */
function zxing(): Promise<unknown> {
  ready ??= (async () => {
    const wasm = readFileSync(require.resolve('zxing-wasm/reader/zxing_reader.wasm'));
    await prepareZXingModule({ overrides: { wasmBinary: wasm.buffer.slice(wasm.byteOffset, wasm.byteOffset + wasm.byteLength) as ArrayBuffer }, fireImmediately: true });
  })();
  return ready;
}

export interface Decoded {
  format: string;
  text: string;
}

/** Every barcode zxing finds in a PNG image. */
export async function decodePng(png: Buffer): Promise<Decoded[]> {
  await zxing();
  const found: ReadResult[] = await readBarcodes(new Uint8Array(png), { formats: [], tryHarder: true, maxNumberOfSymbols: 10, textMode: 'Plain' });
  return found.filter((r) => r.isValid).map((r) => ({ format: r.format, text: r.text }));
}

/**
 * zxing reads MaxiCode only as a "pure" symbol, alone in its image: this cuts the region (in PDF points of the
 * 4×6 page) out of the label's own pixels and reads that.
 */
export async function decodeRegion(png: Buffer, region: { x: number; y: number; w: number; h: number }): Promise<Decoded[]> {
  const image = await loadImage(png);
  const k = image.width / 288;
  const canvas = createCanvas(Math.round(region.w * k), Math.round(region.h * k));
  const ctx = canvas.getContext('2d');
  ctx.fillStyle = '#ffffff';
  ctx.fillRect(0, 0, canvas.width, canvas.height);
  ctx.drawImage(image, region.x * k, region.y * k, canvas.width, canvas.height, 0, 0, canvas.width, canvas.height);
  return decodePng(await canvas.encode('png'));
}

let pdfjs: Promise<typeof import('pdfjs-dist/legacy/build/pdf.mjs')> | undefined;

class CanvasFactory {
  create(width: number, height: number) {
    const canvas = createCanvas(width, height);
    return { canvas, context: canvas.getContext('2d') };
  }
  reset(target: { canvas: { width: number; height: number } }, width: number, height: number) {
    target.canvas.width = width;
    target.canvas.height = height;
  }
  destroy(target: { canvas: { width: number; height: number } }) {
    target.canvas.width = 0;
    target.canvas.height = 0;
  }
}

/** A run of text as pdf.js places it: page (from 1), left edge and baseline from the page's top, in points. */
export interface TextRun {
  page: number;
  text: string;
  x: number;
  y: number;
  width: number;
}

export interface PdfInfo {
  pages: number;
  width: number;
  height: number;
  /** The first page's text. */
  text: string;
  /** Each page's text. */
  pageTexts: string[];
  runs: TextRun[];
  /** The page asked for (the first by default) at the given resolution, as PNG. */
  raster: Buffer;
}

/** Opens a PDF with pdf.js: its pages, page size, the text of every page, and one page rasterized. */
export async function openPdf(pdf: Buffer, dpi = 300, rasterPage = 1): Promise<PdfInfo> {
  if (!pdfjs) {
    // pdf.js draws through the browser's canvas globals; @napi-rs/canvas provides them.
    Object.assign(globalThis, { Path2D, DOMMatrix, ImageData });
    pdfjs = import('pdfjs-dist/legacy/build/pdf.mjs');
  }
  const lib = await pdfjs;
  const doc = await lib.getDocument({
    data: new Uint8Array(pdf),
    CanvasFactory,
    isEvalSupported: false,
    standardFontDataUrl: `${require.resolve('pdfjs-dist/package.json').replace(/package\.json$/, '')}standard_fonts/`,
    verbosity: 0,
  } as Parameters<typeof lib.getDocument>[0]).promise;
  const pageTexts: string[] = [];
  const runs: TextRun[] = [];
  for (let n = 1; n <= doc.numPages; n++) {
    const p = await doc.getPage(n);
    const top = p.getViewport({ scale: 1 }).height;
    const items = (await p.getTextContent()).items.flatMap((i) => ('str' in i ? [i] : []));
    pageTexts.push(items.map((i) => i.str).join('\n'));
    for (const i of items) if (i.str.trim()) runs.push({ page: n, text: i.str, x: i.transform[4], y: top - i.transform[5], width: i.width });
  }
  const page = await doc.getPage(rasterPage);
  const size = page.getViewport({ scale: 1 });
  const text = pageTexts[0]!;
  const viewport = page.getViewport({ scale: dpi / 72 });
  const canvas = createCanvas(Math.ceil(viewport.width), Math.ceil(viewport.height));
  const ctx = canvas.getContext('2d');
  ctx.fillStyle = '#ffffff';
  ctx.fillRect(0, 0, canvas.width, canvas.height);
  await page.render({ canvasContext: ctx as unknown as Parameters<typeof page.render>[0]["canvasContext"], viewport }).promise;
  const info = { pages: doc.numPages, width: size.width, height: size.height, text, pageTexts, runs, raster: await canvas.encode('png') };
  await doc.destroy();
  return info;
}
