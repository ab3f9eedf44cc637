// The pagination walk as a property: for any list size, limit and order, walking NEXT visits every
// record once in order, and walking PREVIOUS from the last page gives the same pages backwards.
import { describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import type { SortOrder } from '../../../mock/domain/pagination/cursor';
import type { Page } from '../../../mock/domain/pagination/page';
import { ids, range, reader, storeWith, walkNext, type Row } from './support';

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
