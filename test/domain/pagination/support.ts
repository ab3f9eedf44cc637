// Shared by the pagination tests that read pages through readPage over a MemoryStore: rows (an id
// and a number) kept under the operation kind, a store holding rows 1..n, a page reader for
// customer A's list, and walks and checks over the pages it returns.
import { expect } from '@jest/globals';
import { serviceErrorFrom } from '../../support/thrown';
import { CursorCodec, type SortOrder } from '../../../mock/domain/pagination/cursor';
import { readPage, type Page, type PageParams } from '../../../mock/domain/pagination/page';
import { MemoryStore } from '../../../mock/store';
import type { Operation } from '../../../mock/domain/records';

export interface Row {
  id: string;
  n: number;
}

/**
 * The store never looks inside a record, so these tests keep rows (an id and a number) under the
 * operation kind; these two are the one place a row passes for an operation and back.
 */
export const asOperation = (row: Row) => row as unknown as Operation;
const asRow = (record: Operation) => record as unknown as Row;

export const SECRET = 'pagination-test-secret';
const SCOPE = 'customer-a';
export const LIST = `operation:${SCOPE}`;

export function ids(page: Page<Row>): number[] {
  return page.data.map((row) => row.n);
}

export async function storeWith(count: number, scope = SCOPE): Promise<{ store: MemoryStore; add: (n: number) => Promise<void> }> {
  const store = new MemoryStore();
  const add = (n: number) => store.insert('operation', scope, `op-${n}`, asOperation({ id: `op-${n}`, n }));
  for (let n = 1; n <= count; n++) await add(n);
  return { store, add };
}

export function reader(store: MemoryStore, where?: (row: Row) => boolean, codec = new CursorCodec(SECRET)) {
  return (params: PageParams) =>
    readPage<Operation, Row>(
      codec,
      LIST,
      params,
      (q) => store.page('operation', { scope: SCOPE, ...q, where: where && ((record) => where(asRow(record))) }),
      asRow,
    );
}

export const range = (from: number, to: number) => {
  const out: number[] = [];
  for (let n = from; from <= to ? n <= to : n >= to; n += from <= to ? 1 : -1) out.push(n);
  return out;
};

export async function walkNext(read: ReturnType<typeof reader>, limit: number, sortOrder?: SortOrder): Promise<Array<Page<Row>>> {
  const pages = [await read({ limit, sortOrder })];
  for (let cursor = pages[0]?.meta.nextCursor; cursor; cursor = pages[pages.length - 1]?.meta.nextCursor) {
    pages.push(await read({ limit, cursor, direction: 'NEXT' }));
    if (pages.length > 1000) throw new Error('the walk does not end');
  }
  return pages;
}

export async function expectInvalidCursor(promise: Promise<unknown>): Promise<void> {
  expect((await serviceErrorFrom(promise)).code).toBe('INVALID_CURSOR');
}
