import { describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import { amount, atScale, Decimal, fitsScale, isFixedAt, isPositive, negate, scaleOf, sum } from '../../mock/domain/money';

const scales = { BRL: 2, USDT: 6 };

describe('asset scales', () => {
  it('when asked for a known asset, then its number of decimals is returned', () => {
    expect(scaleOf('BRL', scales)).toBe(2);
    expect(scaleOf('USDT', scales)).toBe(6);
  });

  it('when asked for an asset with no known scale, then it refuses instead of guessing', () => {
    expect(() => scaleOf('EUR', scales)).toThrow('no scale known for asset EUR');
  });
});

describe('formatting at a scale', () => {
  it('pads a whole number with zeros to the asset scale', () => {
    expect(atScale('1', 6)).toBe('1.000000');
    expect(atScale('18.5', 6)).toBe('18.500000');
  });

  it('rounds extra digits down by default, even when they are above one half', () => {
    expect(atScale('1.239', 2)).toBe('1.23');
    expect(atScale('0.0018509', 6)).toBe('0.001850');
  });

  it('rounds extra digits up when asked, even when they are below one half', () => {
    expect(atScale('1.231', 2, 'up')).toBe('1.24');
    expect(atScale('5.4054054', 2, 'up')).toBe('5.41');
  });

  it('leaves a value already at the scale unchanged in either direction', () => {
    expect(atScale('1.50', 2, 'down')).toBe('1.50');
    expect(atScale('1.50', 2, 'up')).toBe('1.50');
  });

  it('keeps every digit of a value far beyond float precision', () => {
    expect(atScale('123456789012345678901234567890.1234569', 6)).toBe('123456789012345678901234567890.123456');
  });

  it('refuses a scale that is not a whole number of places, even for text that looks written at it', () => {
    expect(() => atScale('5', -1)).toThrow();
    expect(() => atScale('12.50', Number.NaN)).toThrow();
    expect(() => atScale('12.50', 2.5)).toThrow();
  });

  it('writes a negative zero, leading zeros and an exponent as decimal.js does, not as given', () => {
    expect(atScale('-0.00', 2)).toBe('0.00');
    expect(atScale('007.50', 2)).toBe('7.50');
    expect(atScale('1e3', 2)).toBe('1000.00');
    expect(atScale('-0.50', 2)).toBe('-0.50');
  });

  it('for any decimal text, the text answered is the one decimal.js writes, whether or not it was already at the scale', () => {
    // Text near the fixed form: signs, zeros, points and digits, so the shortcut is tried on its edges.
    const text = fc.stringMatching(/^-?[0-9]{1,4}(\.[0-9]{0,7})?$/);
    fc.assert(
      fc.property(text, fc.integer({ min: 0, max: 6 }), fc.constantFrom<'down' | 'up'>('down', 'up'), (value, decimals, rounding) => {
        const written = new Decimal(value).toFixed(decimals, rounding === 'down' ? Decimal.ROUND_DOWN : Decimal.ROUND_UP);
        expect(atScale(value, decimals, rounding)).toBe(written);
        // The shortcut is taken exactly for the text decimal.js would write unchanged.
        expect(isFixedAt(value, decimals)).toBe(written === value);
      }),
      { numRuns: 3000 },
    );
  });
});

describe('scale checks', () => {
  it('accepts a value with at most the scale in decimal places', () => {
    expect(fitsScale('1.23', 2)).toBe(true);
    expect(fitsScale('1', 2)).toBe(true);
    expect(fitsScale('0.000001', 6)).toBe(true);
  });

  it('refuses a value with one decimal place too many', () => {
    expect(fitsScale('1.234', 2)).toBe(false);
    expect(fitsScale('0.0000001', 6)).toBe(false);
  });

  it('does not count trailing zeros beyond the scale as precision', () => {
    expect(fitsScale('1.2300', 2)).toBe(true);
  });
});

describe('sign', () => {
  it('treats zero, in any spelling, as not positive', () => {
    expect(isPositive('0')).toBe(false);
    expect(isPositive('0.00')).toBe(false);
    expect(isPositive('-0')).toBe(false);
  });

  it('treats a negative amount as not positive and the smallest unit as positive', () => {
    expect(isPositive('-0.01')).toBe(false);
    expect(isPositive('0.000001')).toBe(true);
  });
});

describe('amounts', () => {
  it('builds the response Amount at the asset scale', () => {
    expect(amount('18.5', 'USDT', scales)).toEqual({ value: '18.500000', asset: 'USDT', decimals: 6 });
    expect(amount('100', 'BRL', scales)).toEqual({ value: '100.00', asset: 'BRL', decimals: 2 });
  });

  it('rounds an over-precise value down when building an Amount', () => {
    expect(amount('1.239', 'BRL', scales).value).toBe('1.23');
  });

  it('refuses to build an Amount for an asset with no known scale', () => {
    expect(() => amount('1', 'EUR', scales)).toThrow('no scale known for asset EUR');
  });
});

describe('decimal arithmetic', () => {
  it('adds 0.1 and 0.2 to exactly 0.3, not a float approximation', () => {
    expect(sum(['0.1', '0.2'])).toBe('0.3');
  });

  it('adds ten times 0.1 to exactly 1', () => {
    expect(sum(Array.from({ length: 10 }, () => '0.1'))).toBe('1');
  });

  it('sums debits and credits together', () => {
    expect(sum(['100.00', '-0.01'])).toBe('99.99');
  });

  it('sums an empty list to zero', () => {
    expect(sum([])).toBe('0');
  });

  it('negates a credit into a debit and back', () => {
    expect(negate('18.500000')).toBe('-18.5');
    expect(negate('-5')).toBe('5');
  });

  it('negates zero to plain zero, never "-0"', () => {
    expect(negate('0')).toBe('0');
  });
});
