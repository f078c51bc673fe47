import { JobThread, type PendingJob } from '../job-thread.ts';
import type { CustomsDocumentData, CustomsDocumentType } from './customs-data.ts';
import type { LabelData, LabelFormat } from './label-data.ts';
import type { LabelJob } from './render-worker.ts';
import { writeWhole } from './write-whole.ts';

/**
 * Turns a label's data into its file, and a shipment's customs declaration into its documents; and writes label
 * files to disk, on the same threads (a thread of its own held 20 MB of memory for a few system calls a label).
 */
export interface LabelRenderer {
  render(data: LabelData, format: LabelFormat): Promise<Buffer>;
  renderDocument(type: CustomsDocumentType, data: CustomsDocumentData): Promise<Buffer>;
  /** Writes `bytes` to `path` whole (see write-whole.ts). */
  writeFile(path: string, bytes: Uint8Array): Promise<void>;
}

/** SHIPD_RENDER_THREADS=0: renders and writes on the calling thread, blocking it for the few milliseconds a label takes. */
export const inThreadRenderer: LabelRenderer = {
  render: async (data, format) => (await import('./render.ts')).renderLabel(data, format),
  renderDocument: async (type, data) => (await import('./customs-documents.ts')).renderCustomsDocument(type, data),
  writeFile: async (path, bytes) => writeWhole(path, bytes),
};

// Run from the sources (tests, a checkout with a stale build), this module is TypeScript under tsx: worker threads do
// not inherit the main thread's loader, so each registers tsx before loading its body. Built, it loads the JavaScript.
const fromSources = import.meta.url.endsWith('.ts');
const workerBody = JSON.stringify(new URL(`./render-worker.${fromSources ? 'ts' : 'js'}`, import.meta.url).href);
const bootstrap = fromSources
  ? `import(${JSON.stringify(import.meta.resolve('tsx/esm/api'))}).then((tsx) => {
  tsx.register();
  return import(${workerBody});
});`
  : `import(${workerBody});`;

type RenderThread = JobThread<LabelJob, Uint8Array | null>;
type Pending = PendingJob<LabelJob, Uint8Array | null> & { retried?: boolean };

/**
 * Renders labels on worker threads. A PDF label with its barcodes takes milliseconds of CPU, which on the main
 * thread would hold up every other request for that long; here the event loop goes on serving while labels are
 * drawn on the other cores. Threads start on the first job and keep the process alive only while they have work.
 * They write label files too: creating a file waits on the file system's journal, and on a busy disk (SQLite's
 * checkpoints flushing beside it) one open() was measured blocking for most of a millisecond, which on the event
 * loop stalls every request, while through libuv's pool each write takes four round trips.
 */
export class RenderPool implements LabelRenderer {
  private readonly threads: (RenderThread | undefined)[];
  private closed = false;

  constructor(size: number) {
    if (size < 1) throw new RangeError('a render pool needs at least one thread');
    this.threads = new Array<RenderThread | undefined>(size).fill(undefined);
  }

  render(data: LabelData, format: LabelFormat): Promise<Buffer> {
    return this.draw({ data, format });
  }

  renderDocument(type: CustomsDocumentType, data: CustomsDocumentData): Promise<Buffer> {
    return this.draw({ document: type, data });
  }

  async writeFile(path: string, bytes: Uint8Array): Promise<void> {
    if (this.closed) throw new Error('the label renderer is closed');
    await this.leastBusy().run({ write: path, bytes });
  }

  /** Stops the threads; labels still being drawn fail. */
  async close(): Promise<void> {
    this.closed = true;
    await Promise.all(this.threads.map((t) => t?.terminate()));
  }

  private async draw(job: LabelJob): Promise<Buffer> {
    if (this.closed) throw new Error('the label renderer is closed');
    const bytes = (await this.leastBusy().run(job))!;
    return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  }

  private leastBusy(): RenderThread {
    let best: RenderThread | undefined;
    for (let i = 0; i < this.threads.length; i++) {
      let thread = this.threads[i];
      if (!thread || thread.dead) thread = this.threads[i] = this.spawn();
      if (!best || thread.load < best.load) best = thread;
    }
    return best!;
  }

  private spawn(): RenderThread {
    // A thread that dies takes its labels with it. Rendering is pure and a file is written whole or not at all, so
    // each is tried once more on a new thread; a job that kills that one too fails rather than killing threads for ever.
    const failure = (job: LabelJob) => ('write' in job ? 'could not write the file' : 'rendering the label failed');
    return new JobThread(bootstrap, 'shipd-label-render', failure, (orphans: Pending[], err) => {
      for (const p of orphans) {
        if (this.closed) p.reject(new Error('the label renderer was closed'));
        else if (p.retried) p.reject(err);
        else {
          p.retried = true;
          this.leastBusy().send(p);
        }
      }
    });
  }
}

const shared = new Map<number, LabelRenderer>();

/**
 * The process's renderer for a thread count: threads are the process's to share, so every set of services in one
 * process (the API and the worker of `serve`, the test servers) draws on the same pool.
 */
export function labelRenderer(threads: number): LabelRenderer {
  if (threads === 0) return inThreadRenderer;
  let renderer = shared.get(threads);
  if (!renderer) shared.set(threads, (renderer = new RenderPool(threads)));
  return renderer;
}
