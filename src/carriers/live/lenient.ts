/**
 * Readers for carrier JSON, which is loose in documented ways: one object where an array is promised, numbers
 * as strings, optional blocks missing. Each returns a safe value or undefined; none throws.
 */

/** A list, whether the carrier sent an array, a single object, or nothing. */
export function asArray<T = unknown>(value: unknown): T[] {
  if (value === undefined || value === null || value === '') return [];
  return (Array.isArray(value) ? value : [value]) as T[];
}

/** A number from a number or a numeric string ("15.54", " 7.0 "); undefined otherwise. */
export function asNumber(value: unknown): number | undefined {
  if (typeof value === 'number') return Number.isFinite(value) ? value : undefined;
  if (typeof value === 'string' && value.trim() !== '' && !Number.isNaN(Number(value))) return Number(value);
  return undefined;
}

/** Money as integer cents from "15.54", 15.54 or "15"; undefined when not a number. */
export function asCents(value: unknown): number | undefined {
  const n = asNumber(value);
  return n === undefined ? undefined : Math.round(n * 100);
}

/** A non-empty trimmed string, or undefined. */
export function asString(value: unknown): string | undefined {
  if (typeof value === 'string') return value.trim() === '' ? undefined : value.trim();
  if (typeof value === 'number') return String(value);
  return undefined;
}

/** A property path read without throwing: at(obj, 'RateResponse', 'RatedShipment'). */
export function at(value: unknown, ...path: (string | number)[]): unknown {
  let v = value;
  for (const key of path) {
    if (v === null || typeof v !== 'object') return undefined;
    v = (v as Record<string | number, unknown>)[key];
  }
  return v;
}
