// Balance races: withdrawals, swaps and transfers racing for one balance and settled at once; the
// balance never goes below zero, exactly the affordable operations complete, and an operation
// settled many times at once moves the money once.
import { describe, expect, it } from '@jest/globals';
import Decimal from 'decimal.js';
import { createQuote, expectNoSettleErrorsBut, expectStatus } from './support/api';
import { pick, prng, SEED, shuffled, size } from './support/env';
import { api, c1, d, funded, h, ownBeneficiary, raceFile } from './support/races';

const WITHDRAWALS = size('RELIABILITY_WITHDRAWALS', 50);

const stats = { races: 0, concurrentRequests: 0, settlements: 0 };
raceFile('races-balance.test.ts', stats);

describe('races', () => {
  describe('withdrawals racing for one balance', () => {
    /** Wraps the store's atomic balance move to see every balance it ever leaves behind. */
    function watchBalances(): string[] {
      const seen: string[] = [];
      const store = h.mock.deps.store;
      const original = store.moveBalance.bind(store);
      store.moveBalance = async (accountId, asset, delta) => {
        const result = await original(accountId, asset, delta);
        if (result !== null) seen.push(result);
        return result;
      };
      return seen;
    }

    async function withdrawals(count: number, amount: string): Promise<string[]> {
      const quotes = await Promise.all(
        Array.from({ length: count }, () =>
          createQuote(api, { accountId: funded, sourceAsset: 'BRL', targetAsset: 'BRL', sourceAmount: amount }),
        ),
      );
      const created = await Promise.all(
        quotes.map((q) =>
          api.post('/v1/operations/withdrawals', {
            accountId: funded,
            quoteId: q.id,
            beneficiary: { mode: 'REFERENCE', id: ownBeneficiary },
          }),
        ),
      );
      stats.races++;
      stats.concurrentRequests += created.length;
      return created.map((a) => expectStatus(a, 201, 'withdrawal').body.id as string);
    }

    async function settleAll(ids: string[]) {
      const results = await Promise.allSettled(ids.map((id) => h.mock.services.operations.settle(c1, id)));
      stats.races++;
      stats.settlements += ids.length;
      return results;
    }

    it(
      `${WITHDRAWALS} withdrawals each of the whole balance, settled at once: ` +
        'one completes, the rest fail INSUFFICIENT_BALANCE, never below zero',
      async () => {
        const seen = watchBalances();
        const balance = await h.mock.deps.store.getBalance(funded, 'BRL');
        const ids = await withdrawals(WITHDRAWALS, new Decimal(balance).toFixed(2));
        const results = await settleAll(ids);
        expect(results.every((r) => r.status === 'fulfilled')).toBe(true);
        const states = await Promise.all(ids.map(async (id) => (await api.get(`/v1/operations/${id}`)).body.currentState));
        expect(states.filter((s) => s.status === 'COMPLETED')).toHaveLength(1);
        const failed = states.filter((s) => s.status === 'FAILED');
        expect(failed).toHaveLength(WITHDRAWALS - 1);
        for (const state of failed) expect(state.reason.code).toBe('INSUFFICIENT_BALANCE');
        expect(await h.mock.deps.store.getBalance(funded, 'BRL')).toBe('0');
        for (const value of seen) expect(new Decimal(value).isNegative()).toBe(false);
      },
    );

    it('withdrawals of a k-th of the balance: exactly k complete, whatever the interleaving', async () => {
      const random = prng(SEED);
      for (const k of [2, 3 + pick(random, 8)]) {
        const seen = watchBalances();
        const balance = new Decimal(1000 + pick(random, 50_000)).plus(new Decimal(pick(random, 100)).dividedBy(100));
        await h.mock.deps.store.setBalance(funded, 'BRL', balance.toFixed(2));
        const amount = balance.dividedBy(k).toDecimalPlaces(2, Decimal.ROUND_DOWN);
        const ids = await withdrawals(Math.max(WITHDRAWALS, k + 1), amount.toFixed(2));
        await settleAll(shuffled(random, ids));
        const statuses = await Promise.all(ids.map(async (id) => (await api.get(`/v1/operations/${id}`)).body.currentState.status));
        expect(statuses.filter((s) => s === 'COMPLETED')).toHaveLength(k);
        expect(await h.mock.deps.store.getBalance(funded, 'BRL')).toBe(balance.minus(amount.times(k)).toFixed());
        for (const value of seen) expect(new Decimal(value).isNegative()).toBe(false);
      }
    });

    it('withdrawals, swaps and transfers out of one account at once: no operation failed that the final balance could pay', async () => {
      const random = prng(SEED ^ 0x5eed);
      const seen = watchBalances();
      const initial = new Decimal(await h.mock.deps.store.getBalance(funded, 'BRL'));
      const other = d.accountsOf(c1).find((a) => a.id !== funded)!.id;
      const requests = Array.from({ length: WITHDRAWALS }, () => {
        const amount = initial
          .times(0.02 + random() * 0.2)
          .toDecimalPlaces(2, Decimal.ROUND_DOWN)
          .toFixed(2);
        switch (pick(random, 3)) {
          case 0:
            return createQuote(api, { accountId: funded, sourceAsset: 'BRL', targetAsset: 'BRL', sourceAmount: amount }).then((q) =>
              api.post('/v1/operations/withdrawals', {
                accountId: funded,
                quoteId: q.id,
                beneficiary: { mode: 'REFERENCE', id: ownBeneficiary },
              }),
            );
          case 1:
            return createQuote(api, { accountId: funded, sourceAsset: 'BRL', targetAsset: 'USDT', sourceAmount: amount }).then((q) =>
              api.post('/v1/operations/swaps', { accountId: funded, quoteId: q.id }),
            );
          default:
            return api.post('/v1/operations/transfers', { accountId: funded, targetAccountId: other, asset: 'BRL', amount });
        }
      });
      const ids = (await Promise.all(requests)).map((a) => expectStatus(a, 201, 'operation').body.id as string);
      stats.races++;
      stats.concurrentRequests += ids.length;
      await settleAll(shuffled(random, ids));
      const ops = await Promise.all(ids.map(async (id) => (await api.get(`/v1/operations/${id}`)).body));
      const final = new Decimal(await h.mock.deps.store.getBalance(funded, 'BRL'));
      const spent = ops
        .filter((op) => op.currentState.status === 'COMPLETED')
        .reduce((sum, op) => sum.plus(op.sourceAmount.value), new Decimal(0));
      expect(final.toFixed()).toBe(initial.minus(spent).toFixed());
      for (const op of ops.filter((o) => o.currentState.status === 'FAILED')) {
        expect(op.currentState.reason.code).toBe('INSUFFICIENT_BALANCE');
        // The balance only went down after this one failed, so it was short then and is short now.
        expect(new Decimal(op.sourceAmount.value).greaterThan(final)).toBe(true);
      }
      for (const value of seen) expect(new Decimal(value).isNegative()).toBe(false);
    });

    it('one operation settled ten times at once moves the money once', async () => {
      const before = new Decimal(await h.mock.deps.store.getBalance(funded, 'BRL'));
      const [id] = await withdrawals(1, '10.00');
      const results = await settleAll(Array.from({ length: 10 }, () => id!));
      expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
      expectNoSettleErrorsBut(results, ['INVALID_STATE_TRANSITION']);
      expect(await h.mock.deps.store.getBalance(funded, 'BRL')).toBe(before.minus(10).toFixed());
    });
  });
});
