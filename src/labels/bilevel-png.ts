import { crc32, deflateSync } from 'node:zlib';

const signature = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

function chunk(type: string, data: Buffer): Buffer {
  const out = Buffer.alloc(12 + data.length);
  out.writeUInt32BE(data.length, 0);
  out.write(type, 4, 'latin1');
  data.copy(out, 8);
  out.writeUInt32BE(crc32(out.subarray(4, 8 + data.length)), 8 + data.length);
  return out;
}

/**
 * Where the top bit of a pixel's second byte (green in RGBA and in BGRA alike) sits in the pixel read as one
 * 32-bit word: 15 on little-endian machines, 23 on big-endian ones.
 */
const greenBit = (() => {
  const word = new Uint32Array(1);
  new Uint8Array(word.buffer)[1] = 0x80;
  return Math.log2(word[0]!);
})();

/**
 * RGBA pixels as a 1-bit greyscale PNG, each pixel black or white at half grey. A thermal printer prints only
 * dots or none, so nothing is lost; there is no alpha channel, so the background cannot come out transparent;
 * and for a 812 × 1218 label it takes 2 ms and 8 KB where @napi-rs/canvas's own PNG encoder took 45–60 ms and
 * 107 KB.
 */
export function bilevelPng(rgba: Uint8Array, width: number, height: number): Buffer {
  const aligned = rgba.byteOffset % 4 === 0 ? rgba : Uint8Array.from(rgba);
  // One word a pixel, eight pixels a byte, no branch per pixel: this loop runs a million times a label.
  const px = new Uint32Array(aligned.buffer, aligned.byteOffset, width * height);
  const g = greenBit;
  const stride = 1 + Math.ceil(width / 8);
  // Filter byte 0 (none) opens each row; bits set to 1 are white.
  const rows = Buffer.alloc(stride * height);
  let p = 0;
  for (let y = 0; y < height; y++) {
    let out = y * stride + 1;
    let x = 0;
    for (; x + 8 <= width; x += 8, p += 8, out++) {
      rows[out] =
        (((px[p]! >>> g) & 1) << 7) |
        (((px[p + 1]! >>> g) & 1) << 6) |
        (((px[p + 2]! >>> g) & 1) << 5) |
        (((px[p + 3]! >>> g) & 1) << 4) |
        (((px[p + 4]! >>> g) & 1) << 3) |
        (((px[p + 5]! >>> g) & 1) << 2) |
        (((px[p + 6]! >>> g) & 1) << 1) |
        ((px[p + 7]! >>> g) & 1);
    }
    let byte = 0;
    for (let bit = 7; x < width; x++, p++, bit--) byte |= ((px[p]! >>> g) & 1) << bit;
    if (width % 8) rows[out] = byte;
  }
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header[8] = 1; // bit depth
  header[9] = 0; // greyscale
  return Buffer.concat([signature, chunk('IHDR', header), chunk('IDAT', deflateSync(rows)), chunk('IEND', Buffer.alloc(0))]);
}
