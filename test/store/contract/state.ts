// The Store contract: export, import and clear (run for every store by ../store-contract.ts).
import { describe, expect, it } from '@jest/globals';
import type { Store, StoreState, StoredRecord } from '../../../mock/store';
import {
  ACCOUNT,
  CUSTOMER,
  OTHER_CUSTOMER,
  T0,
  TTL,
  asOperation,
  asSubscription,
  idsOf,
  quote,
  shape,
  type StandIn,
  type StoreKit,
} from './kit';

export function stateContract<S extends Store>(kit: StoreKit<S>): void {
  const { fresh, withOperations, keysById, page } = kit;
  describe('export and import', () => {
    const NOW = T0 + 1000;

    /**
     * Operations a, z (other scope), c in that order (b removed), c inserted consuming quote q1, a
     * subscription, three balances, and keys: 'done' (finished), 'running' (in progress),
     * 'old' (finished but expired at NOW).
     */
    async function populated(): Promise<S> {
      const store = await fresh();
      await store.insert('quote', CUSTOMER, 'q1', quote('q1'));
      await store.insert('operation', CUSTOMER, 'a', asOperation({ id: 'a', v: 1 }));
      await store.insert('operation', CUSTOMER, 'b', asOperation({ id: 'b' }));
      await store.insert('operation', OTHER_CUSTOMER, 'z', asOperation({ id: 'z' }));
      expect(
        await store.insertConsumingQuote('q1', 'operation', CUSTOMER, 'c', asOperation({ id: 'c', nested: { list: [1, null] } })),
      ).toBe(true);
      await store.insert('subscription', CUSTOMER, 's1', asSubscription({ n: 1 }));
      await store.remove('operation', 'b');
      await store.update('operation', 'a', (current: StandIn) => asOperation({ ...current, v: 2 }));
      await store.setBalance(ACCOUNT, 'BRL', '10.50');
      await store.setBalance(ACCOUNT, 'USDT', '0.000001');
      await store.setBalance('account-2', 'BRL', '0');
      await store.claimIdempotencyKey('old', 'print-old', T0 - TTL - 1, TTL);
      await store.completeIdempotencyKey('old', { status: 201, body: { id: 'old' } });
      await store.claimIdempotencyKey('done', 'print-done', T0, TTL);
      await store.completeIdempotencyKey('done', { status: 201, body: { id: 'op-1' } });
      await store.claimIdempotencyKey('running', 'print-running', T0, TTL);
      return store;
    }

    /** A store's export through JSON text, as a snapshot file carries it. */
    async function exported(store: Store, now = NOW): Promise<StoreState> {
      return JSON.parse(JSON.stringify(await store.exportState(now))) as StoreState;
    }

    it('an export is plain JSON: records by kind in insertion order with scopes and keys, balances, finished live keys', async () => {
      const store = await populated();
      const state = await store.exportState(NOW);
      expect(JSON.parse(JSON.stringify(state))).toEqual(state);
      const operations = state.records.operation!;
      expect(operations.map(({ id, scope, record }) => ({ id, scope, record }))).toEqual([
        { id: 'a', scope: CUSTOMER, record: { id: 'a', v: 2 } },
        { id: 'z', scope: OTHER_CUSTOMER, record: { id: 'z' } },
        { id: 'c', scope: CUSTOMER, record: { id: 'c', nested: { list: [1, null] } } },
      ]);
      const keys = operations.map((item) => item.key);
      expect([...keys].sort((p, q) => p - q)).toEqual(keys);
      expect(keys).toEqual([(await keysById(store)).a, (await keysById(store, OTHER_CUSTOMER)).z, (await keysById(store)).c]);
      expect(state.records.quote).toEqual([
        expect.objectContaining({ id: 'q1', scope: CUSTOMER, record: { ...quote('q1'), operationId: 'c' } }),
      ]);
      expect(state.records.subscription).toEqual([expect.objectContaining({ id: 's1', scope: CUSTOMER, record: { n: 1 } })]);
      expect(Object.keys(state.records).sort()).toEqual(['operation', 'quote', 'subscription']);
      expect(state.sequence).toBeGreaterThanOrEqual(
        Math.max(...Object.values(state.records).flatMap((list) => (list ?? []).map((i) => i.key))),
      );
      expect([...state.balances].sort((p, q) => `${p.accountId}${p.asset}`.localeCompare(`${q.accountId}${q.asset}`))).toEqual([
        { accountId: ACCOUNT, asset: 'BRL', value: '10.5' },
        { accountId: ACCOUNT, asset: 'USDT', value: '0.000001' },
        { accountId: 'account-2', asset: 'BRL', value: '0' },
      ]);
      expect(state.idempotency).toEqual([
        { key: 'done', fingerprint: 'print-done', state: 'DONE', expiresAt: T0 + TTL, response: { status: 201, body: { id: 'op-1' } } },
      ]);
    });

    it('an export leaves the store as it was: the key in progress is still held', async () => {
      const store = await populated();
      await store.exportState(NOW);
      expect((await store.claimIdempotencyKey('running', 'print', NOW, TTL)).outcome).toBe('IN_PROGRESS');
      expect((await store.claimIdempotencyKey('done', 'print', NOW, TTL)).outcome).toBe('DONE');
    });

    it('a state imported into an empty store exports the same again', async () => {
      const state = await exported(await populated());
      const copy = await fresh();
      await copy.importState(state);
      expect(await exported(copy)).toEqual(state);
    });

    it('after an import, records, pages, cursors, list order and balances are those of the store it came from', async () => {
      const original = await populated();
      const copy = await fresh();
      await copy.importState(await exported(original));
      expect(await page(copy, {})).toEqual(await page(original, {}));
      expect(await page(copy, { order: 'DESCENDING', scope: OTHER_CUSTOMER })).toEqual(
        await page(original, { order: 'DESCENDING', scope: OTHER_CUSTOMER }),
      );
      const keys = await keysById(original);
      expect(shape(await page(copy, { limit: 1, from: { key: keys.a!, direction: 'NEXT' } }))).toEqual({
        ids: ['c'],
        hasBefore: true,
        hasAfter: false,
      });
      expect(await copy.all('subscription', CUSTOMER)).toEqual([{ n: 1 }]);
      expect(await copy.get('quote', 'q1')).toEqual(await original.get('quote', 'q1'));
      expect(await copy.get('operation', 'b')).toBeUndefined();
      expect(await copy.insertConsumingQuote('q1', 'operation', CUSTOMER, 'op-2', asOperation({ id: 'op-2' }))).toBe(false);
      expect(await copy.get('operation', 'op-2')).toBeUndefined();
      expect(await copy.balances(ACCOUNT)).toEqual({ BRL: '10.5', USDT: '0.000001' });
      expect(await copy.balances('account-2')).toEqual({ BRL: '0' });
    });

    it('after an import, a finished key replays its answer; keys in progress or expired at export are free', async () => {
      const original = await populated();
      const copy = await fresh();
      await copy.importState(await exported(original));
      expect(await copy.claimIdempotencyKey('done', 'print-done', NOW, TTL)).toEqual(
        await original.claimIdempotencyKey('done', 'print-done', NOW, TTL),
      );
      expect((await copy.claimIdempotencyKey('running', 'print', NOW, TTL)).outcome).toBe('CLAIMED');
      expect((await copy.claimIdempotencyKey('old', 'print', T0 - TTL, TTL)).outcome).toBe('CLAIMED');
    });

    it('a record inserted after an import is keyed after the imported sequence', async () => {
      const state = await exported(await populated());
      const copy = await fresh();
      await copy.importState({ ...state, sequence: state.sequence + 100 });
      await copy.insert('operation', CUSTOMER, 'new', asOperation({ id: 'new' }));
      expect((await keysById(copy)).new).toBeGreaterThan(state.sequence + 100);
      expect(idsOf(await page(copy, {}))).toEqual(['a', 'c', 'new']);
    });

    it('an import whose sequence lags behind its records still keys new records after every imported key', async () => {
      const copy = await fresh();
      await copy.importState({
        sequence: 0,
        records: { operation: [{ scope: CUSTOMER, id: 'a', key: 40, record: { id: 'a' } }] },
        balances: [],
        idempotency: [],
      });
      await copy.insert('operation', CUSTOMER, 'b', asOperation({ id: 'b' }));
      expect((await keysById(copy)).b).toBeGreaterThan(40);
      expect(idsOf(await page(copy, {}))).toEqual(['a', 'b']);
    });

    it('records listed out of key order in an imported state are listed by key', async () => {
      const copy = await fresh();
      await copy.importState({
        sequence: 30,
        records: {
          operation: [
            { scope: CUSTOMER, id: 'late', key: 30, record: { id: 'late' } },
            { scope: CUSTOMER, id: 'early', key: 10, record: { id: 'early' } },
            { scope: CUSTOMER, id: 'middle', key: 20, record: { id: 'middle' } },
          ],
        },
        balances: [],
        idempotency: [],
      });
      expect(await copy.all('operation', CUSTOMER)).toEqual([{ id: 'early' }, { id: 'middle' }, { id: 'late' }]);
      expect(await page(copy, {})).toEqual({
        items: [
          { key: 10, record: { id: 'early' } },
          { key: 20, record: { id: 'middle' } },
          { key: 30, record: { id: 'late' } },
        ],
        hasBefore: false,
        hasAfter: false,
      });
    });

    it('an import replaces everything the store held before', async () => {
      const store = await populated();
      await store.importState({
        sequence: 1,
        records: { operation: [{ scope: CUSTOMER, id: 'only', key: 1, record: { id: 'only' } }] },
        balances: [{ accountId: 'account-9', asset: 'BRL', value: '1' }],
        idempotency: [],
      });
      expect(await store.all('operation', CUSTOMER)).toEqual([{ id: 'only' }]);
      expect(await store.all('operation', OTHER_CUSTOMER)).toEqual([]);
      expect(await store.get('quote', 'q1')).toBeUndefined();
      expect(await store.all('subscription', CUSTOMER)).toEqual([]);
      expect(await store.balances(ACCOUNT)).toEqual({});
      expect(await store.balances('account-9')).toEqual({ BRL: '1' });
      expect((await store.claimIdempotencyKey('done', 'print', NOW, TTL)).outcome).toBe('CLAIMED');
      expect((await store.claimIdempotencyKey('running', 'print', NOW, TTL)).outcome).toBe('CLAIMED');
    });

    const refused: Array<[string, StoreState['records']]> = [
      [
        'the same id twice in one kind',
        {
          operation: [
            { scope: CUSTOMER, id: 'x', key: 1, record: { id: 'x' } },
            { scope: OTHER_CUSTOMER, id: 'x', key: 2, record: { id: 'x' } },
          ],
        },
      ],
      [
        'a key repeated in one kind',
        {
          operation: [
            { scope: CUSTOMER, id: 'x', key: 1, record: { id: 'x' } },
            { scope: CUSTOMER, id: 'y', key: 1, record: { id: 'y' } },
          ],
        },
      ],
      ['a zero key', { operation: [{ scope: CUSTOMER, id: 'x', key: 0, record: { id: 'x' } }] }],
      ['a negative key', { operation: [{ scope: CUSTOMER, id: 'x', key: -3, record: { id: 'x' } }] }],
      ['a fractional key', { operation: [{ scope: CUSTOMER, id: 'x', key: 1.5, record: { id: 'x' } }] }],
      ['a missing key', { operation: [{ scope: CUSTOMER, id: 'x', record: { id: 'x' } } as unknown as StoredRecord] }],
    ];

    it.each(refused)('an import with %s is refused and the store is left exactly as it was', async (_, records) => {
      const store = await populated();
      const before = await exported(store);
      const bad: StoreState = {
        sequence: 5,
        records: { ...records, quote: [{ scope: CUSTOMER, id: 'q9', key: 7, record: quote('q9') }] },
        balances: [{ accountId: ACCOUNT, asset: 'BRL', value: '999' }],
        idempotency: [],
      };
      await expect(store.importState(bad)).rejects.toThrow();
      expect(await exported(store)).toEqual(before);
      expect((await store.claimIdempotencyKey('running', 'print', NOW, TTL)).outcome).toBe('IN_PROGRESS');
      await store.insert('operation', CUSTOMER, 'after', asOperation({ id: 'after' }));
      expect((await keysById(store)).after).toBeGreaterThan(before.sequence);
    });
  });

  describe('clear', () => {
    const NOW = T0 + 1000;

    it('clear empties records, lists, balances and idempotency keys: the store exports as a new one does', async () => {
      const store = await fresh();
      await store.insert('quote', CUSTOMER, 'q1', quote('q1'));
      for (const id of ['a', 'b']) await store.insert('operation', CUSTOMER, id, asOperation({ id }));
      await store.setBalance(ACCOUNT, 'BRL', '3');
      await store.claimIdempotencyKey('done', 'print', T0, TTL);
      await store.completeIdempotencyKey('done', { status: 201, body: {} });
      await store.claimIdempotencyKey('running', 'print', T0, TTL);
      await store.clear();
      expect(await store.exportState(NOW)).toEqual(await (await fresh()).exportState(NOW));
      expect(await store.get('quote', 'q1')).toBeUndefined();
      expect(await store.all('operation', CUSTOMER)).toEqual([]);
      expect(shape(await page(store, {}))).toEqual({ ids: [], hasBefore: false, hasAfter: false });
      expect(await store.getBalance(ACCOUNT, 'BRL')).toBe('0');
      expect(await store.balances(ACCOUNT)).toEqual({});
      expect((await store.claimIdempotencyKey('done', 'print', NOW, TTL)).outcome).toBe('CLAIMED');
      expect((await store.claimIdempotencyKey('running', 'print', NOW, TTL)).outcome).toBe('CLAIMED');
    });

    it('after clear the insertion sequence starts again: the first record gets the key a new store gives its first', async () => {
      const newStore = await withOperations(['first']);
      const used = await withOperations(['a', 'b', 'c', 'd']);
      await used.clear();
      await used.insert('operation', CUSTOMER, 'first', asOperation({ id: 'first' }));
      expect(await keysById(used)).toEqual(await keysById(newStore));
      expect((await used.exportState(NOW)).sequence).toBe((await newStore.exportState(NOW)).sequence);
    });

    it('after clear an id used before can be inserted again', async () => {
      const store = await withOperations(['a']);
      await store.clear();
      await store.insert('operation', CUSTOMER, 'a', asOperation({ id: 'a', v: 2 }));
      expect(await store.get('operation', 'a')).toEqual({ id: 'a', v: 2 });
    });
  });
}
