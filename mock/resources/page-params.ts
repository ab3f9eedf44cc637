// Pagination parameters as the handlers pass them on: sortOrder only when the caller sent it,
// so a cursor keeps the order it was issued for.
import type { PageParams } from '../domain/pagination/page';
import type { HandlerContext } from './types';

export function pageParams(ctx: HandlerContext): PageParams {
  const q = ctx.query;
  return {
    limit: q.limit as number,
    cursor: q.cursor as string | undefined,
    direction: q.direction as PageParams['direction'],
    sortOrder: ctx.sentQuery.sortOrder === undefined ? undefined : (q.sortOrder as PageParams['sortOrder']),
  };
}
