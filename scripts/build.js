#!/usr/bin/env node
// Compiles src/ into dist/, which bin/shipd.js runs. `npm ci` runs it (the prepare script); `npm start` and the test
// runner run it with --if-stale, which returns at once when dist/ is up to date. It only emits: type errors are
// `npm run typecheck`'s to report, and skipping the check makes the build take seconds.
import { cpSync, renameSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { staleBuild, stampFile } from '../bin/stale-build.js';

const root = join(import.meta.dirname, '..');
if (process.argv.includes('--if-stale') && !staleBuild(root)) process.exit(0);

const began = new Date();
// Built aside and swapped in whole, so a shipd started meanwhile finds the old build or the new one, never half of one.
const dist = join(root, 'dist');
const next = join(root, `dist.${process.pid}.next`);
const old = join(root, `dist.${process.pid}.old`);
const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
const compiled = spawnSync(process.execPath, [tsc, '-p', join(root, 'tsconfig.build.json'), '--outDir', next], { stdio: 'inherit' });
if (compiled.status !== 0) {
  rmSync(next, { recursive: true, force: true });
  console.error('shipd: the build failed');
  process.exit(compiled.status ?? 1);
}
// The files the modules read from beside themselves: the dashboard's views and assets, the carriers' fixtures. Not
// the notes for contributors (src/README.md), which no module reads.
const copied = (path) => statSync(path).isDirectory() || !(path.endsWith('.ts') || path.endsWith('.md'));
cpSync(join(root, 'src'), next, { recursive: true, filter: copied });
writeFileSync(join(next, stampFile), '');
utimesSync(join(next, stampFile), began, began);
if (statSync(dist, { throwIfNoEntry: false })) renameSync(dist, old);
renameSync(next, dist);
rmSync(old, { recursive: true, force: true });
