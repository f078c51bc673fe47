import { escapePointer } from './problems.ts';

/**
 * The most items one array, or fields one object, of a JSON body may hold: the largest any schema takes (a
 * manifest's shipment ids). Every error is reported, so validation time and memory grow with what a body holds:
 * a 290 KB body of 50,000 wrong line items made 50,000 errors. Refused before validation, nothing grows past this.
 */
export const maxCollection = 1000;

interface Frame {
  value: object;
  parent: number;
  key: string;
}

/**
 * Where in a parsed JSON value `fault` first finds something wrong with a value or the key it is under, and what,
 * as a JSON Pointer and the fault's words. Walks breadth first without recursion: a body may nest 100,000 deep.
 */
export function findFault(root: unknown, fault: (value: unknown, key?: string) => string | undefined): { pointer: string; detail: string } | undefined {
  const pointerOf = (frames: Frame[], at: number, key: string | undefined) => {
    const tokens = key === undefined ? [] : [key];
    for (let i = at; i > 0; i = frames[i]!.parent) tokens.push(frames[i]!.key);
    return tokens.reverse().map((t) => `/${escapePointer(t)}`).join('');
  };
  const rootFault = fault(root);
  if (rootFault !== undefined) return { pointer: '', detail: rootFault };
  if (!root || typeof root !== 'object') return undefined;
  const frames: Frame[] = [{ value: root, parent: -1, key: '' }];
  for (let at = 0; at < frames.length; at++) {
    const { value } = frames[at]!;
    const entries: [string, unknown][] = Array.isArray(value) ? value.map((v, i) => [String(i), v]) : Object.entries(value);
    for (const [key, v] of entries) {
      const detail = fault(v, key);
      if (detail !== undefined) return { pointer: pointerOf(frames, at, key), detail };
      if (v && typeof v === 'object') frames.push({ value: v, parent: at, key });
    }
  }
  return undefined;
}

export const nulDetail = 'must not contain the NUL character (\\u0000)';
export const halfCharacterDetail =
  'must not contain half of a character: \\uD800 to \\uDFFF must come in pairs that make one character, as in \\uD83D\\uDE00 (😀)';

/** With the u flag a pair is one code point outside the range: only a surrogate without its other half matches. */
const loneSurrogate = /[\uD800-\uDFFF]/u;

/**
 * What no text shipd stores may hold. PostgreSQL's text cannot hold NUL. Half of a surrogate pair is no character
 * at all: SQLite keeps its bytes and gives back three U+FFFD, PostgreSQL refuses it inside JSON (jsonb), so the two
 * would not store the same text; no name or address needs one.
 */
const textFault = (text: string) => (text.includes('\u0000') ? nulDetail : loneSurrogate.test(text) ? halfCharacterDetail : undefined);
const unstorableFault = (value: unknown, key?: string) => (key === undefined ? undefined : textFault(key)) ?? (typeof value === 'string' ? textFault(value) : undefined);

/** Where the first string or key that holds a NUL character or half of a character is, as a JSON Pointer, and why. */
export const findUnstorable = (value: unknown) => findFault(value, unstorableFault);

const sizeFault = (value: unknown) => {
  if (Array.isArray(value)) return value.length > maxCollection ? `must NOT have more than ${maxCollection} items` : undefined;
  if (value && typeof value === 'object' && Object.keys(value).length > maxCollection) return `must NOT have more than ${maxCollection} properties`;
  return undefined;
};

/** The JSON Pointer and complaint of the first array or object larger than `maxCollection`, if any. */
export const findOversized = (value: unknown) => findFault(value, sizeFault);
