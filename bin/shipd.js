#!/usr/bin/env node
// Runs the compiled build in dist/ (`npm ci` makes it, `npm run build` remakes it). In a checkout whose sources
// changed since (an edit, a `git pull` without `npm ci`), it runs the TypeScript sources instead: slower to start,
// never stale. The notice goes to a terminal only, so the output of scripts and tests does not depend on it.
import { join } from 'node:path';
import { staleBuild } from './stale-build.js';

const stale = staleBuild(join(import.meta.dirname, '..'));
if (!stale) {
  await import('../dist/main.js');
} else {
  let tsx;
  try {
    tsx = await import('tsx/esm/api');
  } catch {
    // An install without the dev dependencies can run only a build.
    console.error(`shipd: ${stale}: run npm run build`);
    process.exit(1);
  }
  if (process.stderr.isTTY) process.stderr.write(`shipd: ${stale}; running the TypeScript sources, which starts slower (npm run build)\n`);
  tsx.register();
  await import('../src/main.ts');
}
