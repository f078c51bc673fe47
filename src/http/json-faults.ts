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
const nulFault = (value: unknown, key?: string) => (key?.includes('\u0000') || (typeof value === 'string' && value.includes('\u0000')) ? nulDetail : undefined);

/** The JSON Pointer of the first string or key holding a NUL character, if any. */
export const findNul = (value: unknown): string | undefined => findFault(value, nulFault)?.pointer;

const sizeFault = (value: unknown) => {
  if (Array.isArray(value)) return value.length > maxCollection ? `must NOT have more than ${maxCollection} items` : undefined;
  if (value && typeof value === 'object' && Object.keys(value).length > maxCollection) return `must NOT have more than ${maxCollection} properties`;
  return undefined;
};

/** The JSON Pointer and complaint of the first array or object larger than `maxCollection`, if any. */
export const findOversized = (value: unknown) => findFault(value, sizeFault);
