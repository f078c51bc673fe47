import { createHash } from 'node:crypto';
import PDFDocument from 'pdfkit';
import { printable } from './printable.ts';

/** What a simulated proof of delivery shows: the parcel, when and where it was delivered, and who signed. */
export interface DeliveryProof {
  carrierName: string;
  trackingNumber: string;
  signedBy: string;
  /** When the delivery scan was made; null where it is not known. */
  deliveredAt: Date | null;
  /** "AUSTIN, TX 78701", or null. */
  place: string | null;
  createdAt: Date;
}

const width = 432;
const height = 288;
const margin = 24;

/**
 * A signature drawn from the name alone, so the same delivery always has the same one: a run of loops whose heights
 * and widths come from the name's hash. It looks like a scribble, which is all a sample needs to look like.
 */
function signaturePath(doc: PDFKit.PDFDocument, name: string, x: number, y: number, w: number): void {
  const hash = createHash('sha256').update(name).digest();
  const strokes = 10;
  const step = w / strokes;
  doc.moveTo(x, y);
  for (let i = 0; i < strokes; i++) {
    const up = 6 + (hash[i]! % 18);
    const down = 2 + (hash[i + strokes]! % 8);
    const cx = x + i * step;
    doc.bezierCurveTo(cx + step * 0.2, y - up, cx + step * 0.6, y - up, cx + step * 0.5, y).bezierCurveTo(cx + step * 0.4, y + down, cx + step * 0.9, y + down, cx + step, y);
  }
  doc.lineWidth(1.4).stroke();
}

/**
 * A test-mode proof of delivery: a 6×4 in PDF letter with the parcel's number, the delivery and a signature drawn
 * from the signer's name, marked as a sample across the page so it is never taken for a carrier's.
 */
export function writeDeliveryProof(proof: DeliveryProof): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const doc = new PDFDocument({ size: [width, height], margin, info: { Title: `Proof of delivery ${proof.trackingNumber}`, Producer: 'shipd', Creator: 'shipd', CreationDate: proof.createdAt } });
    const chunks: Buffer[] = [];
    doc.on('data', (c: Buffer) => chunks.push(c));
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);

    doc.font('Helvetica-Bold').fontSize(14).text(`${printable(proof.carrierName)} proof of delivery`, margin, margin);
    doc.font('Helvetica').fontSize(9).fillColor('#444').text('SAMPLE - simulated by shipd in test mode, not issued by the carrier', margin, margin + 20);
    doc.fillColor('black').fontSize(10);
    const rows: [string, string][] = [
      ['Tracking number', proof.trackingNumber],
      ['Delivered', proof.deliveredAt ? `${proof.deliveredAt.toISOString().slice(0, 16).replace('T', ' ')} UTC` : 'Not known'],
      ['Delivered to', proof.place ?? 'Not known'],
      ['Signed by', proof.signedBy],
    ];
    rows.forEach(([k, v], i) => {
      const y = margin + 48 + i * 18;
      doc.font('Helvetica-Bold').text(k, margin, y, { width: 110 });
      doc.font('Helvetica').text(printable(v), margin + 115, y, { width: width - 2 * margin - 115, lineBreak: false });
    });
    const line = height - margin - 30;
    signaturePath(doc, proof.signedBy, margin + 115, line - 12, 170);
    doc.moveTo(margin + 110, line).lineTo(width - margin, line).lineWidth(0.5).stroke();
    doc.fontSize(8).text('Signature', margin + 110, line + 4);
    doc.save().rotate(-20, { origin: [width / 2, height / 2] }).font('Helvetica-Bold').fontSize(48).fillColor('#d0d0d0').opacity(0.5).text('SAMPLE', 0, height / 2 - 24, { width, align: 'center' }).restore();
    doc.end();
  });
}
