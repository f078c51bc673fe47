import { sql, type SelectQueryBuilder } from 'kysely';
import { ApiError } from '../../kernel/errors.ts';

export interface ListInput {
  limit?: number;
  cursor?: string;
  created_after?: string;
  created_before?: string;
  /** Only the lists whose query offers them, on rows with an updated_at. */
  updated_after?: string;
  updated_before?: string;
}

export interface Page<T> {
  object: 'list';
  data: T[];
  has_more: boolean;
  next_cursor: string | null;
}

/**
 * Cursors are opaque to clients; inside, the id of the last item of the page. Ids sort by creation time, so
 * "older than this id" walks every item exactly once, whatever is created meanwhile.
 */
function encodeCursor(id: string): string {
  return Buffer.from(id, 'utf8').toString('base64url');
}

function decodeCursor(cursor: string, prefix: string): string {
  const id = Buffer.from(cursor, 'base64url').toString('utf8');
  if (!new RegExp(`^${prefix}_[0-9a-z]{26}$`).test(id)) {
    throw new ApiError('validation_failed', 'cursor is not one this list gave out', [{ in: 'query', pointer: '/cursor', detail: 'is not a cursor of this list' }]);
  }
  return id;
}

/** Takes limit + 1 rows, newest first, and turns them into a page. */
function toPage<R extends { id: string }, T>(rows: R[], limit: number, map: (row: R) => T): Page<T> {
  const has_more = rows.length > limit;
  const page = has_more ? rows.slice(0, limit) : rows;
  return {
    object: 'list',
    data: page.map(map),
    has_more,
    next_cursor: has_more ? encodeCursor(page[page.length - 1]!.id) : null,
  };
}

const leapSecond = /:60(?=(\.\d+)?(z|[+-]\d\d:\d\d)$)/i;

/**
 * A date-time filter as the stored form. RFC 3339 allows a leap second (23:59:60), which the schema lets through
 * and Date cannot read: it is the second after :59.
 */
function instant(value: string, field: string): string {
  const ms = leapSecond.test(value) ? Date.parse(value.replace(leapSecond, ':59')) + 1_000 : Date.parse(value);
  if (Number.isNaN(ms)) {
    throw new ApiError('validation_failed', `${field} is not a date-time this server can read`, [{ in: 'query', pointer: `/${field}`, detail: 'must be an RFC 3339 date-time such as 2026-11-25T10:00:00Z' }]);
  }
  return new Date(ms).toISOString();
}

/**
 * One page of a list, newest first: the shared time window, cursor and limit applied to a query the caller has
 * already narrowed to the key's own rows and its own filters.
 */
export async function fetchPage<R extends { id: string; created_at: string }, T>(
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- any table with id and created_at columns
  query: SelectQueryBuilder<any, any, R>,
  input: ListInput,
  prefix: string,
  map: (row: R) => T,
): Promise<Page<T>> {
  const limit = input.limit ?? 20;
  let q = query;
  if (input.created_after) q = q.where(sql.ref('created_at'), '>=', instant(input.created_after, 'created_after'));
  if (input.created_before) q = q.where(sql.ref('created_at'), '<', instant(input.created_before, 'created_before'));
  if (input.updated_after) q = q.where(sql.ref('updated_at'), '>=', instant(input.updated_after, 'updated_after'));
  if (input.updated_before) q = q.where(sql.ref('updated_at'), '<', instant(input.updated_before, 'updated_before'));
  if (input.cursor) q = q.where(sql.ref('id'), '<', decodeCursor(input.cursor, prefix));
  const rows = await q.orderBy(sql.ref('id'), 'desc').limit(limit + 1).execute();
  return toPage(rows, limit, map);
}
