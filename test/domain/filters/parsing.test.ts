// The `filters` query language, parsed: typed conditions, quoted values, precedence and nesting of
// `;`, and(...) and or(...), whitespace.
// Explicit imports: @types/jest is not installed, so the jest globals have no ambient types.
import { describe, expect, it } from '@jest/globals';
import { MAX_NESTING_DEPTH, OPERATORS, parseFilter, type FieldTable } from '../../../mock/domain/filters';
import { A, B, C, a, and, b, c, cond, ms, or, parse } from './support';

describe('parsing conditions', () => {
  it('parses a condition into a typed node', () => {
    expect(parse('httpStatus[gte]=500')).toEqual(b);
    expect(parse('status[eq]=FAILED')).toEqual(a);
    expect(parse('createdAt[lt]=2026-11-21T10:00:00Z')).toEqual(cond('createdAt', 'lt', ms('2026-11-21T10:00:00Z')));
  });

  it.each(OPERATORS.map((op) => [op]))('operator %s is accepted on integer, string and date-time fields', (op) => {
    expect(parse(`retryAttempts[${op}]=3`)).toEqual(cond('retryAttempts', op, 3));
    expect(parse(`messageId[${op}]=abc`)).toEqual(cond('messageId', op, 'abc'));
    expect(parse(`createdAt[${op}]=2026-01-01T00:00:00Z`)).toEqual(cond('createdAt', op, ms('2026-01-01T00:00:00Z')));
  });

  it.each<['eq' | 'ne' | 'in']>([['eq'], ['ne'], ['in']])('operator %s is accepted on enum fields', (op) => {
    expect(parse(`eventType[${op}]=OPERATION_FAILED`)).toEqual(cond('eventType', op, 'OPERATION_FAILED'));
  });

  it('`in` splits values on `|`', () => {
    expect(parse('eventType[in]=OPERATION_REQUESTED|OPERATION_FAILED')).toEqual(
      cond('eventType', 'in', 'OPERATION_REQUESTED', 'OPERATION_FAILED'),
    );
    expect(parse('httpStatus[in]=200|201|204')).toEqual(cond('httpStatus', 'in', 200, 201, 204));
  });

  it('`in` items may be quoted individually and contain delimiters', () => {
    expect(parse('messageId[in]="a|b"|c|"d,e;f)g"')).toEqual(cond('messageId', 'in', 'a|b', 'c', 'd,e;f)g'));
    expect(parse('status[in]= "FAILED" | SUCCESS ')).toEqual(cond('status', 'in', 'FAILED', 'SUCCESS'));
  });

  it('integers may be negative, zero or have leading zeros', () => {
    expect(parse('retryAttempts[gt]=-1')).toEqual(cond('retryAttempts', 'gt', -1));
    expect(parse('retryAttempts[eq]=-0')).toEqual(cond('retryAttempts', 'eq', 0));
    expect(parse('httpStatus[eq]=0500')).toEqual(cond('httpStatus', 'eq', 500));
  });

  it('date-times with offsets and fractions become epoch milliseconds', () => {
    const instant = ms('2026-11-21T10:00:00Z');
    expect(parse('createdAt[eq]=2026-11-21T13:00:00+03:00')).toEqual(cond('createdAt', 'eq', instant));
    expect(parse('createdAt[eq]=2026-11-21T05:30:00-04:30')).toEqual(cond('createdAt', 'eq', instant));
    expect(parse('createdAt[eq]=2026-11-21t10:00:00.123456z')).toEqual(cond('createdAt', 'eq', instant + 123));
    expect(parse('createdAt[eq]=2024-02-29T00:00:00.5Z')).toEqual(cond('createdAt', 'eq', ms('2024-02-29T00:00:00.500Z')));
    expect(parse('createdAt[eq]=0001-01-01T00:00:00Z')).toEqual(cond('createdAt', 'eq', ms('0001-01-01T00:00:00Z')));
  });

  it('a quoted integer or date-time is read like an unquoted one', () => {
    expect(parse('httpStatus[eq]="500"')).toEqual(cond('httpStatus', 'eq', 500));
    expect(parse('createdAt[gt]="2026-11-21T10:00:00Z"')).toEqual(cond('createdAt', 'gt', ms('2026-11-21T10:00:00Z')));
  });
});

