// A record value of the wrong type for its field matches no condition, not even 'ne': integer
// fields want finite numbers, string and enum fields strings, date-time fields RFC 3339 strings
// or valid Dates. Strings compare by code units; a hand-built condition with no value matches nothing.
import { describe, expect, it } from '@jest/globals';
import { matchesFilter } from '../../../mock/domain/filters';
import { cond, parse } from './support';

const matches = (filter: string, record: Record<string, unknown>): boolean => matchesFilter(parse(filter), record);

describe('integer fields', () => {
  it.each([
    ['the string "500"', '500'],
    ['NaN', Number.NaN],
    ['Infinity', Number.POSITIVE_INFINITY],
  ])('%s in httpStatus matches neither eq nor ne nor gt', (_, httpStatus) => {
    expect(matches('httpStatus[eq]=500', { httpStatus })).toBe(false);
    expect(matches('httpStatus[ne]=500', { httpStatus })).toBe(false);
    expect(matches('httpStatus[gt]=100', { httpStatus })).toBe(false);
  });

  it('numbers compare numerically, not as text (9 < 10)', () => {
    expect(matches('retryAttempts[lt]=10', { retryAttempts: 9 })).toBe(true);
    expect(matches('retryAttempts[gt]=10', { retryAttempts: 9 })).toBe(false);
  });
});

describe('string and enum fields', () => {
  it('a number in a string field matches neither eq nor ne', () => {
    expect(matches('messageId[eq]=10', { messageId: 10 })).toBe(false);
    expect(matches('messageId[ne]=10', { messageId: 10 })).toBe(false);
    expect(matches('status[ne]=FAILED', { status: 1 })).toBe(false);
  });

  it('strings compare by code units', () => {
    expect(matches('messageId[eq]=m-1', { messageId: 'm-1' })).toBe(true);
    expect(matches('messageId[lt]=m-2', { messageId: 'm-10' })).toBe(true);
    expect(matches('messageId[gt]=m-2', { messageId: 'm-10' })).toBe(false);
    expect(matches('messageId[ne]=m-1', { messageId: 'm-2' })).toBe(true);
  });
});

describe('date-time fields', () => {
  it('a one-element array holding a date-time is not a date-time', () => {
    const createdAt = ['2026-11-21T09:00:00Z'];
    expect(matches('createdAt[eq]=2026-11-21T09:00:00Z', { createdAt })).toBe(false);
    expect(matches('createdAt[ne]=2026-11-21T09:00:00Z', { createdAt })).toBe(false);
  });

  it('a Date compares as its instant, an invalid Date matches nothing', () => {
    expect(matches('createdAt[eq]=2026-11-21T10:00:00+01:00', { createdAt: new Date('2026-11-21T09:00:00Z') })).toBe(true);
    expect(matches('createdAt[ne]=2026-11-21T09:00:00Z', { createdAt: new Date('nonsense') })).toBe(false);
  });
});

describe('a condition without a value', () => {
  it('matches no record, whatever its operator', () => {
    expect(matchesFilter(cond('httpStatus', 'ne'), { httpStatus: 500 })).toBe(false);
    expect(matchesFilter(cond('messageId', 'ne'), { messageId: 'm-1' })).toBe(false);
    expect(matchesFilter(cond('messageId', 'lt'), { messageId: 'm-1' })).toBe(false);
  });
});
