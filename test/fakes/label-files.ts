import { createCanvas } from '@napi-rs/canvas';

/**
 * Label files as carriers send them: a well-formed 4×6 PDF page (USPS's labelImage, FedEx's encodedLabel) and a 4×6
 * PNG at 203 dpi, each marked at its top edge, so a test can see where the label ended up on a sheet it was placed on.
 */
export function labelPdf(text: string): Buffer {
  const content = `BT /F1 14 Tf 20 400 Td (TOP ${text.replace(/[()\\]/g, '')}) Tj ET 0 420 288 12 re f`;
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 288 432] /Resources << /Font << /F1 4 0 R >> >> /Contents 5 0 R >>',
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
    `<< /Length ${content.length} >>\nstream\n${content}\nendstream`,
  ];
  let body = '%PDF-1.7\n';
  const offsets = objects.map((object, i) => {
    const at = body.length;
    body += `${i + 1} 0 obj\n${object}\nendobj\n`;
    return at;
  });
  const xref = body.length;
  body += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n${offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n \n`).join('')}`;
  body += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(body, 'latin1');
}

let png: Buffer | undefined;

/** 812 × 1218 dots, white, with a black band along its top edge. */
export function labelPng(): Buffer {
  if (!png) {
    const canvas = createCanvas(812, 1218);
    const ctx = canvas.getContext('2d');
    ctx.fillStyle = '#ffffff';
    ctx.fillRect(0, 0, 812, 1218);
    ctx.fillStyle = '#000000';
    ctx.fillRect(0, 0, 812, 40);
    png = canvas.encodeSync('png');
  }
  return png;
}
