// The string formats the validators check (spec/contract/formats.cjs): ajv-formats' own, with a
// fast path for a date-time in the form the mock writes. The fast path never changes a verdict.
import { describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import { FORMATS_PATH } from '../../spec/contract/ajv-instance';

interface FormatsModule {
  formats: Record<string, { validate: (text: string) => boolean }>;
  isCanonicalInstant: (text: string) => boolean;
  ajvDateTime: { validate: (text: string) => boolean };
}
// eslint-disable-next-line @typescript-eslint/no-require-imports -- the CommonJS module under test
const { formats, isCanonicalInstant, ajvDateTime } = require(FORMATS_PATH) as FormatsModule;
const dateTime = formats['date-time']!;

/** Text shaped like `YYYY-MM-DDTHH:mm:ss.sssZ`, each field any two (or four, three) digits, sometimes one char swapped for another. */
const instantLike = fc
  .tuple(
    fc.integer({ min: 0, max: 9999 }),
    ...[99, 99, 99, 99, 99].map((max) => fc.integer({ min: 0, max })),
    fc.integer({ min: 0, max: 999 }),
    fc.option(fc.tuple(fc.nat(23), fc.constantFrom('t', 'z', ' ', '+', 'x', '1', '-', ':', 'Z', 'T')), { freq: 3 }),
  )
  .map(([y, mo, d, h, mi, s, ms, swap]) => {
    const pad = (n: number, width: number) => String(n).padStart(width, '0');
    const text = `${pad(y, 4)}-${pad(mo, 2)}-${pad(d, 2)}T${pad(h, 2)}:${pad(mi, 2)}:${pad(s, 2)}.${pad(ms, 3)}Z`;
    return swap ? text.slice(0, swap[0]) + swap[1] + text.slice(swap[0] + 1) : text;
  });

describe('the date-time format', () => {
  it('gives the verdict of ajv-formats on any text, instant-shaped or not', () => {
    fc.assert(
      fc.property(
        fc.oneof(
          instantLike,
          fc.string({ maxLength: 30 }),
          fc.date({ noInvalidDate: true }).map((d) => d.toISOString()),
        ),
        (text) => {
          expect(dateTime.validate(text)).toBe(ajvDateTime.validate(text));
        },
      ),
      { numRuns: 5000 },
    );
  });

  it('the fast path takes every instant the mock writes (Date#toISOString of years 0 to 9999)', () => {
    fc.assert(
      fc.property(
        fc.date({ min: new Date('0000-01-01T00:00:00.000Z'), max: new Date('9999-12-31T23:59:59.999Z'), noInvalidDate: true }),
        (date) => {
          expect(isCanonicalInstant(date.toISOString())).toBe(true);
        },
      ),
    );
  });

  it('the fast path answers only true: what it does not take is left to ajv-formats, which decides', () => {
    // A leap second (23:59:60) is valid; any other second 60 is not; neither is taken by the fast path.
    expect([isCanonicalInstant('2016-12-31T23:59:60.000Z'), dateTime.validate('2016-12-31T23:59:60.000Z')]).toEqual([false, true]);
    expect([isCanonicalInstant('2016-12-31T12:00:60.000Z'), dateTime.validate('2016-12-31T12:00:60.000Z')]).toEqual([false, false]);
    // Another offset or precision: valid, by ajv-formats.
    expect([isCanonicalInstant('2026-11-26T15:00:00+01:00'), dateTime.validate('2026-11-26T15:00:00+01:00')]).toEqual([false, true]);
    // The 29th of February of a leap year only; a 13th month never.
    expect(dateTime.validate('2024-02-29T00:00:00.000Z')).toBe(true);
    expect([isCanonicalInstant('2025-02-29T00:00:00.000Z'), dateTime.validate('2025-02-29T00:00:00.000Z')]).toEqual([false, false]);
    expect(dateTime.validate('2026-13-01T00:00:00.000Z')).toBe(false);
  });
});

describe('the other formats', () => {
  it('are ajv-formats’ own', () => {
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- ajv-formats' formats, to compare with
    const { fullFormats } = require('ajv-formats/dist/formats') as { fullFormats: Record<string, unknown> };
    expect(Object.keys(formats).sort()).toEqual(Object.keys(fullFormats).sort());
    for (const name of Object.keys(fullFormats)) if (name !== 'date-time') expect([name, formats[name]]).toEqual([name, fullFormats[name]]);
  });
});
