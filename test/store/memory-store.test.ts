// The in-memory store: the shared Store contract, then what only this store promises (frozen records).
import { describe, expect, it } from '@jest/globals';
import { KeptJson } from '../../mock/store/kept-json';
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

describe('which records the memory store keeps decoded', () => {
  /** More quotes than the store keeps decoded (4,096 per kind): the first ones are only in their kept form. */
  async function storeWithFillers(count: number): Promise<MemoryStore> {
    const store = new MemoryStore();
    for (let i = 0; i < count; i++) await store.insert('quote', 'customer-b', `filler-${i}`, quote(`filler-${i}`));
    return store;
  }

  it('a record read once is decoded for that read only; read again, it stays decoded and later reads give the same object', async () => {
    const store = await storeWithFillers(5000);
    const once = (await store.get('quote', 'filler-0'))!;
    const twice = (await store.get('quote', 'filler-0'))!;
    expect(twice).not.toBe(once);
    expect(twice).toEqual(once);
    expect(await store.get('quote', 'filler-0')).toBe(twice);
  });

  it('a record read once, then 4,096 other records read once, is read once again: only the next read keeps it decoded', async () => {
    const store = await storeWithFillers(10_000);
    await store.get('quote', 'filler-0');
    for (let i = 1; i <= 4096; i++) await store.get('quote', `filler-${i}`);
    const afterwards = (await store.get('quote', 'filler-0'))!;
    const kept = (await store.get('quote', 'filler-0'))!;
    expect(kept).not.toBe(afterwards);
    expect(await store.get('quote', 'filler-0')).toBe(kept);
  });

  it('a filtered page reads each record it lists once: the record is kept decoded only from its next read on', async () => {
    const store = await storeWithFillers(5000);
    const page = await store.page('quote', { scope: 'customer-b', limit: 1, order: 'ASCENDING', where: (q) => q.id === 'filler-0' });
    const listed = page.items[0]!.record;
    expect(listed.id).toBe('filler-0');
    const kept = (await store.get('quote', 'filler-0'))!;
    expect(kept).not.toBe(listed);
    expect(await store.get('quote', 'filler-0')).toBe(kept);
  });

  it('a snapshot export is not a read: a record exported is still read once on its next read', async () => {
    const store = await storeWithFillers(5000);
    await store.exportState(0);
    const first = (await store.get('quote', 'filler-0'))!;
    expect(await store.get('quote', 'filler-0')).not.toBe(first);
  });

  it('records each read once, more of them than the store keeps decoded, do not push out a record just written', async () => {
    const store = await storeWithFillers(10_000);
    await store.insert('quote', 'customer-a', 'quote-1', quote('quote-1'));
    const written = await store.get('quote', 'quote-1');
    for (let i = 0; i < 5000; i++) await store.get('quote', `filler-${i}`);
    expect(await store.get('quote', 'quote-1')).toBe(written);
  });

  it('the least recently used record leaves the decoded window first: one read lately stays while others are written', async () => {
    const store = new MemoryStore();
    await store.insert('quote', 'customer-a', 'read-lately', quote('read-lately'));
    await store.insert('quote', 'customer-a', 'early', quote('early'));
    const kept = await store.get('quote', 'read-lately');
    // 4,094 more written: the window (4,096) is full, 'read-lately' its oldest and least recently used.
    for (let i = 0; i < 4094; i++) await store.insert('quote', 'customer-b', `filler-${i}`, quote(`filler-${i}`));
    // A read makes it the most recently used; the next write then lets 'early' go, not it.
    expect(await store.get('quote', 'read-lately')).toBe(kept);
    await store.insert('quote', 'customer-b', 'one-more', quote('one-more'));
    expect(await store.get('quote', 'read-lately')).toBe(kept);
    // Out of the window, 'early' is decoded afresh by each of its next two reads.
    expect(await store.get('quote', 'early')).not.toBe(await store.get('quote', 'early'));
  });

  it('a record changed while kept decoded stays kept: reads give the object the change wrote, listed or read', async () => {
    const store = await storeWithFillers(5000);
    const updated = (await store.update('quote', 'filler-4999', (current) => ({ ...current, operationId: 'op-1' })))!;
    expect(await store.get('quote', 'filler-4999')).toBe(updated);
    const page = await store.pageToSend('quote', { scope: 'customer-b', limit: 1, order: 'DESCENDING' });
    expect(page.items[0]!.record).toBe(updated);
  });

  it('a record removed is listed no more, and its row, reused, lists the record written there', async () => {
    const store = new MemoryStore();
    await store.insert('quote', 'customer-a', 'gone', quote('gone'));
    const before = await store.get('quote', 'gone');
    await store.remove('quote', 'gone');
    await store.insert('quote', 'customer-a', 'next', quote('next'));
    const page = await store.pageToSend('quote', { scope: 'customer-a', limit: 5, order: 'ASCENDING' });
    expect(page.items.map((item) => (item.record as { id: string }).id)).toEqual(['next']);
    expect(page.items[0]!.record).not.toBe(before);
    expect(await store.get('quote', 'gone')).toBeUndefined();
  });

  it('a snapshot export does not count as a use: it leaves the order in which records leave the window as it was', async () => {
    const store = new MemoryStore();
    await store.insert('quote', 'customer-a', 'read-lately', quote('read-lately'));
    await store.insert('quote', 'customer-a', 'written-early', quote('written-early'));
    for (let i = 0; i < 4094; i++) await store.insert('quote', 'customer-b', `filler-${i}`, quote(`filler-${i}`));
    // The window is full; read, 'read-lately' is its most recently used and 'written-early' its least.
    const kept = await store.get('quote', 'read-lately');
    await store.exportState(0);
    await store.insert('quote', 'customer-b', 'one-more', quote('one-more'));
    expect(await store.get('quote', 'read-lately')).toBe(kept);
    expect(await store.get('quote', 'written-early')).not.toBe(await store.get('quote', 'written-early'));
  });
});

