// Races across replicas: two `fos-mock serve --redis` processes on one Redis behind a round-robin
// balancer, so concurrent requests of one race land on both replicas half and half. What one
// process guarantees with its own locks must hold across processes: one quote is consumed once,
// one idempotency key makes one resource, and money is conserved to the last unit when
// operations are created and settled (through the control API) on both replicas at once.
import { afterAll, beforeAll, expect, it } from '@jest/globals';
import { randomUUID } from 'node:crypto';
import Decimal from 'decimal.js';
import fc from 'fast-check';
import { demoFixtures } from '../http/harness';
import { prng, SEED, shuffled, size } from '../reliability/support/env';
import type { Answer } from '../reliability/support/http-client';
import { describeWithRedis } from '../support/redis-suite';
import { startBalancedReplicas, type BalancedReplicas, type CustomerClient, type ServiceClient } from '../support/replicas';

const QUOTE_RACERS = size('REPLICAS_RACE_CONCURRENCY', 100);
const KEY_RACERS = size('REPLICAS_IDEMPOTENCY_CONCURRENCY', 50);
const CONSERVATION_RUNS = size('REPLICAS_CONSERVATION_RUNS', 5);
const CONSERVATION_ACTIONS = size('REPLICAS_CONSERVATION_ACTIONS', 30);
/** A hang guard for the hooks and tests that start replicas (each start is awaited, its own guard naming it at 120 s). */
const START_MS = 300_000;

const stats = { actions: 0, operations: 0, completed: 0, failed: 0, refused: 0 };
const scaleOf = (asset: string) => demoFixtures().assetScales[asset] as number;

function expectStatus(answer: Answer, status: number, what: string): Answer {
  if (answer.status !== status) throw new Error(`${what}: expected ${status}, got ${answer.status} ${answer.text.slice(0, 500)}`);
  return answer;
}

