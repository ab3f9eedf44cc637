// The `filters` query language, evaluated against records: each operator on integer, string,
// date-time and enum fields, missing and mistyped values, and(...) / or(...) / `;`.
// Explicit imports: @types/jest is not installed, so the jest globals have no ambient types.
import { describe, expect, it } from '@jest/globals';
import { matchesFilter } from '../../../mock/domain/filters';
import { parse } from './support';

describe('evaluation', () => {
  const logs = [
    {
      id: 'l1',
      status: 'FAILED',
      eventType: 'OPERATION_FAILED',
      httpStatus: 500,
      messageId: 'm-10',
      retryAttempts: 3,
      createdAt: '2026-11-21T09:00:00Z',
    },
    {
      id: 'l2',
      status: 'SUCCESS',
      eventType: 'OPERATION_COMPLETED',
      httpStatus: 200,
      messageId: 'm-9',
      retryAttempts: 0,
      createdAt: '2026-11-21T10:00:00.000Z',
    },
    {
      id: 'l3',
      status: 'FAILED',
      eventType: 'ACCOUNT_CREATED',
      httpStatus: 99,
      messageId: 'm,1',
      retryAttempts: 12,
      createdAt: '2026-11-21T12:00:00+02:00',
    },
    { id: 'l4', status: 'FAILED', eventType: 'OPERATION_REQUESTED', messageId: 'm-2', retryAttempts: 1, createdAt: '2026-11-22T00:00:00Z' },
  ];
  const ids = (filter: string): string[] => {
    const node = parse(filter);
    return logs.filter((log) => matchesFilter(node, log)).map((log) => log.id);
  };

  it.each([
    ['httpStatus[eq]=500', ['l1']],
    ['httpStatus[ne]=500', ['l2', 'l3']],
    ['httpStatus[gt]=200', ['l1']],
    ['httpStatus[gte]=200', ['l1', 'l2']],
    ['httpStatus[lt]=200', ['l3']],
    ['httpStatus[lte]=200', ['l2', 'l3']],
    ['httpStatus[in]=99|500|404', ['l1', 'l3']],
  ])('integer: %s', (filter, expected) => {
    expect(ids(filter)).toEqual(expected);
  });

  it('integers compare numerically: httpStatus[gt]=99 matches 500 although "500" < "99" as text', () => {
    expect(ids('httpStatus[gt]=99')).toEqual(['l1', 'l2']);
    expect(ids('retryAttempts[gt]=2')).toEqual(['l1', 'l3']);
  });

  it.each([
    ['messageId[eq]=m-9', ['l2']],
    ['messageId[ne]=m-9', ['l1', 'l3', 'l4']],
    ['messageId[gt]=m-2', ['l2']],
    ['messageId[gte]=m-2', ['l2', 'l4']],
    ['messageId[lt]=m-10', ['l3']],
    ['messageId[lte]=m-10', ['l1', 'l3']],
    ['messageId[in]="m,1"|m-2', ['l3', 'l4']],
  ])('string (lexicographic): %s', (filter, expected) => {
    expect(ids(filter)).toEqual(expected);
  });

  it.each([
    ['createdAt[eq]=2026-11-21T10:00:00Z', ['l2', 'l3']],
    ['createdAt[ne]=2026-11-21T12:00:00+02:00', ['l1', 'l4']],
    ['createdAt[gt]=2026-11-21T09:00:00Z', ['l2', 'l3', 'l4']],
    ['createdAt[gte]=2026-11-21T09:00:00Z', ['l1', 'l2', 'l3', 'l4']],
    ['createdAt[lt]=2026-11-21T06:00:00-04:00', ['l1']],
    ['createdAt[lte]=2026-11-21T06:00:00-04:00', ['l1', 'l2', 'l3']],
    ['createdAt[in]=2026-11-21T09:00:00Z|2026-11-22T01:00:00+01:00', ['l1', 'l4']],
  ])('date-time (as instants across offsets): %s', (filter, expected) => {
    expect(ids(filter)).toEqual(expected);
  });

  it.each([
    ['status[eq]=FAILED', ['l1', 'l3', 'l4']],
    ['status[ne]=FAILED', ['l2']],
    ['eventType[in]=OPERATION_REQUESTED|OPERATION_FAILED', ['l1', 'l4']],
  ])('enum: %s', (filter, expected) => {
    expect(ids(filter)).toEqual(expected);
  });

  it('a missing field matches no condition, not even ne', () => {
    expect(ids('httpStatus[ne]=1')).toEqual(['l1', 'l2', 'l3']);
    expect(ids('or(httpStatus[lt]=1000,httpStatus[gte]=1000)')).toEqual(['l1', 'l2', 'l3']);
  });

  it('a value of the wrong type matches no condition', () => {
    const node = parse('httpStatus[ne]=1');
    expect(matchesFilter(node, { httpStatus: '500' })).toBe(false);
    expect(matchesFilter(parse('createdAt[ne]=2026-01-01T00:00:00Z'), { createdAt: 'yesterday' })).toBe(false);
  });

  it('date-time record values may be Date objects', () => {
    expect(matchesFilter(parse('createdAt[eq]=2026-11-21T10:00:00Z'), { createdAt: new Date('2026-11-21T10:00:00Z') })).toBe(true);
  });

  it('and / or / `;` combine', () => {
    expect(ids('status[eq]=FAILED;retryAttempts[gte]=3')).toEqual(['l1', 'l3']);
    expect(ids('or(status[eq]=SUCCESS,eventType[eq]=ACCOUNT_CREATED)')).toEqual(['l2', 'l3']);
    expect(ids('or(status[eq]=FAILED;httpStatus[gte]=500,retryAttempts[eq]=0)')).toEqual(['l1', 'l2']);
    expect(ids('and(or(httpStatus[lt]=100,retryAttempts[lt]=1),createdAt[lt]=2026-11-22T00:00:00Z)')).toEqual(['l2', 'l3']);
  });
});
