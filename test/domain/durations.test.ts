// The clock control's durations: units d h m s ms in that order, whole numbers, or a number or a
// string of digits in milliseconds; anything else is VALIDATION_ERROR on the given field.
import { describe, expect, it } from '@jest/globals';
import { ServiceError } from '../../mock/errors/catalogue';
import { parseDuration } from '../../mock/domain/duration';

const MESSAGE = 'must be a duration such as 250ms, 30s, 5m, 1h30m or 2d, or a whole number of milliseconds';

describe('durations', () => {
  it.each([
    ['250ms', 250],
    ['30s', 30_000],
    ['5m', 300_000],
    ['1h30m', 5_400_000],
    ['2d', 172_800_000],
    ['1d2h3m4s5ms', 93_784_005],
    ['1500', 1500],
    [1500, 1500],
    [0, 0],
  ])('%j is %d ms', (value, ms) => {
    expect(parseDuration(value)).toBe(ms);
  });

  it.each([
    ['1.5s'],
    [' 12'],
    ['0x10'],
    ['1e3'],
    [['5s']],
    ['12abc'],
    ['abc12'],
    ['1 s'],
    ['30m1h'],
    ['1h1h'],
    ['5x'],
    ['ms'],
    [''],
    ['-5'],
    [-5],
    [1.5],
    [Number.MAX_SAFE_INTEGER + 1],
    [null],
    [true],
  ])('%j is refused naming the field', (value) => {
    let error: unknown;
    try {
      parseDuration(value, 'body.advance');
    } catch (thrown) {
      error = thrown;
    }
    expect(error).toBeInstanceOf(ServiceError);
    expect((error as ServiceError).code).toBe('VALIDATION_ERROR');
    expect((error as ServiceError).details).toEqual({ fields: [{ field: 'body.advance', message: MESSAGE }] });
  });

  it('the field defaults to body.by', () => {
    expect(() => parseDuration('x')).toThrow(ServiceError);
    try {
      parseDuration('x');
    } catch (error) {
      expect((error as ServiceError).details).toEqual({ fields: [{ field: 'body.by', message: MESSAGE }] });
    }
  });
});
