import { test } from 'node:test';
import assert from 'node:assert/strict';
import { anchors, brokenLinks, documents, links, markdownFiles, readDocument } from './markdown.ts';

test('every relative link and #anchor in every Markdown file of the repository leads somewhere', () => {
  const files = markdownFiles();
  assert.ok(files.includes('README.md') && files.includes('src/README.md'), `found only ${files.join(', ')}`);
  assert.deepEqual(files.flatMap((path) => brokenLinks(path, readDocument(path))), []);
});

test('a link to a file that is not there, or to a heading that is not there, is found', () => {
  const guide = 'docs/webhooks.md';
  const markdown = [
    '# A guide', '', '## Its own heading', '',
    'See [the quick start](../README.md#quick-start), [this](#its-own-heading) and [the site](https://example.com/x.md).',
    'Broken: [a guide](gone.md), [a heading](../README.md#no-such-heading), [here](#nowhere) and [outside](../../etc/passwd).',
    '`[in code](gone-too.md)` is not a link.',
  ].join('\n');
  assert.deepEqual(brokenLinks(guide, markdown), [
    'docs/webhooks.md:6 → gone.md: no such file',
    'docs/webhooks.md:6 → ../README.md#no-such-heading: README.md has no heading with that anchor',
    'docs/webhooks.md:6 → #nowhere: docs/webhooks.md has no heading with that anchor',
    'docs/webhooks.md:6 → ../../etc/passwd: no such file',
  ]);
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
