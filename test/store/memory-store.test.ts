import { describe, expect, it } from '@jest/globals';
import { MemoryStore } from '../../mock/store/memory-store';
import type { Operation, QuoteRecord, SubscriptionRecord } from '../../mock/store/records';

const CUSTOMER = 'customer-a';
const ACCOUNT = 'account-1';

function quote(id = 'quote-1'): QuoteRecord {
  return {
    id,
    customerId: CUSTOMER,
    accountId: ACCOUNT,
    sourceAsset: 'BRL',
    targetAsset: 'USDT',
    sourceAmount: '100.00',
    targetAmount: '18.500000',
    rate: '0.185',
    createdAt: '2025-03-10T14:30:00.000Z',
    expiresAt: '2025-03-10T14:30:30.000Z',
    operationId: null,
    internal: false,
  };
}

/**
 * The store never looks inside a record, so some tests keep small stand-ins (an id, a number)
 * under the operation and subscription kinds; these two give a stand-in its kind's record type.
 */
interface StandIn {
  id?: string;
  n?: number;
  v?: number;
  count?: number;
}
const asOperation = (record: StandIn) => record as Operation;
const asSubscription = (record: StandIn) => record as unknown as SubscriptionRecord;

async function storeWithQuote(): Promise<MemoryStore> {
  const store = new MemoryStore();
  await store.insert('quote', CUSTOMER, 'quote-1', quote());
  return store;
}

describe('consuming quotes', () => {
  it('when 100 operations consume one quote at once, then exactly one wins and the quote names the winner', async () => {
    const store = await storeWithQuote();
    const operations = Array.from({ length: 100 }, (_, i) => `op-${i}`);
    const results = await Promise.all(operations.map((op) => store.consumeQuote('quote-1', op)));
    const winners = operations.filter((_, i) => results[i]);
    expect(winners).toHaveLength(1);
    expect((await store.get('quote', 'quote-1'))?.operationId).toBe(winners[0]);
  });

  it('a quote consumed once cannot be consumed again, even by the same operation', async () => {
    const store = await storeWithQuote();
    expect(await store.consumeQuote('quote-1', 'op-1')).toBe(true);
    expect(await store.consumeQuote('quote-1', 'op-1')).toBe(false);
    expect(await store.consumeQuote('quote-1', 'op-2')).toBe(false);
    expect((await store.get('quote', 'quote-1'))?.operationId).toBe('op-1');
  });

  it('an unknown quote cannot be consumed', async () => {
    const store = new MemoryStore();
    expect(await store.consumeQuote('nope', 'op-1')).toBe(false);
  });

  it('consuming a quote leaves the record handed out earlier unchanged (records are immutable values)', async () => {
    const store = await storeWithQuote();
    const before = await store.get('quote', 'quote-1');
    await store.consumeQuote('quote-1', 'op-1');
    expect(before?.operationId).toBeNull();
  });

  it('a release by an operation that does not hold the quote changes nothing', async () => {
    const store = await storeWithQuote();
    await store.consumeQuote('quote-1', 'op-1');
    await store.releaseQuote('quote-1', 'op-2');
    expect((await store.get('quote', 'quote-1'))?.operationId).toBe('op-1');
    expect(await store.consumeQuote('quote-1', 'op-2')).toBe(false);
  });

  it('a release by the holder frees the quote for another operation', async () => {
    const store = await storeWithQuote();
    await store.consumeQuote('quote-1', 'op-1');
    await store.releaseQuote('quote-1', 'op-1');
    expect((await store.get('quote', 'quote-1'))?.operationId).toBeNull();
    expect(await store.consumeQuote('quote-1', 'op-2')).toBe(true);
  });

  it('releasing an unknown quote is harmless', async () => {
    const store = new MemoryStore();
    await expect(store.releaseQuote('nope', 'op-1')).resolves.toBeUndefined();
  });
});

