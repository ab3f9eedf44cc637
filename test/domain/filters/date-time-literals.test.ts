// RFC 3339 date-time literals of the filters language: calendar dates must exist (Gregorian leap
// years), times and offsets must be in range, and an offset moves the instant the right way.
import { describe, expect, it } from '@jest/globals';
import { parseDateTime, parseIntegerLiteral } from '../../../mock/domain/filters/literals';

describe('calendar dates', () => {
  it.each([
    ['2024-02-29', 'a year divisible by 4 is a leap year'],
    ['2000-02-29', 'a year divisible by 400 is a leap year'],
    ['1600-02-29', 'a year divisible by 400 is a leap year (1600)'],
  ])('%s exists: %s', (date) => {
    expect(parseDateTime(`${date}T00:00:00Z`)).toBe(Date.parse(`${date}T00:00:00Z`));
  });

  it.each([
    ['2023-02-29', 'a year not divisible by 4 is common'],
    ['1900-02-29', 'a century not divisible by 400 is common'],
    ['2100-02-29', 'a century not divisible by 400 is common (2100)'],
    ['2024-02-30', 'February never has 30 days'],
    ['2024-04-31', 'April has 30 days'],
    ['2024-01-32', 'no month has 32 days'],
    ['2024-01-00', 'there is no day 0'],
    ['2024-00-10', 'there is no month 0'],
    ['2024-13-10', 'there is no month 13'],
  ])('%s does not exist: %s', (date) => {
    expect(parseDateTime(`${date}T00:00:00Z`)).toBeUndefined();
  });

  it('the last day of every month is accepted, the day after it is not', () => {
    const lengths = [31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];
    lengths.forEach((days, index) => {
      const month = String(index + 1).padStart(2, '0');
      expect(parseDateTime(`2024-${month}-${days}T12:00:00Z`)).toBe(Date.UTC(2024, index, days, 12));
      expect(parseDateTime(`2024-${month}-${days + 1}T12:00:00Z`)).toBeUndefined();
    });
  });
});

describe('times and offsets', () => {
  it('the largest time of day and the largest offset are accepted', () => {
    expect(parseDateTime('2024-03-10T23:59:59Z')).toBe(Date.UTC(2024, 2, 10, 23, 59, 59));
    expect(parseDateTime('2024-03-10T00:00:00+23:59')).toBe(Date.UTC(2024, 2, 9, 0, 1));
  });

  it.each([
    ['2024-03-10T24:00:00Z', 'hour 24'],
    ['2024-03-10T10:60:00Z', 'minute 60'],
    ['2024-03-10T10:00:60Z', 'a leap second'],
    ['2024-03-10T10:00:00+24:00', 'an offset of 24 hours'],
    ['2024-03-10T10:00:00+01:60', 'an offset minute of 60'],
  ])('%s is refused (%s)', (text) => {
    expect(parseDateTime(text)).toBeUndefined();
  });

  it('a positive offset is ahead of UTC, a negative one behind it', () => {
    const utc = Date.UTC(2024, 2, 10, 12, 0);
    expect(parseDateTime('2024-03-10T12:00:00+02:30')).toBe(utc - 150 * 60_000);
    expect(parseDateTime('2024-03-10T12:00:00-02:30')).toBe(utc + 150 * 60_000);
    expect(parseDateTime('2024-03-10T12:00:00+00:00')).toBe(utc);
    expect(parseDateTime('2024-03-10T12:00:00-00:00')).toBe(utc);
  });

  it('a fraction keeps its milliseconds and truncates beyond them', () => {
    expect(parseDateTime('2024-03-10T12:00:00.5Z')).toBe(Date.UTC(2024, 2, 10, 12, 0, 0, 500));
    expect(parseDateTime('2024-03-10T12:00:00.123999Z')).toBe(Date.UTC(2024, 2, 10, 12, 0, 0, 123));
  });

  it('years before 100 are not moved to the 1900s', () => {
    expect(new Date(parseDateTime('0099-12-31T00:00:00Z') as number).getUTCFullYear()).toBe(99);
  });
});

describe('integer literals', () => {
  it('"-0" and "0" are both 0, unsafe integers and non-integers are refused', () => {
    expect(Object.is(parseIntegerLiteral('-0'), 0)).toBe(true);
    expect(parseIntegerLiteral('9007199254740991')).toBe(Number.MAX_SAFE_INTEGER);
    expect(parseIntegerLiteral('9007199254740992')).toBeUndefined();
    expect(parseIntegerLiteral('1.5')).toBeUndefined();
    expect(parseIntegerLiteral('+1')).toBeUndefined();
  });
});
