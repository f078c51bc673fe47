import { JobThread } from '../../job-thread.ts';
import { privateFileMode } from '../../kernel/private-files.ts';

interface WriteJob {
  path: string;
  temp: string;
  bytes: Uint8Array;
}

// The thread's whole body, as CommonJS: it needs nothing but fs. Label files hold names and addresses: 0600.
const body = `
const { parentPort } = require('node:worker_threads');
const { renameSync, rmSync, writeFileSync } = require('node:fs');
parentPort.on('message', ({ id, job: { path, temp, bytes } }) => {
  try {
    writeFileSync(temp, bytes, { mode: ${privateFileMode} });
    renameSync(temp, path);
    parentPort.postMessage({ id, result: null });
  } catch (err) {
    try { rmSync(temp, { force: true }); } catch {}
    parentPort.postMessage({ id, error: String(err && err.message || err) });
  }
});`;

/**
 * Writes whole files, each to a temporary name then renamed into place, on a thread of its own. Creating a file
 * waits on the file system's journal, and on a busy disk (SQLite's checkpoints flushing beside it) one open() was
 * measured blocking for most of a millisecond: on the event loop's thread that stalls every request, and through
 * libuv's pool each write takes four round trips. Here the event loop only posts the bytes.
 */
export class FileWriter {
  private thread: JobThread<WriteJob, null> | undefined;
  private written = 0;

  /** Writes `bytes` to `path`: a reader sees the old file or the whole new one, never part of it. */
  async write(path: string, bytes: Uint8Array): Promise<void> {
    if (!this.thread || this.thread.dead) {
      // A dead thread fails what it was writing (the purchase that waits on it fails and is finished by the
      // reconcile job); the next write starts a new one.
      this.thread = new JobThread(body, 'shipd-file-writer', 'could not write the file', (orphans, err) => {
        for (const p of orphans) p.reject(err);
      });
    }
    await this.thread.run({ path, temp: `${path}.${process.pid}.${++this.written}.tmp`, bytes });
  }
}