describe('balances', () => {
  it('an account and asset never set has a zero balance', async () => {
    expect(await new MemoryStore().getBalance(ACCOUNT, 'BRL')).toBe('0');
  });

  it('adding 0.1 and then 0.2 gives exactly 0.3', async () => {
    const store = new MemoryStore();
    await store.moveBalance(ACCOUNT, 'BRL', '0.1');
    expect(await store.moveBalance(ACCOUNT, 'BRL', '0.2')).toBe('0.3');
    expect(await store.getBalance(ACCOUNT, 'BRL')).toBe('0.3');
  });

  it('a debit larger than the balance is refused and nothing moves', async () => {
    const store = new MemoryStore();
    await store.setBalance(ACCOUNT, 'BRL', '100.00');
    expect(await store.moveBalance(ACCOUNT, 'BRL', '-100.01')).toBeNull();
    expect(await store.getBalance(ACCOUNT, 'BRL')).toBe('100');
  });

  it('a debit from an account with no balance is refused', async () => {
    const store = new MemoryStore();
    expect(await store.moveBalance(ACCOUNT, 'USDT', '-0.000001')).toBeNull();
    expect(await store.getBalance(ACCOUNT, 'USDT')).toBe('0');
  });

  it('a debit of the whole balance leaves exactly zero', async () => {
    const store = new MemoryStore();
    await store.setBalance(ACCOUNT, 'USDT', '18.500000');
    expect(await store.moveBalance(ACCOUNT, 'USDT', '-18.5')).toBe('0');
  });

  it('when 50 debits of the whole balance run at once, then exactly one succeeds and the balance ends at zero', async () => {
    const store = new MemoryStore();
    await store.setBalance(ACCOUNT, 'BRL', '100.00');
    const results = await Promise.all(Array.from({ length: 50 }, () => store.moveBalance(ACCOUNT, 'BRL', '-100.00')));
    expect(results.filter((r) => r !== null)).toEqual(['0']);
    expect(await store.getBalance(ACCOUNT, 'BRL')).toBe('0');
  });

  it('when 50 debits of 3.00 run at once on 100.00, then 33 succeed and 1.00 is left', async () => {
    const store = new MemoryStore();
    await store.setBalance(ACCOUNT, 'BRL', '100.00');
    const results = await Promise.all(Array.from({ length: 50 }, () => store.moveBalance(ACCOUNT, 'BRL', '-3.00')));
    expect(results.filter((r) => r !== null)).toHaveLength(33);
    expect(await store.getBalance(ACCOUNT, 'BRL')).toBe('1');
  });

  it('balances are kept per account and per asset', async () => {
    const store = new MemoryStore();
    await store.setBalance(ACCOUNT, 'BRL', '10.00');
    await store.setBalance(ACCOUNT, 'USDT', '2.500000');
    await store.setBalance('account-2', 'BRL', '7');
    expect(await store.balances(ACCOUNT)).toEqual({ BRL: '10', USDT: '2.5' });
    expect(await store.balances('account-2')).toEqual({ BRL: '7' });
    expect(await store.balances('account-3')).toEqual({});
  });

  it('a large USDT balance keeps every one of its six decimals when moved', async () => {
    // 21 significant digits: more than decimal.js keeps by default (20).
    const store = new MemoryStore();
    await store.setBalance(ACCOUNT, 'USDT', '123456789012345.123456');
    expect(await store.moveBalance(ACCOUNT, 'USDT', '0.000001')).toBe('123456789012345.123457');
    expect(await store.getBalance(ACCOUNT, 'USDT')).toBe('123456789012345.123457');
  });
});

