import type { FastifyRequest } from 'fastify';
import type { ListInput, Page } from '../domain/core/pagination.ts';

/** A list page's filters as given in its query, what the domain's list takes, and the errors beside each filter. */
export interface Filters<F> {
  values: Record<string, string>;
  query: ListInput & F;
  errors: Record<string, string>;
  /** Whether any filter was given, so an empty list can say none matched rather than none exist. */
  filtered: boolean;
  /** The page these filters select; none while a filter is wrong (its error says why). */
  load<T>(list: (query: ListInput & F) => Promise<Page<T>>): Promise<Page<T>>;
  /** The query string of these filters, for the next page's link. */
  next(cursor: string): string;
}

const day = /^\d{4}-\d{2}-\d{2}$/;
/** A real calendar day: 2026-02-30 is refused, not rolled into March. */
function isDay(value: string): boolean {
  const at = Date.parse(`${value}T00:00:00Z`);
  return day.test(value) && !Number.isNaN(at) && new Date(at).toISOString().startsWith(value);
}

/**
 * Reads `from` and `to` (dates, UTC, both days included), a cursor, and the page's own filters; each own filter
 * is given its allowed values, null for free text, or 'date' for a day (YYYY-MM-DD). A filter left empty takes its
 * value in `defaults`, if any: a page's usual view, which does not count as filtered.
 */
export function readFilters<F>(request: FastifyRequest, own: Record<string, readonly string[] | null | 'date'>, defaults: Record<string, string> = {}): Filters<F> {
  const raw = request.query as Record<string, unknown>;
  const text = (name: string) => (typeof raw[name] === 'string' ? (raw[name] as string).trim() : '');
  const values: Record<string, string> = {};
  const errors: Record<string, string> = {};
  const query: Record<string, unknown> = { limit: 25 };
  let filtered = false;
  for (const [name, allowed] of Object.entries(own)) {
    const given = text(name);
    const value = given || defaults[name] || '';
    values[name] = value;
    if (!value) continue;
    if (given && given !== defaults[name]) filtered = true;
    if (allowed === 'date') {
      if (!isDay(value)) errors[name] = 'A date such as 2026-11-23';
      else query[name] = value;
    } else if (allowed && !allowed.includes(value)) errors[name] = `Choose one of ${allowed.join(', ')}`;
    else if (value.length > 100) errors[name] = 'At most 100 characters';
    else query[name] = value;
  }
  for (const [name, bound] of [['from', 'created_after'], ['to', 'created_before']] as const) {
    const value = text(name);
    values[name] = value;
    if (!value) continue;
    filtered = true;
    const at = Date.parse(`${value}T00:00:00Z`);
    if (!isDay(value)) errors[name] = 'A date such as 2026-11-23';
    else query[bound] = new Date(name === 'to' ? at + 86_400_000 : at).toISOString();
  }
  const cursor = text('cursor');
  if (cursor) query.cursor = cursor;
  const valid = Object.keys(errors).length === 0;
  return {
    values,
    query: query as ListInput & F,
    errors,
    filtered,
    load: async (list) => (valid ? list(query as ListInput & F) : { object: 'list', data: [], has_more: false, next_cursor: null }),
    next: (c) => `?${new URLSearchParams({ ...Object.fromEntries(Object.entries(values).filter(([, v]) => v)), cursor: c })}`,
  };
}
