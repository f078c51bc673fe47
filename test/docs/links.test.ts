import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { dirname, join, normalize, relative } from 'node:path';
import { anchors, documents, links, readDocument, repoRoot } from './markdown.ts';

test('every relative link and #anchor in README.md and docs/*.md leads somewhere', () => {
  const broken: string[] = [];
  for (const path of documents()) {
    for (const { target, line } of links(readDocument(path))) {
      if (/^[a-z][a-z+.-]*:/i.test(target)) continue;
      const [file, anchor] = target.split('#') as [string, string | undefined];
      const to = file === '' ? path : normalize(join(dirname(path), decodeURIComponent(file)));
      const where = `${path}:${line} → ${target}`;
      if (relative(repoRoot, join(repoRoot, to)).startsWith('..') || !existsSync(join(repoRoot, to))) {
        broken.push(`${where}: no such file`);
      } else if (anchor !== undefined) {
        if (!to.endsWith('.md')) broken.push(`${where}: an anchor into a file that is not Markdown`);
        else if (!anchors(readDocument(to)).has(anchor)) broken.push(`${where}: ${to} has no heading with that anchor`);
      }
    }
  }
  assert.deepEqual(broken, []);
});

test('README.md links every guide under docs/', () => {
  const linked = new Set(links(readDocument('README.md')).map((l) => l.target.split('#')[0]));
  const unlinked = documents().filter((path) => path !== 'README.md' && !linked.has(path));
  assert.deepEqual(unlinked, []);
});

test('anchors are the ones GitHub makes', () => {
  const made = anchors('# shipd\n## MCP: the API as tools for AI agents\n### The `shipd` command\n```\n# not a heading\n```\n## Quick start\n## Quick start\n### 1. Create an order\n');
  assert.deepEqual([...made], ['shipd', 'mcp-the-api-as-tools-for-ai-agents', 'the-shipd-command', 'quick-start', 'quick-start-1', '1-create-an-order']);
});