describe('records', () => {
  it('an inserted record is read back by id', async () => {
    const store = await storeWithQuote();
    expect(await store.get('quote', 'quote-1')).toEqual(quote());
    expect(await store.get('quote', 'nope')).toBeUndefined();
  });

  it('inserting a second record with the same id is refused', async () => {
    const store = await storeWithQuote();
    await expect(store.insert('quote', CUSTOMER, 'quote-1', quote())).rejects.toThrow('exists already');
  });

  it('kinds are separate: the same id may exist as two kinds', async () => {
    const store = await storeWithQuote();
    await store.insert('operation', CUSTOMER, 'quote-1', asOperation({ id: 'quote-1' }));
    expect((await store.get('quote', 'quote-1'))?.rate).toBe('0.185');
    expect(await store.get('operation', 'quote-1')).toEqual({ id: 'quote-1' });
  });

  it('when 100 updates increment a counter at once, then none is lost (read-modify-write is atomic)', async () => {
    const store = new MemoryStore();
    await store.insert('operation', CUSTOMER, 'op-1', asOperation({ id: 'op-1', count: 0 }));
    await Promise.all(
      Array.from({ length: 100 }, () =>
        store.update('operation', 'op-1', (current: StandIn) => asOperation({ ...current, count: current.count! + 1 })),
      ),
    );
    const counter: StandIn | undefined = await store.get('operation', 'op-1');
    expect(counter?.count).toBe(100);
  });

  it('an update resolves to the new record', async () => {
    const store = new MemoryStore();
    await store.insert('operation', CUSTOMER, 'op-1', asOperation({ id: 'op-1', v: 1 }));
    expect(await store.update('operation', 'op-1', (c: StandIn) => asOperation({ ...c, v: 2 }))).toEqual({ id: 'op-1', v: 2 });
  });

  it('an update whose change throws rejects and leaves the record as it was', async () => {
    const store = new MemoryStore();
    await store.insert('operation', CUSTOMER, 'op-1', asOperation({ id: 'op-1', v: 1 }));
    await expect(
      store.update('operation', 'op-1', () => {
        throw new Error('abort');
      }),
    ).rejects.toThrow('abort');
    expect(await store.get('operation', 'op-1')).toEqual({ id: 'op-1', v: 1 });
  });

  it('an update of a missing record resolves to undefined and creates nothing', async () => {
    const store = new MemoryStore();
    expect(await store.update('operation', 'nope', (c) => c)).toBeUndefined();
    expect(await store.get('operation', 'nope')).toBeUndefined();
  });

  it('a replaced record keeps its place in the list', async () => {
    const store = new MemoryStore();
    for (const id of ['a', 'b', 'c']) await store.insert('operation', CUSTOMER, id, asOperation({ id, v: 1 }));
    await store.replace('operation', 'b', asOperation({ id: 'b', v: 2 }));
    expect(await store.all('operation', CUSTOMER)).toEqual([
      { id: 'a', v: 1 },
      { id: 'b', v: 2 },
      { id: 'c', v: 1 },
    ]);
  });

  it('replacing a missing record is refused', async () => {
    await expect(new MemoryStore().replace('operation', 'nope', asOperation({}))).rejects.toThrow('does not exist');
  });

  it('all() lists a scope in insertion order and no other scope', async () => {
    const store = new MemoryStore();
    await store.insert('subscription', 'customer-a', 's1', asSubscription({ n: 1 }));
    await store.insert('subscription', 'customer-b', 's2', asSubscription({ n: 2 }));
    await store.insert('subscription', 'customer-a', 's3', asSubscription({ n: 3 }));
    expect(await store.all('subscription', 'customer-a')).toEqual([{ n: 1 }, { n: 3 }]);
  });
});

describe('removing records', () => {
  async function three(): Promise<MemoryStore> {
    const store = new MemoryStore();
    for (const id of ['a', 'b', 'c']) await store.insert('operation', CUSTOMER, id, asOperation({ id }));
    return store;
  }

  it('a removed record is gone by id and drops out of pages', async () => {
    const store = await three();
    await store.remove('operation', 'b');
    expect(await store.get('operation', 'b')).toBeUndefined();
    const page = await store.page('operation', { scope: CUSTOMER, limit: 10, order: 'ASCENDING' });
    expect(page.items.map((i) => i.record.id)).toEqual(['a', 'c']);
    expect(await store.all('operation', CUSTOMER)).toEqual([{ id: 'a' }, { id: 'c' }]);
  });

  it('removing the last record of a page makes the page before it the last', async () => {
    const store = await three();
    const first = await store.page('operation', { scope: CUSTOMER, limit: 2, order: 'ASCENDING' });
    expect(first.hasAfter).toBe(true);
    await store.remove('operation', 'c');
    expect((await store.page('operation', { scope: CUSTOMER, limit: 2, order: 'ASCENDING' })).hasAfter).toBe(false);
  });

  it('removing an unknown record is harmless', async () => {
    const store = await three();
    await store.remove('operation', 'nope');
    expect(await store.all('operation', CUSTOMER)).toHaveLength(3);
  });

  it('an id removed and inserted again goes to the end of the list', async () => {
    const store = await three();
    await store.remove('operation', 'a');
    await store.insert('operation', CUSTOMER, 'a', asOperation({ id: 'a' }));
    expect(await store.all('operation', CUSTOMER)).toEqual([{ id: 'b' }, { id: 'c' }, { id: 'a' }]);
  });
});