describe('quoted values', () => {
  it('a quoted value may contain , ; ) | ( [ ] = and spaces', () => {
    expect(parse('messageId[eq]=" a,b;c)d|e(f[g]h=i "')).toEqual(cond('messageId', 'eq', ' a,b;c)d|e(f[g]h=i '));
  });

  it('backslash escapes a quote and a backslash', () => {
    expect(parse(String.raw`messageId[eq]="say \"hi\" \\ bye"`)).toEqual(cond('messageId', 'eq', 'say "hi" \\ bye'));
    expect(parse(String.raw`messageId[eq]="\\"`)).toEqual(cond('messageId', 'eq', '\\'));
  });

  it('a quoted value is followed by the next condition', () => {
    expect(parse('or(messageId[eq]="x)";status[eq]=FAILED,messageId[eq]="y,")')).toEqual(
      or(and(cond('messageId', 'eq', 'x)'), a), cond('messageId', 'eq', 'y,')),
    );
  });

  it('unquoted values keep inner spaces and characters like ( [ ] = : +', () => {
    expect(parse('messageId[eq]=a b(c[d]=e:+f')).toEqual(cond('messageId', 'eq', 'a b(c[d]=e:+f'));
  });
});

describe('precedence and nesting', () => {
  it('`;` joins conditions with AND', () => {
    expect(parse(`${A};${B};${C}`)).toEqual(and(a, b, c));
  });

  it('a single condition is not wrapped in a group', () => {
    expect(parse(A)).toEqual(a);
  });

  it('a `;` binds looser than or(...)', () => {
    expect(parse(`or(${A},${B});${C}`)).toEqual(and(or(a, b), c));
    expect(parse(`${C};or(${A},${B})`)).toEqual(and(c, or(a, b)));
  });

  it('`or(a;b,c)` is (a AND b) OR c', () => {
    expect(parse(`or(${A};${B},${C})`)).toEqual(or(and(a, b), c));
  });

  it('and(...) and or(...) nest', () => {
    expect(parse(`and(or(${A},and(${B},${C})),${C})`)).toEqual(and(or(a, and(b, c)), c));
  });

  it('and/or with one argument keep their group', () => {
    expect(parse(`and(${A})`)).toEqual(and(a));
    expect(parse(`or(${A})`)).toEqual(or(a));
  });

  it('and/or are recognised by the following `(`, not reserved as field names', () => {
    const fields: FieldTable = { and: { type: 'string' }, or: { type: 'integer' } };
    expect(parseFilter('or(and[eq]=x,or[lt]=3)', fields)).toEqual(
      or(
        { kind: 'condition', field: 'and', fieldType: 'string', op: 'eq', values: ['x'] },
        { kind: 'condition', field: 'or', fieldType: 'integer', op: 'lt', values: [3] },
      ),
    );
  });

  it(`accepts nesting up to ${MAX_NESTING_DEPTH} levels`, () => {
    const text = 'and('.repeat(MAX_NESTING_DEPTH) + A + ')'.repeat(MAX_NESTING_DEPTH);
    let expected = a;
    for (let i = 0; i < MAX_NESTING_DEPTH; i++) expected = and(expected);
    expect(parse(text)).toEqual(expected);
  });
});

describe('whitespace', () => {
  it('is ignored around every token', () => {
    expect(parse(' \t or ( status [ eq ] = FAILED ; httpStatus[ gte ]= 500 \n, messageId [eq] = m-1 ) \r\n')).toEqual(or(and(a, b), c));
  });

  it('is kept inside quotes and between words of an unquoted value', () => {
    expect(parse('messageId[eq]=  "  x  "  ')).toEqual(cond('messageId', 'eq', '  x  '));
    expect(parse('messageId[eq]=  x  y  ;status[eq]=FAILED')).toEqual(and(cond('messageId', 'eq', 'x  y'), a));
  });
});
