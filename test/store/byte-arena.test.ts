// The buffers outside the heap that hold the memory store's kept forms (mock/store/byte-arena.ts):
// each number gives back exactly the bytes last put under it, whatever was replaced, removed or
// moved around it, and space left by replaced bytes is given back rather than held for ever.
import { describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import { ByteArena } from '../../mock/store/byte-arena';

const bytesOf = (arena: ByteArena, n: number) => [...arena.buffer(n).subarray(arena.start(n), arena.start(n) + arena.length(n))];
const filled = (length: number, value: number) => new Uint8Array(length).fill(value);

describe('the byte arena', () => {
  it('gives back the bytes put under a number, only the length given, until they are replaced or removed', () => {
    const arena = new ByteArena(64);
    arena.put(3, Uint8Array.of(1, 2, 3, 99), 3);
    arena.put(7, Uint8Array.of(4), 1);
    expect(bytesOf(arena, 3)).toEqual([1, 2, 3]);
    expect(bytesOf(arena, 7)).toEqual([4]);
    expect(arena.has(0)).toBe(false);
    arena.put(3, Uint8Array.of(5, 6), 2);
    expect(bytesOf(arena, 3)).toEqual([5, 6]);
    arena.remove(7);
    expect(arena.has(7)).toBe(false);
    expect(arena.has(3)).toBe(true);
    arena.clear();
    expect(arena.has(3)).toBe(false);
  });

  it('keeps bytes larger than a segment in a segment of their own', () => {
    const arena = new ByteArena(16);
    arena.put(0, filled(40, 7), 40);
    arena.put(1, filled(3, 8), 3);
    expect(bytesOf(arena, 0)).toEqual(Array(40).fill(7));
    expect(bytesOf(arena, 1)).toEqual([8, 8, 8]);
  });

  it('when more than an eighth of a segment was replaced, then its live bytes move and the segment is let go', () => {
    const arena = new ByteArena(100);
    // Ten numbers of 10 bytes fill the first segment; the eleventh opens a second.
    for (let n = 0; n < 11; n++) arena.put(n, filled(10, n), 10);
    expect(arena.segmentBytesHeld).toBe(200);
    // One of the first ten replaced: its new bytes go to the active segment; a tenth of the first is garbage.
    arena.put(0, filled(10, 100), 10);
    expect(arena.buffer(9)).not.toBe(arena.buffer(10));
    // A second: a fifth is, so the eight still there move, and the first segment's place serves the next one.
    arena.put(1, filled(10, 101), 10);
    for (let n = 0; n < 11; n++) expect(bytesOf(arena, n)).toEqual(Array(10).fill(n < 2 ? 100 + n : n));
    expect(arena.segmentBytesHeld).toBe(200);
    for (let n = 2; n < 10; n++) expect(arena.buffer(n)).toBe(arena.buffer(10));
  });

  it('opens segments of an eighth of its live bytes, from 16 KiB to 4 MiB, however often a few numbers are rewritten', () => {
    const few = new ByteArena();
    for (let i = 0; i < 200_000; i++) few.put(i % 10, filled(200, i & 0xff), 200);
    expect(few.segmentBytesHeld).toBeLessThanOrEqual(2 * (16 << 10));
    const many = new ByteArena();
    for (let n = 0; n < 200_000; n++) many.put(n, filled(200, n & 0xff), 200);
    const sizes = new Set(Array.from({ length: 200_000 }, (_, n) => many.buffer(n).length));
    expect(Math.min(...sizes)).toBe(16 << 10);
    expect(Math.max(...sizes)).toBe(4 << 20);
    // 40 MB live: the last segments are 4 MiB, so it holds a few more than it needs, not twice.
    expect(many.segmentBytesHeld).toBeLessThan(200_000 * 200 + 2 * (4 << 20));
  });

  it('whatever the order of puts and removes, each number gives back its last bytes, and held space stays bounded', () => {
    const step = fc.record({ n: fc.nat(40), length: fc.integer({ min: 0, max: 30 }), remove: fc.boolean() });
    fc.assert(
      fc.property(fc.array(step, { maxLength: 400 }), (steps) => {
        const arena = new ByteArena(64);
        const expected = new Map<number, number[]>();
        steps.forEach(({ n, length, remove }, i) => {
          if (remove) {
            arena.remove(n);
            expected.delete(n);
          } else {
            const bytes = Array.from({ length }, (_, j) => (i + j) & 0xff);
            arena.put(n, Uint8Array.from(bytes), length);
            expected.set(n, bytes);
          }
        });
        for (let n = 0; n <= 40; n++) {
          expect(arena.has(n)).toBe(expected.has(n));
          if (expected.has(n)) expect(bytesOf(arena, n)).toEqual(expected.get(n));
        }
        // A segment was left when 30 bytes or fewer did not fit (so more than 34 of its 64 were used),
        // and is let go once less than seven eighths of what it used is live: each one kept holds
        // at least 29.75 live bytes. Beyond those, the active segment.
        const live = [...expected.values()].reduce((sum, bytes) => sum + bytes.length, 0);
        expect(arena.segmentBytesHeld).toBeLessThanOrEqual(Math.floor(live / 29) * 64 + 64);
      }),
    );
  });
});
