import { createCanvas, loadImage } from '@napi-rs/canvas';

/**
 * UPS prints raster labels only as GIF (carriers.md 2.4) and we serve PNG, so the GIF is redrawn as PNG pixel
 * for pixel: still UPS's own label, only in another container.
 */
export async function gifToPng(gif: Buffer): Promise<Buffer> {
  const image = await loadImage(gif);
  const canvas = createCanvas(image.width, image.height);
  canvas.getContext('2d').drawImage(image, 0, 0);
  return canvas.encode('png');
}
