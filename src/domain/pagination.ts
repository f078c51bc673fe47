import { ApiError } from './errors.ts';

export interface ListInput {
  limit?: number;
  cursor?: string;
  created_after?: string;
  created_before?: string;
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
export function encodeCursor(id: string): string {
  return Buffer.from(id, 'utf8').toString('base64url');
}

export function decodeCursor(cursor: string, prefix: string): string {
  const id = Buffer.from(cursor, 'base64url').toString('utf8');
  if (!new RegExp(`^${prefix}_[0-9a-z]{26}$`).test(id)) {
    throw new ApiError('validation_failed', 'cursor is not one this list gave out', [{ in: 'query', pointer: '/cursor', detail: 'is not a cursor of this list' }]);
  }
  return id;
}

/** Takes limit + 1 rows, newest first, and turns them into a page. */
export function toPage<R extends { id: string }, T>(rows: R[], limit: number, map: (row: R) => T): Page<T> {
  const has_more = rows.length > limit;
  const page = has_more ? rows.slice(0, limit) : rows;
  return {
    object: 'list',
    data: page.map(map),
    has_more,
    next_cursor: has_more ? encodeCursor(page[page.length - 1]!.id) : null,
  };
}
