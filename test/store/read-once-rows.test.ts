// The rows read once lately (mock/store/read-once-rows.ts): first in, first out, a row that left
// and joined again counted from its new place, and the same answers as a plain list would give.
import { describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import { ReadOnceRows } from '../../mock/store/read-once-rows';

describe('the rows read once', () => {
  it('when more rows join than it holds, then the oldest leave first', () => {
    const rows = new ReadOnceRows(3);
    for (const row of [10, 11, 12, 13]) rows.add(row);
    expect([10, 11, 12, 13].map((row) => rows.has(row))).toEqual([false, true, true, true]);
  });

  it('when a row leaves and joins again, then its first place falling out of the ring does not take it out', () => {
    const rows = new ReadOnceRows(3);
    rows.add(1);
    expect(rows.delete(1)).toBe(true);
    rows.add(2);
    rows.add(1);
    // The ring's first place (row 1's old one) is taken by row 4: row 1 stays, at its new place.
    rows.add(4);
    expect([1, 2, 4].map((row) => rows.has(row))).toEqual([true, true, true]);
    rows.add(5);
    expect(rows.has(2)).toBe(false);
    expect(rows.has(1)).toBe(true);
  });

  it('when a row was never among them, then it is not there and deleting it answers false', () => {
    const rows = new ReadOnceRows(2);
    expect(rows.has(1_000_000)).toBe(false);
    expect(rows.delete(7)).toBe(false);
  });

  it('when its size is not a whole number from 1 to 65,534, then it refuses it', () => {
    for (const capacity of [0, -1, 1.5, 0xffff, Number.NaN]) expect(() => new ReadOnceRows(capacity)).toThrow(RangeError);
  });

  it('when rows join, leave and are asked for in any order, then it answers as a first-in, first-out list would', () => {
    const step = fc.oneof(
      fc.record({ op: fc.constant('add' as const), row: fc.nat(40) }),
      fc.record({ op: fc.constant('delete' as const), row: fc.nat(40) }),
    );
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 8 }), fc.array(step, { maxLength: 200 }), (capacity, steps) => {
        const rows = new ReadOnceRows(capacity);
        // The model: the ring's places, oldest first, each holding a row until the ring comes round.
        const places: Array<number | undefined> = [];
        const live = new Map<number, number>();
        let clock = 0;
        for (const { op, row } of steps) {
          if (op === 'delete') {
            expect(rows.delete(row)).toBe(live.has(row));
            live.delete(row);
          } else if (!live.has(row)) {
            // As the table uses it: a row joins only when it is not among them.
            const place = clock++ % capacity;
            const pushedOut = places[place];
            if (pushedOut !== undefined && live.get(pushedOut) === place) live.delete(pushedOut);
            places[place] = row;
            live.set(row, place);
            rows.add(row);
          }
          for (let r = 0; r <= 40; r++) expect(rows.has(r)).toBe(live.has(r));
        }
      }),
    );
  });
});
