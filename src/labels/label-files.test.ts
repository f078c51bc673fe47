import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Worker } from 'node:worker_threads';
import { sampleLabels as labels } from '../../test/fixtures.ts';
import { inThreadRenderer, RenderPool } from './render-pool.ts';

/** The pool's live workers, to kill one the way a crash would. */
const workersOf = (pool: RenderPool) => (pool as unknown as { threads: ({ worker: Worker } | undefined)[] }).threads.flatMap((t) => (t ? [t.worker] : []));

describe('label files written by the label threads', () => {
  const dir = mkdtempSync(join(tmpdir(), 'shipd-writer-'));
  const pool = new RenderPool(2);
  after(async () => {
    await pool.close();
    rmSync(dir, { recursive: true, force: true });
  });

  test('writes every file whole, many at once and between labels drawn, readable by its owner alone, and leaves no temporary file behind', async () => {
    const files = Array.from({ length: 50 }, (_, i) => ({ path: join(dir, `f${i}.pdf`), bytes: Buffer.alloc(1000 + i * 97, i) }));
    const drawn = labels.map((d) => pool.render(d, 'zpl'));
    await Promise.all([...files.map((f) => pool.writeFile(f.path, f.bytes)), ...drawn]);
    for (const f of files) {
      assert.ok(readFileSync(f.path).equals(f.bytes));
      assert.equal(statSync(f.path).mode & 0o777, 0o600);
    }
    assert.deepEqual(readdirSync(dir).filter((n) => n.endsWith('.tmp')), []);
  });

  test('replaces a file that exists', async () => {
    const path = join(dir, 'again.zpl');
    await pool.writeFile(path, Buffer.from('^XA first ^XZ'));
    await pool.writeFile(path, Buffer.from('^XA second ^XZ'));
    assert.equal(readFileSync(path, 'utf8'), '^XA second ^XZ');
  });

  test('a write that cannot be made fails with the reason, and the next one succeeds', async () => {
    await assert.rejects(pool.writeFile(join(dir, 'no-such-dir', 'x.pdf'), Buffer.from('x')), /could not write the file: .*ENOENT/);
    await pool.writeFile(join(dir, 'after.pdf'), Buffer.from('ok'));
    assert.equal(readFileSync(join(dir, 'after.pdf'), 'utf8'), 'ok');
    assert.deepEqual(readdirSync(dir).filter((n) => n.endsWith('.tmp')), []);
  });

  test('a thread that dies mid-write: its writes are made again on a new thread', async () => {
    const own = new RenderPool(1);
    try {
      await own.writeFile(join(dir, 'first.pdf'), Buffer.from('first'));
      const [victim] = workersOf(own);
      const held = Array.from({ length: 5 }, (_, i) => own.writeFile(join(dir, `held${i}.pdf`), Buffer.from(`held ${i}`)));
      await victim!.terminate();
      await Promise.all(held);
      for (let i = 0; i < 5; i++) assert.equal(readFileSync(join(dir, `held${i}.pdf`), 'utf8'), `held ${i}`);
      assert.ok(!workersOf(own).includes(victim!), 'the dead thread was replaced');
    } finally {
      await own.close();
    }
  });

  test('with no threads the calling thread writes', async () => {
    const path = join(dir, 'in-thread.pdf');
    await inThreadRenderer.writeFile(path, Buffer.from('here'));
    assert.equal(readFileSync(path, 'utf8'), 'here');
    assert.equal(statSync(path).mode & 0o777, 0o600);
  });
});
