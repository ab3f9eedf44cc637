// readPage over a MemoryStore: page sizes, order and cursors of a walk, PREVIOUS back to the same
// page, records inserted or removed mid-walk, where filters, other customers' records; cursors
// against an explicit sortOrder, another customer's list, another secret, and the empty string.
import { describe, expect, it } from '@jest/globals';
import { CursorCodec } from '../../../mock/domain/pagination/cursor';
import { MemoryStore } from '../../../mock/store';
import { asOperation, expectInvalidCursor, ids, LIST, range, reader, SECRET, storeWith, walkNext } from './support';

describe('reading pages of a list', () => {
  it('when 25 records are walked 10 at a time, then the default order is newest first and the pages are 10, 10, 5', async () => {
    const { store } = await storeWith(25);
    const pages = await walkNext(reader(store), 10);
    expect(pages.map(ids)).toEqual([range(25, 16), range(15, 6), range(5, 1)]);
    expect(pages.map((p) => p.meta.total)).toEqual([10, 10, 5]);
  });

  it('the first page has no previousCursor and the last page has no nextCursor', async () => {
    const { store } = await storeWith(25);
    const pages = await walkNext(reader(store), 10);
    expect(pages[0]?.meta.previousCursor).toBeNull();
    expect(pages[0]?.meta.nextCursor).toEqual(expect.any(String));
    expect(pages[1]?.meta.previousCursor).toEqual(expect.any(String));
    expect(pages[1]?.meta.nextCursor).toEqual(expect.any(String));
    expect(pages[2]?.meta.previousCursor).toEqual(expect.any(String));
    expect(pages[2]?.meta.nextCursor).toBeNull();
  });

  it('when walked one record at a time, then there are 25 pages of one, newest first', async () => {
    const { store } = await storeWith(25);
    const pages = await walkNext(reader(store), 1);
    expect(pages).toHaveLength(25);
    expect(pages.map(ids).flat()).toEqual(range(25, 1));
    expect(pages.every((p) => p.meta.total === 1)).toBe(true);
  });

  it('when ASCENDING is asked, then the walk is oldest first and the cursors keep that order', async () => {
    const { store } = await storeWith(25);
    const pages = await walkNext(reader(store), 10, 'ASCENDING');
    expect(pages.map(ids)).toEqual([range(1, 10), range(11, 20), range(21, 25)]);
  });

  it('when a list fits in exactly one page, then both cursors are null', async () => {
    const { store } = await storeWith(10);
    const page = await reader(store)({ limit: 10 });
    expect(ids(page)).toEqual(range(10, 1));
    expect(page.meta).toEqual({ previousCursor: null, nextCursor: null, total: 10 });
  });

  it('when the list is empty, then the page is empty and both cursors are null', async () => {
    const store = new MemoryStore();
    expect(await reader(store)({ limit: 10 })).toEqual({ data: [], meta: { previousCursor: null, nextCursor: null, total: 0 } });
  });

  it("another customer's records never appear in the list", async () => {
    const { store } = await storeWith(3);
    await store.insert('operation', 'customer-b', 'op-b', asOperation({ id: 'op-b', n: 99 }));
    const page = await reader(store)({ limit: 10 });
    expect(ids(page)).toEqual([3, 2, 1]);
  });

  it('when PREVIOUS is followed from page 2, then page 1 comes back exactly', async () => {
    const { store } = await storeWith(25);
    const read = reader(store);
    const first = await read({ limit: 10 });
    const second = await read({ limit: 10, cursor: first.meta.nextCursor as string, direction: 'NEXT' });
    const back = await read({ limit: 10, cursor: second.meta.previousCursor as string, direction: 'PREVIOUS' });
    expect(back).toEqual(first);
  });

  it('when PREVIOUS is followed from the last page, then page 2 comes back exactly', async () => {
    const { store } = await storeWith(25);
    const pages = await walkNext(reader(store), 10);
    const back = await reader(store)({ limit: 10, cursor: pages[2]?.meta.previousCursor as string, direction: 'PREVIOUS' });
    expect(back).toEqual(pages[1]);
  });

  it('when the direction is omitted, then a cursor walks the way it was issued', async () => {
    const { store } = await storeWith(25);
    const read = reader(store);
    const first = await read({ limit: 10 });
    const second = await read({ limit: 10, cursor: first.meta.nextCursor as string });
    expect(ids(second)).toEqual(range(15, 6));
    const back = await read({ limit: 10, cursor: second.meta.previousCursor as string });
    expect(ids(back)).toEqual(range(25, 16));
  });

  it('when records are inserted during a newest-first walk, then every record that existed at the start is seen exactly once', async () => {
    const { store, add } = await storeWith(25);
    const read = reader(store);
    const seen: number[] = [];
    let page = await read({ limit: 10 });
    seen.push(...ids(page));
    let next = 26;
    while (page.meta.nextCursor) {
      for (let i = 0; i < 4; i++) await add(next++);
      page = await read({ limit: 10, cursor: page.meta.nextCursor, direction: 'NEXT' });
      seen.push(...ids(page));
    }
    expect(seen).toEqual(range(25, 1));
  });

  it('when records are inserted during an oldest-first walk, then none repeats or vanishes and the new ones come last', async () => {
    const { store, add } = await storeWith(25);
    const read = reader(store);
    const seen: number[] = [];
    let page = await read({ limit: 10, sortOrder: 'ASCENDING' });
    seen.push(...ids(page));
    let next = 26;
    while (page.meta.nextCursor) {
      if (next <= 30) for (let i = 0; i < 5; i++) await add(next++);
      page = await read({ limit: 10, cursor: page.meta.nextCursor, direction: 'NEXT' });
      seen.push(...ids(page));
    }
    expect(seen).toEqual(range(1, 30));
  });

  it('when records are inserted and a page is re-read with PREVIOUS, then it shows the same records as before', async () => {
    const { store, add } = await storeWith(25);
    const read = reader(store);
    const first = await read({ limit: 10 });
    const second = await read({ limit: 10, cursor: first.meta.nextCursor as string, direction: 'NEXT' });
    await add(26);
    await add(27);
    const back = await read({ limit: 10, cursor: second.meta.previousCursor as string, direction: 'PREVIOUS' });
    expect(ids(back)).toEqual(range(25, 16));
    expect(back.meta.previousCursor).toEqual(expect.any(String)); // 26 and 27 are now before it
  });

  it('when records are removed mid-walk, including the one the cursor points at, then the walk goes on over the rest', async () => {
    const { store } = await storeWith(25);
    const read = reader(store);
    const seen: number[] = [];
    let page = await read({ limit: 10 });
    seen.push(...ids(page));
    await store.remove('operation', 'op-16'); // the record the nextCursor was issued at
    await store.remove('operation', 'op-10'); // a record of the next page
    while (page.meta.nextCursor) {
      page = await read({ limit: 10, cursor: page.meta.nextCursor, direction: 'NEXT' });
      seen.push(...ids(page));
    }
    expect(seen).toEqual(range(25, 1).filter((n) => n !== 10));
    expect(new Set(seen).size).toBe(seen.length);
  });

  it('when a where filter is given, then only matching records are paged and the cursors ignore the others', async () => {
    const { store } = await storeWith(25);
    const pages = await walkNext(
      reader(store, (row) => row.n % 2 === 0),
      5,
    );
    expect(pages.map(ids)).toEqual([
      [24, 22, 20, 18, 16],
      [14, 12, 10, 8, 6],
      [4, 2],
    ]);
    expect(pages[0]?.meta.previousCursor).toBeNull();
    expect(pages[2]?.meta.nextCursor).toBeNull();
  });

  it('when a filter matches nothing, then the page is empty and both cursors are null', async () => {
    const { store } = await storeWith(25);
    expect((await reader(store, () => false)({ limit: 10 })).meta).toEqual({ previousCursor: null, nextCursor: null, total: 0 });
  });

  it('when a filter leaves exactly one page, then nextCursor is null even though non-matching records follow', async () => {
    const { store } = await storeWith(25);
    const page = await reader(store, (row) => row.n >= 20)({ limit: 10 });
    expect(ids(page)).toEqual(range(25, 20));
    expect(page.meta.nextCursor).toBeNull();
  });
});

