// Restarts of replicas on one Redis: the state is Redis's, not a process's. Stopping every replica
// and starting them again keeps every record, list page (through a cursor handed out before),
// token, idempotent answer and balance; a replica that starts while others already changed the
// state does not load the demo fixtures over it.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { randomUUID } from 'node:crypto';
import type { Answer } from '../reliability/support/http-client';
import { describeWithRedis } from '../support/redis-suite';
import {
  serviceClient,
  startBalancedReplicas,
  startReplicas,
  type BalancedReplicas,
  type CustomerClient,
  type Replicas,
  type ServiceClient,
} from '../support/replicas';

/** A hang guard for the hooks and tests that start replicas (each start is awaited, its own guard naming it at 120 s). */
const START_MS = 300_000;

function expectStatus(answer: Answer, status: number, what: string): Answer {
  if (answer.status !== status) throw new Error(`${what}: expected ${status}, got ${answer.status} ${answer.text.slice(0, 500)}`);
  return answer;
}

/** The parts of an answer a restart must not change. */
const seen = (a: Answer) => ({ status: a.status, body: a.body as unknown });

/** Whether nothing listens at `url`: the connection is refused. A slow answer, or none yet, is not "down". */
async function down(url: string): Promise<boolean> {
  try {
    await fetch(`${url}/_mock/health`);
    return false;
  } catch (error) {
    return (error as { cause?: { code?: string } }).cause?.code === 'ECONNREFUSED';
  }
}

describeWithRedis('two replicas on one Redis: restarts', (redis) => {
  describe('every replica stopped and started again', () => {
    let cluster: BalancedReplicas;
    let replicas: Replicas;
    let service: ServiceClient;

    beforeAll(async () => {
      cluster = await startBalancedReplicas(2, { redisUrl: redis().url, env: { AUTO_SETTLE_MS: 'off' } });
      ({ replicas, service } = cluster);
    }, START_MS);

    afterAll(async () => {
      await cluster?.close();
    }, START_MS);

    it(
      'keeps the same records, list pages through an old cursor, the old token, the idempotent answer and the balances',
      async () => {
        // The state, built through both replicas (the balancer alternates).
        const customer = await service.customer();
        const token = await service.token(customer.clientId, customer.clientSecret);
        const api: CustomerClient = service.as(token);
        const [, funded, sub] = customer.accounts as [string, string, string];
        const deposits: string[] = [];
        const quotes: string[] = [];
        for (const amount of ['11.00', '12.00', '13.00', '14.00', '15.00']) {
          const q = expectStatus(
            await api.post('/v1/quotes', { accountId: funded, sourceAsset: 'BRL', targetAsset: 'BRL', sourceAmount: amount }),
            201,
            'quote',
          );
          quotes.push(q.body.id);
          const body = { accountId: funded, quoteId: q.body.id, fundingInstruction: { rail: 'PIX' } };
          deposits.push(expectStatus(await api.post('/v1/operations/deposits', body), 201, 'deposit').body.id);
        }
        const settled = await service.control('POST', `/operations/${deposits[1]}/settle`);
        expect(settled.body.currentState.status).toBe('COMPLETED');
        const fundedBalances = (await service.control('GET', `/accounts/${funded}/balances`)).body.balances;
        expect(fundedBalances.BRL).toBe('25012.00'); // the fixture's 25000.00 and the settled 12.00
        const unused = expectStatus(
          await api.post('/v1/quotes', { accountId: funded, sourceAsset: 'USDT', targetAsset: 'BRL', sourceAmount: '1.000000' }),
          201,
          'an unused quote',
        );
        const key = randomUUID();
        const transfer = { accountId: funded, targetAccountId: sub, asset: 'BRL', amount: '2.50' };
        const original = expectStatus(await api.post('/v1/operations/transfers', transfer, key), 201, 'idempotent transfer');
        const page1 = expectStatus(await api.get('/v1/operations?limit=2'), 200, 'first page');
        const cursor = page1.body.meta.nextCursor as string;
        expect(typeof cursor).toBe('string');
        const page2 = expectStatus(await api.get(`/v1/operations?limit=2&cursor=${encodeURIComponent(cursor)}`), 200, 'second page');
        expect(typeof page2.body.meta.nextCursor).toBe('string'); // a cursor mid-way: there is a third page

        const reads = [
          '/api/accounts',
          ...customer.accounts.map((id) => `/api/accounts/${id}`),
          '/v1/beneficiaries',
          '/v1/quotes/' + (unused.body.id as string),
          ...quotes.map((id) => `/v1/quotes/${id}`),
          ...[...deposits, original.body.id as string].map((id) => `/v1/operations/${id}`),
          '/v1/operations?limit=100',
        ];
        const snapshot = async () => ({
          reads: Object.fromEntries(await Promise.all(reads.map(async (path) => [path, seen(await api.get(path))] as const))),
          balances: Object.fromEntries(
            await Promise.all(
              customer.accounts.map(async (id) => [id, (await service.control('GET', `/accounts/${id}/balances`)).body] as const),
            ),
          ),
        });
        const before = await snapshot();
        for (const [path, answer] of Object.entries(before.reads)) expect([path, answer.status]).toEqual([path, 200]);

        // Every replica stopped: nothing answers; then both started again on their ports.
        await replicas.stopAll();
        expect(await Promise.all(replicas.urls.map(down))).toEqual([true, true]);
        await Promise.all([replicas.start(0), replicas.start(1)]);

        // The old token still works (every read below uses it), on both replicas.
        for (const url of replicas.urls) {
          const direct = serviceClient(url);
          try {
            expectStatus(await direct.as(token).get('/api/accounts'), 200, `the old token on ${url}`);
          } finally {
            direct.close();
          }
        }
        const after = await snapshot();
        expect(after.reads).toEqual(before.reads);
        expect(after.balances).toEqual(before.balances);
        // The page after the old cursor is the page it gave before, on either replica.
        for (let i = 0; i < 2; i++) {
          const again = await api.get(`/v1/operations?limit=2&cursor=${encodeURIComponent(cursor)}`);
          expect(seen(again)).toEqual(seen(page2));
        }
        // The idempotent POST replays its stored answer, on either replica, and makes nothing new.
        for (let i = 0; i < 2; i++) {
          const replay = await api.post('/v1/operations/transfers', transfer, key);
          expect(seen(replay)).toEqual(seen(original));
          expect(replay.headers['x-idempotent-replayed']).toBe('true');
        }
        expect(seen(await api.get('/v1/operations?limit=100'))).toEqual(before.reads['/v1/operations?limit=100']);
      },
      START_MS,
    );
  });
});

