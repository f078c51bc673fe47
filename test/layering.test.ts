import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';

// The layering of src/, as src/README.md describes it: each room names the rooms it may import from. A room is a
// folder of src/ or one of its top-level files. Tests (*.test.ts) may import anything.
const allowed: Record<string, string[]> = {
  kernel: [],
  version: [],
  'job-thread': [],
  config: ['kernel'],
  db: ['config', 'kernel'],
  schemas: ['kernel'],
  labels: ['job-thread', 'kernel', 'schemas'],
  carriers: ['config', 'kernel', 'labels', 'schemas'],
  payments: ['config', 'kernel'],
  events: ['config', 'db', 'kernel', 'schemas'],
  domain: ['carriers', 'config', 'db', 'events', 'job-thread', 'kernel', 'labels', 'payments', 'schemas'],
  services: ['config', 'db', 'domain', 'events', 'kernel', 'labels'],
  jobs: ['config', 'db', 'domain', 'events', 'kernel', 'services'],
  operations: ['config', 'db', 'domain', 'kernel', 'schemas', 'services'],
  http: ['config', 'db', 'domain', 'kernel', 'labels', 'operations', 'schemas', 'services', 'version'],
  mcp: ['config', 'db', 'domain', 'http', 'kernel', 'operations', 'schemas', 'services', 'version'],
  dashboard: ['config', 'domain', 'http', 'kernel', 'labels', 'schemas', 'services'],
  app: ['carriers', 'config', 'dashboard', 'db', 'domain', 'http', 'kernel', 'mcp', 'operations', 'schemas', 'services'],
  cli: ['app', 'carriers', 'config', 'db', 'domain', 'http', 'jobs', 'kernel', 'services'],
  main: ['cli', 'config', 'db', 'domain', 'mcp'],
};

/** Single files a room may reach below its layer, each with the reason. */
const exceptions: Record<string, string[]> = {
  // The USPS mailer-id formats are the check of two settings; they live with the other USPS facts.
  config: ['carriers/usps/mailer-ids.ts'],
  // The carrier trace wraps a whole request or tool call, so it is opened where the request arrives.
  http: ['carriers/live/trace.ts'],
  mcp: ['carriers/live/trace.ts', 'carriers/registry.ts'],
  // The carrier example lists the services shipd sells from the catalog itself (a table of data), so it cannot drift.
  schemas: ['carriers/catalog.ts'],
  // The dashboard's forms offer the carriers' own package names and check mailer ids as the settings do.
  dashboard: ['carriers/packages.ts', 'carriers/usps/mailer-ids.ts'],
};

const src = resolve(import.meta.dirname, '../src');

function roomOf(file: string): string {
  const [first, second] = relative(src, file).split(sep);
  return second === undefined ? first!.replace(/\.ts$/, '') : first!;
}

/** What is wrong with one import, or undefined when the layering allows it. */
export function layeringViolation(from: string, specifier: string): string | undefined {
  // Data files such as package.json are not layers of code.
  if (!specifier.startsWith('.') || !specifier.endsWith('.ts') || from.endsWith('.test.ts')) return undefined;
  const target = resolve(dirname(from), specifier);
  const rel = relative(src, target);
  if (rel.startsWith('..')) return `${relative(src, from)} imports ${specifier}, outside src/`;
  const a = roomOf(from);
  const b = roomOf(target);
  if (a === b) return undefined;
  const rooms = allowed[a];
  if (rooms === undefined) return `${relative(src, from)} is in ${a}, a room the layering does not know`;
  if (rooms.includes(b) || exceptions[a]?.includes(rel.split(sep).join('/'))) return undefined;
  return `${relative(src, from)} (${a}) imports ${rel} (${b}); ${a} may import only ${rooms.join(', ') || 'nothing of shipd'}`;
}

function importsOf(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  return [...text.matchAll(/(?:\bfrom\s+|\bimport\s*\(\s*|\bimport\s+|new URL\(\s*)'(\.{1,2}\/[^']*)'/g)].map((m) => m[1]!);
}

test('every import in src/ follows the layering', () => {
  const files = readdirSync(src, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.ts')).map((f) => join(src, f));
  const problems = files.flatMap((f) => importsOf(f).map((s) => layeringViolation(f, s)).filter((p) => p !== undefined));
  assert.deepEqual(problems, []);
});

test('a deliberate wrong import is caught', () => {
  assert.match(layeringViolation(join(src, 'db/schema.ts'), '../domain/orders/orders.ts') ?? '', /db may import only config, kernel/);
  assert.match(layeringViolation(join(src, 'kernel/ids.ts'), '../config.ts') ?? '', /kernel may import only nothing of shipd/);
  assert.equal(layeringViolation(join(src, 'domain/orders/orders.ts'), '../../db/schema.ts'), undefined);
});

test('the rooms form layers: no two rooms may import each other, directly or around a circle', () => {
  const visiting = new Set<string>();
  const done = new Set<string>();
  const visit = (room: string, path: string[]): void => {
    if (done.has(room)) return;
    assert.ok(!visiting.has(room), `the layering has a circle: ${[...path, room].join(' → ')}`);
    visiting.add(room);
    for (const next of allowed[room] ?? []) visit(next, [...path, room]);
    visiting.delete(room);
    done.add(room);
  };
  for (const room of Object.keys(allowed)) visit(room, []);
});
