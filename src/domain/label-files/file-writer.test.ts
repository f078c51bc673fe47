import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Worker } from 'node:worker_threads';
import { FileWriter } from './file-writer.ts';

describe('the file writer thread', () => {
  const dir = mkdtempSync(join(tmpdir(), 'shipd-writer-'));
  const writer = new FileWriter();
  after(() => rmSync(dir, { recursive: true, force: true }));

  test('writes every file whole, many at once, and leaves no temporary file behind', async () => {
    const files = Array.from({ length: 50 }, (_, i) => ({ path: join(dir, `f${i}.pdf`), bytes: Buffer.alloc(1000 + i * 97, i) }));
    await Promise.all(files.map((f) => writer.write(f.path, f.bytes)));
    for (const f of files) assert.ok(readFileSync(f.path).equals(f.bytes));
    assert.deepEqual(readdirSync(dir).filter((n) => n.endsWith('.tmp')), []);
  });

  test('replaces a file that exists', async () => {
    const path = join(dir, 'again.zpl');
    await writer.write(path, Buffer.from('^XA first ^XZ'));
    await writer.write(path, Buffer.from('^XA second ^XZ'));
    assert.equal(readFileSync(path, 'utf8'), '^XA second ^XZ');
  });

  test('a write that cannot be made fails with the reason, and the next one succeeds', async () => {
    await assert.rejects(writer.write(join(dir, 'no-such-dir', 'x.pdf'), Buffer.from('x')), /could not write the file: .*ENOENT/);
    await writer.write(join(dir, 'after.pdf'), Buffer.from('ok'));
    assert.equal(readFileSync(join(dir, 'after.pdf'), 'utf8'), 'ok');
  });

  test('a thread that dies fails what it held, and a new one takes the next write', async () => {
    const thread = (writer as unknown as { thread: { worker: Worker } }).thread.worker;
    // A message the thread's body cannot take apart kills it before it reaches the write queued behind.
    thread.postMessage(null);
    const held = writer.write(join(dir, 'lost.pdf'), Buffer.from('lost'));
    await assert.rejects(held, /Cannot destructure|exited/);
    await writer.write(join(dir, 'next.pdf'), Buffer.from('next'));
    assert.equal(readFileSync(join(dir, 'next.pdf'), 'utf8'), 'next');
    assert.notEqual((writer as unknown as { thread: { worker: Worker } }).thread.worker, thread);
  });
});
