// Idempotency answers that are a stored record (a create answers what it stored): the memory store
// keeps them as a link to the record's row and the answer's difference from the record as it
// changes (mock/store/answer-delta.ts), and every replay is still the first answer as it was sent:
// the same JSON, keys in the same order (DESIGN: "returns the first status and body again").
import { describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import type { KeptForms } from '../../mock/store/kept-forms';
import { MemoryStore } from '../../mock/store/memory-store';
import type { QuoteRecord } from '../../mock/store/records';
import type { IdempotencyEntry } from '../../mock/store/store';
import { quote } from './store-contract';

const TTL = 24 * 60 * 60 * 1000;
const T0 = Date.parse('2025-03-10T00:00:00.000Z');

/** A create: the record stored, then its key answered with that same record. */
async function create(store: MemoryStore, key: string, record: QuoteRecord = quote()): Promise<string> {
  await store.insert('quote', 'customer-a', record.id, record);
  await store.claimIdempotencyKey(key, `print-${key}`, T0, TTL);
  await store.completeIdempotencyKey(key, { status: 201, body: record });
  return JSON.stringify(record);
}

/** The answer a retry of `key` is replayed. */
async function replay(store: MemoryStore, key: string, at = T0 + 1): Promise<IdempotencyEntry['response']> {
  const claim = await store.claimIdempotencyKey(key, `print-${key}`, at, TTL);
  if (claim.outcome !== 'DONE') throw new Error(`expected a finished key, got ${claim.outcome}`);
  return claim.entry.response;
}

/** The size of what the store keeps for a key (its private map, read only to measure). */
function keptSize(store: MemoryStore, key: string): number {
  const inside = store as unknown as { idempotency: Map<string, number>; kept: KeptForms };
  return inside.kept.sizeOf(inside.idempotency.get(key)!);
}

describe('an answer that is a stored record', () => {
  it('is replayed as first sent after its record changed twice', async () => {
    const store = new MemoryStore();
    const first = await create(store, 'k1');
    await store.update('quote', 'quote-1', (q) => ({ ...q, operationId: 'op-1' }));
    await store.update('quote', 'quote-1', (q) => ({ ...q, rate: '0.2', expiresAt: '2025-03-10T15:00:00.000Z' }));
    const response = await replay(store, 'k1');
    expect(response?.status).toBe(201);
    expect(JSON.stringify(response?.body)).toBe(first);
  });

  it('is replayed with its own keys in its own order when the record gained, lost and reordered fields', async () => {
    const store = new MemoryStore();
    const first = await create(store, 'k1');
    await store.update(
      'quote',
      'quote-1',
      ({ internal, rate, ...rest }) => ({ internal, extra: 'x', ...rest, rate }) as unknown as QuoteRecord,
    );
    await store.update('quote', 'quote-1', ({ internal: _internal, ...rest }) => rest as unknown as QuoteRecord);
    expect(JSON.stringify((await replay(store, 'k1'))?.body)).toBe(first);
  });

  it('is not kept a second time beside the record: its entry is a fraction of a copy', async () => {
    const store = new MemoryStore();
    await create(store, 'linked');
    // The same answer, built again instead of handed out by the store: kept whole.
    const copy = quote('quote-2');
    await store.insert('quote', 'customer-a', copy.id, copy);
    await store.claimIdempotencyKey('whole', 'print-whole', T0, TTL);
    await store.completeIdempotencyKey('whole', { status: 201, body: { ...copy } });
    expect(keptSize(store, 'linked')).toBeLessThan(keptSize(store, 'whole') / 2);
    expect((await replay(store, 'whole'))?.body).toEqual(copy);
  });

  it('is replayed whole after its record was removed, and no longer once its key expired', async () => {
    const store = new MemoryStore();
    const first = await create(store, 'k1');
    await store.update('quote', 'quote-1', (q) => ({ ...q, operationId: 'op-1' }));
    await store.remove('quote', 'quote-1');
    expect(JSON.stringify((await replay(store, 'k1'))?.body)).toBe(first);
    expect(await store.claimIdempotencyKey('k1', 'print-k1', T0 + TTL + 1, TTL)).toEqual({ outcome: 'CLAIMED' });
  });

  it('shown again under a second key after a change: each key replays its own first answer', async () => {
    const store = new MemoryStore();
    const first = await create(store, 'k1');
    const changed = (await store.update('quote', 'quote-1', (q) => ({ ...q, operationId: 'op-1' })))!;
    await store.claimIdempotencyKey('k2', 'print-k2', T0, TTL);
    await store.completeIdempotencyKey('k2', { status: 200, body: changed });
    const second = JSON.stringify(changed);
    await store.update('quote', 'quote-1', (q) => ({ ...q, rate: '0.3' }));
    expect(JSON.stringify((await replay(store, 'k1'))?.body)).toBe(first);
    expect(JSON.stringify((await replay(store, 'k2'))?.body)).toBe(second);
    expect((await replay(store, 'k2'))?.status).toBe(200);
  });

  it('an expired key claimed again answers its new request, whatever became of the old record', async () => {
    const store = new MemoryStore();
    await create(store, 'k1');
    expect(await store.claimIdempotencyKey('k1', 'print-k1', T0 + TTL + 1, TTL)).toEqual({ outcome: 'CLAIMED' });
    await store.completeIdempotencyKey('k1', { status: 422, body: { code: 'QUOTE_EXPIRED' } });
    await store.update('quote', 'quote-1', (q) => ({ ...q, operationId: 'op-1' }));
    expect(await replay(store, 'k1', T0 + TTL + 2)).toEqual({ status: 422, body: { code: 'QUOTE_EXPIRED' } });
    // The record's row is free to show a new answer.
    const now = (await store.get('quote', 'quote-1'))!;
    await store.claimIdempotencyKey('k3', 'print-k3', T0 + TTL + 2, TTL);
    await store.completeIdempotencyKey('k3', { status: 200, body: now });
    await store.update('quote', 'quote-1', (q) => ({ ...q, rate: '0.4' }));
    expect(JSON.stringify((await replay(store, 'k3', T0 + TTL + 3))?.body)).toBe(JSON.stringify(now));
  });

  it('swept keys let go of their records: changing them afterwards is plain', async () => {
    const store = new MemoryStore();
    await create(store, 'k1');
    // 1,000 claims after the key's expiry start a sweep (memory-store.ts, SWEEP_EVERY).
    for (let i = 0; i < 1000; i++) await store.claimIdempotencyKey(`other-${i}`, 'p', T0 + TTL + 1, TTL);
    await store.update('quote', 'quote-1', (q) => ({ ...q, operationId: 'op-1' }));
    expect(await store.claimIdempotencyKey('k1', 'print-k1', T0 + TTL + 1, TTL)).toEqual({ outcome: 'CLAIMED' });
  });

  it('a record removed and another inserted under its id: each key replays its own answer, and neither loses the other', async () => {
    const store = new MemoryStore();
    const first = await create(store, 'k1');
    await store.remove('quote', 'quote-1');
    const second = await create(store, 'k2', { ...quote(), rate: '0.5' });
    expect(JSON.stringify((await replay(store, 'k1'))?.body)).toBe(first);
    expect(JSON.stringify((await replay(store, 'k2'))?.body)).toBe(second);
    await store.releaseIdempotencyKey('k1');
    expect(JSON.stringify((await replay(store, 'k2'))?.body)).toBe(second);
    await store.update('quote', 'quote-1', (q) => ({ ...q, operationId: 'op-2' }));
    expect(JSON.stringify((await replay(store, 'k2'))?.body)).toBe(second);
    await store.exportState(T0 + 1);
  });

  it('a record removed and another one stored in its row: releasing the first key leaves the second its answer', async () => {
    const store = new MemoryStore();
    const first = await create(store, 'k1');
    await store.remove('quote', 'quote-1');
    const second = await create(store, 'k2', quote('quote-2'));
    await store.update('quote', 'quote-2', (q) => ({ ...q, operationId: 'op-2' }));
    await store.releaseIdempotencyKey('k1');
    expect(await store.claimIdempotencyKey('k1', 'print-k1', T0 + 1, TTL)).toEqual({ outcome: 'CLAIMED' });
    expect(JSON.stringify((await replay(store, 'k2'))?.body)).toBe(second);
    expect(JSON.parse(first).id).toBe('quote-1');
  });

  it('a record answered after it was removed and its row reused by an equal one under another id replays its own id', async () => {
    const store = new MemoryStore();
    await store.insert('quote', 'customer-a', 'quote-a', quote('quote-a'));
    const handedOut = (await store.get('quote', 'quote-a'))!;
    await store.claimIdempotencyKey('ka', 'print-ka', T0, TTL);
    await store.remove('quote', 'quote-a');
    // The same fields but its id: its kept form is the removed one's (ids are kept as references to the row).
    await store.insert('quote', 'customer-a', 'quote-b', quote('quote-b'));
    await store.completeIdempotencyKey('ka', { status: 201, body: handedOut });
    expect(JSON.stringify((await replay(store, 'ka'))?.body)).toBe(JSON.stringify(quote('quote-a')));
    await store.update('quote', 'quote-b', (q) => ({ ...q, operationId: 'op-b' }));
    expect(JSON.stringify((await replay(store, 'ka'))?.body)).toBe(JSON.stringify(quote('quote-a')));
  });

  it('a nested value whose keys changed order is replayed in its first order', async () => {
    const store = new MemoryStore();
    const record = { ...quote(), detail: { bid: '1', ask: '2' } } as unknown as QuoteRecord;
    const first = await create(store, 'k1', record);
    await store.update('quote', 'quote-1', (q) => ({ ...q, detail: { ask: '2', bid: '1' } }) as unknown as QuoteRecord);
    expect(JSON.stringify((await replay(store, 'k1'))?.body)).toBe(first);
  });

  it('an entry answered again lets go of the record its first answer showed', async () => {
    const store = new MemoryStore();
    await create(store, 'k1');
    await store.completeIdempotencyKey('k1', { status: 201, body: { other: true } });
    // The record is free to be linked by another key: its entry is then a fraction of a copy.
    const now = (await store.get('quote', 'quote-1'))!;
    await store.claimIdempotencyKey('k2', 'print-k2', T0, TTL);
    await store.completeIdempotencyKey('k2', { status: 201, body: now });
    await store.claimIdempotencyKey('whole', 'print-whole', T0, TTL);
    await store.completeIdempotencyKey('whole', { status: 201, body: { ...now } });
    expect(keptSize(store, 'k2')).toBeLessThan(keptSize(store, 'whole') / 2);
    expect((await replay(store, 'k1'))?.body).toEqual({ other: true });
  });

  it('is exported whole, and a store that imports it replays the same answer', async () => {
    const store = new MemoryStore();
    const first = await create(store, 'k1');
    await store.update('quote', 'quote-1', (q) => ({ ...q, operationId: 'op-1' }));
    const state = await store.exportState(T0 + 1);
    expect(JSON.stringify(state.idempotency.find((entry) => entry.key === 'k1')?.response?.body)).toBe(first);
    const restored = new MemoryStore();
    await restored.importState(JSON.parse(JSON.stringify(state)));
    expect(JSON.stringify((await replay(restored, 'k1'))?.body)).toBe(first);
    expect((await restored.get('quote', 'quote-1'))?.operationId).toBe('op-1');
  });

  it('any series of changes to the record leaves the first answer replayed as it was sent', async () => {
    const field = fc.constantFrom('rate', 'operationId', 'expiresAt', 'extra', 'internal', 'sourceAmount');
    const value = fc.oneof(fc.string(), fc.integer(), fc.constant(null), fc.boolean(), fc.array(fc.integer(), { maxLength: 3 }));
    const change = fc.oneof(fc.record({ set: field, to: value }), fc.record({ drop: field }), fc.record({ moveLast: field }));
    await fc.assert(
      fc.asyncProperty(fc.array(change, { maxLength: 8 }), async (changes) => {
        const store = new MemoryStore();
        const first = await create(store, 'k1');
        for (const step of changes) {
          await store.update('quote', 'quote-1', (current) => {
            const next: Record<string, unknown> = { ...current };
            if ('set' in step) next[step.set] = step.to;
            if ('drop' in step) delete next[step.drop];
            if ('moveLast' in step && step.moveLast in next) {
              const moved = next[step.moveLast];
              delete next[step.moveLast];
              next[step.moveLast] = moved;
            }
            return next as unknown as QuoteRecord;
          });
        }
        expect(JSON.stringify((await replay(store, 'k1'))?.body)).toBe(first);
      }),
      { numRuns: 200 },
    );
  });
});