describe('cursors and sort order', () => {
  it('a cursor issued for DESCENDING used with sortOrder ASCENDING sent explicitly is rejected with INVALID_CURSOR', async () => {
    const { store } = await storeWith(25);
    const read = reader(store);
    const first = await read({ limit: 10 });
    await expectInvalidCursor(read({ limit: 10, cursor: first.meta.nextCursor as string, direction: 'NEXT', sortOrder: 'ASCENDING' }));
  });

  it('a cursor issued for ASCENDING used with sortOrder DESCENDING sent explicitly is rejected with INVALID_CURSOR', async () => {
    const { store } = await storeWith(25);
    const read = reader(store);
    const first = await read({ limit: 10, sortOrder: 'ASCENDING' });
    await expectInvalidCursor(read({ limit: 10, cursor: first.meta.nextCursor as string, sortOrder: 'DESCENDING' }));
  });

  it('a cursor used with its own sortOrder sent explicitly is accepted', async () => {
    const { store } = await storeWith(25);
    const read = reader(store);
    const first = await read({ limit: 10, sortOrder: 'ASCENDING' });
    expect(ids(await read({ limit: 10, cursor: first.meta.nextCursor as string, sortOrder: 'ASCENDING' }))).toEqual(range(11, 20));
  });

  it('a cursor issued for ASCENDING with sortOrder omitted keeps ascending, not the DESCENDING default', async () => {
    const { store } = await storeWith(25);
    const read = reader(store);
    const first = await read({ limit: 10, sortOrder: 'ASCENDING' });
    expect(ids(await read({ limit: 10, cursor: first.meta.nextCursor as string, direction: 'NEXT' }))).toEqual(range(11, 20));
  });

  it("a cursor from another customer's list is rejected with INVALID_CURSOR", async () => {
    const { store } = await storeWith(25);
    const codec = new CursorCodec(SECRET);
    const other = codec.encode('operation:customer-b', { key: 20, direction: 'NEXT', order: 'DESCENDING' });
    await expectInvalidCursor(reader(store, undefined, codec)({ limit: 10, cursor: other }));
  });

  it('a cursor signed by a mock with another secret is rejected with INVALID_CURSOR', async () => {
    const { store } = await storeWith(25);
    const foreign = new CursorCodec('another-secret').encode(LIST, { key: 20, direction: 'NEXT', order: 'DESCENDING' });
    await expectInvalidCursor(reader(store)({ limit: 10, cursor: foreign }));
  });

  it('an empty-string cursor is rejected with INVALID_CURSOR, not read as "no cursor"', async () => {
    const { store } = await storeWith(25);
    await expectInvalidCursor(reader(store)({ limit: 10, cursor: '' }));
  });
});
