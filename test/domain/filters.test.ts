// Tests for the `filters` query language: parsing, typed values, precedence, errors with positions, evaluation.
// Explicit imports: @types/jest is not installed, so the jest globals have no ambient types.
import { describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import {
  EXECUTION_LOG_FIELDS,
  FilterSyntaxError,
  MAX_FILTER_LENGTH,
  MAX_NESTING_DEPTH,
  OPERATORS,
  matchesFilter,
  parseFilter,
  type FieldTable,
  type FilterNode,
  type FilterValue,
  type Operator,
} from '../../mock/domain/filters';

const FIELDS: FieldTable = EXECUTION_LOG_FIELDS;
const parse = (text: string): FilterNode => parseFilter(text, FIELDS);

const ms = (iso: string): number => Date.parse(iso);
const cond = (field: keyof typeof EXECUTION_LOG_FIELDS, op: Operator, ...values: FilterValue[]): FilterNode => ({
  kind: 'condition',
  field,
  fieldType: EXECUTION_LOG_FIELDS[field].type,
  op,
  values,
});
const and = (...children: FilterNode[]): FilterNode => ({ kind: 'and', children });
const or = (...children: FilterNode[]): FilterNode => ({ kind: 'or', children });

const A = 'status[eq]=FAILED';
const B = 'httpStatus[gte]=500';
const C = 'messageId[eq]=m-1';
const a = cond('status', 'eq', 'FAILED');
const b = cond('httpStatus', 'gte', 500);
const c = cond('messageId', 'eq', 'm-1');

/** Parses `text` expecting a FilterSyntaxError at `position`; returns it for message checks. */
function parseError(text: string, position: number): FilterSyntaxError {
  let caught: unknown;
  try {
    parse(text);
  } catch (error) {
    caught = error;
  }
  expect(caught).toBeInstanceOf(FilterSyntaxError);
  const error = caught as FilterSyntaxError;
  expect({ position: error.position, message: error.message }).toEqual({
    position,
    message: expect.stringContaining(`at position ${position}`),
  });
  return error;
}

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
    expect(parse(' \t or ( status [ eq ] = FAILED ; httpStatus[ gte ]= 500 \n, messageId [eq] = m-1 ) \r\n')).toEqual(
      or(and(a, b), c),
    );
  });

  it('is kept inside quotes and between words of an unquoted value', () => {
    expect(parse('messageId[eq]=  "  x  "  ')).toEqual(cond('messageId', 'eq', '  x  '));
    expect(parse('messageId[eq]=  x  y  ;status[eq]=FAILED')).toEqual(and(cond('messageId', 'eq', 'x  y'), a));
  });
});

