// The in-memory store: the shared Store contract, then what only this store promises (frozen records handed out as they are kept).
import { describe, expect, it } from '@jest/globals';
import { MemoryStore } from '../../mock/store';
import { quote } from './contract/kit';
import { storeContract } from './store-contract';

storeContract('MemoryStore', () => Promise.resolve(new MemoryStore()));

describe('records kept by the memory store', () => {
  it('are frozen, nested parts included: an edit in place throws instead of changing a stored record unseen', async () => {
    const store = new MemoryStore();
    await store.insert('quote', 'customer-a', 'quote-1', quote());
    const stored = (await store.get('quote', 'quote-1'))!;
    expect(() => Object.assign(stored, { sourceAmount: '1.00' })).toThrow(TypeError);
    const updated = (await store.update('quote', 'quote-1', (current) => ({ ...current, operationId: 'op-1' })))!;
    expect(Object.isFrozen(updated)).toBe(true);
    expect(stored.operationId).toBeNull();
  });

  it('are handed out without copying: two reads give the same frozen object', async () => {
    const store = new MemoryStore();
    await store.insert('quote', 'customer-a', 'quote-1', quote());
    expect(await store.get('quote', 'quote-1')).toBe(await store.get('quote', 'quote-1'));
  });
});

describe('lists and answers in the memory store', () => {
  const op = (i: number) => ({ ...quote(`q-${i}`), sourceAmount: `${i}.00`, createdAt: new Date(Date.UTC(2025, 0, 1) + i).toISOString() });

  it('when ten thousand records are stored in two lists, then every one reads back equal, in order, page by page', async () => {
    const store = new MemoryStore();
    const count = 10_000;
    for (let i = 0; i < count; i++) await store.insert('quote', i % 2 === 0 ? 'customer-a' : 'customer-b', `q-${i}`, op(i));
    expect(await store.get('quote', 'q-7')).toEqual(op(7));
    const seen: string[] = [];
    let from: { key: number; direction: 'NEXT' } | undefined;
    for (;;) {
      const page = await store.page('quote', { scope: 'customer-a', limit: 100, order: 'DESCENDING', from });
      seen.push(...page.items.map((item) => item.record.id));
      const last = page.items[page.items.length - 1];
      if (!page.hasAfter || !last) break;
      from = { key: last.key, direction: 'NEXT' };
    }
    expect(seen).toEqual(Array.from({ length: count / 2 }, (_, i) => `q-${count - 2 - 2 * i}`));
    const exported = await store.exportState(0);
    expect(exported.records.quote!.map((r) => r.record)).toEqual(Array.from({ length: count }, (_, i) => op(i)));
  });

  it('when a record is removed and another stored, then the new one takes its place at the end of its list only', async () => {
    const store = new MemoryStore();
    for (let i = 0; i < 3; i++) await store.insert('quote', 'customer-a', `q-${i}`, op(i));
    await store.remove('quote', 'q-1');
    await store.insert('quote', 'customer-a', 'q-3', op(3));
    const all = await store.all('quote', 'customer-a');
    expect(all.map((q) => q.id)).toEqual(['q-0', 'q-2', 'q-3']);
    expect(await store.get('quote', 'q-1')).toBeUndefined();
    await store.update('quote', 'q-0', (current) => ({ ...current, operationId: 'op-0' }));
    expect((await store.page('quote', { scope: 'customer-a', limit: 1, order: 'ASCENDING' })).items[0]!.record.operationId).toBe('op-0');
  });

  it('when an idempotency answer is kept, then a replay gives it back equal', async () => {
    const store = new MemoryStore();
    const body = { id: 'op-1', amount: { asset: 'BRL', value: '10.00' }, note: undefined };
    await store.claimIdempotencyKey(`customer-a:${'k'}`, 'print', 0, 1000);
    await store.completeIdempotencyKey('customer-a:k', { status: 201, body });
    const claim = await store.claimIdempotencyKey('customer-a:k', 'print', 1, 1000);
    expect(claim).toStrictEqual({
      outcome: 'DONE',
      entry: { fingerprint: 'print', state: 'DONE', expiresAt: 1000, response: { status: 201, body } },
    });
  });
});
