import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, normalize, relative } from 'node:path';

// Just enough Markdown for testing our own documents: fenced blocks, headings and inline links.

export const repoRoot = join(import.meta.dirname, '..', '..');

/** README.md, then every guide under docs/, as paths relative to the repository. */
export function documents(): string[] {
  const guides = readdirSync(join(repoRoot, 'docs'))
    .filter((name) => name.endsWith('.md'))
    .sort()
    .map((name) => `docs/${name}`);
  return ['README.md', ...guides];
}

// What is not the project's own writing: installed packages, build output, data and the ignored scratch folders.
const notOurs = (name: string) => name === 'node_modules' || name === 'data' || name === 'test-output' || /^dist(\.|$)/.test(name) || name.startsWith('.');

/** Every Markdown file in the repository (README.md, the guides, the notes beside the code), sorted. */
export function markdownFiles(): string[] {
  const found: string[] = [];
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      if (notOurs(entry.name)) continue;
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (entry.isFile() && entry.name.endsWith('.md')) found.push(relative(repoRoot, path).split('\\').join('/'));
    }
  };
  walk(repoRoot);
  return found.sort();
}

export function readDocument(path: string): string {
  return readFileSync(join(repoRoot, path), 'utf8');
}

export interface Fence {
  /** The info string's first word: `sh`, `json`, or empty. */
  lang: string;
  text: string;
  /** 1-based line of the opening fence. */
  line: number;
  /** The HTML comment on the line right above the opening fence, without `<!--` and `-->`. */
  comment: string | null;
  /** Whether only blank lines separate this fence from the one before it. */
  followsFence: boolean;
}

const fenceLine = /^```\s*([\w-]*)\s*$/;
const commentLine = /^<!--\s*(.*?)\s*-->$/;

export function fences(markdown: string): Fence[] {
  const lines = markdown.split('\n');
  const found: Fence[] = [];
  let lastClose = -2;
  for (let i = 0; i < lines.length; i++) {
    const open = fenceLine.exec(lines[i]!);
    if (!open) continue;
    const start = i;
    let end = start + 1;
    while (end < lines.length && !/^```\s*$/.test(lines[end]!)) end++;
    if (end >= lines.length) throw new Error(`line ${start + 1}: a fence that never closes`);
    const between = lines.slice(lastClose + 1, start);
    found.push({
      lang: open[1]!,
      text: lines.slice(start + 1, end).join('\n'),
      line: start + 1,
      comment: commentLine.exec(lines[start - 1] ?? '')?.[1] ?? null,
      followsFence: lastClose >= 0 && between.every((l) => l.trim() === ''),
    });
    lastClose = end;
    i = end;
  }
  return found;
}

/** The text outside fenced blocks and inline code, with its line breaks kept so that line numbers hold. */
export function prose(markdown: string): string {
  const lines = markdown.split('\n');
  let inFence = false;
  return lines
    .map((line) => {
      if (/^```/.test(line)) {
        inFence = !inFence;
        return '';
      }
      return inFence ? '' : line.replace(/`[^`]*`/g, '');
    })
    .join('\n');
}

/** The anchors GitHub gives the document's headings: lower case, punctuation dropped, spaces as hyphens, repeats numbered. */
export function anchors(markdown: string): Set<string> {
  const seen = new Map<string, number>();
  const result = new Set<string>();
  let inFence = false;
  for (const line of markdown.split('\n')) {
    if (/^```/.test(line)) inFence = !inFence;
    const heading = inFence ? null : /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
    if (!heading) continue;
    const text = heading[1]!.replace(/\[([^\]]*)\]\([^)]*\)/g, '$1').replace(/`/g, '');
    const slug = text.toLowerCase().replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '').replace(/ /g, '-');
    const count = seen.get(slug) ?? 0;
    seen.set(slug, count + 1);
    result.add(count === 0 ? slug : `${slug}-${count}`);
  }
  return result;
}

export interface Link {
  target: string;
  line: number;
}

/** Inline links and images outside code: `[text](target)`. */
export function links(markdown: string): Link[] {
  const found: Link[] = [];
  prose(markdown)
    .split('\n')
    .forEach((line, i) => {
      for (const m of line.matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)) found.push({ target: m[1]!, line: i + 1 });
    });
  return found;
}

/** Where a document's relative links and #anchors lead nowhere, one line each. */
export function brokenLinks(path: string, markdown: string): string[] {
  const broken: string[] = [];
  for (const { target, line } of links(markdown)) {
    if (/^[a-z][a-z+.-]*:/i.test(target)) continue;
    const [file, anchor] = target.split('#') as [string, string | undefined];
    const to = file === '' ? path : normalize(join(dirname(path), decodeURIComponent(file)));
    const where = `${path}:${line} → ${target}`;
    if (relative(repoRoot, join(repoRoot, to)).startsWith('..') || !existsSync(join(repoRoot, to))) {
      broken.push(`${where}: no such file`);
    } else if (anchor !== undefined) {
      const headings = to === path ? anchors(markdown) : to.endsWith('.md') ? anchors(readDocument(to)) : null;
      if (headings === null) broken.push(`${where}: an anchor into a file that is not Markdown`);
      else if (!headings.has(anchor)) broken.push(`${where}: ${to} has no heading with that anchor`);
    }
  }
  return broken;
}
