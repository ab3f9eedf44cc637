// Seed pagination: {data, meta}; meta.total is the number of items in this page;
// previousCursor is null on the first page and nextCursor null on the last.
import { ServiceError } from '../../errors/catalogue';
import type { CursorCodec, Direction, SortOrder } from './cursor';

export interface PageParams {
  limit: number;
  cursor?: string;
  direction?: Direction;
  /** Only when the caller sent it: a cursor keeps its own order otherwise. */
  sortOrder?: SortOrder;
}

export interface Page<T> {
  data: T[];
  meta: { previousCursor: string | null; nextCursor: string | null; total: number };
}

export interface Slice<R> {
  items: Array<{ key: number; record: R }>;
  hasBefore: boolean;
  hasAfter: boolean;
}

export interface SliceRequest {
  order: SortOrder;
  from?: { key: number; direction: Direction };
}

export const DEFAULT_ORDER: SortOrder = 'DESCENDING';

/** Reads a page: decodes the cursor for this list, asks for the slice, and issues the next cursors. */
export async function readPage<R, T>(
  codec: CursorCodec,
  list: string,
  params: PageParams,
  fetch: (request: SliceRequest & { limit: number }) => Promise<Slice<R>>,
  present: (record: R) => T,
): Promise<Page<T>> {
  let order = params.sortOrder ?? DEFAULT_ORDER;
  let from: SliceRequest['from'];
  if (params.cursor !== undefined) {
    const position = codec.decode(list, params.cursor);
    if (params.sortOrder !== undefined && params.sortOrder !== position.order) {
      throw new ServiceError('INVALID_CURSOR', { reason: `the cursor was issued for sortOrder ${position.order}` });
    }
    order = position.order;
    from = { key: position.key, direction: params.direction ?? position.direction };
  }
  const slice = await fetch({ order, from, limit: params.limit });
  const first = slice.items[0]?.key ?? from?.key;
  const last = slice.items[slice.items.length - 1]?.key ?? from?.key;
  return {
    data: slice.items.map((item) => present(item.record)),
    meta: {
      previousCursor: slice.hasBefore && first !== undefined ? codec.encode(list, { key: first, direction: 'PREVIOUS', order }) : null,
      nextCursor: slice.hasAfter && last !== undefined ? codec.encode(list, { key: last, direction: 'NEXT', order }) : null,
      total: slice.items.length,
    },
  };
}
