// Pagination parameters as the handlers pass them on: sortOrder only when the caller sent it,
// so a cursor keeps the order it was issued for.
import type { PageParams } from '../domain/pagination/page';

/** The document's pagination query (limit has its default after validation). */
interface PageQuery {
  limit?: number;
  cursor?: string;
  direction?: PageParams['direction'];
  sortOrder?: PageParams['sortOrder'];
}

export function pageParams(ctx: { query: PageQuery; sentQuery: Record<string, unknown> }): PageParams {
  const { limit, cursor, direction, sortOrder } = ctx.query;
  return {
    // Validation fills in the document's default (10), so it is never absent here.
    limit: limit ?? 10,
    cursor,
    direction,
    sortOrder: ctx.sentQuery.sortOrder === undefined ? undefined : sortOrder,
  };
}
