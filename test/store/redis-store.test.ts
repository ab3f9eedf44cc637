// The Redis store: the shared Store contract on a real redis-server (one per file, each test under
// its own key prefix), then what only a shared store promises: prefixes keep stores apart, two
// instances on one prefix are one store (their races have the same single winners), and the data
// outlives the connection and the server (append-only file).
import { afterEach, describe, expect, it } from '@jest/globals';
import { Redis } from 'ioredis';
import { RedisStore } from '../../mock/store/redis';
import type { Operation, QuoteRecord } from '../../mock/domain/records';
import { startRedisServer } from '../support/redis-server';
import { describeWithRedis, uniquePrefix } from '../support/redis-suite';
import { retrying } from '../support/waits';
import { quote } from './contract/kit';
import { storeContract } from './store-contract';

const CUSTOMER = 'customer-a';
const T0 = Date.parse('2025-03-10T00:00:00.000Z');
const TTL = 24 * 60 * 60 * 1000;

interface Counter {
  id: string;
  count: number;
}
const counter = (record: Counter) => record as unknown as Operation;
const countOf = (record: unknown) => (record as Counter | undefined)?.count;

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

describeWithRedis('RedisStore', (redis) => {
  const open = (prefix = uniquePrefix()) => RedisStore.open({ url: redis().url, prefix });

  storeContract(
    'the Store contract',
    () => open(),
    (store) => store.close(),
  );

  describe('on a Redis shared by several stores', () => {
    const opened: RedisStore[] = [];
    const tracked = async (prefix?: string) => {
      const store = await open(prefix);
      opened.push(store);
      return store;
    };
    /** Two instances on one prefix: two replicas of one mock. */
    const replicas = async () => {
      const prefix = uniquePrefix();
      return [await tracked(prefix), await tracked(prefix)] as const;
    };
    afterEach(async () => {
      for (const store of opened.splice(0)) await store.close();
    });

    it('two stores on different prefixes see nothing of each other: records, lists, balances, keys', async () => {
      const [one, two] = [await tracked(), await tracked()];
      await one.insert('quote', CUSTOMER, 'quote-1', quote());
      await one.setBalance('account-1', 'BRL', '5');
      await one.claimIdempotencyKey('k', 'print', T0, TTL);
      expect(await two.get('quote', 'quote-1')).toBeUndefined();
      expect(await two.all('quote', CUSTOMER)).toEqual([]);
      expect(await two.balances('account-1')).toEqual({});
      expect((await two.claimIdempotencyKey('k', 'print', T0, TTL)).outcome).toBe('CLAIMED');
      await two.insert('quote', CUSTOMER, 'quote-1', { ...quote(), rate: '2' });
      expect((await one.get('quote', 'quote-1'))?.rate).toBe('0.185');
    });

    it('clearing one prefix leaves another prefix on the same server alone', async () => {
      const [one, two] = [await tracked(), await tracked()];
      await one.insert('quote', CUSTOMER, 'quote-1', quote());
      await two.insert('quote', CUSTOMER, 'quote-1', quote());
      await two.setBalance('account-1', 'BRL', '5');
      await one.clear();
      expect(await one.get('quote', 'quote-1')).toBeUndefined();
      expect(await two.get('quote', 'quote-1')).toEqual(quote());
      expect(await two.getBalance('account-1', 'BRL')).toBe('5');
    });

    it('every key the store writes starts with its prefix', async () => {
      const client = new Redis(redis().url);
      try {
        const before = new Set(await client.keys('*'));
        const prefix = uniquePrefix();
        const store = await tracked(prefix);
        await store.insert('quote', CUSTOMER, 'quote-1', quote());
        await store.insert('operation', CUSTOMER, 'op-1', counter({ id: 'op-1', count: 0 }));
        await store.update('operation', 'op-1', (c) => counter({ id: 'op-1', count: countOf(c)! + 1 }));
        await store.insertConsumingQuote('quote-1', 'operation', CUSTOMER, 'op-2', counter({ id: 'op-2', count: 0 }));
        await store.setBalance('account-1', 'BRL', '5');
        await store.moveBalance('account-1', 'USDT', '1');
        await store.updateWithBalances('operation', 'op-1', (c) => c, [{ accountId: 'account-2', asset: 'BRL', delta: '1' }]);
        await store.claimIdempotencyKey('k', 'print', T0, TTL);
        await store.completeIdempotencyKey('k', { status: 201, body: {} });
        await store.seedOnce(() => Promise.resolve());
        await store.importState(await store.exportState(T0));
        const written = (await client.keys('*')).filter((key) => !before.has(key));
        expect(written.length).toBeGreaterThan(0);
        expect(written.filter((key) => !key.startsWith(prefix))).toEqual([]);
      } finally {
        client.disconnect();
      }
    });

    it('without a prefix, a store keeps its keys under "fos:"', async () => {
      const client = new Redis(redis().url);
      const store = await RedisStore.open({ url: redis().url });
      try {
        await store.insert('quote', CUSTOMER, 'default-prefix-quote', quote('default-prefix-quote'));
        expect((await client.keys('fos:*')).length).toBeGreaterThan(0);
        expect(await client.keys('fos:fos:*')).toEqual([]);
      } finally {
        await store.clear();
        await store.close();
        client.disconnect();
      }
    });

    it('two stores on one prefix are one store: what one writes, the other reads at once', async () => {
      const [one, two] = await replicas();
      await one.insert('quote', CUSTOMER, 'quote-1', quote());
      await one.setBalance('account-1', 'BRL', '5');
      await one.claimIdempotencyKey('k', 'print', T0, TTL);
      expect(await two.get('quote', 'quote-1')).toEqual(quote());
      expect(await two.getBalance('account-1', 'BRL')).toBe('5');
      expect((await two.claimIdempotencyKey('k', 'print', T0, TTL)).outcome).toBe('IN_PROGRESS');
      await two.update('quote', 'quote-1', (current) => ({ ...current, rate: '0.2' }));
      expect((await one.get('quote', 'quote-1'))?.rate).toBe('0.2');
      await two.insert('quote', CUSTOMER, 'quote-2', quote('quote-2'));
      expect((await one.all('quote', CUSTOMER)).map((q: QuoteRecord) => q.id)).toEqual(['quote-1', 'quote-2']);
    });

    it('a quote consumed by 100 callers spread over two replicas has exactly one winner: only its operation is stored', async () => {
      const [one, two] = await replicas();
      await one.insert('quote', CUSTOMER, 'quote-1', quote());
      const operations = Array.from({ length: 100 }, (_, i) => `op-${i}`);
      const results = await Promise.all(
        operations.map((op, i) =>
          (i % 2 ? one : two).insertConsumingQuote('quote-1', 'operation', CUSTOMER, op, counter({ id: op, count: i })),
        ),
      );
      const winners = operations.filter((_, i) => results[i]);
      expect(winners).toHaveLength(1);
      const winner = winners[0]!;
      for (const store of [one, two]) {
        expect((await store.get('quote', 'quote-1'))?.operationId).toBe(winner);
        expect(await store.all('operation', CUSTOMER)).toEqual([{ id: winner, count: operations.indexOf(winner) }]);
      }
    });

    it('a replica that read a quote before another replica consumed it reads it consumed, and cannot consume it again', async () => {
      const [one, two] = await replicas();
      await one.insert('quote', CUSTOMER, 'quote-1', quote());
      expect((await two.get('quote', 'quote-1'))?.operationId).toBeNull();
      expect((await two.page('quote', { scope: CUSTOMER, limit: 10, order: 'ASCENDING' })).items[0]?.record.operationId).toBeNull();
      expect(await one.insertConsumingQuote('quote-1', 'operation', CUSTOMER, 'op-1', counter({ id: 'op-1', count: 0 }))).toBe(true);
      expect((await two.get('quote', 'quote-1'))?.operationId).toBe('op-1');
      expect((await two.page('quote', { scope: CUSTOMER, limit: 10, order: 'ASCENDING' })).items[0]?.record.operationId).toBe('op-1');
      expect(await two.get('operation', 'op-1')).toEqual({ id: 'op-1', count: 0 });
      expect(await two.insertConsumingQuote('quote-1', 'operation', CUSTOMER, 'op-2', counter({ id: 'op-2', count: 0 }))).toBe(false);
      expect(await one.get('operation', 'op-2')).toBeUndefined();
    });

    it('100 concurrent increments through update, spread over two replicas, all land', async () => {
      const [one, two] = await replicas();
      await one.insert('operation', CUSTOMER, 'op-1', counter({ id: 'op-1', count: 0 }));
      await Promise.all(
        Array.from({ length: 100 }, (_, i) =>
          (i % 2 ? one : two).update('operation', 'op-1', (current) => counter({ id: 'op-1', count: countOf(current)! + 1 })),
        ),
      );
      expect(countOf(await one.get('operation', 'op-1'))).toBe(100);
    });

    it('50 debits of 3.00 racing on 100.00 from two replicas: 33 succeed and 1.00 is left, never below zero', async () => {
      const [one, two] = await replicas();
      await one.setBalance('account-1', 'BRL', '100.00');
      const results = await Promise.all(Array.from({ length: 50 }, (_, i) => (i % 2 ? one : two).moveBalance('account-1', 'BRL', '-3.00')));
      expect(results.filter((r) => r !== null)).toHaveLength(33);
      expect(await two.getBalance('account-1', 'BRL')).toBe('1');
    });

    it('settlements racing from two replicas keep the record and the balances in agreement', async () => {
      const [one, two] = await replicas();
      await one.insert('operation', CUSTOMER, 'op-1', counter({ id: 'op-1', count: 0 }));
      await one.setBalance('from', 'BRL', '10');
      const settle = (store: RedisStore) =>
        store.updateWithBalances('operation', 'op-1', (current) => counter({ id: 'op-1', count: countOf(current)! + 1 }), [
          { accountId: 'from', asset: 'BRL', delta: '-0.1' },
          { accountId: 'to', asset: 'BRL', delta: '0.1' },
        ]);
      const outcomes = await Promise.all(Array.from({ length: 120 }, (_, i) => settle(i % 2 ? one : two)));
      expect(outcomes.filter((o) => o !== undefined && 'record' in o)).toHaveLength(100);
      expect(countOf(await one.get('operation', 'op-1'))).toBe(100);
      expect(await two.getBalance('from', 'BRL')).toBe('0');
      expect(await two.getBalance('to', 'BRL')).toBe('10');
    });

    it('20 claims of one idempotency key racing from two replicas: exactly one is CLAIMED', async () => {
      const [one, two] = await replicas();
      const claims = await Promise.all(
        Array.from({ length: 20 }, (_, i) => (i % 2 ? one : two).claimIdempotencyKey('k', 'print', T0, TTL)),
      );
      expect(claims.filter((c) => c.outcome === 'CLAIMED')).toHaveLength(1);
    });

    it('two replicas starting on one empty prefix at once: exactly one seeds it', async () => {
      const [one, two] = await replicas();
      let loads = 0;
      const load = (store: RedisStore) => async () => {
        loads++;
        await sleep(20);
        await store.insert('operation', CUSTOMER, `seeded-${loads}`, counter({ id: `seeded-${loads}`, count: 0 }));
      };
      const answers = await Promise.all([one.seedOnce(load(one)), two.seedOnce(load(two))]);
      expect(answers.filter(Boolean)).toHaveLength(1);
      expect(loads).toBe(1);
      expect(await one.all('operation', CUSTOMER)).toEqual([{ id: 'seeded-1', count: 0 }]);
    });
  });

  describe('when Redis goes away', () => {
    it('data written with appendfsync always, a consumed quote and its operation too, survives kill -9 and restart', async () => {
      const server = await startRedisServer({ appendonly: true, appendfsync: 'always' });
      try {
        const prefix = uniquePrefix();
        const before = await RedisStore.open({ url: server.url, prefix });
        await before.insert('quote', CUSTOMER, 'quote-1', quote());
        expect(await before.insertConsumingQuote('quote-1', 'operation', CUSTOMER, 'op-1', counter({ id: 'op-1', count: 1 }))).toBe(true);
        await before.setBalance('account-1', 'BRL', '0.1');
        await before.moveBalance('account-1', 'BRL', '0.2');
        await before.claimIdempotencyKey('k', 'print', T0, TTL);
        await before.completeIdempotencyKey('k', { status: 201, body: { id: 'op-1' } });
        const state = await before.exportState(T0);
        await before.close();
        await server.kill();
        await server.restart();
        const after = await RedisStore.open({ url: server.url, prefix });
        try {
          expect(await after.exportState(T0)).toEqual(state);
          expect((await after.get('quote', 'quote-1'))?.operationId).toBe('op-1');
          expect(await after.all('operation', CUSTOMER)).toEqual([{ id: 'op-1', count: 1 }]);
          expect(await after.insertConsumingQuote('quote-1', 'operation', CUSTOMER, 'op-2', counter({ id: 'op-2', count: 0 }))).toBe(false);
          expect(await after.getBalance('account-1', 'BRL')).toBe('0.3');
          expect((await after.claimIdempotencyKey('k', 'print', T0 + 1, TTL)).outcome).toBe('DONE');
        } finally {
          await after.close();
        }
      } finally {
        await server.stop();
      }
    });

    it('a store that lost its Redis works again, with its data, once Redis is back', async () => {
      const server = await startRedisServer({ appendonly: true, appendfsync: 'always' });
      const store = await RedisStore.open({ url: server.url, prefix: uniquePrefix() });
      try {
        await store.insert('quote', CUSTOMER, 'quote-1', quote());
        await server.kill();
        await expect(store.get('quote', 'quote-1')).rejects.toThrow();
        await server.restart();
        // Asked again until the store has reconnected by itself, however long that takes.
        const read = await retrying('the store to read again once Redis is back', () => store.get('quote', 'quote-1'), { pauseMs: 100 });
        expect(read).toEqual(quote());
        expect(await store.insertConsumingQuote('quote-1', 'operation', CUSTOMER, 'op-1', counter({ id: 'op-1', count: 0 }))).toBe(true);
        expect((await store.get('quote', 'quote-1'))?.operationId).toBe('op-1');
        expect(await store.get('operation', 'op-1')).toEqual({ id: 'op-1', count: 0 });
      } finally {
        await store.close();
        await server.stop();
      }
    });
  });
});
