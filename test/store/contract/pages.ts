// The Store contract: pages: order, cursors in both directions, bounds, filters (run for every store by ../store-contract.ts).
import { describe, expect, it } from '@jest/globals';
import type { Operation } from '../../../mock/domain/records';
import type { PageQuery, Store } from '../../../mock/store';
import { CUSTOMER, OTHER_CUSTOMER, asOperation, asSubscription, shape, type StandIn, type StoreKit } from './kit';

export function pagesContract<S extends Store>(kit: StoreKit<S>): void {
  const { fresh, withOperations, keysById, page } = kit;
  describe('pages', () => {
    /** a..e in CUSTOMER, with records of another scope and another kind in between. */
    async function fiveInterleaved(): Promise<S> {
      const store = await fresh();
      const insert = (scope: string, id: string) => store.insert('operation', scope, id, asOperation({ id }));
      await insert(CUSTOMER, 'a');
      await insert(OTHER_CUSTOMER, 'x');
      await insert(CUSTOMER, 'b');
      await store.insert('subscription', CUSTOMER, 's1', asSubscription({ n: 1 }));
      await insert(CUSTOMER, 'c');
      await insert(OTHER_CUSTOMER, 'y');
      await insert(CUSTOMER, 'd');
      await insert(CUSTOMER, 'e');
      return store;
    }

    it("an ascending page lists a scope's records oldest first, with keys rising in insertion order", async () => {
      const store = await fiveInterleaved();
      const slice = await page(store, {});
      expect(shape(slice)).toEqual({ ids: ['a', 'b', 'c', 'd', 'e'], hasBefore: false, hasAfter: false });
      const keys = slice.items.map((item) => item.key);
      expect(keys.every((key) => Number.isSafeInteger(key) && key > 0)).toBe(true);
      expect([...keys].sort((p, q) => p - q)).toEqual(keys);
      expect(new Set(keys).size).toBe(keys.length);
      expect(slice.items.map((item) => item.record)).toEqual(['a', 'b', 'c', 'd', 'e'].map((id) => ({ id })));
    });

    it('a descending page lists the newest first, with the same keys', async () => {
      const store = await fiveInterleaved();
      const ascending = await page(store, {});
      const descending = await page(store, { order: 'DESCENDING' });
      expect(shape(descending)).toEqual({ ids: ['e', 'd', 'c', 'b', 'a'], hasBefore: false, hasAfter: false });
      expect(descending.items).toEqual([...ascending.items].reverse());
    });

    it('a page of a scope holding nothing is empty with nothing before or after', async () => {
      const store = await fiveInterleaved();
      expect(shape(await page(store, { scope: 'nobody' }))).toEqual({ ids: [], hasBefore: false, hasAfter: false });
    });

    it('walking an ascending list with NEXT cursors visits every record once, with hasBefore and hasAfter right on each', async () => {
      const store = await fiveInterleaved();
      const keys = await keysById(store);
      expect(shape(await page(store, { limit: 2 }))).toEqual({ ids: ['a', 'b'], hasBefore: false, hasAfter: true });
      expect(shape(await page(store, { limit: 2, from: { key: keys.b!, direction: 'NEXT' } }))).toEqual({
        ids: ['c', 'd'],
        hasBefore: true,
        hasAfter: true,
      });
      expect(shape(await page(store, { limit: 2, from: { key: keys.d!, direction: 'NEXT' } }))).toEqual({
        ids: ['e'],
        hasBefore: true,
        hasAfter: false,
      });
    });

    it('a PREVIOUS cursor on an ascending list gives the records just before it, still oldest first', async () => {
      const store = await fiveInterleaved();
      const keys = await keysById(store);
      expect(shape(await page(store, { limit: 2, from: { key: keys.e!, direction: 'PREVIOUS' } }))).toEqual({
        ids: ['c', 'd'],
        hasBefore: true,
        hasAfter: true,
      });
      expect(shape(await page(store, { limit: 2, from: { key: keys.c!, direction: 'PREVIOUS' } }))).toEqual({
        ids: ['a', 'b'],
        hasBefore: false,
        hasAfter: true,
      });
    });

    it('walking a descending list with NEXT cursors goes to older records, and PREVIOUS comes back to newer ones', async () => {
      const store = await fiveInterleaved();
      const keys = await keysById(store);
      const descending = (from?: PageQuery<Operation>['from']) => page(store, { limit: 2, order: 'DESCENDING', from });
      expect(shape(await descending())).toEqual({ ids: ['e', 'd'], hasBefore: false, hasAfter: true });
      expect(shape(await descending({ key: keys.d!, direction: 'NEXT' }))).toEqual({ ids: ['c', 'b'], hasBefore: true, hasAfter: true });
      expect(shape(await descending({ key: keys.b!, direction: 'NEXT' }))).toEqual({ ids: ['a'], hasBefore: true, hasAfter: false });
      expect(shape(await descending({ key: keys.a!, direction: 'PREVIOUS' }))).toEqual({
        ids: ['c', 'b'],
        hasBefore: true,
        hasAfter: true,
      });
      expect(shape(await descending({ key: keys.c!, direction: 'PREVIOUS' }))).toEqual({
        ids: ['e', 'd'],
        hasBefore: false,
        hasAfter: true,
      });
    });

    it('NEXT from the last record is an empty page with something before it; PREVIOUS from the first, with something after', async () => {
      const store = await fiveInterleaved();
      const keys = await keysById(store);
      expect(shape(await page(store, { from: { key: keys.e!, direction: 'NEXT' } }))).toEqual({
        ids: [],
        hasBefore: true,
        hasAfter: false,
      });
      expect(shape(await page(store, { from: { key: keys.a!, direction: 'PREVIOUS' } }))).toEqual({
        ids: [],
        hasBefore: false,
        hasAfter: true,
      });
      expect(shape(await page(store, { order: 'DESCENDING', from: { key: keys.a!, direction: 'NEXT' } }))).toEqual({
        ids: [],
        hasBefore: true,
        hasAfter: false,
      });
    });

    it('a cursor naming a record removed since still positions the page by its key', async () => {
      const store = await fiveInterleaved();
      const keys = await keysById(store);
      await store.remove('operation', 'c');
      expect(shape(await page(store, { limit: 2, from: { key: keys.c!, direction: 'NEXT' } }))).toEqual({
        ids: ['d', 'e'],
        hasBefore: true,
        hasAfter: false,
      });
      expect(shape(await page(store, { limit: 2, from: { key: keys.c!, direction: 'PREVIOUS' } }))).toEqual({
        ids: ['a', 'b'],
        hasBefore: false,
        hasAfter: true,
      });
    });

    it('records added after a page was read come after it: NEXT from its last key finds them', async () => {
      const store = await withOperations(['a', 'b']);
      const first = await page(store, { limit: 2 });
      await store.insert('operation', CUSTOMER, 'c', asOperation({ id: 'c' }));
      const last = first.items[first.items.length - 1]!;
      expect(shape(await page(store, { limit: 2, from: { key: last.key, direction: 'NEXT' } }))).toEqual({
        ids: ['c'],
        hasBefore: true,
        hasAfter: false,
      });
    });

    describe('with a where filter', () => {
      /** r1..r11 with n = 1..11; the filter keeps even n: r2, r4, r6, r8, r10. */
      async function numbered(): Promise<S> {
        const store = await fresh();
        for (let n = 1; n <= 11; n++) await store.insert('operation', CUSTOMER, `r${n}`, asOperation({ id: `r${n}`, n }));
        return store;
      }
      const even = (record: StandIn) => record.n! % 2 === 0;

      it('a filtered page holds only matching records, and limit counts matching records only', async () => {
        const store = await numbered();
        expect(shape(await page(store, { limit: 3, where: even }))).toEqual({
          ids: ['r2', 'r4', 'r6'],
          hasBefore: false,
          hasAfter: true,
        });
      });

      it('hasBefore and hasAfter count only matching records: non-matching ones at either end do not count', async () => {
        const store = await numbered();
        const keys = await keysById(store);
        expect(shape(await page(store, { limit: 2, where: even, from: { key: keys.r8!, direction: 'NEXT' } }))).toEqual({
          ids: ['r10'],
          hasBefore: true,
          hasAfter: false,
        });
        expect(shape(await page(store, { limit: 2, where: even, from: { key: keys.r6!, direction: 'PREVIOUS' } }))).toEqual({
          ids: ['r2', 'r4'],
          hasBefore: false,
          hasAfter: true,
        });
        expect(shape(await page(store, { limit: 5, where: even, order: 'DESCENDING' }))).toEqual({
          ids: ['r10', 'r8', 'r6', 'r4', 'r2'],
          hasBefore: false,
          hasAfter: false,
        });
      });

      it('a cursor on a record the filter leaves out still positions the page', async () => {
        const store = await numbered();
        const keys = await keysById(store);
        expect(shape(await page(store, { limit: 2, where: even, from: { key: keys.r5!, direction: 'NEXT' } }))).toEqual({
          ids: ['r6', 'r8'],
          hasBefore: true,
          hasAfter: true,
        });
        expect(
          shape(await page(store, { limit: 2, where: even, order: 'DESCENDING', from: { key: keys.r5!, direction: 'NEXT' } })),
        ).toEqual({ ids: ['r4', 'r2'], hasBefore: true, hasAfter: false });
      });

      it('a filter matching nothing gives an empty page with nothing before or after', async () => {
        const store = await numbered();
        expect(shape(await page(store, { where: () => false }))).toEqual({ ids: [], hasBefore: false, hasAfter: false });
      });
    });
  });
}
