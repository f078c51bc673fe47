import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Worker } from 'node:worker_threads';
import { sampleLabels as labels } from '../../test/fixtures.ts';
import type { LabelData, LabelFormat } from './label-data.ts';
import { inThreadRenderer, labelRenderer, RenderPool } from './render-pool.ts';
import { renderLabel } from './render.ts';

/** The pool's live workers, to kill one the way a crash would. */
const workersOf = (pool: RenderPool) => (pool as unknown as { threads: ({ worker: Worker } | undefined)[] }).threads.flatMap((t) => (t ? [t.worker] : []));

describe('label render threads', () => {
  const pool = new RenderPool(2);
  after(() => pool.close());

  test('draw exactly the bytes the main thread draws, in every format, many at once', async () => {
    const jobs = (['pdf', 'zpl', 'png'] as LabelFormat[]).flatMap((format) => labels.map((d) => ({ d, format })));
    const drawn = await Promise.all([...jobs, ...jobs].map(({ d, format }) => pool.render(d, format)));
    for (const [i, bytes] of drawn.entries()) {
      const { d, format } = jobs[i % jobs.length]!;
      assert.ok(Buffer.isBuffer(bytes), `${format} ${d.carrier} comes back as a Buffer`);
      assert.ok(bytes.equals(await renderLabel(d, format)), `${format} ${d.carrier} is byte for byte the in-thread label`);
    }
    assert.equal(workersOf(pool).length, 2, 'both threads took work');
  });

  test('a label that cannot be drawn fails with the reason, and the threads go on drawing', async () => {
    // More than a GS1-128 barcode can hold: the barcode library refuses it.
    const broken: LabelData = { ...labels[1]!, trackingNumber: '9'.repeat(5000) };
    await assert.rejects(pool.render(broken, 'pdf'), /rendering the label failed: .*too long/);
    assert.ok((await pool.render(labels[1]!, 'pdf')).subarray(0, 5).equals(Buffer.from('%PDF-')));
  });

  test('a thread that dies mid-label: its labels are drawn again on a new thread', async () => {
    await pool.render(labels[0]!, 'zpl');
    const inFlight = Array.from({ length: 6 }, (_, i) => pool.render(labels[i % 3]!, 'pdf'));
    const [victim] = workersOf(pool);
    await victim!.terminate();
    const drawn = await Promise.all(inFlight);
    for (const [i, bytes] of drawn.entries()) assert.ok(bytes.equals(await renderLabel(labels[i % 3]!, 'pdf')));
    assert.ok(!workersOf(pool).includes(victim!), 'the dead thread was replaced');
  });

  test('closing fails what is still being drawn, and refuses more', async () => {
    const own = new RenderPool(1);
    await own.render(labels[2]!, 'zpl');
    const pending = own.render(labels[0]!, 'png');
    await own.close();
    await assert.rejects(pending, /closed/);
    await assert.rejects(own.render(labels[0]!, 'pdf'), /closed/);
  });

  test('one pool per thread count in a process; 0 threads draws on the calling thread', async () => {
    assert.equal(labelRenderer(3), labelRenderer(3));
    assert.equal(labelRenderer(0), inThreadRenderer);
    assert.ok((await inThreadRenderer.render(labels[1]!, 'zpl')).equals(await renderLabel(labels[1]!, 'zpl')));
  });
});
