// The in-memory store: the shared Store contract, then what only this store promises (frozen records).
import { describe, expect, it } from '@jest/globals';
import { MemoryStore } from '../../mock/store/memory-store';
import { quote, storeContract } from './store-contract';

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
