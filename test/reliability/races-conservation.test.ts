// Conservation of money: a random mix of deposits, swaps, transfers and withdrawals by two
// customers, created and settled at once on a fresh mock per run; every balance ends at its
// initial value plus its completed moves, exactly, and every quote converted at its rate.
import { describe, expect, it } from '@jest/globals';
import Decimal from 'decimal.js';
import fc from 'fast-check';
import { balancesOf, expectNoSettleErrorsBut, expectStatus } from './support/api';
import { prng, SEED, shuffled, size } from './support/env';
import { client, type Answer, type Client } from './support/http-client';
import type { Amount, Operation } from '../../mock/domain/records';
import { api, d, errors, h, raceFile, served, start, stop } from './support/races';

const CONSERVATION_RUNS = size('RELIABILITY_CONSERVATION_RUNS', 12);
const CONSERVATION_ACTIONS = size('RELIABILITY_CONSERVATION_ACTIONS', 30);

const allAccounts = d.f.accounts.map((a) => a.id);
const scaleOf = (asset: string) => d.f.assetScales[asset] as number;

const stats = { settlements: 0, conservationRuns: 0, conservationOperations: 0 };
raceFile('races-conservation.test.ts', stats);

describe('races', () => {
  describe('conservation of money', () => {
    type Kind = 'deposit' | 'swap' | 'transfer' | 'withdrawal';
    interface Action {
      kind: Kind;
      customer: 0 | 1;
      account: number;
      target: number;
      sourceAsset: 'BRL' | 'USDT';
      targetAsset: 'BRL' | 'USDT';
      /** Units of the smallest step of the asset named by `given` (cents, micro-USDT). */
      units: number;
      given: 'source' | 'target';
    }
    const action: fc.Arbitrary<Action> = fc.record({
      kind: fc.constantFrom<Kind>('deposit', 'swap', 'transfer', 'withdrawal'),
      customer: fc.constantFrom<0 | 1>(0, 1),
      account: fc.nat(2),
      target: fc.nat(2),
      sourceAsset: fc.constantFrom<'BRL' | 'USDT'>('BRL', 'USDT'),
      targetAsset: fc.constantFrom<'BRL' | 'USDT'>('BRL', 'USDT'),
      // Small and large: some operations cannot be paid and must fail without moving anything.
      units: fc.oneof(fc.integer({ min: 1, max: 100_000 }), fc.integer({ min: 100_000, max: 3_000_000_000 })),
      given: fc.constantFrom<'source' | 'target'>('source', 'target'),
    });

    const customers = [d.c1, d.c2];
    const unitsToAmount = (units: number, asset: string) =>
      new Decimal(units).dividedBy(new Decimal(10).pow(scaleOf(asset))).toFixed(scaleOf(asset));

    /** Creates the operation an action describes; undefined when the mock refuses it (then nothing may move). */
    async function perform(apis: Client[], a: Action): Promise<{ id: string; action: Action } | undefined> {
      const customer = customers[a.customer]!;
      const accounts = d.accountsOf(customer.id).map((x) => x.id);
      const accountId = accounts[a.account % accounts.length]!;
      const me = apis[a.customer]!;
      let answer: Answer;
      if (a.kind === 'transfer') {
        const target = accounts[(a.account + 1 + (a.target % (accounts.length - 1))) % accounts.length]!;
        answer = await me.post('/v1/operations/transfers', {
          accountId,
          targetAccountId: target,
          asset: a.sourceAsset,
          amount: unitsToAmount(a.units, a.sourceAsset),
        });
      } else {
        const targetAsset =
          a.kind === 'withdrawal' ? 'BRL' : a.kind === 'swap' ? (a.sourceAsset === 'BRL' ? 'USDT' : 'BRL') : a.targetAsset;
        const amountAsset = a.given === 'source' ? a.sourceAsset : targetAsset;
        const amountKey = a.given === 'source' ? 'sourceAmount' : 'targetAmount';
        const q = await me.post('/v1/quotes', {
          accountId,
          sourceAsset: a.sourceAsset,
          targetAsset,
          [amountKey]: unitsToAmount(a.units, amountAsset),
        });
        if (q.status !== 201) return undefined;
        const body =
          a.kind === 'deposit'
            ? { accountId, quoteId: q.body.id, fundingInstruction: { rail: 'PIX' } }
            : a.kind === 'withdrawal'
              ? { accountId, quoteId: q.body.id, beneficiary: { mode: 'REFERENCE', id: d.beneficiaryOf(customer.id).id } }
              : { accountId, quoteId: q.body.id };
        answer = await me.post(`/v1/operations/${a.kind}s`, body);
      }
      if (answer.status !== 201) return undefined;
      return { id: answer.body.id, action: a };
    }

    /** Balance moves of an operation as the API shows it: [accountId:asset, signed amount]. */
    function moves(op: Operation): Array<[string, Decimal]> {
      const debit = (accountId: string, amount: Amount): [string, Decimal] => [
        `${accountId}:${amount.asset}`,
        new Decimal(amount.value).negated(),
      ];
      const credit = (accountId: string, amount: Amount): [string, Decimal] => [`${accountId}:${amount.asset}`, new Decimal(amount.value)];
      // Read before the switch: past its cases TypeScript narrows op.intent to never, the answer may still hold another.
      const type: string = op.intent.type;
      switch (op.intent.type) {
        case 'DEPOSIT':
          return [credit(op.accountId, op.targetAmount)];
        case 'WITHDRAWAL':
          return [debit(op.accountId, op.sourceAmount)];
        case 'SWAP':
          return [debit(op.accountId, op.sourceAmount), credit(op.accountId, op.targetAmount)];
        case 'TRANSFER':
          return [debit(op.accountId, op.sourceAmount), credit(op.intent.targetAccount.id, op.targetAmount)];
        default:
          throw new Error(`unknown intent ${type}`);
      }
    }

    it(
      'after any mix of deposits, swaps, transfers and withdrawals, all settled at once, ' +
        'every balance is its initial value plus its completed moves, exactly',
      async () => {
        await stop(); // this test starts a fresh mock per run
        await fc.assert(
          fc.asyncProperty(
            fc.array(action, { minLength: 1, maxLength: CONSERVATION_ACTIONS, size: 'max' }),
            fc.integer(),
            async (actions, order) => {
              await start();
              try {
                const apis = [api, client(served, await h.token('customer2'))];
                const initial = await balancesOf(h, allAccounts);
                const created = (await Promise.all(actions.map((a) => perform(apis, a)))).filter((x) => x !== undefined);
                const ids = shuffled(
                  prng(order),
                  created.map((c) => c.id),
                );
                const settled = await Promise.allSettled(
                  ids.map((id) =>
                    h.mock.services.operations.settle(created.find((c) => c.id === id)!.action.customer === 0 ? d.c1.id : d.c2.id, id),
                  ),
                );
                // A 777.77 deposit (magic value) is COMPLETED at creation; settling it again is refused, nothing else is.
                expectNoSettleErrorsBut(settled, ['INVALID_STATE_TRANSITION']);
                stats.conservationRuns++;
                stats.conservationOperations += created.length;
                stats.settlements += ids.length;

                const ops = await Promise.all(
                  created.map(
                    async (c) => expectStatus(await apis[c.action.customer]!.get(`/v1/operations/${c.id}`), 200, 'read operation').body,
                  ),
                );
                const expected = new Map<string, Decimal>([...initial].map(([k, v]) => [k, new Decimal(v)]));
                const totals = { initial: new Map<string, Decimal>(), flows: new Map<string, Decimal>() };
                const add = (map: Map<string, Decimal>, key: string, value: Decimal) =>
                  map.set(key, (map.get(key) ?? new Decimal(0)).plus(value));
                for (const [key, value] of initial) add(totals.initial, key.split(':')[1]!, new Decimal(value));
                for (const op of ops) {
                  expect(['COMPLETED', 'FAILED']).toContain(op.currentState.status);
                  if (op.currentState.status === 'FAILED') {
                    expect(op.currentState.reason.code).toBe('INSUFFICIENT_BALANCE');
                    expect(op.transactions).toEqual([]);
                    continue;
                  }
                  for (const [key, delta] of moves(op)) add(expected, key, delta);
                  // Whole-store flows: deposits bring money in, withdrawals take it out, swaps convert, transfers only move it.
                  if (op.intent.type !== 'TRANSFER') for (const [key, delta] of moves(op)) add(totals.flows, key.split(':')[1]!, delta);
                  expect(op.transactions.length).toBeGreaterThan(0);
                  for (const t of op.transactions) expect(t.status).toBe('CONFIRMED');
                }
                // Every quote converted at its rate: target rounded down from a source, source rounded up from a target.
                for (const [i, op] of ops.entries()) {
                  const a = created[i]!.action;
                  const rate = new Decimal(op.quote.rate);
                  const source = new Decimal(op.sourceAmount.value);
                  const target = new Decimal(op.targetAmount.value);
                  if (a.kind === 'transfer' || a.given === 'source')
                    expect(target.toFixed(op.targetAmount.decimals)).toBe(
                      source.times(rate).toDecimalPlaces(op.targetAmount.decimals, Decimal.ROUND_DOWN).toFixed(op.targetAmount.decimals),
                    );
                  else
                    expect(source.toFixed(op.sourceAmount.decimals)).toBe(
                      target.dividedBy(rate).toDecimalPlaces(op.sourceAmount.decimals, Decimal.ROUND_UP).toFixed(op.sourceAmount.decimals),
                    );
                }
                const final = await balancesOf(h, allAccounts);
                expect(new Set(final.keys())).toEqual(new Set(expected.keys()));
                for (const [key, value] of final) {
                  expect(new Decimal(value).isNegative()).toBe(false);
                  if (!new Decimal(value).equals(expected.get(key)!))
                    throw new Error(`${key}: balance ${value}, expected ${expected.get(key)!.toFixed()} (initial ${initial.get(key)})`);
                }
                const finalTotals = new Map<string, Decimal>();
                for (const [key, value] of final) add(finalTotals, key.split(':')[1]!, new Decimal(value));
                for (const [asset, total] of finalTotals) {
                  const want = totals.initial.get(asset)!.plus(totals.flows.get(asset) ?? 0);
                  if (!total.equals(want)) throw new Error(`${asset}: store total ${total.toFixed()}, expected ${want.toFixed()}`);
                }
              } finally {
                await stop();
              }
            },
          ),
          { numRuns: CONSERVATION_RUNS, seed: SEED },
        );
        await start(); // for afterEach
      },
      20_000 + CONSERVATION_RUNS * CONSERVATION_ACTIONS * 50,
    );
  });

  it('the mock logged no internal error through all of the above', () => {
    expect(errors.describe()).toEqual([]);
  });
});
