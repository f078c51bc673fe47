// The JSON answers our documents show, and whether a real answer fits one.
//
// A shown answer is JSON with `…` for what varies or is left out:
// - `"ord_…"`: a string; `…` inside stands for any characters (ids, tokens, URLs' signatures);
// - `…` as an object member: the object has more members than shown; without it, exactly the members shown;
// - `…` as the last array element: more elements may follow the ones shown;
// - `…` as a member's value: any value;
// - a timestamp (`2026-11-26T23:03:26.297Z`) or a date (`2026-12-03`) stands for any of its kind, as the clock moves.
// Every other value must be equal.

export type Shown =
  | { kind: 'any' }
  | { kind: 'scalar'; value: null | boolean | number }
  | { kind: 'string'; value: string }
  | { kind: 'array'; items: Shown[]; more: boolean }
  | { kind: 'object'; members: [string, Shown][]; more: boolean };

const ellipsis = '…';

export function parseShown(text: string): Shown {
  let at = 0;
  const fail = (what: string): never => {
    throw new Error(`shown JSON, at ${JSON.stringify(text.slice(at, at + 30))}: ${what}`);
  };
  const skip = () => {
    while (at < text.length && /\s/.test(text[at]!)) at++;
  };
  const take = (token: string): boolean => {
    skip();
    if (!text.startsWith(token, at)) return false;
    at += token.length;
    return true;
  };
  const expect = (token: string) => {
    if (!take(token)) fail(`expected ${token}`);
  };
  const string = (): string => {
    skip();
    if (text[at] !== '"') fail('expected a string');
    let end = at + 1;
    while (end < text.length && text[end] !== '"') end += text[end] === '\\' ? 2 : 1;
    const value = JSON.parse(text.slice(at, end + 1)) as string;
    at = end + 1;
    return value;
  };
  const value = (): Shown => {
    skip();
    if (take(ellipsis)) return { kind: 'any' };
    if (take('{')) {
      const members: [string, Shown][] = [];
      let more = false;
      if (take('}')) return { kind: 'object', members, more };
      do {
        if (take(ellipsis)) more = true;
        else {
          const key = string();
          expect(':');
          members.push([key, value()]);
        }
      } while (take(','));
      expect('}');
      return { kind: 'object', members, more };
    }
    if (take('[')) {
      const items: Shown[] = [];
      let more = false;
      if (take(']')) return { kind: 'array', items, more };
      do {
        if (more) fail('… must be the last element of an array');
        if (take(ellipsis)) more = true;
        else items.push(value());
      } while (take(','));
      expect(']');
      return { kind: 'array', items, more };
    }
    if (text[at] === '"') return { kind: 'string', value: string() };
    const scalar = /^(?:true|false|null|-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?)/.exec(text.slice(at));
    if (!scalar) return fail('expected a value');
    at += scalar[0].length;
    return { kind: 'scalar', value: JSON.parse(scalar[0]) as null | boolean | number };
  };
  const shown = value();
  skip();
  if (at < text.length) fail('text after the value');
  return shown;
}

const timestamp = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d+)?Z$/;
const date = /^\d{4}-\d{2}-\d{2}$/;

function stringFits(shown: string, actual: string): boolean {
  if (shown.includes(ellipsis)) {
    const pattern = shown
      .split(ellipsis)
      .map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
      .join('[\\s\\S]*');
    return new RegExp(`^${pattern}$`).test(actual);
  }
  for (const kind of [timestamp, date]) if (kind.test(shown)) return kind.test(actual);
  return shown === actual;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Where the actual value differs from the shown one, each as `pointer: what`; empty when it fits. */
export function misfits(shown: Shown, actual: unknown, pointer = ''): string[] {
  const here = pointer || '/';
  switch (shown.kind) {
    case 'any':
      return [];
    case 'scalar':
      return actual === shown.value ? [] : [`${here}: shown ${JSON.stringify(shown.value)}, got ${JSON.stringify(actual)}`];
    case 'string':
      return typeof actual === 'string' && stringFits(shown.value, actual) ? [] : [`${here}: shown ${JSON.stringify(shown.value)}, got ${JSON.stringify(actual)}`];
    case 'array': {
      if (!Array.isArray(actual)) return [`${here}: shown an array, got ${JSON.stringify(actual)}`];
      const lengthFits = shown.more ? actual.length >= shown.items.length : actual.length === shown.items.length;
      const found = lengthFits ? [] : [`${here}: shown ${shown.items.length}${shown.more ? ' or more' : ''} elements, got ${actual.length}`];
      shown.items.forEach((item, i) => {
        if (i < actual.length) found.push(...misfits(item, actual[i], `${pointer}/${i}`));
      });
      return found;
    }
    case 'object': {
      if (!isRecord(actual)) return [`${here}: shown an object, got ${JSON.stringify(actual)}`];
      const found: string[] = [];
      for (const [key, value] of shown.members) {
        if (!(key in actual)) found.push(`${pointer}/${key}: shown, but not in the answer`);
        else found.push(...misfits(value, actual[key], `${pointer}/${key}`));
      }
      if (!shown.more) {
        const keys = new Set(shown.members.map(([key]) => key));
        for (const key of Object.keys(actual)) if (!keys.has(key)) found.push(`${pointer}/${key}: in the answer, but not shown (and no …)`);
      }
      return found;
    }
  }
}

/** The JSON values a command printed one after another, as curl prints answers without line breaks between them. */
export function printedValues(output: string): unknown[] {
  const values: unknown[] = [];
  let at = 0;
  while (at < output.length) {
    if (/\s/.test(output[at]!)) {
      at++;
      continue;
    }
    if (output[at] !== '{' && output[at] !== '[') throw new Error(`not JSON: ${JSON.stringify(output.slice(at, at + 60))}`);
    let depth = 0;
    let end = at;
    let inString = false;
    for (; end < output.length; end++) {
      const c = output[end]!;
      if (inString) {
        if (c === '\\') end++;
        else if (c === '"') inString = false;
      } else if (c === '"') inString = true;
      else if (c === '{' || c === '[') depth++;
      else if (c === '}' || c === ']') {
        depth--;
        if (depth === 0) break;
      }
    }
    values.push(JSON.parse(output.slice(at, end + 1)));
    at = end + 1;
  }
  return values;
}
