// The Store contract: consuming a quote, balances and settlement steps (run for every store by ../store-contract.ts).
import { describe, expect, it } from '@jest/globals';
import { Decimal } from '../../../mock/domain/decimal';
import type { Store } from '../../../mock/store';
import { ACCOUNT, CUSTOMER, OTHER_CUSTOMER, T0, asOperation, quote, shape, standIn, type StandIn, type StoreKit } from './kit';

export function quotesAndBalancesContract<S extends Store>(kit: StoreKit<S>): void {
  const { fresh, storeWithQuote, keysById, page } = kit;
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
        Array.from({ length: 50 }, () => store.updateWithBalances('operation', 'op-1', count, [move('from', '-3.00'), move('to', '3.00')])),
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
}
