// Preloaded into the shipd process a benchmark measures with node --require (which loads an ES module from Node
// 20.19 on; --import does not reach worker threads), so every thread runs it: worker threads inherit the option.
// Each thread samples its own V8 heap (process.memoryUsage() is per thread but for rss) every 50 ms, keeps its
// peaks, and writes them at most twice a second to BENCH_MEMORY_DIR/<pid>-<threadId>.json, so the benchmark can
// say which thread the process's memory went to. JavaScript, so that the built shipd can preload it without tsx.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { isMainThread, threadId, workerData } from 'node:worker_threads';

const dir = process.env.BENCH_MEMORY_DIR;
if (dir) {
  // shipd's threads carry their name in workerData (see src/job-thread.ts); any other is known by its id.
  const name = isMainThread ? 'main' : (workerData && typeof workerData.thread === 'string' ? workerData.thread : `thread ${threadId}`);
  const file = join(dir, `${process.pid}-${threadId}.json`);
  const peak = { heapTotal: 0, heapUsed: 0, external: 0 };
  let now = peak;
  let changed = true;
  let writes = 0;
  const sample = () => {
    const { heapTotal, heapUsed, external } = process.memoryUsage();
    now = { heapTotal, heapUsed, external };
    for (const k of Object.keys(peak)) {
      if (now[k] > peak[k]) {
        peak[k] = now[k];
        changed = true;
      }
    }
  };
  const write = () => {
    try {
      writeFileSync(file, JSON.stringify({ name, threadId, now, peak, at: Date.now() }));
    } catch {
      // the benchmark has gone; nothing to tell
    }
  };
  sample();
  write();
  setInterval(() => {
    sample();
    // Every half second while the peaks move, otherwise once a second, so the current figures stay fresh too: a
    // write every 50 ms was a few per cent of the CPU of the very process measured.
    if (++writes % 10 === 0 && changed) {
      write();
      changed = false;
    } else if (writes % 20 === 0) write();
  }, 50).unref();
  process.on('exit', () => {
    sample();
    write();
  });
}
