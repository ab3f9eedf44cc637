// The string formats the validators check (spec/contract/formats.cjs): ajv-formats' own, with a
// fast path for a date-time in the form the mock writes. The fast path never changes a verdict:
// ajv-formats is the reference, loaded here, not from the module under test.
import { describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import { FORMATS_PATH } from '../../spec/contract/ajv-instance';

interface FormatsModule {
  formats: Record<string, { validate: (text: string) => boolean; compare?: unknown }>;
  isCanonicalInstant: (text: string) => boolean;
}
interface Format {
  validate: (text: string) => boolean;
  compare: unknown;
}
// eslint-disable-next-line @typescript-eslint/no-require-imports -- the CommonJS module under test
const { formats, isCanonicalInstant } = require(FORMATS_PATH) as FormatsModule;
// The reference, taken here and not from the module under test.
// eslint-disable-next-line @typescript-eslint/no-require-imports -- ajv-formats' formats, to compare with
const { fullFormats } = require('ajv-formats/dist/formats') as { fullFormats: Record<string, unknown> };
const ajvDateTime = fullFormats['date-time'] as Format;
const dateTime = formats['date-time']!;

const pad = (n: number, width: number) => String(n).padStart(width, '0');
const instant = (y: number, mo: number, d: number, h: number, mi: number, s: number, ms = 0) =>
  `${pad(y, 4)}-${pad(mo, 2)}-${pad(d, 2)}T${pad(h, 2)}:${pad(mi, 2)}:${pad(s, 2)}.${pad(ms, 3)}Z`;

/**
 * Text shaped like `YYYY-MM-DDTHH:mm:ss.sssZ`, each field around its bounds (month 0 to 13, day 0
 * to 32, hour 0 to 24, minute and second 0 to 60; century and leap years), sometimes one char
 * swapped for another.
 */
const instantLike = fc
  .tuple(
    fc.oneof(fc.constantFrom(0, 1900, 2000, 2023, 2024, 2100, 9999), fc.integer({ min: 0, max: 9999 })),
    fc.integer({ min: 0, max: 13 }),
    fc.integer({ min: 0, max: 32 }),
    fc.integer({ min: 0, max: 24 }),
    fc.integer({ min: 0, max: 60 }),
    fc.integer({ min: 0, max: 60 }),
    fc.integer({ min: 0, max: 999 }),
    fc.option(fc.tuple(fc.nat(23), fc.constantFrom('t', 'z', ' ', '+', 'x', '1', '-', ':', 'Z', 'T')), { freq: 3 }),
  )
  .map(([y, mo, d, h, mi, s, ms, swap]) => {
    const text = instant(y, mo, d, h, mi, s, ms);
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

  it('gives the verdict of ajv-formats on every day of months 0 to 13 in century and leap years, and every time of one day', () => {
    for (const year of [1900, 2000, 2023, 2024]) {
      for (let month = 0; month <= 13; month++) {
        for (let day = 0; day <= 32; day++) {
          const text = instant(year, month, day, 12, 0, 0);
          expect([text, dateTime.validate(text)]).toEqual([text, ajvDateTime.validate(text)]);
        }
      }
    }
    for (let hour = 0; hour <= 24; hour++) {
      for (let minute = 0; minute <= 60; minute++) {
        for (let second = 0; second <= 60; second++) {
          const text = instant(2016, 12, 31, hour, minute, second);
          expect([text, dateTime.validate(text)]).toEqual([text, ajvDateTime.validate(text)]);
        }
      }
    }
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
  it('are ajv-formats’ own, and date-time compares as ajv-formats compares', () => {
    expect(Object.keys(formats).sort()).toEqual(Object.keys(fullFormats).sort());
    for (const name of Object.keys(fullFormats)) if (name !== 'date-time') expect([name, formats[name]]).toEqual([name, fullFormats[name]]);
    expect(dateTime.compare).toBe(ajvDateTime.compare);
  });
});