describe('errors carry the position of the problem', () => {
  it('empty expression', () => {
    expect(parseError('', 0).message).toBe('empty expression at position 0');
    parseError('   ', 0);
  });

  it('unknown field', () => {
    expect(parseError('foo[eq]=1', 0).message).toBe("unknown field 'foo' at position 0");
    parseError(`${A}; foo[eq]=1`, 19);
    parseError('foo=1', 0);
  });

  it('fields inherited from Object.prototype are unknown', () => {
    parseError('constructor[eq]=x', 0);
    parseError('__proto__[eq]=x', 0);
    parseError('toString[eq]=x', 0);
  });

  it('unknown operator', () => {
    expect(parseError('status[like]=FAILED', 7).message).toBe("unknown operator 'like' at position 7");
    parseError('httpStatus[EQ]=500', 11);
  });

  it('missing operator', () => {
    parseError('httpStatus[]=500', 11);
  });

  it('operator not allowed for an enum field', () => {
    expect(parseError('status[gt]=FAILED', 7).message).toBe(
      "operator 'gt' is not allowed on enum field 'status' at position 7",
    );
    for (const op of ['gte', 'lt', 'lte']) parseError(`eventType[${op}]=OPERATION_FAILED`, 10);
  });

  it("missing ']'", () => {
    expect(parseError('httpStatus[eq=500', 13).message).toBe("expected ']' but found '=' at position 13");
    parseError('httpStatus[eq', 13);
  });

  it("missing '['", () => {
    parseError('httpStatus eq]=500', 11);
  });

  it("missing '='", () => {
    expect(parseError('httpStatus[eq]500', 14).message).toBe("expected '=' but found '5' at position 14");
    parseError('httpStatus[eq]:500', 14);
    parseError('httpStatus[eq]', 14);
  });

  it('empty value', () => {
    expect(parseError('messageId[eq]=', 14).message).toBe('empty value at position 14');
    parseError(`messageId[eq]=  ;${A}`, 16);
    parseError(`or(messageId[eq]=,${A})`, 17);
    parseError('messageId[eq]=""', 14);
    parseError('eventType[in]=OPERATION_FAILED||OPERATION_REQUESTED', 31);
    parseError('eventType[in]=OPERATION_FAILED|', 31);
    parseError('eventType[in]=|OPERATION_FAILED', 14);
  });

  it('unterminated quote', () => {
    expect(parseError('messageId[eq]="abc', 14).message).toBe('unterminated quoted value at position 14');
    parseError(String.raw`or(messageId[eq]="a\")`, 17);
    parseError('messageId[eq]="a\\', 14);
  });

  it('invalid escape in a quoted value', () => {
    parseError(String.raw`messageId[eq]="a\nb"`, 16);
  });

  it('text after a closing quote', () => {
    expect(parseError('messageId[eq]="a" b', 18).message).toBe("unexpected 'b' after quoted value at position 18");
    parseError('messageId[eq]="a""b"', 17);
  });

  it('a quote inside an unquoted value', () => {
    parseError('messageId[eq]=ab"c"', 16);
  });

  it("'|' outside an 'in' value", () => {
    parseError('messageId[eq]=a|b', 15);
    parseError('status[ne]=FAILED|SUCCESS', 17);
  });

  it('unbalanced parentheses', () => {
    expect(parseError(`or(${A}`, 20).message).toBe("expected ',' or ')' but found end of input at position 20");
    parseError(`or(and(${A},${B})`, 45);
    expect(parseError(`${A})`, 17).message).toBe("unexpected ')' at position 17");
    parseError(`or(${A}))`, 21);
    parseError(')', 0);
  });

  it('trailing garbage', () => {
    parseError(`or(${A}) x`, 22);
    parseError(`or(${A})${B}`, 21);
    expect(parseError(`${A};#`, 18).message).toBe("expected a condition but found '#' at position 18");
    expect(parseError(`or(${A})\u0000`, 21).message).toBe('unexpected U+0000 at position 21');
    parseError(`${A},${B}`, 17);
  });

  it('missing condition around `;` and `,`', () => {
    expect(parseError(`${A};`, 18).message).toBe('expected a condition but found end of input at position 18');
    parseError(`${A};;${B}`, 18);
    parseError(`;${A}`, 0);
    parseError(`or(${A},)`, 21);
    parseError(`or(,${A})`, 3);
  });

  it('empty and/or', () => {
    expect(parseError('and()', 4).message).toBe('and(...) needs at least one argument at position 4');
    parseError('or( )', 4);
    parseError(`and(${A},or())`, 25);
  });

  it('unknown function', () => {
    parseError(`not(${A})`, 0);
    parseError(`AND(${A})`, 0);
  });

  it('bad integer', () => {
    expect(parseError('httpStatus[eq]=abc', 15).message).toBe("'abc' is not an integer at position 15");
    parseError('httpStatus[eq]=5.5', 15);
    parseError('httpStatus[eq]=1e3', 15);
    parseError('httpStatus[eq]=+5', 15);
    parseError('httpStatus[eq]=9007199254740992', 15);
    parseError('httpStatus[in]=200|2x0', 19);
    parseError('httpStatus[eq]=" 500"', 15);
  });

  it('bad date-time', () => {
    expect(parseError('createdAt[lt]=2026-11-21', 14).message).toContain("'2026-11-21' is not an RFC 3339 date-time");
    parseError('createdAt[lt]=2026-11-21T10:00:00', 14); // no offset
    parseError('createdAt[lt]=2026-02-29T10:00:00Z', 14); // not a leap year
    parseError('createdAt[lt]=2026-13-01T10:00:00Z', 14);
    parseError('createdAt[lt]=2026-11-21T24:00:00Z', 14);
    parseError('createdAt[lt]=2026-11-21T10:00:60Z', 14);
    parseError('createdAt[lt]=2026-11-21T10:00:00+2400', 14);
    parseError('createdAt[lt]=2026-11-21 10:00:00Z', 14);
    parseError('createdAt[in]=2026-11-21T10:00:00Z|yesterday', 35);
  });

  it('enum value not allowed', () => {
    expect(parseError('status[eq]=PENDING', 11).message).toBe(
      "'PENDING' is not an allowed value for field 'status' (allowed: SUCCESS, FAILED) at position 11",
    );
    parseError('status[eq]=failed', 11);
    parseError('eventType[in]=OPERATION_FAILED|NOPE', 31);
  });

  it('too long', () => {
    const limit = 'messageId[eq]=' + 'x'.repeat(MAX_FILTER_LENGTH - 'messageId[eq]='.length);
    expect(parse(limit)).toEqual(cond('messageId', 'eq', 'x'.repeat(MAX_FILTER_LENGTH - 14)));
    expect(parseError(`${limit}x`, MAX_FILTER_LENGTH).message).toBe(
      `filter is longer than ${MAX_FILTER_LENGTH} characters at position ${MAX_FILTER_LENGTH}`,
    );
  });

  it('too deep', () => {
    const depth = MAX_NESTING_DEPTH + 1;
    const text = 'and('.repeat(depth) + A + ')'.repeat(depth);
    expect(parseError(text, MAX_NESTING_DEPTH * 'and('.length).message).toBe(
      `nesting deeper than ${MAX_NESTING_DEPTH} levels at position ${MAX_NESTING_DEPTH * 4}`,
    );
    parseError('or('.repeat(600), MAX_NESTING_DEPTH * 3);
  });

  it('error messages do not echo a long value in full', () => {
    const error = parseError(`httpStatus[eq]=${'9'.repeat(500)}`, 15);
    expect(error.message.length).toBeLessThan(150);
  });

  it('is an Error named FilterSyntaxError', () => {
    const error = parseError('x', 0);
    expect(error).toBeInstanceOf(Error);
    expect(error.name).toBe('FilterSyntaxError');
  });
});

