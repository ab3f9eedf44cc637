// Pagination edges read through readPage with a fake slice: a cursor used with another sortOrder
// is INVALID_CURSOR saying which order it was issued for, and a page issues a cursor only from a
// key it has (an empty first page never gets a previous cursor).
import { describe, expect, it } from '@jest/globals';
import { serviceErrorFrom } from '../../support/thrown';
import { CursorCodec } from '../../../mock/domain/pagination/cursor';
import { readPage, type Slice } from '../../../mock/domain/pagination/page';

const codec = new CursorCodec('edge-secret');
const LIST = 'operation:customer-a';
const fetchOf = (slice: Slice<string>) => () => Promise.resolve(slice);

describe('a cursor and an explicit sortOrder', () => {
  it('disagreeing, the error names the order the cursor was issued for', async () => {
    const cursor = codec.encode(LIST, { key: 5, direction: 'NEXT', order: 'DESCENDING' });
    const error = await serviceErrorFrom(
      readPage(
        codec,
        LIST,
        { limit: 2, cursor, sortOrder: 'ASCENDING' },
        fetchOf({ items: [], hasBefore: false, hasAfter: false }),
        (r) => r,
      ),
    );
    expect(error.code).toBe('INVALID_CURSOR');
    expect(error.details).toEqual({ reason: 'the cursor was issued for sortOrder DESCENDING' });
  });
});

describe('cursors come from keys the page has', () => {
  it('an empty first page has no previous cursor even when the slice says there is something before', async () => {
    const page = await readPage(codec, LIST, { limit: 2 }, fetchOf({ items: [], hasBefore: true, hasAfter: true }), (r) => r);
    expect(page).toEqual({ data: [], meta: { previousCursor: null, nextCursor: null, total: 0 } });
  });

  it('an empty page read from a cursor points both ways from that cursor', async () => {
    const cursor = codec.encode(LIST, { key: 7, direction: 'NEXT', order: 'ASCENDING' });
    const page = await readPage(codec, LIST, { limit: 2, cursor }, fetchOf({ items: [], hasBefore: true, hasAfter: true }), (r) => r);
    expect(codec.decode(LIST, page.meta.previousCursor as string)).toEqual({ key: 7, direction: 'PREVIOUS', order: 'ASCENDING' });
    expect(codec.decode(LIST, page.meta.nextCursor as string)).toEqual({ key: 7, direction: 'NEXT', order: 'ASCENDING' });
  });
});
