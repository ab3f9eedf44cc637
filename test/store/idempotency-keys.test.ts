// Idempotency keys as the memory store keeps them (mock/store/idempotency-keys.ts): a customer's
// UUID and a client's UUID in 33 chars instead of 73, every other key as it is, and never two keys
// kept alike.
import { describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import { packKey, unpackKey } from '../../mock/store/idempotency-keys';
import { MemoryStore } from '../../mock/store/memory-store';

const CUSTOMER = 'f00c83aa-5b0b-444d-a32a-79d2028db4a8';
const CLIENT_KEY = '0b6a1e4c-2f3d-4e5a-9b8c-7d6e5f4a3b2c';

describe('idempotency keys as the memory store keeps them', () => {
  it('a customer UUID and a client UUID are kept in 33 one-byte chars and read back as sent', () => {
    const key = `${CUSTOMER}:${CLIENT_KEY}`;
    const kept = packKey(key);
    expect(kept).toHaveLength(33);
    expect(unpackKey(kept)).toBe(key);
  });

  it('a key packed again, right after or after others, is kept alike each time (packed to claim it, then to complete it)', () => {
    const first = `${CUSTOMER}:${CLIENT_KEY}`;
    const second = `${CLIENT_KEY}:${CUSTOMER}`;
    const kept = packKey(first);
    expect(packKey(first)).toBe(kept);
    expect(packKey(second)).not.toBe(kept);
    expect(unpackKey(packKey(second))).toBe(second);
    expect(packKey([CUSTOMER, CLIENT_KEY].join(':'))).toBe(kept);
    expect(packKey(`${CUSTOMER}:order-42`)).toBe(`${CUSTOMER}:order-42`);
    expect(packKey(first)).toBe(kept);
  });

  it('any other key is kept as it is, or escaped when it could pass for a packed one', () => {
    expect(packKey(`${CUSTOMER}:order-42`)).toBe(`${CUSTOMER}:order-42`);
    expect(packKey(`${CUSTOMER}:${CLIENT_KEY.toUpperCase()}`)).toBe(`${CUSTOMER}:${CLIENT_KEY.toUpperCase()}`);
    const lookalike = `\u0001${'x'.repeat(32)}`;
    expect(packKey(lookalike)).not.toBe(lookalike);
    expect(unpackKey(packKey(lookalike))).toBe(lookalike);
  });

  it('a key of 73 chars that is not two canonical lowercase UUIDs is kept as it is', () => {
    const pair = `${CUSTOMER}:${CLIENT_KEY}`;
    const nearMisses = [
      pair.replace(':', '-'), // no colon between them
      `${pair.slice(0, 8)}x${pair.slice(9)}`, // a hyphen where a digit goes
      `${pair.slice(0, 9)}-${pair.slice(10)}`.replace('-444d', '0444d'), // a hyphen moved
      `${pair.slice(0, 40)}G${pair.slice(41)}`, // not hex
      `${pair.slice(0, 72)}A`, // upper case
      `${pair.slice(0, 39)}g${pair.slice(40)}`, // not hex, where a byte's high digit goes
      `${pair.slice(0, 36)}:${CLIENT_KEY.replaceAll('-', '').padEnd(36, '0')}`, // no hyphens in the second
    ];
    for (const key of nearMisses) {
      expect(key).toHaveLength(73);
      expect(packKey(key)).toBe(key);
    }
  });

  it('two different keys are never kept alike, and each reads back as it was', () => {
    const uuid = fc.uuid().map((u) => u.toLowerCase());
    const key = fc.oneof(
      fc.tuple(uuid, uuid).map(([a, b]) => `${a}:${b}`),
      fc.tuple(uuid, fc.string({ unit: 'binary', maxLength: 40 })).map(([a, b]) => `${a}:${b}`),
      fc.string({ unit: 'binary', maxLength: 80 }),
      fc.tuple(fc.constantFrom('\u0001', '\u0002', '\u0002\u0002'), fc.string({ maxLength: 40 })).map(([a, b]) => a + b),
    );
    fc.assert(
      fc.property(key, key, (a, b) => {
        expect(unpackKey(packKey(a))).toBe(a);
        expect(packKey(a) === packKey(b)).toBe(a === b);
      }),
      { numRuns: 500 },
    );
  });

  it('a key kept packed is claimed, replayed and exported under the key the client sent', async () => {
    const store = new MemoryStore();
    const key = `${CUSTOMER}:${CLIENT_KEY}`;
    const T0 = Date.parse('2025-03-10T00:00:00.000Z');
    await store.claimIdempotencyKey(key, 'print', T0, 60_000);
    await store.completeIdempotencyKey(key, { status: 201, body: { id: 'x' } });
    expect(await store.claimIdempotencyKey(key, 'print', T0 + 1, 60_000)).toMatchObject({ outcome: 'DONE' });
    const state = await store.exportState(T0 + 1);
    expect(state.idempotency.map((entry) => entry.key)).toEqual([key]);
    const restored = new MemoryStore();
    await restored.importState(state);
    expect(await restored.claimIdempotencyKey(key, 'print', T0 + 2, 60_000)).toMatchObject({
      outcome: 'DONE',
      entry: { response: { body: { id: 'x' } } },
    });
  });
});
