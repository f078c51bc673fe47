import { createCanvas, loadImage } from '@napi-rs/canvas';
import { degrees, PDFDocument } from 'pdf-lib';
import { letterFold, letterHalf, pageSizes } from './layout.ts';
import { writePdf } from './pdf.ts';
import { writePng } from './png.ts';

// A carrier that prints only label stock (UPS, USPS) still serves desktop printers: its own 4×6 label, unchanged, is
// put on a letter sheet the way shipd's own letter labels are drawn (layout.ts letterSheet): turned a quarter
// clockwise when it stands upright, centred in the top half, never scaled up, above the fold line and its
// instructions. The label's page or image is embedded whole, so what prints is the carrier's label.

const sheet = { ...pageSizes.letter, sheet: [...letterFold], label: [], place: [1, 0, 0, 1, 0, 0] as const };

/** The carrier's PDF label (its first page) on a letter sheet, as vector content: nothing is rasterized. */
export async function placePdfOnLetter(label: Buffer, createdAt: Date): Promise<Buffer> {
  const doc = await PDFDocument.load(await writePdf(sheet, createdAt));
  const [page] = await doc.embedPdf(label, [0]);
  const { width, height } = page!;
  const upright = height > width;
  const long = Math.max(width, height);
  const short = Math.min(width, height);
  const s = Math.min(1, pageSizes.letter.width / long, letterHalf / short);
  const x = (pageSizes.letter.width - long * s) / 2;
  // PDF's origin is the bottom left: the top half is y from letterHalf up. Turned clockwise about its corner (x, y),
  // the label's page reaches right by its height and down by its width from there.
  const top = letterHalf + (letterHalf + short * s) / 2;
  doc.getPage(0).drawPage(page!, upright ? { x, y: top, xScale: s, yScale: s, rotate: degrees(-90) } : { x, y: top - short * s, xScale: s, yScale: s });
  return Buffer.from(await doc.save());
}

/** PNG labels are 203 dpi, as thermal printers print them: a letter sheet of 1726 × 2233 dots, the label on it at 6 × 4 in. */
const dpi = 203;

/** The carrier's PNG label on a letter sheet at 203 dpi. */
export async function placePngOnLetter(label: Buffer): Promise<Buffer> {
  const [fold, image] = await Promise.all([loadImage(writePng(sheet)), loadImage(label)]);
  const canvas = createCanvas(fold.width, fold.height);
  const ctx = canvas.getContext('2d');
  ctx.drawImage(fold, 0, 0);
  const upright = image.height > image.width;
  const long = Math.max(image.width, image.height);
  const short = Math.min(image.width, image.height);
  const s = Math.min(1, (6 * dpi) / long, (4 * dpi) / short);
  const w = image.width * s;
  const h = image.height * s;
  ctx.translate(fold.width / 2, fold.height / 4);
  if (upright) ctx.rotate(Math.PI / 2);
  ctx.drawImage(image, -w / 2, -h / 2, w, h);
  return canvas.encode('png');
}
