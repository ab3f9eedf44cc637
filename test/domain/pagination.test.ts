import { serviceErrorFrom } from '../support/thrown';
import { describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import { ServiceError } from '../../mock/errors/catalogue';
import { CursorCodec, type CursorPosition, type SortOrder } from '../../mock/domain/pagination/cursor';
import { readPage, type Page, type PageParams } from '../../mock/domain/pagination/page';
import { MemoryStore } from '../../mock/store/memory-store';
import type { Operation } from '../../mock/store/records';
import { arrayKeys, sliceSorted } from '../../mock/store/slice';

// ------------------------------------------------------------------ sliceSorted over a fixed array

describe('slicing a fixed sorted list', () => {
  const five = arrayKeys(5); // keys 1..5 at slots 0..4

  it('the first ascending page starts at the smallest key and knows more follow', () => {
    expect(sliceSorted(five, { limit: 2, order: 'ASCENDING' })).toEqual({ slots: [0, 1], hasBefore: false, hasAfter: true });
  });

  it('the first descending page starts at the largest key', () => {
    expect(sliceSorted(five, { limit: 2, order: 'DESCENDING' })).toEqual({ slots: [4, 3], hasBefore: false, hasAfter: true });
  });

  it('NEXT from a key starts strictly after it, along the order', () => {
    expect(sliceSorted(five, { limit: 2, order: 'ASCENDING', from: { key: 2, direction: 'NEXT' } })).toEqual({
      slots: [2, 3],
      hasBefore: true,
      hasAfter: true,
    });
    expect(sliceSorted(five, { limit: 2, order: 'DESCENDING', from: { key: 4, direction: 'NEXT' } })).toEqual({
      slots: [2, 1],
      hasBefore: true,
      hasAfter: true,
    });
  });

  it('PREVIOUS from a key returns the items just before it, still in page order', () => {
    expect(sliceSorted(five, { limit: 2, order: 'ASCENDING', from: { key: 4, direction: 'PREVIOUS' } })).toEqual({
      slots: [1, 2],
      hasBefore: true,
      hasAfter: true,
    });
    expect(sliceSorted(five, { limit: 2, order: 'DESCENDING', from: { key: 2, direction: 'PREVIOUS' } })).toEqual({
      slots: [3, 2],
      hasBefore: true,
      hasAfter: true,
    });
  });

  it('the last page knows nothing follows', () => {
    expect(sliceSorted(five, { limit: 2, order: 'ASCENDING', from: { key: 3, direction: 'NEXT' } })).toEqual({
      slots: [3, 4],
      hasBefore: true,
      hasAfter: false,
    });
  });

  it('a short last page holds what is left', () => {
    expect(sliceSorted(five, { limit: 3, order: 'DESCENDING', from: { key: 3, direction: 'NEXT' } })).toEqual({
      slots: [1, 0],
      hasBefore: true,
      hasAfter: false,
    });
  });

  it('a cursor past the end gives an empty page that can still go back', () => {
    expect(sliceSorted(five, { limit: 2, order: 'ASCENDING', from: { key: 5, direction: 'NEXT' } })).toEqual({
      slots: [],
      hasBefore: true,
      hasAfter: false,
    });
  });

  it('an empty list gives an empty page with nothing before or after', () => {
    expect(sliceSorted(arrayKeys(0), { limit: 10, order: 'DESCENDING' })).toEqual({ slots: [], hasBefore: false, hasAfter: false });
  });

  it('a filter skips items and is taken into account for hasBefore and hasAfter', () => {
    const even = (slot: number) => (slot + 1) % 2 === 0; // keys 2 and 4
    expect(sliceSorted(five, { limit: 1, order: 'ASCENDING', matchesSlot: even })).toEqual({
      slots: [1],
      hasBefore: false,
      hasAfter: true,
    });
    expect(sliceSorted(five, { limit: 1, order: 'ASCENDING', from: { key: 2, direction: 'NEXT' }, matchesSlot: even })).toEqual({
      slots: [3],
      hasBefore: true,
      hasAfter: false,
    });
  });
});

// ------------------------------------------------------------------ cursors

describe('cursor codec', () => {
  const codec = new CursorCodec('secret-one');
  const LIST = 'operation:customer-a';

  it.each<CursorPosition>([
    { key: 1, direction: 'NEXT', order: 'DESCENDING' },
    { key: 16, direction: 'PREVIOUS', order: 'ASCENDING' },
    { key: Number.MAX_SAFE_INTEGER, direction: 'NEXT', order: 'ASCENDING' },
    { key: 0, direction: 'PREVIOUS', order: 'DESCENDING' },
  ])('a cursor for %p decodes back to the same position', (position) => {
    expect(codec.decode(LIST, codec.encode(LIST, position))).toEqual(position);
  });

  it('a cursor is URL-safe text', () => {
    expect(codec.encode(LIST, { key: 123456, direction: 'PREVIOUS', order: 'DESCENDING' })).toMatch(/^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/);
  });

  function expectInvalid(call: () => unknown): void {
    let thrown: unknown;
    try {
      call();
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(ServiceError);
    expect((thrown as ServiceError).code).toBe('INVALID_CURSOR');
    expect((thrown as ServiceError).status).toBe(400);
  }

  it('a cursor edited in any one character is rejected with INVALID_CURSOR', () => {
    const cursor = codec.encode(LIST, { key: 16, direction: 'NEXT', order: 'DESCENDING' });
    for (let i = 0; i < cursor.length; i++) {
      if (cursor[i] === '.') continue;
      const replacement = cursor[i] === 'A' ? 'B' : 'A';
      const edited = cursor.slice(0, i) + replacement + cursor.slice(i + 1);
      expectInvalid(() => codec.decode(LIST, edited));
    }
  });

  it('a cursor whose payload is re-encoded to point elsewhere is rejected with INVALID_CURSOR', () => {
    const cursor = codec.encode(LIST, { key: 16, direction: 'NEXT', order: 'DESCENDING' });
    const mac = cursor.split('.')[1];
    const forged = `${Buffer.from('1.N.D').toString('base64url')}.${mac}`;
    expectInvalid(() => codec.decode(LIST, forged));
  });

  it('a cursor issued for another list is rejected with INVALID_CURSOR', () => {
    const cursor = codec.encode('operation:customer-b', { key: 16, direction: 'NEXT', order: 'DESCENDING' });
    expectInvalid(() => codec.decode(LIST, cursor));
  });

  it('a cursor signed with another secret is rejected with INVALID_CURSOR', () => {
    const cursor = new CursorCodec('secret-two').encode(LIST, { key: 16, direction: 'NEXT', order: 'DESCENDING' });
    expectInvalid(() => codec.decode(LIST, cursor));
  });

  it.each(['', 'garbage', 'a.b', 'a.b.c', '.', '..', 'MTYuTi5E.', '.abc', '%%%.%%%'])(
    'the string %p is rejected with INVALID_CURSOR',
    (garbage) => {
      expectInvalid(() => codec.decode(LIST, garbage));
    },
  );

  it('a correctly signed cursor with a nonsense position is still rejected with INVALID_CURSOR', () => {
    // Only someone holding the secret could make this, but decode must not trust the payload shape.
    // Bracket access reaches the codec's private signing method, with its types.
    const mac = (payload: string) => codec['mac'](LIST, payload);
    for (const text of ['-1.N.D', 'x.N.D', '1.X.D', '1.N.Z', '1.5.N.D', '1.5.N']) {
      const payload = Buffer.from(text).toString('base64url');
      expectInvalid(() => codec.decode(LIST, `${payload}.${mac(payload)}`));
    }
  });
});

// ------------------------------------------------------------------ readPage over a MemoryStore

interface Row {
  id: string;
  n: number;
}

/**
 * The store never looks inside a record, so these tests keep rows (an id and a number) under the
 * operation kind; these two are the one place a row passes for an operation and back.
 */
const asOperation = (row: Row) => row as unknown as Operation;
const asRow = (record: Operation) => record as unknown as Row;

const SECRET = 'pagination-test-secret';
const SCOPE = 'customer-a';
const LIST = `operation:${SCOPE}`;

function ids(page: Page<Row>): number[] {
  return page.data.map((row) => row.n);
}

async function storeWith(count: number, scope = SCOPE): Promise<{ store: MemoryStore; add: (n: number) => Promise<void> }> {
  const store = new MemoryStore();
  const add = (n: number) => store.insert('operation', scope, `op-${n}`, asOperation({ id: `op-${n}`, n }));
  for (let n = 1; n <= count; n++) await add(n);
  return { store, add };
}

function reader(store: MemoryStore, where?: (row: Row) => boolean, codec = new CursorCodec(SECRET)) {
  return (params: PageParams) =>
    readPage<Operation, Row>(
      codec,
      LIST,
      params,
      (q) => store.page('operation', { scope: SCOPE, ...q, where: where && ((record) => where(asRow(record))) }),
      asRow,
    );
}

const range = (from: number, to: number) => {
  const out: number[] = [];
  for (let n = from; from <= to ? n <= to : n >= to; n += from <= to ? 1 : -1) out.push(n);
  return out;
};

async function walkNext(read: ReturnType<typeof reader>, limit: number, sortOrder?: SortOrder): Promise<Array<Page<Row>>> {
  const pages = [await read({ limit, sortOrder })];
  for (let cursor = pages[0]?.meta.nextCursor; cursor; cursor = pages[pages.length - 1]?.meta.nextCursor) {
    pages.push(await read({ limit, cursor, direction: 'NEXT' }));
    if (pages.length > 1000) throw new Error('the walk does not end');
  }
  return pages;
}

async function expectInvalidCursor(promise: Promise<unknown>): Promise<void> {
  expect((await serviceErrorFrom(promise)).code).toBe('INVALID_CURSOR');
}

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

describe('pagination walk property', () => {
  it(
    'for any list size, limit and order, NEXT visits every record once in order ' + 'and PREVIOUS returns the same pages backwards',
    async () => {
      await fc.assert(
        fc.asyncProperty(
          fc.integer({ min: 0, max: 40 }),
          fc.integer({ min: 1, max: 12 }),
          fc.constantFrom<SortOrder | undefined>('ASCENDING', 'DESCENDING', undefined),
          async (size, limit, sortOrder) => {
            const { store } = await storeWith(size);
            const read = reader(store);
            const expected = sortOrder === 'ASCENDING' ? range(1, size) : range(size, 1);
            if (size === 0) expected.length = 0;

            const forward = await walkNext(read, limit, sortOrder);
            expect(forward.map(ids).flat()).toEqual(expected);
            expect(forward.length).toBe(Math.max(1, Math.ceil(size / limit)));
            forward.forEach((page, i) => {
              expect(page.meta.total).toBe(page.data.length);
              expect(page.data.length).toBeLessThanOrEqual(limit);
              expect(page.meta.previousCursor === null).toBe(i === 0);
              expect(page.meta.nextCursor === null).toBe(i === forward.length - 1);
            });

            const backward = [forward[forward.length - 1] as Page<Row>];
            for (let cursor = backward[0]?.meta.previousCursor; cursor; cursor = backward[backward.length - 1]?.meta.previousCursor) {
              backward.push(await read({ limit, cursor, direction: 'PREVIOUS' }));
              if (backward.length > forward.length) break;
            }
            expect(backward.map(ids)).toEqual([...forward].reverse().map(ids));
          },
        ),
        { numRuns: 150 },
      );
    },
  );
});
