// The search a page by cursor starts from (mock/store/sorted-index.ts): the first position of a
// list whose key is at least the cursor's, whatever the list's length and however its keys are
// spread (insertion counts nearly even, or bunched, or far apart).
import { describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import { appendRow, lowerBound, removeRow } from '../../mock/store/sorted-index';

/** Rows 0..n-1 whose keys are `keys` (ascending), as the table keeps them. */
function listOf(keys: number[]): { rows: number[]; keyOf: number[] } {
  return { rows: keys.map((_, row) => row), keyOf: keys };
}

/** The answer by reading every key. */
function firstAtLeast(keys: number[], key: number): number {
  const at = keys.findIndex((k) => k >= key);
  return at < 0 ? keys.length : at;
}

const ascendingKeys = fc
  .oneof(
    // Nearly even (insertion counts with other scopes' between), bunched, or spread wildly.
    fc.array(fc.integer({ min: 1, max: 3 }), { maxLength: 400 }),
    fc.array(fc.constantFrom(0, 0, 0, 1, 1000), { maxLength: 400 }),
    fc.array(fc.integer({ min: 0, max: 2 ** 40 }), { maxLength: 400 }),
  )
  .map((gaps) => {
    let key = 0;
    return gaps.map((gap) => (key += gap));
  });

describe('the first position of a list whose key is at least a given one', () => {
  it('is what reading every key finds, for any key, in lists short and long, evenly spread or not', () => {
    fc.assert(
      fc.property(ascendingKeys, fc.integer({ min: -5, max: 2 ** 41 }), fc.nat(400), (keys, anyKey, index) => {
        const { rows, keyOf } = listOf(keys);
        // A key of the list, one beside it, and one anywhere.
        const present = keys.length > 0 ? keys[index % keys.length]! : 0;
        for (const key of [anyKey, present, present - 1, present + 1]) expect(lowerBound(rows, keyOf, key)).toBe(firstAtLeast(keys, key));
      }),
      { numRuns: 500 },
    );
  });

  it('a page anywhere in a million evenly spread keys is found from a guess', () => {
    const keys = Array.from({ length: 1_000_000 }, (_, i) => 3 * i + (i % 2));
    const { rows, keyOf } = listOf(keys);
    let read = 0;
    const counting = new Proxy(keyOf, {
      get: (target, name) => {
        if (typeof name === 'string' && /^\d+$/.test(name)) read++;
        return Reflect.get(target, name) as unknown;
      },
    });
    for (const key of [0, 1, 2, 1_500_000, 1_500_001, 2_999_997, 2_999_998, 3_000_000]) {
      read = 0;
      expect(lowerBound(rows, counting, key)).toBe(firstAtLeast(keys, key));
      // Halving would read 20 keys; the guess lands within a few places of the answer.
      expect(read).toBeLessThan(12);
    }
  });

  it('rows added out of order and removed keep the list in key order', () => {
    fc.assert(
      fc.property(fc.uniqueArray(fc.nat(10_000), { minLength: 1, maxLength: 300 }), fc.nat(), (keys, cut) => {
        let rows: number[] = [];
        keys.forEach((_, row) => (rows = appendRow(rows, keys, row)));
        const gone = cut % keys.length;
        removeRow(rows, keys, gone);
        const expected = keys
          .map((key, row) => ({ key, row }))
          .filter(({ row }) => row !== gone)
          .sort((a, b) => a.key - b.key)
          .map(({ row }) => row);
        expect(rows).toEqual(expected);
      }),
      { numRuns: 300 },
    );
  });
});
