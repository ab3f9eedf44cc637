// The memory store's map of idempotency entries (mock/store/idempotency-map.ts) behaves as the Map
// it replaces for every use the store makes of it: get, set (in place when the key is there, else
// last), delete, keys in insertion order (walked while deleting, as the sweep does), clear.
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import { IdempotencyMap } from '../../mock/store/idempotency-map';
import { packKey } from '../../mock/store/idempotency-keys';

type Op =
  | { op: 'set'; key: string; value: string }
  | { op: 'get'; key: string }
  | { op: 'delete'; key: string }
  | { op: 'sweep'; count: number }
  | { op: 'clear' };

/** Both maps after the same operations; every get and the key order compared on the way. */
function run(ops: Op[], keys: string[]): void {
  const ours = new IdempotencyMap<string>();
  const model = new Map<string, string>();
  for (const step of ops) {
    if (step.op === 'set') {
      ours.set(step.key, step.value);
      model.set(step.key, step.value);
    } else if (step.op === 'get') {
      // Between the other steps: the map remembers the key it looked up last.
      expect(ours.get(step.key)).toBe(model.get(step.key));
    } else if (step.op === 'delete') {
      expect(ours.delete(step.key)).toBe(model.delete(step.key));
    } else if (step.op === 'sweep') {
      // As the store's sweep: the first keys in order, deleted while walking.
      let left = step.count;
      for (const key of ours.keys()) {
        if (left-- <= 0) break;
        ours.delete(key);
        model.delete(key);
      }
    } else {
      ours.clear();
      model.clear();
    }
    expect(ours.size).toBe(model.size);
  }
  expect([...ours.keys()]).toEqual([...model.keys()]);
  for (const key of keys) expect(ours.get(key)).toBe(model.get(key));
}

describe('the idempotency map', () => {
  const packed = Array.from({ length: 6 }, () => packKey(`${randomUUID()}:${randomUUID()}`));
  // Keys that are not two UUIDs, one escaped because it starts like a packed key.
  const others = ['k1', `${randomUUID()}:my-key`, packKey('\u0001looks-packed'), ''];
  const keys = [...packed, ...others];

  it('answers as a Map would after any series of sets, gets, deletes, sweeps and clears', () => {
    const key = fc.constantFrom(...keys);
    const op: fc.Arbitrary<Op> = fc.oneof(
      fc.record({ op: fc.constant('set' as const), key, value: fc.string({ minLength: 1, maxLength: 3 }) }),
      fc.record({ op: fc.constant('get' as const), key }),
      fc.record({ op: fc.constant('delete' as const), key }),
      fc.record({ op: fc.constant('sweep' as const), count: fc.nat(4) }),
      fc.constant({ op: 'clear' as const }),
    );
    fc.assert(fc.property(fc.array(op, { maxLength: 60 }), (ops) => run(ops, keys)));
  });

  it('when keys are claimed and swept for a long time, then it keeps the live ones in order and only them', () => {
    // The store's pattern: each claim deletes its key and sets it again last; sweeps take the front.
    // Long enough for the front to be dropped and the slots rebuilt many times.
    const ops: Op[] = [];
    const live: string[] = [];
    for (let i = 0; i < 20_000; i++) {
      const key = i % 7 === 0 ? `other-${i}` : packKey(`${randomUUID()}:${randomUUID()}`);
      ops.push({ op: 'delete', key }, { op: 'set', key, value: `v${i}` });
      live.push(key);
      if (i % 10 === 0) ops.push({ op: 'set', key: live[live.length - 1]!, value: `done-${i}` });
      if (i % 100 === 99) ops.push({ op: 'sweep', count: 90 });
      // A key looked up again after the entries moved (a sweep, the front dropped): found where it is now.
      if (i % 100 === 0 || i % 100 === 99) ops.push({ op: 'get', key: live[Math.floor(live.length / 2)]! }, { op: 'get', key });
    }
    // Every key ever set: the swept ones must be gone from both.
    run(ops, live);
  });

  it('a key deleted or cleared just after a look-up, then set again, is a new last entry (the last look-up is forgotten)', () => {
    for (const [first, second] of [packed.slice(0, 2), others.slice(0, 2)] as Array<[string, string]>) {
      const map = new IdempotencyMap<string>();
      map.set(first, 'a');
      map.set(second, 'b');
      expect(map.get(first)).toBe('a');
      expect(map.delete(first)).toBe(true);
      expect(map.get(first)).toBeUndefined();
      map.set(first, 'c');
      expect(map.size).toBe(2);
      expect([...map.keys()]).toEqual([second, first]);
      expect(map.get(second)).toBe('b');
      expect(map.get(first)).toBe('c');
      // Cleared just after a look-up, then set again: the only entry.
      map.clear();
      map.set(first, 'd');
      expect(map.size).toBe(1);
      expect([...map.keys()]).toEqual([first]);
      expect(map.get(first)).toBe('d');
    }
  });

  it('refuses an undefined value, which would read as no entry', () => {
    expect(() => new IdempotencyMap<string | undefined>().set(packKey('x'), undefined)).toThrow(TypeError);
  });
});
