// The Store contract: seeding once and idempotency keys (run for every store by ../store-contract.ts).
import { describe, expect, it } from '@jest/globals';
import type { Store } from '../../../mock/store';
import { CUSTOMER, T0, TTL, asOperation, sleep, type StoreKit } from './kit';

export function keysAndSeedingContract<S extends Store>(kit: StoreKit<S>): void {
  const { fresh, withOperations } = kit;
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
    ])('a key lives in mock time (%s): past its ttl on the wall clock, it is held while the given now has not moved', async (_, start) => {
      const store = await fresh();
      await store.claimIdempotencyKey('done', 'print', start, 20);
      await store.completeIdempotencyKey('done', { status: 201, body: {} });
      await store.claimIdempotencyKey('running', 'print', start, 20);
      await sleep(150);
      expect((await store.claimIdempotencyKey('done', 'print', start + 19, 20)).outcome).toBe('DONE');
      expect((await store.claimIdempotencyKey('running', 'print', start + 19, 20)).outcome).toBe('IN_PROGRESS');
      expect((await store.claimIdempotencyKey('done', 'print', start + 20, 20)).outcome).toBe('CLAIMED');
    });

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
}
