// The behaviour every Store must have, written once and run against each implementation
// (memory-store.test.ts, redis-store.test.ts). Records are plain JSON to a store: tests compare
// values (toEqual), never the identity of returned objects. An update's change function may run
// more than once under contention (a store that retries optimistically), so no test counts its
// calls; what must hold is that every concurrent update lands.
import { afterEach, describe, expect, it } from '@jest/globals';
import { Decimal } from '../../mock/domain/decimal';
import type { Operation, QuoteRecord, SubscriptionRecord } from '../../mock/domain/records';
import type { PageQuery, PageSlice, Store, StoredRecord, StoreState } from '../../mock/store';

const CUSTOMER = 'customer-a';
const OTHER_CUSTOMER = 'customer-b';
const ACCOUNT = 'account-1';
const TTL = 24 * 60 * 60 * 1000;
const T0 = Date.parse('2025-03-10T00:00:00.000Z');

export function quote(id = 'quote-1'): QuoteRecord {
  return {
    id,
    customerId: CUSTOMER,
    accountId: ACCOUNT,
    sourceAsset: 'BRL',
    targetAsset: 'USDT',
    sourceAmount: '100.00',
    targetAmount: '18.500000',
    rate: '0.185',
    createdAt: '2025-03-10T14:30:00.000Z',
    expiresAt: '2025-03-10T14:30:30.000Z',
    operationId: null,
    internal: false,
  };
}

/**
 * The store never looks inside a record, so most tests keep small stand-ins (an id, a number)
 * under the operation and subscription kinds; these give a stand-in its kind's record type.
 */
interface StandIn {
  id?: string;
  n?: number;
  v?: number;
  count?: number;
  [field: string]: unknown;
}
const asOperation = (record: StandIn) => record as unknown as Operation;
const asSubscription = (record: StandIn) => record as unknown as SubscriptionRecord;
const standIn = (record: unknown) => record as StandIn;

const idsOf = (slice: PageSlice<Operation>) => slice.items.map((item) => item.record.id);
const shape = (slice: PageSlice<Operation>) => ({ ids: idsOf(slice), hasBefore: slice.hasBefore, hasAfter: slice.hasAfter });

