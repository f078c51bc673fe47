// Whether dist/, the build that bin/shipd.js runs, is missing or older than the sources it was compiled from.
// Times rather than contents: a checkout, pull or edit gives every file it touches (and the folder of every file
// it removes) the current time, and comparing ~400 of them costs a few milliseconds at each start.
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

/** The file the build writes last, dated when the build began, so an edit made while it ran still counts. */
export const stampFile = '.built';

/** Why dist/ can't be run as it is, or undefined when it is up to date. */
export function staleBuild(root) {
  const stamp = statSync(join(root, 'dist', stampFile), { throwIfNoEntry: false });
  if (!stamp) return 'dist/ has not been built';
  const src = join(root, 'src');
  // An install made of the build alone (the Docker image) has no sources to be older than.
  if (!statSync(src, { throwIfNoEntry: false })) return undefined;
  const inputs = [src, join(root, 'tsconfig.json'), join(root, 'tsconfig.build.json')];
  for (const entry of readdirSync(src, { recursive: true, withFileTypes: true })) {
    if (!entry.name.endsWith('.test.ts')) inputs.push(join(entry.parentPath, entry.name));
  }
  for (const input of inputs) {
    if (statSync(input, { throwIfNoEntry: false })?.mtimeMs > stamp.mtimeMs) return 'dist/ is older than src/';
  }
  return undefined;
}
