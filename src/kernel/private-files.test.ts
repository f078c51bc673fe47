import { test } from 'node:test';
import assert from 'node:assert/strict';
import { chmodSync, mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { narrowModes } from './private-files.ts';

test('narrowModes walks only the directories others could enter, so a start does not stat every label file', () => {
  const dir = mkdtempSync(join(tmpdir(), 'shipd-narrow-'));
  try {
    const mode = (path: string) => statSync(path).mode & 0o777;
    mkdirSync(join(dir, 'labels'), { mode: 0o700 });
    mkdirSync(join(dir, 'old'), { mode: 0o755 });
    mkdirSync(join(dir, 'old', 'deeper'), { mode: 0o700 });
    for (const file of ['shipd.db', 'labels/a.pdf', 'old/b.pdf', 'old/deeper/c.pdf']) writeFileSync(join(dir, file), 'x', { mode: 0o644 });
    const outside = join(dir, 'old', 'elsewhere.db');
    const { narrowed, failed } = narrowModes(dir, [outside, join(dir, 'missing-wal')]);
    assert.deepEqual(failed, []);
    assert.deepEqual(narrowed.sort(), ['old', 'old/b.pdf', 'old/deeper/c.pdf', 'shipd.db'].map((p) => join(dir, p)));
    assert.equal(mode(join(dir, 'labels', 'a.pdf')), 0o644, 'a private directory is not walked');
    assert.deepEqual([join(dir, 'shipd.db'), join(dir, 'old', 'deeper', 'c.pdf')].map(mode), [0o600, 0o600]);
    chmodSync(dir, 0o755);
    assert.ok(narrowModes(dir, []).narrowed.includes(join(dir, 'labels', 'a.pdf')), 'below a directory others could enter, everything is narrowed');
    writeFileSync(outside, 'x', { mode: 0o640 });
    assert.deepEqual(narrowModes(dir, [outside]).narrowed, [outside], 'files named apart are narrowed wherever they are');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
