import { test } from 'node:test';
import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { limit } from './limit.ts';

/** Ten tasks of `ms` each through `run`, counting how many ran at once at most and in which order they started. */
async function tenTasks(run: ReturnType<typeof limit>, signal: AbortSignal, ms = 5) {
  let now = 0;
  let most = 0;
  const started: number[] = [];
  const results = await Promise.allSettled(
    Array.from({ length: 10 }, (_, i) =>
      run(signal, async () => {
        started.push(i);
        most = Math.max(most, ++now);
        await sleep(ms);
        now--;
        return i * 2;
      }),
    ),
  );
  return { most, started, results };
}

test('at most `most` tasks run at once, the rest in the order they came, every answer kept', async () => {
  const { most, started, results } = await tenTasks(limit(4), new AbortController().signal);
  assert.equal(most, 4);
  assert.deepEqual(started, [0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
  assert.deepEqual(results.map((r) => (r.status === 'fulfilled' ? r.value : r.reason)), [0, 2, 4, 6, 8, 10, 12, 14, 16, 18]);
});

test('a task that fails gives its place to the next one', async () => {
  const run = limit(1);
  const signal = new AbortController().signal;
  const failed = run(signal, () => Promise.reject(new Error('no')));
  const next = run(signal, async () => 'yes');
  await assert.rejects(failed, /no/);
  assert.equal(await next, 'yes');
});

test('tasks still waiting when the signal aborts never start; those running finish', async () => {
  const controller = new AbortController();
  setTimeout(() => controller.abort(new Error('time-out')), 8);
  const { started, results } = await tenTasks(limit(2), controller.signal, 20);
  assert.deepEqual(started, [0, 1]);
  assert.deepEqual(results.slice(0, 2).map((r) => r.status), ['fulfilled', 'fulfilled']);
  for (const r of results.slice(2)) assert.match(String(r.status === 'rejected' && r.reason), /time-out/);
  await assert.rejects(limit(2)(controller.signal, async () => 'late'), /time-out/, 'a task given after the abort is refused at once');
});

test('a limit lets at least one task run', () => {
  assert.throws(() => limit(0), RangeError);
});
