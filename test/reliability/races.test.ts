// Races: what must hold when many requests reach the mock at once over real sockets. A quote is
// consumed by exactly one operation; one idempotency key makes exactly one resource; balances
// never go negative and exactly the affordable operations complete; money is conserved across a
// random mix of deposits, swaps, transfers and withdrawals; a list walk sees every record that
// existed when it began exactly once while records are added between its pages.
import { afterAll, afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { randomUUID } from 'node:crypto';
import Decimal from 'decimal.js';
import fc from 'fast-check';
import { startMock, type Harness } from '../http/harness';
import { demo } from '../http/fixture-ids';
import { errorLog } from './support/error-log';
import { balancesOf, createQuote, expectNoSettleErrorsBut, expectStatus, walkAll } from './support/api';
import { pick, prng, report, SEED, shuffled, size } from './support/env';
import { client, serve, type Answer, type Client, type Served } from './support/http-client';

const QUOTE_RACERS = size('RELIABILITY_RACE_CONCURRENCY', 100);
const QUOTE_ROUNDS = size('RELIABILITY_RACE_ROUNDS', 3);
const KEY_RACERS = size('RELIABILITY_IDEMPOTENCY_CONCURRENCY', 50);
const WITHDRAWALS = size('RELIABILITY_WITHDRAWALS', 50);
const CONSERVATION_RUNS = size('RELIABILITY_CONSERVATION_RUNS', 12);
const CONSERVATION_ACTIONS = size('RELIABILITY_CONSERVATION_ACTIONS', 30);
const PAGINATION_ROUNDS = size('RELIABILITY_PAGINATION_ROUNDS', 3);

const d = demo();
const c1 = d.c1.id;
const funded = d.funded(c1).id;
const ownBeneficiary = d.beneficiaryOf(c1).id;
const allAccounts = d.f.accounts.map((a) => a.id);
const scaleOf = (asset: string) => d.f.assetScales[asset as keyof typeof d.f.assetScales] as number;

const stats = { races: 0, concurrentRequests: 0, settlements: 0, conservationRuns: 0, conservationOperations: 0, pageWalks: 0, insertsDuringWalks: 0 };

const errors = errorLog();
let h: Harness;
let served: Served;
let api: Client;

async function start(): Promise<void> {
  h = await startMock({ logger: errors.logger });
  served = await serve(h.mock.app);
  api = client(served, await h.token('customer1'));
}

async function stop(): Promise<void> {
  await h.mock.services.webhooks.idle();
  await served.close();
  h.close();
}

afterAll(() => report('races.test.ts', stats));

describe('races', () => {
  beforeEach(start);
  afterEach(stop);

  it(`${QUOTE_RACERS} concurrent operations naming one quote: exactly one succeeds, the others get 409 QUOTE_ALREADY_CONSUMED`, async () => {
    for (let round = 0; round < QUOTE_ROUNDS; round++) {
      const quote = await createQuote(api, { accountId: funded, sourceAsset: 'BRL', targetAsset: 'USDT', sourceAmount: '10.00' });
      const bodies = Array.from({ length: QUOTE_RACERS }, (_, i) =>
        i % 2 === 0
          ? { path: '/v1/operations/deposits', body: { accountId: funded, quoteId: quote.id, fundingInstruction: { rail: 'PIX' } } }
          : { path: '/v1/operations/swaps', body: { accountId: funded, quoteId: quote.id } },
      );
      const answers = await Promise.all(bodies.map(({ path, body }) => api.post(path, body)));
      stats.races++;
      stats.concurrentRequests += answers.length;

      const winners = answers.filter((a) => a.status === 201);
      const losers = answers.filter((a) => a.status !== 201);
      expect(winners).toHaveLength(1);
      expect(losers).toHaveLength(QUOTE_RACERS - 1);
      for (const loser of losers) {
        expect(loser.status).toBe(409);
        expect(loser.body.code).toBe('QUOTE_ALREADY_CONSUMED');
      }
      const winner = winners[0]!.body;
      const read = expectStatus(await api.get(`/v1/quotes/${quote.id}`), 200, 'read the quote').body;
      expect(read.status).toBe('CONSUMED');
      expect(read.operationId).toBe(winner.id);
      const consumers = (await walkAll(api, '/v1/operations')).filter((op) => op.quote?.id === quote.id);
      expect(consumers.map((op) => op.id)).toEqual([winner.id]);
    }
  }, 20_000 + QUOTE_ROUNDS * QUOTE_RACERS * 20);

  describe(`${KEY_RACERS} concurrent identical requests with one idempotency key`, () => {
    /** Fires the same request KEY_RACERS times at once and checks every answer is the stored result or 409 in progress. */
    async function race(path: string, body: unknown): Promise<{ created: any; answers: Answer[] }> {
      const key = randomUUID();
      const answers = await Promise.all(Array.from({ length: KEY_RACERS }, () => api.post(path, body, key)));
      stats.races++;
      stats.concurrentRequests += answers.length;
      const successes = answers.filter((a) => a.status === 201);
      expect(successes.length).toBeGreaterThanOrEqual(1);
      const originals = successes.filter((a) => a.headers['x-idempotent-replayed'] === undefined);
      expect(originals).toHaveLength(1);
      const created = originals[0]!.body;
      for (const answer of answers) {
        if (answer.status === 201) {
          expect(answer.body).toEqual(created);
          if (answer !== originals[0]) expect(answer.headers['x-idempotent-replayed']).toBe('true');
        } else {
          expect(answer.status).toBe(409);
          expect(answer.body.code).toBe('IDEMPOTENCY_REQUEST_IN_PROGRESS');
        }
      }
      // A replay after the race is the stored result too.
      const replay = await api.post(path, body, key);
      expect(replay.status).toBe(201);
      expect(replay.body).toEqual(created);
      return { created, answers };
    }

    it('of a beneficiary: exactly one exists afterwards, and it is the stored result', async () => {
      const legalName = `Race ${randomUUID()}`;
      const { created } = await race('/v1/beneficiaries', {
        entity: { type: 'COMPANY', legalName, identificationDocument: { type: 'CNPJ', value: '11222333000181', country: 'BR' } },
        relationshipType: 'THIRD_PARTY',
        paymentInstructions: [{ asset: 'BRL', address: { rail: 'PIX_KEY', dictKey: 'race@example.com.br' } }],
      });
      const named = (await walkAll(api, '/v1/beneficiaries')).filter((b) => b.entity.legalName === legalName);
      expect(named.map((b) => b.id)).toEqual([created.id]);
      expect(expectStatus(await api.get(`/v1/beneficiaries/${created.id}`), 200, 'read it').body).toEqual(created);
    });

    it('of a subscription: exactly one exists afterwards', async () => {
      const url = `https://hooks.example.test/race/${randomUUID()}`;
      const { created } = await race('/api/subscriptions', { url, includeAll: true });
      const same = (await walkAll(api, '/v1/subscriptions')).filter((s) => s.url === url);
      expect(same.map((s) => s.id)).toEqual([created.id]);
    });

    it('of a deposit: exactly one operation consumed the quote', async () => {
      const quote = await createQuote(api, { accountId: funded, sourceAsset: 'BRL', targetAsset: 'BRL', sourceAmount: '3.00' });
      const { created } = await race('/v1/operations/deposits', { accountId: funded, quoteId: quote.id, fundingInstruction: { rail: 'PIX' } });
      const consumers = (await walkAll(api, '/v1/operations')).filter((op) => op.quote?.id === quote.id);
      expect(consumers.map((op) => op.id)).toEqual([created.id]);
      expect(expectStatus(await api.get(`/v1/operations/${created.id}`), 200, 'read it').body).toEqual(created);
    });

    it('of a transfer: exactly one operation exists afterwards', async () => {
      const before = (await walkAll(api, '/v1/operations')).length;
      const target = d.accountsOf(c1).find((a) => a.id !== funded)!.id;
      const { created } = await race('/v1/operations/transfers', { accountId: funded, targetAccountId: target, asset: 'BRL', amount: '1.23' });
      const after = await walkAll(api, '/v1/operations');
      expect(after).toHaveLength(before + 1);
      expect(after.filter((op) => op.intent.type === 'TRANSFER').map((op) => op.id)).toEqual([created.id]);
    });

    it('of a quote: exactly one quote is stored', async () => {
      const before = (await h.mock.deps.store.all('quote', c1)).length;
      const { created } = await race('/v1/quotes', { accountId: funded, sourceAsset: 'USDT', targetAsset: 'BRL', targetAmount: '54.00' });
      const after = await h.mock.deps.store.all('quote', c1);
      expect(after).toHaveLength(before + 1);
      expect(expectStatus(await api.get(`/v1/quotes/${created.id}`), 200, 'read it').body).toEqual(created);
    });
  });

  it(`${KEY_RACERS} concurrent DELETEs of one subscription: exactly one 204, the others 404`, async () => {
    const id = expectStatus(await api.post('/api/subscriptions', { url: 'https://hooks.example.test/delete-race', includeAll: true }), 201, 'subscription').body.id;
    const answers = await Promise.all(Array.from({ length: KEY_RACERS }, () => api.delete(`/v1/subscriptions/${id}`)));
    stats.races++;
    stats.concurrentRequests += answers.length;
    expect(answers.filter((a) => a.status === 204)).toHaveLength(1);
    for (const a of answers.filter((x) => x.status !== 204)) {
      expect(a.status).toBe(404);
      expect(a.body.code).toBe('RESOURCE_NOT_FOUND');
    }
  });

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
      const quotes = await Promise.all(Array.from({ length: count }, () => createQuote(api, { accountId: funded, sourceAsset: 'BRL', targetAsset: 'BRL', sourceAmount: amount })));
      const created = await Promise.all(quotes.map((q) => api.post('/v1/operations/withdrawals', { accountId: funded, quoteId: q.id, beneficiary: { mode: 'REFERENCE', id: ownBeneficiary } })));
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

    it(`${WITHDRAWALS} withdrawals each of the whole balance, settled at once: one completes, the rest fail INSUFFICIENT_BALANCE, never below zero`, async () => {
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
    });

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
        const amount = initial.times(0.02 + random() * 0.2).toDecimalPlaces(2, Decimal.ROUND_DOWN).toFixed(2);
        switch (pick(random, 3)) {
          case 0:
            return createQuote(api, { accountId: funded, sourceAsset: 'BRL', targetAsset: 'BRL', sourceAmount: amount }).then((q) =>
              api.post('/v1/operations/withdrawals', { accountId: funded, quoteId: q.id, beneficiary: { mode: 'REFERENCE', id: ownBeneficiary } }),
            );
          case 1:
            return createQuote(api, { accountId: funded, sourceAsset: 'BRL', targetAsset: 'USDT', sourceAmount: amount }).then((q) => api.post('/v1/operations/swaps', { accountId: funded, quoteId: q.id }));
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
      const spent = ops.filter((op) => op.currentState.status === 'COMPLETED').reduce((sum, op) => sum.plus(op.sourceAmount.value), new Decimal(0));
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
    const unitsToAmount = (units: number, asset: string) => new Decimal(units).dividedBy(new Decimal(10).pow(scaleOf(asset))).toFixed(scaleOf(asset));

    /** Creates the operation an action describes; undefined when the mock refuses it (then nothing may move). */
    async function perform(apis: Client[], a: Action): Promise<{ id: string; action: Action } | undefined> {
      const customer = customers[a.customer]!;
      const accounts = d.accountsOf(customer.id).map((x) => x.id);
      const accountId = accounts[a.account % accounts.length]!;
      const me = apis[a.customer]!;
      let answer: Answer;
      if (a.kind === 'transfer') {
        const target = accounts[(a.account + 1 + (a.target % (accounts.length - 1))) % accounts.length]!;
        answer = await me.post('/v1/operations/transfers', { accountId, targetAccountId: target, asset: a.sourceAsset, amount: unitsToAmount(a.units, a.sourceAsset) });
      } else {
        const targetAsset = a.kind === 'withdrawal' ? 'BRL' : a.kind === 'swap' ? (a.sourceAsset === 'BRL' ? 'USDT' : 'BRL') : a.targetAsset;
        const amountAsset = a.given === 'source' ? a.sourceAsset : targetAsset;
        const amountKey = a.given === 'source' ? 'sourceAmount' : 'targetAmount';
        const q = await me.post('/v1/quotes', { accountId, sourceAsset: a.sourceAsset, targetAsset, [amountKey]: unitsToAmount(a.units, amountAsset) });
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
    function moves(op: any): Array<[string, Decimal]> {
      const debit = (accountId: string, amount: any): [string, Decimal] => [`${accountId}:${amount.asset}`, new Decimal(amount.value).negated()];
      const credit = (accountId: string, amount: any): [string, Decimal] => [`${accountId}:${amount.asset}`, new Decimal(amount.value)];
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
          throw new Error(`unknown intent ${op.intent.type}`);
      }
    }

    it('after any mix of deposits, swaps, transfers and withdrawals, all settled at once, every balance is its initial value plus its completed moves, exactly', async () => {
      await stop(); // this test starts a fresh mock per run
      await fc.assert(
        fc.asyncProperty(fc.array(action, { minLength: 1, maxLength: CONSERVATION_ACTIONS, size: 'max' }), fc.integer(), async (actions, order) => {
          await start();
          try {
            const apis = [api, client(served, await h.token('customer2'))];
            const initial = await balancesOf(h, allAccounts);
            const created = (await Promise.all(actions.map((a) => perform(apis, a)))).filter((x) => x !== undefined);
            const ids = shuffled(prng(order), created.map((c) => c.id));
            const settled = await Promise.allSettled(
              ids.map((id) => h.mock.services.operations.settle(created.find((c) => c.id === id)!.action.customer === 0 ? d.c1.id : d.c2.id, id)),
            );
            // A 777.77 deposit (magic value) is COMPLETED at creation; settling it again is refused, nothing else is.
            expectNoSettleErrorsBut(settled, ['INVALID_STATE_TRANSITION']);
            stats.conservationRuns++;
            stats.conservationOperations += created.length;
            stats.settlements += ids.length;

            const ops = await Promise.all(created.map(async (c) => expectStatus(await apis[c.action.customer]!.get(`/v1/operations/${c.id}`), 200, 'read operation').body));
            const expected = new Map<string, Decimal>([...initial].map(([k, v]) => [k, new Decimal(v)]));
            const totals = { initial: new Map<string, Decimal>(), flows: new Map<string, Decimal>() };
            const add = (map: Map<string, Decimal>, key: string, value: Decimal) => map.set(key, (map.get(key) ?? new Decimal(0)).plus(value));
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
              if (a.kind === 'transfer' || a.given === 'source') expect(target.toFixed(op.targetAmount.decimals)).toBe(source.times(rate).toDecimalPlaces(op.targetAmount.decimals, Decimal.ROUND_DOWN).toFixed(op.targetAmount.decimals));
              else expect(source.toFixed(op.sourceAmount.decimals)).toBe(target.dividedBy(rate).toDecimalPlaces(op.sourceAmount.decimals, Decimal.ROUND_UP).toFixed(op.sourceAmount.decimals));
            }
            const final = await balancesOf(h, allAccounts);
            expect(new Set(final.keys())).toEqual(new Set(expected.keys()));
            for (const [key, value] of final) {
              expect(new Decimal(value).isNegative()).toBe(false);
              if (!new Decimal(value).equals(expected.get(key)!)) throw new Error(`${key}: balance ${value}, expected ${expected.get(key)!.toFixed()} (initial ${initial.get(key)})`);
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
        }),
        { numRuns: CONSERVATION_RUNS, seed: SEED },
      );
      await start(); // for afterEach
    }, 20_000 + CONSERVATION_RUNS * CONSERVATION_ACTIONS * 50);
  });

  it('the mock logged no internal error through all of the above', () => {
    expect(errors.describe()).toEqual([]);
  });

  describe('pagination while records are added', () => {
    async function newOperation(): Promise<string> {
      const q = await createQuote(api, { accountId: funded, sourceAsset: 'BRL', targetAsset: 'BRL', sourceAmount: '1.00' });
      return expectStatus(await api.post('/v1/operations/deposits', { accountId: funded, quoteId: q.id, fundingInstruction: { rail: 'PIX' } }), 201, 'deposit').body.id;
    }

    it.each(['DESCENDING', 'ASCENDING'])('a walk of /v1/operations with limit 3 (%s) sees every operation that existed when it began exactly once', async (sortOrder) => {
      const random = prng(SEED ^ sortOrder.length);
      for (let i = 0; i < 20; i++) await newOperation();
      for (let round = 0; round < PAGINATION_ROUNDS; round++) {
        const existing = (await h.mock.deps.store.all('operation', c1)).map((op) => op.id);
        const seen: string[] = [];
        let inserted = 0;
        let cursor: string | null = null;
        let pages = 0;
        do {
          // Inserts race the page read itself, and more land between pages.
          const during = Array.from({ length: inserted < 60 ? pick(random, 3) : 0 }, () => newOperation());
          const page: Answer = expectStatus(await api.get(`/v1/operations?limit=3&sortOrder=${sortOrder}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`), 200, 'page');
          await Promise.all(during);
          inserted += during.length;
          if (inserted < 40) for (let i = pick(random, 3); i > 0; i--, inserted++) await newOperation();
          seen.push(...page.body.data.map((op: { id: string }) => op.id));
          cursor = page.body.meta.nextCursor;
          pages++;
          expect(pages).toBeLessThan(500);
        } while (cursor);
        stats.pageWalks++;
        stats.insertsDuringWalks += inserted;
        expect(new Set(seen).size).toBe(seen.length);
        const seenSet = new Set(seen);
        const missing = existing.filter((id) => !seenSet.has(id));
        expect(missing).toEqual([]);
      }
    });

    it('walking back with previousCursor from the last page also sees every earlier operation exactly once', async () => {
      const random = prng(SEED ^ 0xbac);
      for (let i = 0; i < 20; i++) await newOperation();
      // Find the last page first.
      let cursor: string | null = null;
      let last: Answer;
      do {
        last = expectStatus(await api.get(`/v1/operations?limit=3${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`), 200, 'page');
        cursor = last.body.meta.nextCursor;
      } while (cursor);
      const existing = (await h.mock.deps.store.all('operation', c1)).map((op) => op.id);
      const seen: string[] = last.body.data.map((op: { id: string }) => op.id);
      let back: string | null = last.body.meta.previousCursor;
      let inserted = 0;
      while (back) {
        for (let i = pick(random, 3); i > 0; i--, inserted++) await newOperation();
        const page: Answer = expectStatus(await api.get(`/v1/operations?limit=3&cursor=${encodeURIComponent(back)}`), 200, 'page');
        seen.push(...page.body.data.map((op: { id: string }) => op.id));
        back = page.body.meta.previousCursor;
      }
      stats.pageWalks++;
      stats.insertsDuringWalks += inserted;
      expect(new Set(seen).size).toBe(seen.length);
      expect(existing.filter((id) => !seen.includes(id))).toEqual([]);
    });
  });
});