describeWithRedis('two replicas on one Redis, behind a round-robin balancer: races', (redis) => {
  let cluster: BalancedReplicas;
  let service: ServiceClient;

  beforeAll(async () => {
    // Settlement only through the control API, so every race decides what it tests.
    cluster = await startBalancedReplicas(2, { redisUrl: redis().url, env: { AUTO_SETTLE_MS: 'off' } });
    service = cluster.service;
  }, START_MS);

  afterAll(async () => {
    await cluster?.close();
    console.log(
      `[replicas] races.test.ts: quoteRacers=${QUOTE_RACERS} keyRacers=${KEY_RACERS} conservationRuns=${CONSERVATION_RUNS} ` +
        `conservationActions=${CONSERVATION_ACTIONS} ` +
        `actions=${stats.actions} operations=${stats.operations} completed=${stats.completed} failed=${stats.failed} ` +
        `refused=${stats.refused} requestsPerReplica=${cluster?.balancer.counts.join('/')} seed=${SEED}`,
    );
  }, START_MS);

  /** A fresh customer (accounts: [0] editable and empty, [1] funded with BRL and USDT, [2] a sub-account with BRL) and its client. */
  async function freshCustomer() {
    const customer = await service.customer();
    const api = service.as(await service.token(customer.clientId, customer.clientSecret));
    return { ...customer, api, funded: customer.accounts[1]! };
  }

  async function quote(api: CustomerClient, body: Record<string, string>): Promise<{ id: string }> {
    return expectStatus(await api.post('/v1/quotes', body), 201, `quote ${JSON.stringify(body)}`).body;
  }

  async function listAll(api: CustomerClient, path: string): Promise<Array<{ id: string; quote?: { id: string } }>> {
    const items = [];
    let cursor: string | null = null;
    do {
      const page: Answer = expectStatus(
        await api.get(`${path}?limit=100${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`),
        200,
        path,
      );
      items.push(...page.body.data);
      cursor = page.body.meta.nextCursor;
    } while (cursor);
    return items;
  }

  it(`${QUOTE_RACERS} concurrent deposits on one quote over both replicas: one 201, the others 409 QUOTE_ALREADY_CONSUMED`, async () => {
    const { api, funded } = await freshCustomer();
    const q = await quote(api, { accountId: funded, sourceAsset: 'BRL', targetAsset: 'USDT', sourceAmount: '10.00' });
    const before = [...cluster.balancer.counts];
    const body = { accountId: funded, quoteId: q.id, fundingInstruction: { rail: 'PIX' } };
    const answers = await Promise.all(Array.from({ length: QUOTE_RACERS }, () => api.post('/v1/operations/deposits', body)));
    // Both replicas took part in the race.
    expect(cluster.balancer.counts.map((c, i) => c - before[i]!).every((c) => c >= Math.floor(QUOTE_RACERS / 2))).toBe(true);

    const winners = answers.filter((a) => a.status === 201);
    const losers = answers.filter((a) => a.status !== 201);
    expect({ winners: winners.length, losers: losers.map((a) => `${a.status} ${a.body?.code}`) }).toEqual({
      winners: 1,
      losers: Array.from({ length: QUOTE_RACERS - 1 }, () => '409 QUOTE_ALREADY_CONSUMED'),
    });
    const winner = winners[0]!.body;
    const read = expectStatus(await api.get(`/v1/quotes/${q.id}`), 200, 'read the quote').body;
    expect({ status: read.status, operationId: read.operationId }).toEqual({ status: 'CONSUMED', operationId: winner.id });
    const consumers = (await listAll(api, '/v1/operations')).filter((op) => op.quote?.id === q.id);
    expect(consumers.map((op) => op.id)).toEqual([winner.id]);
  });

  it(
    `${KEY_RACERS} concurrent identical deposits with one X-Idempotency-Key over both replicas: one operation, ` +
      'every answer the stored one or 409 IDEMPOTENCY_REQUEST_IN_PROGRESS',
    async () => {
      const { api, funded } = await freshCustomer();
      const q = await quote(api, { accountId: funded, sourceAsset: 'BRL', targetAsset: 'BRL', sourceAmount: '3.00' });
      const operationsBefore = await listAll(api, '/v1/operations');
      const key = randomUUID();
      const body = { accountId: funded, quoteId: q.id, fundingInstruction: { rail: 'PIX' } };
      const answers = await Promise.all(Array.from({ length: KEY_RACERS }, () => api.post('/v1/operations/deposits', body, key)));

      const successes = answers.filter((a) => a.status === 201);
      const originals = successes.filter((a) => a.headers['x-idempotent-replayed'] === undefined);
      expect(originals).toHaveLength(1);
      const created = originals[0]!.body;
      for (const answer of answers) {
        if (answer.status === 201) {
          expect(answer.body).toEqual(created);
          if (answer !== originals[0]) expect(answer.headers['x-idempotent-replayed']).toBe('true');
        } else {
          expect(`${answer.status} ${answer.body?.code}`).toBe('409 IDEMPOTENCY_REQUEST_IN_PROGRESS');
        }
      }
      // A replay after the race, on each replica in turn, is the stored answer.
      for (let i = 0; i < 2; i++) {
        const replay = expectStatus(await api.post('/v1/operations/deposits', body, key), 201, 'replay');
        expect(replay.headers['x-idempotent-replayed']).toBe('true');
        expect(replay.body).toEqual(created);
      }
      const after = await listAll(api, '/v1/operations');
      expect(after.map((op) => op.id).sort()).toEqual([created.id, ...operationsBefore.map((op) => op.id)].sort());
      expect(after.filter((op) => op.quote?.id === q.id).map((op) => op.id)).toEqual([created.id]);
    },
  );

  type Kind = 'deposit' | 'swap' | 'transfer' | 'withdrawal';
  interface Action {
    kind: Kind;
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
    account: fc.nat(2),
    target: fc.nat(1),
    sourceAsset: fc.constantFrom<'BRL' | 'USDT'>('BRL', 'USDT'),
    targetAsset: fc.constantFrom<'BRL' | 'USDT'>('BRL', 'USDT'),
    // Small and large: some operations cannot be paid and must fail without moving anything.
    units: fc.oneof(fc.integer({ min: 1, max: 100_000 }), fc.integer({ min: 100_000, max: 3_000_000_000 })),
    given: fc.constantFrom<'source' | 'target'>('source', 'target'),
  });
  const unitsToAmount = (units: number, asset: string) =>
    new Decimal(units).dividedBy(new Decimal(10).pow(scaleOf(asset))).toFixed(scaleOf(asset));

  interface Amount {
    asset: string;
    value: string;
  }
  interface Operation {
    id: string;
    accountId: string;
    intent: { type: string; targetAccount?: { id: string } };
    sourceAmount: Amount;
    targetAmount: Amount;
    currentState: { status: string; reason?: { code: string } };
    transactions: Array<{ status: string }>;
  }

  /** Balance moves of a completed operation as the API shows it: [accountId:asset, signed amount]. */
  function moves(op: Operation): Array<[string, Decimal]> {
    const debit = (accountId: string, amount: Amount): [string, Decimal] => [
      `${accountId}:${amount.asset}`,
      new Decimal(amount.value).negated(),
    ];
    const credit = (accountId: string, amount: Amount): [string, Decimal] => [`${accountId}:${amount.asset}`, new Decimal(amount.value)];
    switch (op.intent.type) {
      case 'DEPOSIT':
        return [credit(op.accountId, op.targetAmount)];
      case 'WITHDRAWAL':
        return [debit(op.accountId, op.sourceAmount)];
      case 'SWAP':
        return [debit(op.accountId, op.sourceAmount), credit(op.accountId, op.targetAmount)];
      case 'TRANSFER':
        return [debit(op.accountId, op.sourceAmount), credit(op.intent.targetAccount!.id, op.targetAmount)];
      default:
        throw new Error(`unknown intent ${op.intent.type}`);
    }
  }

  it(
    `conservation: random deposits, withdrawals, transfers and swaps (${CONSERVATION_RUNS} runs of ` +
      `${Math.ceil(CONSERVATION_ACTIONS / 2)} to ${CONSERVATION_ACTIONS}), ` +
      'created and settled concurrently over both replicas: every balance and every asset total is exact',
    async () => {
      await fc.assert(
        fc.asyncProperty(
          fc.array(action, { minLength: Math.ceil(CONSERVATION_ACTIONS / 2), maxLength: CONSERVATION_ACTIONS, size: 'max' }),
          fc.integer(),
          async (actions, order) => {
            const { api, accounts, beneficiaries } = await freshCustomer();
            const balances = async () => {
              const out = new Map<string, Decimal>();
              for (const accountId of accounts) {
                const read = await service.control('GET', `/accounts/${accountId}/balances`);
                for (const [asset, value] of Object.entries(read.body.balances as Record<string, string>))
                  out.set(`${accountId}:${asset}`, new Decimal(value));
              }
              return out;
            };
            const initial = await balances();

            const perform = async (a: Action): Promise<string | undefined> => {
              stats.actions++;
              const accountId = accounts[a.account]!;
              let answer: Answer;
              if (a.kind === 'transfer') {
                const others = accounts.filter((id) => id !== accountId);
                answer = await api.post('/v1/operations/transfers', {
                  accountId,
                  targetAccountId: others[a.target % others.length]!,
                  asset: a.sourceAsset,
                  amount: unitsToAmount(a.units, a.sourceAsset),
                });
              } else {
                const targetAsset =
                  a.kind === 'withdrawal' ? 'BRL' : a.kind === 'swap' ? (a.sourceAsset === 'BRL' ? 'USDT' : 'BRL') : a.targetAsset;
                const amountKey = a.given === 'source' ? 'sourceAmount' : 'targetAmount';
                const q = await api.post('/v1/quotes', {
                  accountId,
                  sourceAsset: a.sourceAsset,
                  targetAsset,
                  [amountKey]: unitsToAmount(a.units, a.given === 'source' ? a.sourceAsset : targetAsset),
                });
                expect(q.status).toBeLessThan(500);
                if (q.status !== 201) {
                  stats.refused++;
                  return undefined;
                }
                const body =
                  a.kind === 'deposit'
                    ? { accountId, quoteId: q.body.id, fundingInstruction: { rail: 'PIX' } }
                    : a.kind === 'withdrawal'
                      ? { accountId, quoteId: q.body.id, beneficiary: { mode: 'REFERENCE', id: beneficiaries[0]! } }
                      : { accountId, quoteId: q.body.id };
                answer = await api.post(`/v1/operations/${a.kind}s`, body);
              }
              // Refusals (an amount past a limit, an asset the account lacks) move nothing; 5xx is never right.
              expect(answer.status).toBeLessThan(500);
              if (answer.status !== 201) stats.refused++;
              return answer.status === 201 ? (answer.body.id as string) : undefined;
            };
            const created = (await Promise.all(actions.map(perform))).filter((id) => id !== undefined);

            const settled = await Promise.all(
              shuffled(prng(order), created).map((id) => service.call('POST', `/_mock/operations/${id}/settle`)),
            );
            // A 777.77 deposit completes at creation (magic value): settling it again is refused, nothing else is.
            for (const answer of settled)
              if (answer.status !== 200) expect(`${answer.status} ${answer.body?.code}`).toBe('409 INVALID_STATE_TRANSITION');

            const ops: Operation[] = await Promise.all(
              created.map(async (id) => expectStatus(await api.get(`/v1/operations/${id}`), 200, `read ${id}`).body),
            );
            const expected = new Map([...initial].map(([k, v]) => [k, v]));
            const flows = new Map<string, Decimal>();
            const add = (map: Map<string, Decimal>, key: string, value: Decimal) =>
              map.set(key, (map.get(key) ?? new Decimal(0)).plus(value));
            for (const op of ops) {
              stats.operations++;
              if (op.currentState.status === 'COMPLETED') stats.completed++;
              if (op.currentState.status === 'FAILED') stats.failed++;
              expect(['COMPLETED', 'FAILED']).toContain(op.currentState.status);
              if (op.currentState.status === 'FAILED') {
                expect(op.currentState.reason?.code).toBe('INSUFFICIENT_BALANCE');
                expect(op.transactions).toEqual([]);
                continue;
              }
              for (const [key, delta] of moves(op)) {
                add(expected, key, delta);
                if (op.intent.type !== 'TRANSFER') add(flows, key.split(':')[1]!, delta); // what entered (+) and left (-) per asset
              }
            }
            const final = await balances();
            const zero = new Decimal(0);
            for (const key of new Set([...final.keys(), ...expected.keys()])) {
              const got = final.get(key) ?? zero;
              const want = expected.get(key) ?? zero;
              if (got.isNegative() || !got.equals(want))
                throw new Error(`${key}: balance ${got.toFixed()}, expected ${want.toFixed()} (initial ${initial.get(key)?.toFixed()})`);
            }
            const totals = (map: Map<string, Decimal>) => {
              const out = new Map<string, Decimal>();
              for (const [key, value] of map) add(out, key.split(':')[1]!, value);
              return out;
            };
            const initialTotals = totals(initial);
            for (const [asset, total] of totals(final)) {
              const want = (initialTotals.get(asset) ?? zero).plus(flows.get(asset) ?? zero);
              if (!total.equals(want))
                throw new Error(`${asset}: total ${total.toFixed()}, expected ${want.toFixed()} (entered minus left)`);
            }
          },
        ),
        { numRuns: CONSERVATION_RUNS, seed: SEED },
      );
    },
    60_000 + CONSERVATION_RUNS * CONSERVATION_ACTIONS * 500,
  );
});