describe('evaluation', () => {
  const logs = [
    { id: 'l1', status: 'FAILED', eventType: 'OPERATION_FAILED', httpStatus: 500, messageId: 'm-10', retryAttempts: 3, createdAt: '2026-11-21T09:00:00Z' },
    { id: 'l2', status: 'SUCCESS', eventType: 'OPERATION_COMPLETED', httpStatus: 200, messageId: 'm-9', retryAttempts: 0, createdAt: '2026-11-21T10:00:00.000Z' },
    { id: 'l3', status: 'FAILED', eventType: 'ACCOUNT_CREATED', httpStatus: 99, messageId: 'm,1', retryAttempts: 12, createdAt: '2026-11-21T12:00:00+02:00' },
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

describe('properties', () => {
  type Field = keyof typeof EXECUTION_LOG_FIELDS;
  const fieldNames = Object.keys(EXECUTION_LOG_FIELDS) as Field[];
  const MIN_MS = ms('1970-01-01T00:00:00Z');
  const MAX_MS = ms('2100-01-01T00:00:00Z');

  // Strings rich in the characters the grammar treats specially.
  const stringValue = fc.string({
    unit: fc.oneof(fc.constantFrom('"', '\\', '|', ',', ';', ')', '(', '[', ']', '=', ' ', '\t', 'é'),
      fc.string({ minLength: 1, maxLength: 1 }),
      fc.string({ unit: 'binary', minLength: 1, maxLength: 1 }),
    ),
    minLength: 1,
    maxLength: 8,
  });

  const valueOf = (field: Field): fc.Arbitrary<FilterValue> => {
    const spec = EXECUTION_LOG_FIELDS[field];
    switch (spec.type) {
      case 'integer':
        return fc.oneof(fc.integer({ min: -1000, max: 1000 }), fc.maxSafeInteger(), fc.integer({ min: Number.MIN_SAFE_INTEGER, max: 0 }));
      case 'date-time':
        return fc.integer({ min: MIN_MS, max: MAX_MS });
      case 'enum':
        return fc.constantFrom(...spec.values);
      case 'string':
        return stringValue;
    }
  };

  const condition: fc.Arbitrary<FilterNode> = fc.constantFrom(...fieldNames).chain((field) => {
    const ops: readonly Operator[] = EXECUTION_LOG_FIELDS[field].type === 'enum' ? ['eq', 'ne', 'in'] : OPERATORS;
    return fc.constantFrom(...ops).chain((op) =>
      (op === 'in' ? fc.array(valueOf(field), { minLength: 1, maxLength: 3 }) : valueOf(field).map((v) => [v])).map(
        (values): FilterNode => cond(field, op, ...values),
      ),
    );
  });

  const tree: fc.Arbitrary<FilterNode> = fc.letrec<{ node: FilterNode; group: FilterNode }>((tie) => ({
    node: fc.oneof({ maxDepth: 4, depthIdentifier: 'filter' }, condition, tie('group')),
    group: fc
      .record({ kind: fc.constantFrom('and' as const, 'or' as const), children: fc.array(tie('node'), { minLength: 1, maxLength: 3 }) })
      .map((g): FilterNode => g),
  })).node;

  interface Style {
    readonly space: string; // inserted around every token
    readonly quoteAll: boolean; // quote values even when not needed
    readonly semicolons: boolean; // print and-groups with `;` where that keeps the tree shape
    readonly offsetMinutes: number; // offset used to print date-times
  }
  const style: fc.Arbitrary<Style> = fc.record({
    space: fc.constantFrom('', ' ', ' \t\n '),
    quoteAll: fc.boolean(),
    semicolons: fc.boolean(),
    offsetMinutes: fc.integer({ min: -23 * 60 - 59, max: 23 * 60 + 59 }),
  });

  const pad = (n: number): string => String(n).padStart(2, '0');
  function formatDate(epochMs: number, offsetMinutes: number): string {
    const local = new Date(epochMs + offsetMinutes * 60_000).toISOString().slice(0, -1);
    const abs = Math.abs(offsetMinutes);
    return offsetMinutes === 0 ? `${local}Z` : `${local}${offsetMinutes < 0 ? '-' : '+'}${pad(Math.floor(abs / 60))}:${pad(abs % 60)}`;
  }

  function formatValue(value: FilterValue, type: string, s: Style): string {
    const text = type === 'date-time' ? formatDate(value as number, s.offsetMinutes) : String(value);
    const needsQuotes = /^[\s"]|[\s]$|[,;)|"]/.test(text);
    return s.quoteAll || needsQuotes ? `"${text.replace(/[\\"]/g, (ch) => `\\${ch}`)}"` : text;
  }

  /** Prints a tree as filter text; `inChain` means we are a term of a `;` chain, where `;` would flatten. */
  function print(node: FilterNode, s: Style, inChain = false): string {
    const w = s.space;
    if (node.kind === 'condition') {
      const values = node.values.map((v) => formatValue(v, node.fieldType, s)).join(`${w}|${w}`);
      return `${w}${node.field}${w}[${w}${node.op}${w}]${w}=${w}${values}${w}`;
    }
    if (node.kind === 'and' && s.semicolons && !inChain && node.children.length > 1) {
      return node.children.map((child) => print(child, s, true)).join(';');
    }
    return `${w}${node.kind}${w}(${node.children.map((child) => print(child, s)).join(',')})${w}`;
  }

  const record = fc.record({
    status: fc.constantFrom('SUCCESS', 'FAILED'),
    eventType: fc.constantFrom(...EXECUTION_LOG_FIELDS.eventType.values),
    httpStatus: fc.oneof(fc.integer({ min: -1000, max: 1000 }), fc.constant(undefined)),
    messageId: stringValue,
    retryAttempts: fc.integer({ min: -1000, max: 1000 }),
    createdAt: fc.integer({ min: MIN_MS, max: MAX_MS }).map((t) => new Date(t).toISOString()),
  });

  it('printing a random tree and parsing it back gives the same tree, which evaluates the same', () => {
    fc.assert(
      fc.property(tree, style, fc.array(record, { maxLength: 5 }), (node, s, records) => {
        const text = print(node, s);
        fc.pre(text.length <= MAX_FILTER_LENGTH);
        const reparsed = parse(text);
        expect(reparsed).toEqual(node);
        for (const r of records) expect(matchesFilter(reparsed, r)).toBe(matchesFilter(node, r));
      }),
      { numRuns: 300 },
    );
  });

  it('arbitrary text either parses or throws FilterSyntaxError with a position inside the text', () => {
    const token = fc.constantFrom(
      'and(', 'or(', '(', ')', ',', ';', '[', ']', '=', '|', '"', '\\', ' ', 'x', 'status', 'httpStatus', 'eq', 'in', 'gt', '5', 'FAILED',
    );
    fc.assert(
      fc.property(fc.array(token, { maxLength: 30 }).map((parts) => parts.join('')), (text) => {
        try {
          parse(text);
        } catch (error) {
          expect(error).toBeInstanceOf(FilterSyntaxError);
          const { position } = error as FilterSyntaxError;
          expect(position).toBeGreaterThanOrEqual(0);
          expect(position).toBeLessThanOrEqual(text.length);
        }
      }),
      { numRuns: 1000 },
    );
  });
});