/** Runs `mutate`, ignoring the TypeError a frozen record throws: either way the store must not change. */
function tryToMutate(mutate: () => void): void {
  try {
    mutate();
  } catch (error) {
    if (!(error instanceof TypeError)) throw error;
  }
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

export function storeContract<S extends Store>(name: string, makeStore: () => Promise<S>, dispose?: (store: S) => Promise<void>): void {
  describe(name, () => {
    const opened: S[] = [];
    async function fresh(): Promise<S> {
      const store = await makeStore();
      opened.push(store);
      return store;
    }
    afterEach(async () => {
      for (const store of opened.splice(0)) await dispose?.(store);
    });

    async function storeWithQuote(): Promise<S> {
      const store = await fresh();
      await store.insert('quote', CUSTOMER, 'quote-1', quote());
      return store;
    }

    async function withOperations(ids: string[], scope = CUSTOMER): Promise<S> {
      const store = await fresh();
      for (const id of ids) await store.insert('operation', scope, id, asOperation({ id }));
      return store;
    }

    /** The insertion key of each record of a scope, by id. */
    async function keysById(store: Store, scope = CUSTOMER): Promise<Record<string, number>> {
      const slice = await store.page('operation', { scope, limit: 1000, order: 'ASCENDING' });
      return Object.fromEntries(slice.items.map((item) => [item.record.id, item.key]));
    }

    const page = (store: Store, query: Partial<PageQuery<Operation>>) =>
      store.page('operation', { scope: CUSTOMER, limit: 10, order: 'ASCENDING', ...query });

    describe('records', () => {
      it('an inserted record is read back by id, equal to what was inserted', async () => {
        const store = await storeWithQuote();
        expect(await store.get('quote', 'quote-1')).toEqual(quote());
      });

      it('an id never inserted reads as undefined', async () => {
        const store = await storeWithQuote();
        expect(await store.get('quote', 'nope')).toBeUndefined();
      });

      it('a record of nested objects, arrays, nulls, numbers, booleans and non-ASCII text comes back equal', async () => {
        const store = await fresh();
        const record = {
          id: 'op-json',
          nested: { deeper: { list: [1, 'two', null, { three: 3 }], empty: {}, none: [] } },
          numbers: [0, -1, 0.1, 1e-7, Number.MAX_SAFE_INTEGER, -123.456],
          flags: [true, false],
          text: 'São Paulo — 東京 — 🚀 — "quoted" \\ back\nslash',
          blank: '',
          nothing: null,
        };
        await store.insert('operation', CUSTOMER, 'op-json', asOperation(record));
        expect(await store.get('operation', 'op-json')).toEqual(record);
        expect(await store.all('operation', CUSTOMER)).toEqual([record]);
        expect((await page(store, {})).items.map((item) => item.record)).toEqual([record]);
      });

      it('inserting a second record with the same id is refused and the first is kept where it was', async () => {
        const store = await storeWithQuote();
        await store.insert('quote', CUSTOMER, 'quote-2', quote('quote-2'));
        await expect(store.insert('quote', CUSTOMER, 'quote-1', { ...quote(), rate: '9' })).rejects.toThrow('exists already');
        expect(await store.get('quote', 'quote-1')).toEqual(quote());
        expect(await store.all('quote', CUSTOMER)).toEqual([quote(), quote('quote-2')]);
      });

      it('an id is unique within its kind whatever the scope: the same id in another scope is refused', async () => {
        const store = await withOperations(['a']);
        await expect(store.insert('operation', OTHER_CUSTOMER, 'a', asOperation({ id: 'a', v: 2 }))).rejects.toThrow('exists already');
        expect(await store.all('operation', OTHER_CUSTOMER)).toEqual([]);
        expect(await store.get('operation', 'a')).toEqual({ id: 'a' });
      });

      it('kinds are separate: the same id may exist as two kinds', async () => {
        const store = await storeWithQuote();
        await store.insert('operation', CUSTOMER, 'quote-1', asOperation({ id: 'quote-1' }));
        expect((await store.get('quote', 'quote-1'))?.rate).toBe('0.185');
        expect(await store.get('operation', 'quote-1')).toEqual({ id: 'quote-1' });
      });

      it('changing a record object after inserting it, or one read back, never changes what the store holds', async () => {
        const store = await fresh();
        const inserted = { id: 'op-1', amount: { value: '1.00', asset: 'BRL' }, tags: ['a'] };
        await store.insert('operation', CUSTOMER, 'op-1', asOperation(inserted));
        tryToMutate(() => {
          inserted.amount.value = '999.00';
          inserted.tags.push('b');
        });
        const read = standIn(await store.get('operation', 'op-1'));
        tryToMutate(() => {
          (read.amount as { value: string }).value = '5.00';
          read.id = 'changed';
        });
        expect(await store.get('operation', 'op-1')).toEqual({ id: 'op-1', amount: { value: '1.00', asset: 'BRL' }, tags: ['a'] });
      });
    });

    describe('updates', () => {
      it('when 100 updates increment a counter at once, then none is lost (read-modify-write is atomic)', async () => {
        const store = await fresh();
        await store.insert('operation', CUSTOMER, 'op-1', asOperation({ id: 'op-1', count: 0 }));
        await Promise.all(
          Array.from({ length: 100 }, () =>
            store.update('operation', 'op-1', (current: StandIn) => asOperation({ ...current, count: current.count! + 1 })),
          ),
        );
        expect(standIn(await store.get('operation', 'op-1')).count).toBe(100);
      });

      it('an update resolves to the new record, which is also what is read back', async () => {
        const store = await fresh();
        await store.insert('operation', CUSTOMER, 'op-1', asOperation({ id: 'op-1', v: 1 }));
        expect(await store.update('operation', 'op-1', (c: StandIn) => asOperation({ ...c, v: 2 }))).toEqual({ id: 'op-1', v: 2 });
        expect(await store.get('operation', 'op-1')).toEqual({ id: 'op-1', v: 2 });
      });

      it('an update is given the record as it is now, after an earlier replace', async () => {
        const store = await fresh();
        await store.insert('operation', CUSTOMER, 'op-1', asOperation({ id: 'op-1', v: 1 }));
        await store.replace('operation', 'op-1', asOperation({ id: 'op-1', v: 10 }));
        const updated = await store.update('operation', 'op-1', (c: StandIn) => asOperation({ ...c, v: c.v! + 1 }));
        expect(updated).toEqual({ id: 'op-1', v: 11 });
      });

      it('an update whose change throws rejects with that error and leaves the record as it was', async () => {
        const store = await fresh();
        await store.insert('operation', CUSTOMER, 'op-1', asOperation({ id: 'op-1', v: 1 }));
        await expect(
          store.update('operation', 'op-1', () => {
            throw new Error('abort');
          }),
        ).rejects.toThrow('abort');
        expect(await store.get('operation', 'op-1')).toEqual({ id: 'op-1', v: 1 });
      });

      it('an update of a missing record resolves to undefined and creates nothing', async () => {
        const store = await fresh();
        expect(await store.update('operation', 'nope', (c) => c)).toBeUndefined();
        expect(await store.get('operation', 'nope')).toBeUndefined();
        expect(await store.all('operation', CUSTOMER)).toEqual([]);
      });

      it('an updated record keeps its place and its key in the list', async () => {
        const store = await withOperations(['a', 'b', 'c']);
        const before = await keysById(store);
        await store.update('operation', 'a', (c: StandIn) => asOperation({ ...c, v: 2 }));
        expect(await keysById(store)).toEqual(before);
        expect(await store.all('operation', CUSTOMER)).toEqual([{ id: 'a', v: 2 }, { id: 'b' }, { id: 'c' }]);
      });

      it('a replaced record keeps its place and its key in the list', async () => {
        const store = await fresh();
        for (const id of ['a', 'b', 'c']) await store.insert('operation', CUSTOMER, id, asOperation({ id, v: 1 }));
        const before = await keysById(store);
        await store.replace('operation', 'b', asOperation({ id: 'b', v: 2 }));
        expect(await store.all('operation', CUSTOMER)).toEqual([
          { id: 'a', v: 1 },
          { id: 'b', v: 2 },
          { id: 'c', v: 1 },
        ]);
        expect(await keysById(store)).toEqual(before);
      });

      it('replacing a missing record is refused and creates nothing', async () => {
        const store = await fresh();
        await expect(store.replace('operation', 'nope', asOperation({ id: 'nope' }))).rejects.toThrow('does not exist');
        expect(await store.get('operation', 'nope')).toBeUndefined();
      });
    });

    describe('lists (all)', () => {
      it('all() lists a scope in insertion order and no other scope', async () => {
        const store = await fresh();
        await store.insert('subscription', 'customer-a', 's1', asSubscription({ n: 1 }));
        await store.insert('subscription', 'customer-b', 's2', asSubscription({ n: 2 }));
        await store.insert('subscription', 'customer-a', 's3', asSubscription({ n: 3 }));
        expect(await store.all('subscription', 'customer-a')).toEqual([{ n: 1 }, { n: 3 }]);
      });

      it('all() of a scope holding nothing is empty', async () => {
        const store = await withOperations(['a']);
        expect(await store.all('operation', 'nobody')).toEqual([]);
      });

      it('all() lists only the asked kind when two kinds share a scope', async () => {
        const store = await withOperations(['a']);
        await store.insert('subscription', CUSTOMER, 's1', asSubscription({ n: 1 }));
        expect(await store.all('subscription', CUSTOMER)).toEqual([{ n: 1 }]);
        expect(await store.all('operation', CUSTOMER)).toEqual([{ id: 'a' }]);
      });
    });

    describe('removing records', () => {
      const three = () => withOperations(['a', 'b', 'c']);

      it('a removed record is gone by id and drops out of pages', async () => {
        const store = await three();
        await store.remove('operation', 'b');
        expect(await store.get('operation', 'b')).toBeUndefined();
        expect(idsOf(await page(store, {}))).toEqual(['a', 'c']);
        expect(await store.all('operation', CUSTOMER)).toEqual([{ id: 'a' }, { id: 'c' }]);
      });

      it('removing the last record of a page makes the page before it the last', async () => {
        const store = await three();
        expect((await page(store, { limit: 2 })).hasAfter).toBe(true);
        await store.remove('operation', 'c');
        expect((await page(store, { limit: 2 })).hasAfter).toBe(false);
      });

      it('removing an unknown record is harmless', async () => {
        const store = await three();
        await store.remove('operation', 'nope');
        expect(await store.all('operation', CUSTOMER)).toHaveLength(3);
      });

      it('an id removed and inserted again goes to the end of the list, with a new key', async () => {
        const store = await three();
        const before = await keysById(store);
        await store.remove('operation', 'a');
        await store.insert('operation', CUSTOMER, 'a', asOperation({ id: 'a' }));
        expect(await store.all('operation', CUSTOMER)).toEqual([{ id: 'b' }, { id: 'c' }, { id: 'a' }]);
        expect((await keysById(store)).a).toBeGreaterThan(before.c!);
      });
    });

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

    describe('consuming quotes (insertConsumingQuote)', () => {
      const NOW = T0 + 1000;
      /** Inserts operation `id` (a stand-in) consuming `quoteId`, in CUSTOMER's list. */
      const consume = (store: Store, id: string, quoteId = 'quote-1', record: StandIn = { id }) =>
        store.insertConsumingQuote(quoteId, 'operation', CUSTOMER, id, asOperation(record));
      /** A refused consumption, whether the store answers false or throws: either way nothing may change. */
      const refusedOrFalse = (answer: Promise<boolean>) => answer.catch(() => false);

      it('a quote consumed by 100 concurrent callers has one winner: only its operation is stored, the quote names it', async () => {
        const store = await storeWithQuote();
        const operations = Array.from({ length: 100 }, (_, i) => `op-${i}`);
        const results = await Promise.all(operations.map((op) => consume(store, op)));
        const winners = operations.filter((_, i) => results[i]);
        expect(winners).toHaveLength(1);
        expect((await store.get('quote', 'quote-1'))?.operationId).toBe(winners[0]);
        expect(await store.all('operation', CUSTOMER)).toEqual([{ id: winners[0] }]);
        for (const loser of operations.filter((op) => op !== winners[0])) expect(await store.get('operation', loser)).toBeUndefined();
      });

      it('100 operations consuming 100 different quotes at once all succeed, each quote naming its own, each keyed apart', async () => {
        const store = await fresh();
        const ids = Array.from({ length: 100 }, (_, i) => i);
        for (const i of ids) await store.insert('quote', CUSTOMER, `q-${i}`, quote(`q-${i}`));
        const results = await Promise.all(ids.map((i) => consume(store, `op-${i}`, `q-${i}`)));
        expect(results.every(Boolean)).toBe(true);
        for (const i of ids) expect((await store.get('quote', `q-${i}`))?.operationId).toBe(`op-${i}`);
        const keys = Object.values(await keysById(store));
        expect(keys).toHaveLength(100);
        expect(new Set(keys).size).toBe(100);
      });

      it("consuming a quote inserts the record and changes only the quote's operationId, to the record's id", async () => {
        const store = await storeWithQuote();
        expect(await consume(store, 'op-1', 'quote-1', { id: 'op-1', v: 7 })).toBe(true);
        expect(await store.get('quote', 'quote-1')).toEqual({ ...quote(), operationId: 'op-1' });
        expect(await store.get('operation', 'op-1')).toEqual({ id: 'op-1', v: 7 });
      });

      it("the inserted record is read back by id and listed in its scope's pages in insertion order", async () => {
        const store = await storeWithQuote();
        await store.insert('operation', CUSTOMER, 'a', asOperation({ id: 'a' }));
        await store.insert('operation', OTHER_CUSTOMER, 'x', asOperation({ id: 'x' }));
        expect(await consume(store, 'b')).toBe(true);
        await store.insert('operation', CUSTOMER, 'c', asOperation({ id: 'c' }));
        expect(await store.get('operation', 'b')).toEqual({ id: 'b' });
        const slice = await page(store, {});
        expect(shape(slice)).toEqual({ ids: ['a', 'b', 'c'], hasBefore: false, hasAfter: false });
        const keys = slice.items.map((item) => item.key);
        expect([...keys].sort((p, q) => p - q)).toEqual(keys);
        expect(new Set(keys).size).toBe(3);
        expect(shape(await page(store, { order: 'DESCENDING' })).ids).toEqual(['c', 'b', 'a']);
        expect(await store.all('operation', CUSTOMER)).toEqual([{ id: 'a' }, { id: 'b' }, { id: 'c' }]);
        expect(await store.all('operation', OTHER_CUSTOMER)).toEqual([{ id: 'x' }]);
        expect((await store.get('quote', 'quote-1'))?.operationId).toBe('b');
      });

      it('a quote consumed once cannot fund another operation: false, no record inserted, nothing written', async () => {
        const store = await storeWithQuote();
        expect(await consume(store, 'op-1')).toBe(true);
        const before = await store.exportState(NOW);
        expect(await consume(store, 'op-2', 'quote-1', { id: 'op-2', v: 2 })).toBe(false);
        expect(await store.get('operation', 'op-2')).toBeUndefined();
        expect(await store.get('quote', 'quote-1')).toEqual({ ...quote(), operationId: 'op-1' });
        expect(await store.all('operation', CUSTOMER)).toEqual([{ id: 'op-1' }]);
        expect(await store.exportState(NOW)).toEqual(before);
      });

      it('a quote consumed once cannot be consumed again under the id that holds it: refused, and nothing changes', async () => {
        const store = await storeWithQuote();
        expect(await consume(store, 'op-1', 'quote-1', { id: 'op-1', v: 1 })).toBe(true);
        const before = await store.exportState(NOW);
        expect(await refusedOrFalse(consume(store, 'op-1', 'quote-1', { id: 'op-1', v: 2 }))).toBe(false);
        expect(await store.get('operation', 'op-1')).toEqual({ id: 'op-1', v: 1 });
        expect(await store.exportState(NOW)).toEqual(before);
      });

      it('an unknown quote answers false and inserts nothing: no record, no quote, the id still free', async () => {
        const store = await fresh();
        const before = await store.exportState(NOW);
        expect(await consume(store, 'op-1', 'nope')).toBe(false);
        expect(await store.get('operation', 'op-1')).toBeUndefined();
        expect(await store.get('quote', 'nope')).toBeUndefined();
        expect(shape(await page(store, {}))).toEqual({ ids: [], hasBefore: false, hasAfter: false });
        expect(await store.exportState(NOW)).toEqual(before);
        await store.insert('operation', CUSTOMER, 'op-1', asOperation({ id: 'op-1' }));
        expect(await store.get('operation', 'op-1')).toEqual({ id: 'op-1' });
      });

      it.each([
        ['in the same scope', CUSTOMER],
        ['in another scope', OTHER_CUSTOMER],
      ])(
        'when the id exists already (%s) it throws, writes nothing, and the quote stays unconsumed and usable by another id',
        async (_, scope) => {
          const store = await storeWithQuote();
          await store.insert('operation', scope, 'op-1', asOperation({ id: 'op-1', v: 1 }));
          const before = await store.exportState(NOW);
          await expect(consume(store, 'op-1', 'quote-1', { id: 'op-1', v: 2 })).rejects.toThrow('exists already');
          expect(await store.exportState(NOW)).toEqual(before);
          expect(await store.get('operation', 'op-1')).toEqual({ id: 'op-1', v: 1 });
          expect(await store.get('quote', 'quote-1')).toEqual(quote());
          expect(await consume(store, 'op-2')).toBe(true);
          expect((await store.get('quote', 'quote-1'))?.operationId).toBe('op-2');
          expect(await store.get('operation', 'op-2')).toEqual({ id: 'op-2' });
        },
      );

      it('consuming one quote leaves every other quote untouched and usable', async () => {
        const store = await storeWithQuote();
        await store.insert('quote', CUSTOMER, 'quote-2', quote('quote-2'));
        expect(await consume(store, 'op-1')).toBe(true);
        expect(await store.get('quote', 'quote-2')).toEqual(quote('quote-2'));
        expect(await consume(store, 'op-2', 'quote-2')).toBe(true);
        expect((await store.get('quote', 'quote-1'))?.operationId).toBe('op-1');
        expect((await store.get('quote', 'quote-2'))?.operationId).toBe('op-2');
      });

      it('a quote read and listed before it is consumed reads consumed afterwards, by get, all and page (no stale copy)', async () => {
        const store = await storeWithQuote();
        expect((await store.get('quote', 'quote-1'))?.operationId).toBeNull();
        expect((await store.all('quote', CUSTOMER))[0]?.operationId).toBeNull();
        const quotes = () => store.page('quote', { scope: CUSTOMER, limit: 10, order: 'ASCENDING' });
        expect((await quotes()).items[0]?.record.operationId).toBeNull();
        expect(await consume(store, 'op-1')).toBe(true);
        expect((await store.get('quote', 'quote-1'))?.operationId).toBe('op-1');
        expect((await store.all('quote', CUSTOMER))[0]?.operationId).toBe('op-1');
        expect((await quotes()).items[0]?.record.operationId).toBe('op-1');
      });

      it('consuming a quote leaves the record handed out earlier unchanged (records are values)', async () => {
        const store = await storeWithQuote();
        const before = await store.get('quote', 'quote-1');
        await consume(store, 'op-1');
        expect(before?.operationId).toBeNull();
      });
    });

    describe('balances', () => {
      it('an account and asset never set has a zero balance', async () => {
        expect(await (await fresh()).getBalance(ACCOUNT, 'BRL')).toBe('0');
      });

      it('adding 0.1 and then 0.2 gives exactly 0.3', async () => {
        const store = await fresh();
        expect(await store.moveBalance(ACCOUNT, 'BRL', '0.1')).toBe('0.1');
        expect(await store.moveBalance(ACCOUNT, 'BRL', '0.2')).toBe('0.3');
        expect(await store.getBalance(ACCOUNT, 'BRL')).toBe('0.3');
      });

      it('a balance set replaces the one before (it does not add), and reads back without trailing zeros', async () => {
        const store = await fresh();
        await store.setBalance(ACCOUNT, 'BRL', '5.50');
        await store.setBalance(ACCOUNT, 'BRL', '100.00');
        expect(await store.getBalance(ACCOUNT, 'BRL')).toBe('100');
      });

      it('a debit larger than the balance is refused (null) and nothing moves', async () => {
        const store = await fresh();
        await store.setBalance(ACCOUNT, 'BRL', '100.00');
        expect(await store.moveBalance(ACCOUNT, 'BRL', '-100.01')).toBeNull();
        expect(await store.getBalance(ACCOUNT, 'BRL')).toBe('100');
      });

      it('a debit from an account with no balance is refused and leaves no balance behind', async () => {
        const store = await fresh();
        expect(await store.moveBalance(ACCOUNT, 'USDT', '-0.000001')).toBeNull();
        expect(await store.getBalance(ACCOUNT, 'USDT')).toBe('0');
        expect(await store.balances(ACCOUNT)).toEqual({});
      });

      it('a debit of the whole balance leaves exactly zero', async () => {
        const store = await fresh();
        await store.setBalance(ACCOUNT, 'USDT', '18.500000');
        expect(await store.moveBalance(ACCOUNT, 'USDT', '-18.5')).toBe('0');
        expect(await store.getBalance(ACCOUNT, 'USDT')).toBe('0');
      });

      it('when 50 debits of the whole balance run at once, then exactly one succeeds and the balance ends at zero', async () => {
        const store = await fresh();
        await store.setBalance(ACCOUNT, 'BRL', '100.00');
        const results = await Promise.all(Array.from({ length: 50 }, () => store.moveBalance(ACCOUNT, 'BRL', '-100.00')));
        expect(results.filter((r) => r !== null)).toEqual(['0']);
        expect(await store.getBalance(ACCOUNT, 'BRL')).toBe('0');
      });

      it('when 50 debits of 3.00 run at once on 100.00, then 33 succeed and 1.00 is left', async () => {
        const store = await fresh();
        await store.setBalance(ACCOUNT, 'BRL', '100.00');
        const results = await Promise.all(Array.from({ length: 50 }, () => store.moveBalance(ACCOUNT, 'BRL', '-3.00')));
        expect(results.filter((r) => r !== null)).toHaveLength(33);
        expect(await store.getBalance(ACCOUNT, 'BRL')).toBe('1');
      });

      it('when 60 credits of 0.1 and 40 debits of 0.05 run at once on 10, then the balance is exactly 14', async () => {
        const store = await fresh();
        await store.setBalance(ACCOUNT, 'BRL', '10');
        const deltas = Array.from({ length: 100 }, (_, i) => (i % 5 < 3 ? '0.1' : '-0.05'));
        const results = await Promise.all(deltas.map((delta) => store.moveBalance(ACCOUNT, 'BRL', delta)));
        expect(results.filter((r) => r === null)).toEqual([]);
        expect(await store.getBalance(ACCOUNT, 'BRL')).toBe('14');
      });

      it('when 100 transfers of 0.1 race out of an account holding 5, then exactly 50 go through and the sum stays 5', async () => {
        const store = await fresh();
        await store.setBalance('from', 'BRL', '5');
        const transfer = async () => {
          if ((await store.moveBalance('from', 'BRL', '-0.1')) === null) return false;
          await store.moveBalance('to', 'BRL', '0.1');
          return true;
        };
        const results = await Promise.all(Array.from({ length: 100 }, transfer));
        expect(results.filter(Boolean)).toHaveLength(50);
        const from = await store.getBalance('from', 'BRL');
        const to = await store.getBalance('to', 'BRL');
        expect({ from, to, sum: new Decimal(from).plus(to).toFixed() }).toEqual({ from: '0', to: '5', sum: '5' });
      });

      it('balances are kept per account and per asset', async () => {
        const store = await fresh();
        await store.setBalance(ACCOUNT, 'BRL', '10.00');
        await store.setBalance(ACCOUNT, 'USDT', '2.500000');
        await store.setBalance('account-2', 'BRL', '7');
        expect(await store.balances(ACCOUNT)).toEqual({ BRL: '10', USDT: '2.5' });
        expect(await store.balances('account-2')).toEqual({ BRL: '7' });
        expect(await store.balances('account-3')).toEqual({});
      });

      it('a large USDT balance keeps every one of its six decimals when moved', async () => {
        // 21 significant digits: more than decimal.js keeps by default (20), more than a double (15-17).
        const store = await fresh();
        await store.setBalance(ACCOUNT, 'USDT', '123456789012345.123456');
        expect(await store.moveBalance(ACCOUNT, 'USDT', '0.000001')).toBe('123456789012345.123457');
        expect(await store.getBalance(ACCOUNT, 'USDT')).toBe('123456789012345.123457');
        expect(await store.moveBalance(ACCOUNT, 'USDT', '-123456789012345.123456')).toBe('0.000001');
      });
    });

    describe('settlement steps (updateWithBalances)', () => {
      async function settling(balances: Record<string, string>): Promise<S> {
        const store = await fresh();
        await store.insert('operation', CUSTOMER, 'op-1', asOperation({ id: 'op-1', status: 'REQUESTED', count: 0 }));
        for (const [account, value] of Object.entries(balances)) await store.setBalance(account, 'BRL', value);
        return store;
      }
      const complete = (current: StandIn) => asOperation({ ...current, status: 'COMPLETED' });
      const move = (accountId: string, delta: string, asset = 'BRL') => ({ accountId, asset, delta });

      it('a settlement step changes the record and applies every balance move, together', async () => {
        const store = await settling({ from: '10.00' });
        const outcome = await store.updateWithBalances('operation', 'op-1', complete, [
          move('from', '-3.00'),
          move('to', '3.00'),
          move('to', '0.5', 'USDT'),
        ]);
        expect(outcome).toEqual({ record: { id: 'op-1', status: 'COMPLETED', count: 0 } });
        expect(await store.get('operation', 'op-1')).toEqual({ id: 'op-1', status: 'COMPLETED', count: 0 });
        expect(await store.balances('from')).toEqual({ BRL: '7' });
        expect(await store.balances('to')).toEqual({ BRL: '3', USDT: '0.5' });
      });

      it('a move that would take a balance below zero changes nothing (record, other moves) and answers that balance', async () => {
        const store = await settling({ from: '2.50' });
        const outcome = await store.updateWithBalances('operation', 'op-1', complete, [move('to', '3.00'), move('from', '-3.00')]);
        expect(outcome).toEqual({ short: { accountId: 'from', asset: 'BRL', balance: '2.5' } });
        expect(await store.get('operation', 'op-1')).toEqual({ id: 'op-1', status: 'REQUESTED', count: 0 });
        expect(await store.getBalance('from', 'BRL')).toBe('2.5');
        expect(await store.balances('to')).toEqual({});
      });

      it('a credit that would take a balance to 20 integer digits (10^20) changes nothing and answers that balance as over', async () => {
        const store = await settling({ from: '5.00', to: '1.00' });
        const largest = '99999999999999999999.99';
        const outcome = await store.updateWithBalances('operation', 'op-1', complete, [move('from', '-5.00'), move('to', largest)]);
        expect(outcome).toEqual({ over: { accountId: 'to', asset: 'BRL', balance: '1' } });
        expect(await store.get('operation', 'op-1')).toEqual({ id: 'op-1', status: 'REQUESTED', count: 0 });
        expect(await store.balances('from')).toEqual({ BRL: '5' });
        expect(await store.balances('to')).toEqual({ BRL: '1' });
        // Just below the ceiling is a balance like any other.
        expect(await store.updateWithBalances('operation', 'op-1', complete, [move('to', '99999999999999999998.99')])).toEqual({
          record: { id: 'op-1', status: 'COMPLETED', count: 0 },
        });
        expect(await store.getBalance('to', 'BRL')).toBe('99999999999999999999.99');
        expect(await store.moveBalance('to', 'BRL', '0.01')).toBeNull();
        expect(await store.getBalance('to', 'BRL')).toBe('99999999999999999999.99');
      });

      it('a debit from an account with no balance is short with a zero balance', async () => {
        const store = await settling({});
        expect(await store.updateWithBalances('operation', 'op-1', complete, [move('nobody', '-0.01')])).toEqual({
          short: { accountId: 'nobody', asset: 'BRL', balance: '0' },
        });
        expect(await store.balances('nobody')).toEqual({});
      });

      it('moves on one balance apply in order and add exactly: a credit covers a later debit, not an earlier one', async () => {
        const store = await settling({ from: '3' });
        expect(await store.updateWithBalances('operation', 'op-1', (c) => c, [move('from', '-7'), move('from', '5')])).toEqual({
          short: { accountId: 'from', asset: 'BRL', balance: '3' },
        });
        expect(await store.getBalance('from', 'BRL')).toBe('3');
        const outcome = await store.updateWithBalances('operation', 'op-1', complete, [
          move('from', '5'),
          move('from', '-7'),
          move('from', '0.1'),
          move('from', '0.2'),
        ]);
        expect(outcome).toEqual({ record: { id: 'op-1', status: 'COMPLETED', count: 0 } });
        expect(await store.getBalance('from', 'BRL')).toBe('1.3');
      });

      it('with no moves, a settlement step is a plain update', async () => {
        const store = await settling({});
        expect(await store.updateWithBalances('operation', 'op-1', complete, [])).toEqual({
          record: { id: 'op-1', status: 'COMPLETED', count: 0 },
        });
      });

      it('a settlement step of a missing record resolves to undefined and moves nothing', async () => {
        const store = await settling({ from: '10' });
        expect(await store.updateWithBalances('operation', 'nope', complete, [move('from', '-1'), move('to', '1')])).toBeUndefined();
        expect(await store.getBalance('from', 'BRL')).toBe('10');
        expect(await store.balances('to')).toEqual({});
        expect(await store.get('operation', 'nope')).toBeUndefined();
      });

      it('a settlement step whose change throws rejects with that error and moves nothing', async () => {
        const store = await settling({ from: '10' });
        const refuse = () => {
          throw new Error('not settleable');
        };
        await expect(store.updateWithBalances('operation', 'op-1', refuse, [move('from', '-1'), move('to', '1')])).rejects.toThrow(
          'not settleable',
        );
        expect(await store.getBalance('from', 'BRL')).toBe('10');
        expect(await store.balances('to')).toEqual({});
        expect(await store.get('operation', 'op-1')).toEqual({ id: 'op-1', status: 'REQUESTED', count: 0 });
      });

      it('when 50 settlements of 3.00 race on 100.00, then 33 complete, 17 are short at 1, and record and balances agree', async () => {
        const store = await settling({ from: '100.00' });
        const count = (current: StandIn) => asOperation({ ...current, count: current.count! + 1 });
        const outcomes = await Promise.all(
          Array.from({ length: 50 }, () =>
            store.updateWithBalances('operation', 'op-1', count, [move('from', '-3.00'), move('to', '3.00')]),
          ),
        );
        expect(outcomes.filter((o) => o !== undefined && 'record' in o)).toHaveLength(33);
        expect(outcomes.filter((o) => o !== undefined && 'short' in o)).toEqual(
          Array.from({ length: 17 }, () => ({ short: { accountId: 'from', asset: 'BRL', balance: '1' } })),
        );
        expect(standIn(await store.get('operation', 'op-1')).count).toBe(33);
        expect(await store.getBalance('from', 'BRL')).toBe('1');
        expect(await store.getBalance('to', 'BRL')).toBe('99');
      });
    });

    describe('seeding once (seedOnce)', () => {
      const loader = (store: Store) => {
        const calls = { count: 0 };
        const load = async () => {
          calls.count++;
          await store.insert('operation', CUSTOMER, `seeded-${calls.count}`, asOperation({ id: `seeded-${calls.count}` }));
        };
        return { calls, load };
      };

      it('an empty store is seeded by the first seedOnce, which answers true; later calls load nothing and answer false', async () => {
        const store = await fresh();
        const { calls, load } = loader(store);
        expect(await store.seedOnce(load)).toBe(true);
        expect(await store.seedOnce(load)).toBe(false);
        expect(calls.count).toBe(1);
        expect(await store.all('operation', CUSTOMER)).toEqual([{ id: 'seeded-1' }]);
      });

      it('a store that already holds records is not seeded', async () => {
        const store = await withOperations(['a']);
        const { calls, load } = loader(store);
        expect(await store.seedOnce(load)).toBe(false);
        expect(calls.count).toBe(0);
      });

      it('after clear, seedOnce seeds again (a reset reloads the fixtures)', async () => {
        const store = await fresh();
        const { calls, load } = loader(store);
        await store.seedOnce(load);
        await store.clear();
        expect(await store.seedOnce(load)).toBe(true);
        expect(calls.count).toBe(2);
        expect(await store.all('operation', CUSTOMER)).toEqual([{ id: 'seeded-2' }]);
      });

      it('a store holding an imported state is not seeded over it', async () => {
        const store = await fresh();
        await store.importState({
          sequence: 1,
          records: { operation: [{ scope: CUSTOMER, id: 'imported', key: 1, record: { id: 'imported' } }] },
          balances: [],
          idempotency: [],
        });
        const { calls, load } = loader(store);
        expect(await store.seedOnce(load)).toBe(false);
        expect(calls.count).toBe(0);
        expect(await store.all('operation', CUSTOMER)).toEqual([{ id: 'imported' }]);
      });
    });

    describe('idempotency keys', () => {
      it('the first claim of a key is CLAIMED', async () => {
        expect(await (await fresh()).claimIdempotencyKey('k', 'print', T0, TTL)).toEqual({ outcome: 'CLAIMED' });
      });

      it('a second claim while the first is running is IN_PROGRESS and shows the first fingerprint', async () => {
        const store = await fresh();
        await store.claimIdempotencyKey('k', 'print-1', T0, TTL);
        const claim = await store.claimIdempotencyKey('k', 'print-2', T0 + 1, TTL);
        expect(claim.outcome).toBe('IN_PROGRESS');
        expect(claim.outcome !== 'CLAIMED' && claim.entry.fingerprint).toBe('print-1');
        expect(claim.outcome !== 'CLAIMED' && claim.entry.expiresAt).toBe(T0 + TTL);
      });

      it('when 20 claims of one key race, then exactly one is CLAIMED', async () => {
        const store = await fresh();
        const claims = await Promise.all(Array.from({ length: 20 }, () => store.claimIdempotencyKey('k', 'print', T0, TTL)));
        expect(claims.filter((c) => c.outcome === 'CLAIMED')).toHaveLength(1);
        expect(claims.filter((c) => c.outcome === 'IN_PROGRESS')).toHaveLength(19);
      });

      it('a claim after completion is DONE with the stored response', async () => {
        const store = await fresh();
        await store.claimIdempotencyKey('k', 'print', T0, TTL);
        await store.completeIdempotencyKey('k', { status: 201, body: { id: 'op-1', amount: { value: '1.00' }, tags: [] } });
        const claim = await store.claimIdempotencyKey('k', 'print', T0 + 1000, TTL);
        expect(claim).toEqual({
          outcome: 'DONE',
          entry: {
            fingerprint: 'print',
            state: 'DONE',
            expiresAt: T0 + TTL,
            response: { status: 201, body: { id: 'op-1', amount: { value: '1.00' }, tags: [] } },
          },
        });
      });

      it('a 204 answer, without a body, is replayed as a 204 without a body', async () => {
        const store = await fresh();
        await store.claimIdempotencyKey('k', 'print', T0, TTL);
        await store.completeIdempotencyKey('k', { status: 204, body: undefined });
        const claim = await store.claimIdempotencyKey('k', 'print', T0 + 1, TTL);
        expect(claim.outcome).toBe('DONE');
        expect(claim.outcome === 'DONE' && claim.entry.response?.status).toBe(204);
        expect(claim.outcome === 'DONE' && claim.entry.response?.body).toBeUndefined();
      });

      it('a key is still held one millisecond before its ttl ends', async () => {
        const store = await fresh();
        await store.claimIdempotencyKey('k', 'print', T0, TTL);
        await store.completeIdempotencyKey('k', { status: 201, body: {} });
        expect((await store.claimIdempotencyKey('k', 'print', T0 + TTL - 1, TTL)).outcome).toBe('DONE');
      });

      it('a key is free again once its ttl has passed by the given now', async () => {
        const store = await fresh();
        await store.claimIdempotencyKey('k', 'print', T0, TTL);
        await store.completeIdempotencyKey('k', { status: 201, body: {} });
        expect(await store.claimIdempotencyKey('k', 'other-print', T0 + TTL, TTL)).toEqual({ outcome: 'CLAIMED' });
        const again = await store.claimIdempotencyKey('k', 'x', T0 + TTL, TTL);
        expect(again.outcome).toBe('IN_PROGRESS');
        expect(again.outcome !== 'CLAIMED' && again.entry.fingerprint).toBe('other-print');
      });

      it('a key left IN_PROGRESS also expires after its ttl', async () => {
        const store = await fresh();
        await store.claimIdempotencyKey('k', 'print', T0, TTL);
        expect((await store.claimIdempotencyKey('k', 'print', T0 + TTL, TTL)).outcome).toBe('CLAIMED');
      });

      it.each([
        ['a mock clock far ahead of the wall clock', Date.parse('2100-01-01T00:00:00.000Z')],
        ['a mock clock behind the wall clock', T0],
      ])(
        'a key lives in mock time (%s): past its ttl on the wall clock, it is held while the given now has not moved',
        async (_, start) => {
          const store = await fresh();
          await store.claimIdempotencyKey('done', 'print', start, 20);
          await store.completeIdempotencyKey('done', { status: 201, body: {} });
          await store.claimIdempotencyKey('running', 'print', start, 20);
          await sleep(150);
          expect((await store.claimIdempotencyKey('done', 'print', start + 19, 20)).outcome).toBe('DONE');
          expect((await store.claimIdempotencyKey('running', 'print', start + 19, 20)).outcome).toBe('IN_PROGRESS');
          expect((await store.claimIdempotencyKey('done', 'print', start + 20, 20)).outcome).toBe('CLAIMED');
        },
      );

      it('a released key can be claimed again at once', async () => {
        const store = await fresh();
        await store.claimIdempotencyKey('k', 'print', T0, TTL);
        await store.releaseIdempotencyKey('k');
        expect((await store.claimIdempotencyKey('k', 'print', T0, TTL)).outcome).toBe('CLAIMED');
      });

      it('completing or releasing a key never claimed is harmless and claims nothing', async () => {
        const store = await fresh();
        await store.completeIdempotencyKey('ghost', { status: 201, body: {} });
        await store.releaseIdempotencyKey('ghost-2');
        expect((await store.claimIdempotencyKey('ghost', 'print', T0, TTL)).outcome).toBe('CLAIMED');
        expect((await store.claimIdempotencyKey('ghost-2', 'print', T0, TTL)).outcome).toBe('CLAIMED');
      });

      it('keys are independent of one another', async () => {
        const store = await fresh();
        await store.claimIdempotencyKey('customer-a:k', 'print', T0, TTL);
        expect((await store.claimIdempotencyKey('customer-b:k', 'print', T0, TTL)).outcome).toBe('CLAIMED');
      });

      it('a live key outlasts more than a thousand short-lived keys expiring around it (sweeps drop only expired keys)', async () => {
        const store = await fresh();
        await store.claimIdempotencyKey('live', 'print', T0, TTL);
        await store.completeIdempotencyKey('live', { status: 201, body: { id: 'op-1' } });
        for (let i = 0; i < 1100; i++) await store.claimIdempotencyKey(`k-${i}`, 'print', T0 + 1, 1);
        expect((await store.claimIdempotencyKey('live', 'print', T0 + 10, TTL)).outcome).toBe('DONE');
      });
    });

    describe('export and import', () => {
      const NOW = T0 + 1000;

      /**
       * Operations a, z (other scope), c in that order (b removed), c inserted consuming quote q1, a
       * subscription, three balances, and keys: 'done' (finished), 'running' (in progress),
       * 'old' (finished but expired at NOW).
       */
      async function populated(): Promise<S> {
        const store = await fresh();
        await store.insert('quote', CUSTOMER, 'q1', quote('q1'));
        await store.insert('operation', CUSTOMER, 'a', asOperation({ id: 'a', v: 1 }));
        await store.insert('operation', CUSTOMER, 'b', asOperation({ id: 'b' }));
        await store.insert('operation', OTHER_CUSTOMER, 'z', asOperation({ id: 'z' }));
        expect(
          await store.insertConsumingQuote('q1', 'operation', CUSTOMER, 'c', asOperation({ id: 'c', nested: { list: [1, null] } })),
        ).toBe(true);
        await store.insert('subscription', CUSTOMER, 's1', asSubscription({ n: 1 }));
        await store.remove('operation', 'b');
        await store.update('operation', 'a', (current: StandIn) => asOperation({ ...current, v: 2 }));
        await store.setBalance(ACCOUNT, 'BRL', '10.50');
        await store.setBalance(ACCOUNT, 'USDT', '0.000001');
        await store.setBalance('account-2', 'BRL', '0');
        await store.claimIdempotencyKey('old', 'print-old', T0 - TTL - 1, TTL);
        await store.completeIdempotencyKey('old', { status: 201, body: { id: 'old' } });
        await store.claimIdempotencyKey('done', 'print-done', T0, TTL);
        await store.completeIdempotencyKey('done', { status: 201, body: { id: 'op-1' } });
        await store.claimIdempotencyKey('running', 'print-running', T0, TTL);
        return store;
      }

      /** A store's export through JSON text, as a snapshot file carries it. */
      async function exported(store: Store, now = NOW): Promise<StoreState> {
        return JSON.parse(JSON.stringify(await store.exportState(now))) as StoreState;
      }

      it('an export is plain JSON: records by kind in insertion order with scopes and keys, balances, finished live keys', async () => {
        const store = await populated();
        const state = await store.exportState(NOW);
        expect(JSON.parse(JSON.stringify(state))).toEqual(state);
        const operations = state.records.operation!;
        expect(operations.map(({ id, scope, record }) => ({ id, scope, record }))).toEqual([
          { id: 'a', scope: CUSTOMER, record: { id: 'a', v: 2 } },
          { id: 'z', scope: OTHER_CUSTOMER, record: { id: 'z' } },
          { id: 'c', scope: CUSTOMER, record: { id: 'c', nested: { list: [1, null] } } },
        ]);
        const keys = operations.map((item) => item.key);
        expect([...keys].sort((p, q) => p - q)).toEqual(keys);
        expect(keys).toEqual([(await keysById(store)).a, (await keysById(store, OTHER_CUSTOMER)).z, (await keysById(store)).c]);
        expect(state.records.quote).toEqual([
          expect.objectContaining({ id: 'q1', scope: CUSTOMER, record: { ...quote('q1'), operationId: 'c' } }),
        ]);
        expect(state.records.subscription).toEqual([expect.objectContaining({ id: 's1', scope: CUSTOMER, record: { n: 1 } })]);
        expect(Object.keys(state.records).sort()).toEqual(['operation', 'quote', 'subscription']);
        expect(state.sequence).toBeGreaterThanOrEqual(
          Math.max(...Object.values(state.records).flatMap((list) => (list ?? []).map((i) => i.key))),
        );
        expect([...state.balances].sort((p, q) => `${p.accountId}${p.asset}`.localeCompare(`${q.accountId}${q.asset}`))).toEqual([
          { accountId: ACCOUNT, asset: 'BRL', value: '10.5' },
          { accountId: ACCOUNT, asset: 'USDT', value: '0.000001' },
          { accountId: 'account-2', asset: 'BRL', value: '0' },
        ]);
        expect(state.idempotency).toEqual([
          { key: 'done', fingerprint: 'print-done', state: 'DONE', expiresAt: T0 + TTL, response: { status: 201, body: { id: 'op-1' } } },
        ]);
      });

      it('an export leaves the store as it was: the key in progress is still held', async () => {
        const store = await populated();
        await store.exportState(NOW);
        expect((await store.claimIdempotencyKey('running', 'print', NOW, TTL)).outcome).toBe('IN_PROGRESS');
        expect((await store.claimIdempotencyKey('done', 'print', NOW, TTL)).outcome).toBe('DONE');
      });

      it('a state imported into an empty store exports the same again', async () => {
        const state = await exported(await populated());
        const copy = await fresh();
        await copy.importState(state);
        expect(await exported(copy)).toEqual(state);
      });

      it('after an import, records, pages, cursors, list order and balances are those of the store it came from', async () => {
        const original = await populated();
        const copy = await fresh();
        await copy.importState(await exported(original));
        expect(await page(copy, {})).toEqual(await page(original, {}));
        expect(await page(copy, { order: 'DESCENDING', scope: OTHER_CUSTOMER })).toEqual(
          await page(original, { order: 'DESCENDING', scope: OTHER_CUSTOMER }),
        );
        const keys = await keysById(original);
        expect(shape(await page(copy, { limit: 1, from: { key: keys.a!, direction: 'NEXT' } }))).toEqual({
          ids: ['c'],
          hasBefore: true,
          hasAfter: false,
        });
        expect(await copy.all('subscription', CUSTOMER)).toEqual([{ n: 1 }]);
        expect(await copy.get('quote', 'q1')).toEqual(await original.get('quote', 'q1'));
        expect(await copy.get('operation', 'b')).toBeUndefined();
        expect(await copy.insertConsumingQuote('q1', 'operation', CUSTOMER, 'op-2', asOperation({ id: 'op-2' }))).toBe(false);
        expect(await copy.get('operation', 'op-2')).toBeUndefined();
        expect(await copy.balances(ACCOUNT)).toEqual({ BRL: '10.5', USDT: '0.000001' });
        expect(await copy.balances('account-2')).toEqual({ BRL: '0' });
      });

      it('after an import, a finished key replays its answer; keys in progress or expired at export are free', async () => {
        const original = await populated();
        const copy = await fresh();
        await copy.importState(await exported(original));
        expect(await copy.claimIdempotencyKey('done', 'print-done', NOW, TTL)).toEqual(
          await original.claimIdempotencyKey('done', 'print-done', NOW, TTL),
        );
        expect((await copy.claimIdempotencyKey('running', 'print', NOW, TTL)).outcome).toBe('CLAIMED');
        expect((await copy.claimIdempotencyKey('old', 'print', T0 - TTL, TTL)).outcome).toBe('CLAIMED');
      });

      it('a record inserted after an import is keyed after the imported sequence', async () => {
        const state = await exported(await populated());
        const copy = await fresh();
        await copy.importState({ ...state, sequence: state.sequence + 100 });
        await copy.insert('operation', CUSTOMER, 'new', asOperation({ id: 'new' }));
        expect((await keysById(copy)).new).toBeGreaterThan(state.sequence + 100);
        expect(idsOf(await page(copy, {}))).toEqual(['a', 'c', 'new']);
      });

      it('an import whose sequence lags behind its records still keys new records after every imported key', async () => {
        const copy = await fresh();
        await copy.importState({
          sequence: 0,
          records: { operation: [{ scope: CUSTOMER, id: 'a', key: 40, record: { id: 'a' } }] },
          balances: [],
          idempotency: [],
        });
        await copy.insert('operation', CUSTOMER, 'b', asOperation({ id: 'b' }));
        expect((await keysById(copy)).b).toBeGreaterThan(40);
        expect(idsOf(await page(copy, {}))).toEqual(['a', 'b']);
      });

      it('records listed out of key order in an imported state are listed by key', async () => {
        const copy = await fresh();
        await copy.importState({
          sequence: 30,
          records: {
            operation: [
              { scope: CUSTOMER, id: 'late', key: 30, record: { id: 'late' } },
              { scope: CUSTOMER, id: 'early', key: 10, record: { id: 'early' } },
              { scope: CUSTOMER, id: 'middle', key: 20, record: { id: 'middle' } },
            ],
          },
          balances: [],
          idempotency: [],
        });
        expect(await copy.all('operation', CUSTOMER)).toEqual([{ id: 'early' }, { id: 'middle' }, { id: 'late' }]);
        expect(await page(copy, {})).toEqual({
          items: [
            { key: 10, record: { id: 'early' } },
            { key: 20, record: { id: 'middle' } },
            { key: 30, record: { id: 'late' } },
          ],
          hasBefore: false,
          hasAfter: false,
        });
      });

      it('an import replaces everything the store held before', async () => {
        const store = await populated();
        await store.importState({
          sequence: 1,
          records: { operation: [{ scope: CUSTOMER, id: 'only', key: 1, record: { id: 'only' } }] },
          balances: [{ accountId: 'account-9', asset: 'BRL', value: '1' }],
          idempotency: [],
        });
        expect(await store.all('operation', CUSTOMER)).toEqual([{ id: 'only' }]);
        expect(await store.all('operation', OTHER_CUSTOMER)).toEqual([]);
        expect(await store.get('quote', 'q1')).toBeUndefined();
        expect(await store.all('subscription', CUSTOMER)).toEqual([]);
        expect(await store.balances(ACCOUNT)).toEqual({});
        expect(await store.balances('account-9')).toEqual({ BRL: '1' });
        expect((await store.claimIdempotencyKey('done', 'print', NOW, TTL)).outcome).toBe('CLAIMED');
        expect((await store.claimIdempotencyKey('running', 'print', NOW, TTL)).outcome).toBe('CLAIMED');
      });

      const refused: Array<[string, StoreState['records']]> = [
        [
          'the same id twice in one kind',
          {
            operation: [
              { scope: CUSTOMER, id: 'x', key: 1, record: { id: 'x' } },
              { scope: OTHER_CUSTOMER, id: 'x', key: 2, record: { id: 'x' } },
            ],
          },
        ],
        [
          'a key repeated in one kind',
          {
            operation: [
              { scope: CUSTOMER, id: 'x', key: 1, record: { id: 'x' } },
              { scope: CUSTOMER, id: 'y', key: 1, record: { id: 'y' } },
            ],
          },
        ],
        ['a zero key', { operation: [{ scope: CUSTOMER, id: 'x', key: 0, record: { id: 'x' } }] }],
        ['a negative key', { operation: [{ scope: CUSTOMER, id: 'x', key: -3, record: { id: 'x' } }] }],
        ['a fractional key', { operation: [{ scope: CUSTOMER, id: 'x', key: 1.5, record: { id: 'x' } }] }],
        ['a missing key', { operation: [{ scope: CUSTOMER, id: 'x', record: { id: 'x' } } as unknown as StoredRecord] }],
      ];

      it.each(refused)('an import with %s is refused and the store is left exactly as it was', async (_, records) => {
        const store = await populated();
        const before = await exported(store);
        const bad: StoreState = {
          sequence: 5,
          records: { ...records, quote: [{ scope: CUSTOMER, id: 'q9', key: 7, record: quote('q9') }] },
          balances: [{ accountId: ACCOUNT, asset: 'BRL', value: '999' }],
          idempotency: [],
        };
        await expect(store.importState(bad)).rejects.toThrow();
        expect(await exported(store)).toEqual(before);
        expect((await store.claimIdempotencyKey('running', 'print', NOW, TTL)).outcome).toBe('IN_PROGRESS');
        await store.insert('operation', CUSTOMER, 'after', asOperation({ id: 'after' }));
        expect((await keysById(store)).after).toBeGreaterThan(before.sequence);
      });
    });

    describe('clear', () => {
      const NOW = T0 + 1000;

      it('clear empties records, lists, balances and idempotency keys: the store exports as a new one does', async () => {
        const store = await fresh();
        await store.insert('quote', CUSTOMER, 'q1', quote('q1'));
        for (const id of ['a', 'b']) await store.insert('operation', CUSTOMER, id, asOperation({ id }));
        await store.setBalance(ACCOUNT, 'BRL', '3');
        await store.claimIdempotencyKey('done', 'print', T0, TTL);
        await store.completeIdempotencyKey('done', { status: 201, body: {} });
        await store.claimIdempotencyKey('running', 'print', T0, TTL);
        await store.clear();
        expect(await store.exportState(NOW)).toEqual(await (await fresh()).exportState(NOW));
        expect(await store.get('quote', 'q1')).toBeUndefined();
        expect(await store.all('operation', CUSTOMER)).toEqual([]);
        expect(shape(await page(store, {}))).toEqual({ ids: [], hasBefore: false, hasAfter: false });
        expect(await store.getBalance(ACCOUNT, 'BRL')).toBe('0');
        expect(await store.balances(ACCOUNT)).toEqual({});
        expect((await store.claimIdempotencyKey('done', 'print', NOW, TTL)).outcome).toBe('CLAIMED');
        expect((await store.claimIdempotencyKey('running', 'print', NOW, TTL)).outcome).toBe('CLAIMED');
      });

      it('after clear the insertion sequence starts again: the first record gets the key a new store gives its first', async () => {
        const newStore = await withOperations(['first']);
        const used = await withOperations(['a', 'b', 'c', 'd']);
        await used.clear();
        await used.insert('operation', CUSTOMER, 'first', asOperation({ id: 'first' }));
        expect(await keysById(used)).toEqual(await keysById(newStore));
        expect((await used.exportState(NOW)).sequence).toBe((await newStore.exportState(NOW)).sequence);
      });

      it('after clear an id used before can be inserted again', async () => {
        const store = await withOperations(['a']);
        await store.clear();
        await store.insert('operation', CUSTOMER, 'a', asOperation({ id: 'a', v: 2 }));
        expect(await store.get('operation', 'a')).toEqual({ id: 'a', v: 2 });
      });
    });
  });
}
