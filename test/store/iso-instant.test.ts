// The codec's instant writer (mock/store/iso-instant.ts) writes what Date.prototype.toISOString writes.
import { describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import { isoInstant, knownInstantMs, rememberInstant } from '../../mock/store/iso-instant';

describe('an instant written back as text', () => {
  it('is the text toISOString gives, for any millisecond from 1970 to the end of 9999', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 253_402_300_799_999 }), (ms) => isoInstant(ms) === new Date(ms).toISOString()),
      {
        numRuns: 20_000,
      },
    );
  });

  it('is right at the edges: the epoch, leap days, century years, the last instant of 9999 and past it', () => {
    for (const text of [
      '1970-01-01T00:00:00.000Z',
      '2000-02-29T23:59:59.999Z',
      '2100-03-01T00:00:00.000Z',
      '2024-12-31T12:00:00.010Z',
      '9999-12-31T23:59:59.999Z',
    ])
      expect(isoInstant(Date.parse(text))).toBe(text);
    expect(isoInstant(253_402_300_800_000)).toBe('+010000-01-01T00:00:00.000Z');
  });

  it('is right for instants of the same day, the next and the one before, in any order (the date of the last day written is kept)', () => {
    const midnight = Date.UTC(2026, 10, 27);
    const around = fc.integer({ min: midnight - 86_400_000, max: midnight + 2 * 86_400_000 - 1 });
    fc.assert(
      fc.property(fc.array(around, { minLength: 2, maxLength: 20 }), (instants) =>
        instants.every((ms) => isoInstant(ms) === new Date(ms).toISOString()),
      ),
      { numRuns: 2_000 },
    );
  });
});

describe('the instants remembered lately (what the record codec reads before parsing a text)', () => {
  it('an instant just written is known by its text as its ms, and forgotten after four newer ones', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: 253_402_300_799_999 }), { minLength: 5, maxLength: 12 }), (instants) => {
        const texts = instants.map((ms) => isoInstant(ms));
        // The last four are known, each as the ms it was written from (or one equal in text).
        for (const text of texts.slice(-4)) expect(knownInstantMs(text)).toBe(Date.parse(text));
        for (const text of texts.slice(0, -4)) if (!texts.slice(-4).includes(text)) expect(knownInstantMs(text)).toBeUndefined();
      }),
      { numRuns: 500 },
    );
  });

  it('a text equal to a remembered one, though another string, is known too; a text never met is not', () => {
    rememberInstant('2026-11-27T15:00:00.123Z', Date.parse('2026-11-27T15:00:00.123Z'));
    expect(knownInstantMs(['2026-11-27T15:00:00', '.123Z'].join(''))).toBe(Date.parse('2026-11-27T15:00:00.123Z'));
    expect(knownInstantMs('2026-11-27T15:00:00.124Z')).toBeUndefined();
  });
});