describe('idempotency keys', () => {
  const TTL = 24 * 60 * 60 * 1000;
  const T0 = Date.parse('2025-03-10T00:00:00.000Z');

  it('the first claim of a key is CLAIMED', async () => {
    expect(await new MemoryStore().claimIdempotencyKey('k', 'print', T0, TTL)).toEqual({ outcome: 'CLAIMED' });
  });

  it('a second claim while the first is running is IN_PROGRESS and shows the first fingerprint', async () => {
    const store = new MemoryStore();
    await store.claimIdempotencyKey('k', 'print-1', T0, TTL);
    const claim = await store.claimIdempotencyKey('k', 'print-2', T0 + 1, TTL);
    expect(claim.outcome).toBe('IN_PROGRESS');
    expect(claim.outcome !== 'CLAIMED' && claim.entry.fingerprint).toBe('print-1');
  });

  it('when 20 claims of one key race, then exactly one is CLAIMED', async () => {
    const store = new MemoryStore();
    const claims = await Promise.all(Array.from({ length: 20 }, () => store.claimIdempotencyKey('k', 'print', T0, TTL)));
    expect(claims.filter((c) => c.outcome === 'CLAIMED')).toHaveLength(1);
  });

  it('a claim after completion is DONE with the stored response', async () => {
    const store = new MemoryStore();
    await store.claimIdempotencyKey('k', 'print', T0, TTL);
    await store.completeIdempotencyKey('k', { status: 201, body: { id: 'op-1' } });
    const claim = await store.claimIdempotencyKey('k', 'print', T0 + 1000, TTL);
    expect(claim).toEqual({
      outcome: 'DONE',
      entry: { fingerprint: 'print', state: 'DONE', expiresAt: T0 + TTL, response: { status: 201, body: { id: 'op-1' } } },
    });
  });

  it('a key is still held one millisecond before its ttl ends', async () => {
    const store = new MemoryStore();
    await store.claimIdempotencyKey('k', 'print', T0, TTL);
    await store.completeIdempotencyKey('k', { status: 201, body: {} });
    expect((await store.claimIdempotencyKey('k', 'print', T0 + TTL - 1, TTL)).outcome).toBe('DONE');
  });

  it('a key is free again once its ttl has passed by the given now', async () => {
    const store = new MemoryStore();
    await store.claimIdempotencyKey('k', 'print', T0, TTL);
    await store.completeIdempotencyKey('k', { status: 201, body: {} });
    expect(await store.claimIdempotencyKey('k', 'other-print', T0 + TTL, TTL)).toEqual({ outcome: 'CLAIMED' });
    expect((await store.claimIdempotencyKey('k', 'x', T0 + TTL, TTL)).outcome).toBe('IN_PROGRESS');
  });

  it('a key left IN_PROGRESS also expires after its ttl', async () => {
    const store = new MemoryStore();
    await store.claimIdempotencyKey('k', 'print', T0, TTL);
    expect((await store.claimIdempotencyKey('k', 'print', T0 + TTL, TTL)).outcome).toBe('CLAIMED');
  });

  it('a released key can be claimed again at once', async () => {
    const store = new MemoryStore();
    await store.claimIdempotencyKey('k', 'print', T0, TTL);
    await store.releaseIdempotencyKey('k');
    expect((await store.claimIdempotencyKey('k', 'print', T0, TTL)).outcome).toBe('CLAIMED');
  });

  it('keys are independent of one another', async () => {
    const store = new MemoryStore();
    await store.claimIdempotencyKey('customer-a:k', 'print', T0, TTL);
    expect((await store.claimIdempotencyKey('customer-b:k', 'print', T0, TTL)).outcome).toBe('CLAIMED');
  });

  it('a live key survives the periodic sweep of expired keys', async () => {
    const store = new MemoryStore();
    await store.claimIdempotencyKey('live', 'print', T0, TTL);
    await store.completeIdempotencyKey('live', { status: 201, body: { id: 'op-1' } });
    for (let i = 0; i < 1100; i++) await store.claimIdempotencyKey(`k-${i}`, 'print', T0 + 1, 1);
    expect((await store.claimIdempotencyKey('live', 'print', T0 + 10, TTL)).outcome).toBe('DONE');
  });
});

describe('records kept by the memory store', () => {
  it('are frozen, nested parts included: an edit in place throws instead of changing a stored record unseen', async () => {
    const store = await storeWithQuote();
    const stored = (await store.get('quote', 'quote-1'))!;
    expect(() => Object.assign(stored, { sourceAmount: '1.00' })).toThrow(TypeError);
    const updated = (await store.update('quote', 'quote-1', (current) => ({ ...current, operationId: 'op-1' })))!;
    expect(Object.isFrozen(updated)).toBe(true);
    expect(stored.operationId).toBeNull();
  });
});
