// Marks on records the memory store hands out (mock/store/record-marks.ts): they hold as long as
// the record's kept form does, across the store's decoded window, and go when the record changes.
import { describe, expect, it } from '@jest/globals';
import { MemoryStore } from '../../mock/store/memory-store';
import { handedOutOnce, hasMark, setMark } from '../../mock/store/record-marks';
import { quote } from './store-contract';

/** More records than the store keeps decoded, so the first ones are decoded again when read. */
async function crowdOut(store: MemoryStore): Promise<void> {
  for (let i = 0; i < 5000; i++) await store.insert('quote', 'customer-b', `filler-${i}`, quote(`filler-${i}`));
}

describe('marks on stored records', () => {
  const checked = {};

  it('a record decoded again from its unchanged kept form carries the mark put on it before', async () => {
    const store = new MemoryStore();
    await store.insert('quote', 'customer-a', 'quote-1', quote('quote-1'));
    const first = (await store.get('quote', 'quote-1'))!;
    expect(hasMark(first, checked)).toBe(false);
    setMark(first, checked);
    await crowdOut(store);
    const again = (await store.get('quote', 'quote-1'))!;
    expect(again).not.toBe(first);
    expect(again).toEqual(first);
    expect(hasMark(again, checked)).toBe(true);
  });

  it('a record read once is handed out once (nothing keeps it); read again, it is the object the store keeps at hand', async () => {
    const store = new MemoryStore();
    await store.insert('quote', 'customer-a', 'quote-1', quote('quote-1'));
    await crowdOut(store);
    const once = (await store.get('quote', 'quote-1'))!;
    expect(handedOutOnce(once)).toBe(true);
    // Its mark is the store's, on its row: the next object decoded from the same form carries it.
    expect(setMark(once, checked)).toBe(true);
    const kept = (await store.get('quote', 'quote-1'))!;
    expect(kept).not.toBe(once);
    expect(handedOutOnce(kept)).toBe(false);
    expect(hasMark(kept, checked)).toBe(true);
    expect(await store.get('quote', 'quote-1')).toBe(kept);
    // A value the store never handed out is not "handed out once": the encoder may keep its JSON.
    expect(handedOutOnce(Object.freeze({ id: 'elsewhere' }))).toBe(false);
  });

  it('a changed record has no marks, and the mark of its old object no longer counts', async () => {
    const store = new MemoryStore();
    await store.insert('quote', 'customer-a', 'quote-1', quote('quote-1'));
    const old = (await store.get('quote', 'quote-1'))!;
    setMark(old, checked);
    const changed = (await store.update('quote', 'quote-1', (current) => ({ ...current, operationId: 'op-1' })))!;
    expect(hasMark(changed, checked)).toBe(false);
    expect(hasMark(old, checked)).toBe(false);
    // Marking the old object now would mark the new form, which nobody checked: it does nothing.
    setMark(old, checked);
    expect(hasMark(changed, checked)).toBe(false);
  });

  it('a record decoded from its kept form and written back as it is has the marks of its new form only', async () => {
    const store = new MemoryStore();
    await store.insert('quote', 'customer-a', 'quote-1', quote('quote-1'));
    await crowdOut(store);
    const decoded = (await store.get('quote', 'quote-1'))!;
    setMark(decoded, checked);
    await store.replace('quote', 'quote-1', decoded);
    // The write is a new form of the row: the mark put before it does not count for it.
    expect(hasMark(decoded, checked)).toBe(false);
    expect(hasMark((await store.get('quote', 'quote-1'))!, checked)).toBe(false);
    // The same object is now the row's record as written: marking it marks the new form.
    expect(setMark(decoded, checked)).toBe(true);
    expect(hasMark(decoded, checked)).toBe(true);
    expect(handedOutOnce(decoded)).toBe(false);
  });

  it('a record decoded from one store and written into another is placed in the other: its marks go there', async () => {
    const first = new MemoryStore();
    await first.insert('quote', 'customer-a', 'quote-1', quote('quote-1'));
    await crowdOut(first);
    const decoded = (await first.get('quote', 'quote-1'))!;
    const second = new MemoryStore();
    await second.insert('quote', 'customer-a', 'quote-1', decoded);
    expect(setMark(decoded, checked)).toBe(true);
    await crowdOut(second);
    expect(hasMark((await second.get('quote', 'quote-1'))!, checked)).toBe(true);
    expect(hasMark((await first.get('quote', 'quote-1'))!, checked)).toBe(false);
  });

  it('a record stored in the row of a removed one starts without marks', async () => {
    const store = new MemoryStore();
    await store.insert('quote', 'customer-a', 'quote-1', quote('quote-1'));
    setMark((await store.get('quote', 'quote-1'))!, checked);
    await store.remove('quote', 'quote-1');
    await store.insert('quote', 'customer-a', 'quote-2', { ...quote('quote-2'), sourceAmount: '2.00' });
    expect(hasMark((await store.get('quote', 'quote-2'))!, checked)).toBe(false);
  });

  it('a removed record no longer has its marks, and marking it after its removal does nothing', async () => {
    const store = new MemoryStore();
    await store.insert('quote', 'customer-a', 'quote-1', quote('quote-1'));
    const removed = (await store.get('quote', 'quote-1'))!;
    setMark(removed, checked);
    await store.remove('quote', 'quote-1');
    expect(hasMark(removed, checked)).toBe(false);
    setMark(removed, checked);
    expect(hasMark(removed, checked)).toBe(false);
  });

  it('a value the store did not hand out has no marks, and marking it does nothing', () => {
    const value = quote('loose');
    setMark(value, checked);
    expect(hasMark(value, checked)).toBe(false);
    expect(hasMark('text', checked)).toBe(false);
    expect(hasMark(null, checked)).toBe(false);
  });

  it('marks of different keys are apart, and a table has room for eight keys: a ninth is never marked', async () => {
    const store = new MemoryStore();
    await store.insert('quote', 'customer-a', 'quote-1', quote('quote-1'));
    const record = (await store.get('quote', 'quote-1'))!;
    const keys = Array.from({ length: 9 }, () => ({}));
    setMark(record, keys[0]!);
    expect(hasMark(record, keys[1]!)).toBe(false);
    for (const key of keys) setMark(record, key);
    expect(keys.map((key) => hasMark(record, key))).toEqual([true, true, true, true, true, true, true, true, false]);
  });
});
