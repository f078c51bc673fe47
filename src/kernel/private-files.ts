import { chmodSync, closeSync, mkdirSync, openSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

/**
 * The data dir holds the database, its write-ahead log, label files (names and addresses) and the generated secret:
 * only the user shipd runs as may read them, whatever the umask.
 */
export const privateDirMode = 0o700;
export const privateFileMode = 0o600;

/** Read, write or search by group or others. */
const shared = 0o077;

export function makePrivateDir(dir: string): void {
  mkdirSync(dir, { recursive: true, mode: privateDirMode });
}

/** Creates an empty file that only its owner may read, unless it exists. */
export function touchPrivateFile(file: string): void {
  closeSync(openSync(file, 'a', privateFileMode));
}

export interface Narrowed {
  /** Paths whose mode was narrowed. */
  narrowed: string[];
  /** Paths that could not be narrowed (another owner), with the reason. */
  failed: { path: string; error: string }[];
}

/**
 * Narrows to 0700 and 0600 what an older shipd, or a looser umask, left readable by others: `dir` and the files in
 * it, `files` (the SQLite files, wherever they are), and every directory below `dir` that others could enter, with
 * all it holds. A directory that is already private is not walked, so that a start does not stat every label file.
 */
export function narrowModes(dir: string, files: string[]): Narrowed {
  const out: Narrowed = { narrowed: [], failed: [] };
  const seen = new Set<string>();
  // Another process of the same data dir may be renaming a label file into place meanwhile: a path gone is skipped.
  const narrow = (path: string, all = false) => {
    const s = statSync(path, { throwIfNoEntry: false });
    if (!s || seen.has(path) || !(s.isFile() || s.isDirectory())) return;
    seen.add(path);
    const loose = (s.mode & shared) !== 0;
    if (loose) {
      try {
        chmodSync(path, s.isDirectory() ? privateDirMode : privateFileMode);
        out.narrowed.push(path);
      } catch (err) {
        out.failed.push({ path, error: (err as Error).message });
      }
    }
    if (s.isDirectory() && (loose || all || path === dir)) {
      for (const entry of readdirSync(path, { withFileTypes: true })) {
        if (entry.isFile() || entry.isDirectory()) narrow(join(path, entry.name), all || loose);
      }
    }
  };
  narrow(dir);
  for (const file of files) narrow(file);
  return out;
}