describeWithRedis('two replicas on one Redis: a replica that starts later', (redis) => {
  let replicas: Replicas;

  beforeAll(async () => {
    // Only replica 0 at first: it finds Redis empty and loads the demo fixtures.
    replicas = await startReplicas(2, { redisUrl: redis().url, env: { AUTO_SETTLE_MS: 'off' }, initially: 1 });
  }, START_MS);

  afterAll(async () => {
    await replicas?.stopAll();
  }, START_MS);

  it(
    'does not load the demo fixtures over the state: what replica 0 changed in fixture records is still there',
    async () => {
      const first = serviceClient(replicas.urls[0]!);
      let second: ServiceClient | undefined;
      try {
        const demo = first.as(await first.token('demo-client', 'demo-secret'));
        const accounts = expectStatus(await demo.get('/api/accounts?limit=100'), 200, 'demo accounts').body.data as Array<{
          id: string;
          currentState: { status: string };
        }>;
        // Changes to fixture records: a balance set, an account submitted for review, and a new quote.
        const [target] = accounts;
        await first.control('PUT', `/accounts/${target!.id}/balances`, { BRL: '4321.09', USDT: '0.000001' });
        const editable = accounts.find((a) => a.currentState.status === 'ACTION_REQUIRED');
        expect(editable).toBeDefined();
        await first.control('POST', `/accounts/${editable!.id}/submit-review`);
        const quote = expectStatus(
          await demo.post('/v1/quotes', { accountId: target!.id, sourceAsset: 'BRL', targetAsset: 'BRL', sourceAmount: '5.00' }),
          201,
          'a quote of demo-client',
        );
        const state = async (client: ServiceClient) => {
          const as = client.as(await client.token('demo-client', 'demo-secret'));
          return {
            balances: (await client.control('GET', `/accounts/${target!.id}/balances`)).body,
            accounts: seen(await as.get('/api/accounts?limit=100')),
            quote: seen(await as.get(`/v1/quotes/${quote.body.id}`)),
          };
        };
        const before = await state(first);
        expect(before.balances.balances).toEqual(expect.objectContaining({ BRL: '4321.09', USDT: '0.000001' }));

        await replicas.start(1);
        second = serviceClient(replicas.urls[1]!);
        // Read on the new replica, and on the old one once the new one has started.
        expect(await state(second)).toEqual(before);
        expect(await state(first)).toEqual(before);
      } finally {
        first.close();
        second?.close();
      }
    },
    START_MS,
  );
});
