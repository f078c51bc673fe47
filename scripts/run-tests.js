#!/usr/bin/env node
// Node 20's test runner neither expands globs nor finds .ts files itself, so this lists them.
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';

function find(dir, out = []) {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) {
      if (name !== 'node_modules' && name !== 'fakes') find(path, out);
    } else if (name.endsWith('.test.ts')) {
      out.push(path);
    }
  }
  return out;
}

const filters = process.argv.slice(2).filter((a) => !a.startsWith('--'));
const flags = process.argv.slice(2).filter((a) => a.startsWith('--'));
// The reliability suite (fuzzing, crashes, several processes) takes minutes: it runs when a filter names it,
// as `npm run test:reliability` does, never as part of the plain `npm test`.
const reliability = join('test', 'reliability');
const files = [...find('test'), ...find('src')].filter((f) =>
  filters.length === 0 ? !f.startsWith(reliability) : filters.some((p) => f.includes(p)),
);
if (files.length === 0) {
  console.error('no test files matched');
  process.exit(1);
}
// Two tests need programs from outside npm: the dashboard's browser tests drive Debian's Chromium (never a
// downloaded one, which this machine's closed network could not fetch), and the documents' examples, run as tests,
// use jq as a reader would. The test command makes sure they are there: installed at once where that is possible
// (root on Debian), else stopping before any test with the one command to run.
function ensureProgram({ pkg, found, why, canInstall = true }) {
  if (found()) return;
  const install = `apt-get install -y ${pkg}`;
  if (canInstall && process.getuid?.() === 0 && existsSync('/usr/bin/apt-get')) {
    console.error(`${pkg} is not installed and ${why}: running ${install}`);
    const update = spawnSync('apt-get', ['update', '-qq'], { stdio: 'inherit' });
    const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
    const installed = update.status === 0 && spawnSync('apt-get', ['install', '-y', '-qq', pkg], { stdio: 'inherit', env });
    if (installed && installed.status === 0 && found()) return;
  }
  console.error(`${pkg} is missing and ${why}. Install it with: sudo ${install}`);
  process.exit(1);
}
if (files.some((f) => f.endsWith('.browser.test.ts'))) {
  const path = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
  ensureProgram({
    pkg: 'chromium',
    found: () => existsSync(path),
    why: `the dashboard's browser tests need it at ${path} (or CHROMIUM_PATH set to a Chromium binary)`,
    canInstall: !process.env.CHROMIUM_PATH,
  });
}
if (files.some((f) => f.includes(join('test', 'docs')))) {
  ensureProgram({ pkg: 'jq', found: () => spawnSync('jq', ['--version']).status === 0, why: "the documents' examples use it" });
}

// Tests that start shipd as a process (the CLI, the MCP server on stdio, the crash and cluster tests) run
// bin/shipd.js, which runs dist/ when it is up to date and otherwise compiles the sources at each start, seconds of
// CPU every time: bringing dist/ up to date once first is faster. The tests themselves import the sources.
const build = spawnSync(process.execPath, [join(import.meta.dirname, 'build.js'), '--if-stale'], { stdio: 'inherit' });
if (build.status !== 0) process.exit(build.status ?? 1);

// A reliability file runs beside another that starts four processes and loads them for minutes: the fuzzer, 61 s
// alone, once ran past 300 s there. Its files get 600 s; the plain suite keeps 300.
const timeout = files.some((f) => f.startsWith(reliability)) ? 600_000 : 300_000;
const result = spawnSync(
  process.execPath,
  ['--import', 'tsx', '--test', '--test-concurrency=2', `--test-timeout=${timeout}`, ...flags, ...files.sort()],
  { stdio: 'inherit' },
);
process.exit(result.status ?? 1);
