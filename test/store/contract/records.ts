// The Store contract: records, updates, whole lists and removal (run for every store by ../store-contract.ts).
import { describe, expect, it } from '@jest/globals';
import type { Store } from '../../../mock/store';
import {
  CUSTOMER,
  OTHER_CUSTOMER,
  asOperation,
  asSubscription,
  idsOf,
  quote,
  standIn,
  tryToMutate,
  type StandIn,
  type StoreKit,
} from './kit';

export function recordsContract<S extends Store>(kit: StoreKit<S>): void {
  const { fresh, storeWithQuote, withOperations, keysById, page } = kit;
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
}
