import { renameSync, rmSync, writeFileSync } from 'node:fs';
import { threadId } from 'node:worker_threads';
import { privateFileMode } from '../kernel/private-files.ts';

let written = 0;

/**
 * Writes `bytes` to a temporary name beside `path`, then renames it into place: a reader sees the old file or the
 * whole new one, never part of it. Label files hold names and addresses: only shipd's user may read them.
 */
export function writeWhole(path: string, bytes: Uint8Array): void {
  const temp = `${path}.${process.pid}.${threadId}.${++written}.tmp`;
  try {
    writeFileSync(temp, bytes, { mode: privateFileMode });
    renameSync(temp, path);
  } catch (err) {
    rmSync(temp, { force: true });
    throw err;
  }
}
