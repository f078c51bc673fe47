import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createCanvas, loadImage } from '@napi-rs/canvas';
import { bilevelPng } from './bilevel-png.ts';

test('a 1-bit PNG holds every pixel, black below half grey and white above, whatever the width', async () => {
  // 13 pixels wide: one full byte of pixels and a partial one in each row.
  const width = 13;
  const height = 3;
  const source = createCanvas(width, height);
  const ctx = source.getContext('2d');
  ctx.fillStyle = '#ffffff';
  ctx.fillRect(0, 0, width, height);
  const dark = [[0, 0], [7, 0], [8, 1], [12, 1], [12, 2], [3, 2]];
  ctx.fillStyle = '#000000';
  for (const [x, y] of dark) ctx.fillRect(x!, y!, 1, 1);
  ctx.fillStyle = '#404040';
  ctx.fillRect(5, 1, 1, 1);
  ctx.fillStyle = '#c0c0c0';
  ctx.fillRect(6, 1, 1, 1);

  const png = bilevelPng(source.data(), width, height);
  assert.equal(png.readUInt32BE(16), width);
  assert.equal(png.readUInt32BE(20), height);
  assert.deepEqual([png[24], png[25]], [1, 0], 'bit depth 1, greyscale, no alpha');

  const image = await loadImage(png);
  const back = createCanvas(width, height).getContext('2d');
  back.drawImage(image, 0, 0);
  const { data } = back.getImageData(0, 0, width, height);
  const black = new Set([...dark.map(([x, y]) => `${x},${y}`), '5,1']);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const i = (y * width + x) * 4;
      assert.deepEqual([...data.subarray(i, i + 4)], black.has(`${x},${y}`) ? [0, 0, 0, 255] : [255, 255, 255, 255], `pixel ${x},${y}`);
    }
  }
});