describe('records kept compactly by the memory store', () => {
  const op = (i: number) => ({ ...quote(`q-${i}`), sourceAmount: `${i}.00`, createdAt: new Date(Date.UTC(2025, 0, 1) + i).toISOString() });

  it('when more records are stored than it keeps decoded, then every one reads back equal, in order, page by page', async () => {
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

  it('when records name their own id and scope, each reads back naming its own out of the decoded window, a reused row too', async () => {
    const store = new MemoryStore();
    const uuid = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
    // A quote names its own id and its customer, the scope it is listed in.
    const named = (id: string, customerId: string) => ({ ...quote(id), customerId });
    const [customerA, customerB] = [uuid(900), uuid(901)];
    for (let i = 0; i < 3; i++) await store.insert('quote', customerA, uuid(i), named(uuid(i), customerA));
    await store.remove('quote', uuid(1));
    // Takes the removed record's row: its own id and scope are the new ones.
    await store.insert('quote', customerB, uuid(3), named(uuid(3), customerB));
    await store.replace('quote', uuid(0), { ...named(uuid(0), customerA), operationId: uuid(0) });
    for (let i = 0; i < 5000; i++) await store.insert('quote', 'customer-a', `q-${i}`, op(i));
    expect(await store.get('quote', uuid(3))).toStrictEqual(named(uuid(3), customerB));
    expect(await store.get('quote', uuid(0))).toStrictEqual({ ...named(uuid(0), customerA), operationId: uuid(0) });
    const listed = await store.page('quote', { scope: customerA, limit: 10, order: 'ASCENDING' });
    expect(listed.items.map((item) => item.record)).toStrictEqual([
      { ...named(uuid(0), customerA), operationId: uuid(0) },
      named(uuid(2), customerA),
    ]);
    const exported = (await store.exportState(0)).records.quote!.slice(0, 3);
    const fields = (record: unknown) => record as { id: string; customerId: string };
    expect(exported.map(({ id, scope, record }) => [id, scope, fields(record).id, fields(record).customerId])).toEqual([
      [uuid(0), customerA, uuid(0), customerA],
      [uuid(2), customerA, uuid(2), customerA],
      [uuid(3), customerB, uuid(3), customerB],
    ]);
  });

  it('when records naming their own id and scope are sent as JSON, each names its own, UUID or not, a reused row too', async () => {
    const store = new MemoryStore();
    const uuid = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
    const named = (id: string, customerId: string) => ({ ...quote(id), customerId });
    // A UUID scope and another; lowercase UUID ids (kept as bytes), an upper-case one and other text (kept as text).
    const lists = { [uuid(900)]: [uuid(0), 'Q-1', uuid(2).toUpperCase()], 'customer-b': [uuid(5), 'quote-six'] };
    for (const [customerId, ids] of Object.entries(lists))
      for (const id of ids) await store.insert('quote', customerId, id, named(id, customerId));
    await store.remove('quote', uuid(0));
    // Takes the removed record's row, in the other list.
    await store.insert('quote', 'customer-b', uuid(7), named(uuid(7), 'customer-b'));
    lists[uuid(900)]!.shift();
    lists['customer-b'].push(uuid(7));
    // Written later, these push the records above out of the decoded window: they are sent as JSON from their kept form.
    for (let i = 0; i < 5000; i++) await store.insert('quote', 'fillers', `q-${i}`, op(i));
    for (const [customerId, ids] of Object.entries(lists)) {
      const sent = (await store.pageToSend('quote', { scope: customerId, limit: 10, order: 'ASCENDING' })).items.map((item) => item.record);
      expect(sent.every((record) => record instanceof KeptJson)).toBe(true);
      expect(sent.map((record) => (record as KeptJson).json)).toEqual(ids.map((id) => JSON.stringify(named(id, customerId))));
    }
  });

  it('when a record holds what the compact form cannot keep, then it is kept as it was given', async () => {
    const store = new MemoryStore();
    const odd = { ...quote(), createdAt: new Date(0) } as unknown as ReturnType<typeof quote>;
    await store.insert('quote', 'customer-a', 'quote-1', odd);
    for (let i = 0; i < 5000; i++) await store.insert('quote', 'customer-a', `q-${i}`, op(i));
    expect((await store.get('quote', 'quote-1'))!.createdAt).toEqual(new Date(0));
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
