// The Store contract: the outbox (run for every store by ../store-contract.ts). A write's events are
// kept in the same atomic step as the write, so a write that lands has them and one refused has
// none; what is left is taken once it has waited longer than the lease, and dropped once published.
import { describe, expect, it } from '@jest/globals';
import type { OutboxEntry, Store } from '../../../mock/store';
import { ACCOUNT, CUSTOMER, asOperation, standIn, type StoreKit } from './kit';

/** Longer than any test waits: an entry taken with it is one written (or taken) that long ago, so none here. */
const LONG = 60 * 60 * 1000;

const entry = (id: string, n = 1): OutboxEntry => ({ id, event: { eventType: 'OPERATION_REQUESTED', n } });
/** Everything left in the outbox now (taking it: taken again only after LONG). */
const left = async (store: Store) => (await store.takeOutbox(0, 1000)).map((e) => e.id).sort();

export function outboxContract<S extends Store>(kit: StoreKit<S>): void {
  const { fresh, storeWithQuote } = kit;
  describe('the outbox: events kept with their write', () => {
    it('an insert keeps its entries with it, as given', async () => {
      const store = await fresh();
      await store.insert('operation', CUSTOMER, 'op-1', asOperation({ id: 'op-1' }), [entry('e-1'), entry('e-2', 2)]);
      expect(await store.takeOutbox(0, 10)).toEqual([entry('e-1'), entry('e-2', 2)]);
    });

    it('an insert refused because the id exists keeps no entry', async () => {
      const store = await fresh();
      await store.insert('operation', CUSTOMER, 'op-1', asOperation({ id: 'op-1' }));
      await expect(store.insert('operation', CUSTOMER, 'op-1', asOperation({ id: 'op-1' }), [entry('e-1')])).rejects.toThrow();
      expect(await left(store)).toEqual([]);
    });

    it('consuming a quote keeps the entries; a quote held already keeps none of the loser', async () => {
      const store = await storeWithQuote();
      expect(await store.insertConsumingQuote('quote-1', 'operation', CUSTOMER, 'op-1', asOperation({ id: 'op-1' }), [entry('won')])).toBe(
        true,
      );
      expect(await store.insertConsumingQuote('quote-1', 'operation', CUSTOMER, 'op-2', asOperation({ id: 'op-2' }), [entry('lost')])).toBe(
        false,
      );
      expect(await left(store)).toEqual(['won']);
    });

    it('an update keeps the entries made from the record it wrote, and a change that throws keeps none', async () => {
      const store = await fresh();
      await store.insert('operation', CUSTOMER, 'op-1', asOperation({ id: 'op-1', n: 1 }));
      await store.update(
        'operation',
        'op-1',
        (r) => asOperation({ ...standIn(r), n: 2 }),
        (next) => [entry('moved', standIn(next).n)],
      );
      const refused = store.update(
        'operation',
        'op-1',
        () => {
          throw new Error('not allowed');
        },
        () => [entry('never')],
      );
      await expect(refused).rejects.toThrow('not allowed');
      expect(await store.takeOutbox(0, 10)).toEqual([entry('moved', 2)]);
    });

    it('a settlement step keeps its entries when it writes, and none when a balance is short', async () => {
      const store = await fresh();
      await store.insert('operation', CUSTOMER, 'op-1', asOperation({ id: 'op-1', n: 1 }));
      await store.setBalance(ACCOUNT, 'BRL', '10');
      const step = (delta: string, id: string) =>
        store.updateWithBalances(
          'operation',
          'op-1',
          (r) => asOperation({ ...standIn(r), n: 2 }),
          [{ accountId: ACCOUNT, asset: 'BRL', delta }],
          () => [entry(id)],
        );
      expect(await step('-20', 'short')).toEqual({ short: { accountId: ACCOUNT, asset: 'BRL', balance: '10' } });
      expect(await step('-5', 'settled')).toEqual({ record: { id: 'op-1', n: 2 } });
      expect(await left(store)).toEqual(['settled']);
    });

    it('an entry is taken once it has waited longer than the lease, and not again until it has waited as long again', async () => {
      const store = await fresh();
      await store.insert('operation', CUSTOMER, 'op-1', asOperation({ id: 'op-1' }), [entry('e-1')]);
      expect(await store.takeOutbox(LONG, 10)).toEqual([]);
      expect(await store.takeOutbox(0, 10)).toEqual([entry('e-1')]);
      expect(await store.takeOutbox(LONG, 10)).toEqual([]);
    });

    it('takes the oldest first, at most the limit', async () => {
      const store = await fresh();
      for (let i = 1; i <= 5; i++) await store.insert('operation', CUSTOMER, `op-${i}`, asOperation({ id: `op-${i}` }), [entry(`e-${i}`)]);
      expect((await store.takeOutbox(0, 3)).map((e) => e.id)).toEqual(['e-1', 'e-2', 'e-3']);
    });

    it('an entry published (done) is gone; the others stay', async () => {
      const store = await fresh();
      await store.insert('operation', CUSTOMER, 'op-1', asOperation({ id: 'op-1' }), [entry('e-1'), entry('e-2')]);
      await store.outboxDone(['e-1']);
      await store.outboxDone([]);
      expect(await left(store)).toEqual(['e-2']);
    });

    it('a clear and a reset empty the outbox', async () => {
      const store = await fresh();
      await store.insert('operation', CUSTOMER, 'op-1', asOperation({ id: 'op-1' }), [entry('e-1')]);
      await store.clear();
      expect(await left(store)).toEqual([]);
      await store.insert('operation', CUSTOMER, 'op-2', asOperation({ id: 'op-2' }), [entry('e-2')]);
      await store.reset(() => Promise.resolve());
      expect(await left(store)).toEqual([]);
    });
  });
}
