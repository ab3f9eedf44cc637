// The `filters` query language, refused: every syntax error is a FilterSyntaxError that names the
// position of the problem.
// Explicit imports: @types/jest is not installed, so the jest globals have no ambient types.
import { describe, expect, it } from '@jest/globals';
import { FilterSyntaxError, MAX_FILTER_LENGTH, MAX_NESTING_DEPTH } from '../../../mock/domain/filters';
import { A, B, cond, parse } from './support';

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
    expect(parseError('status[gt]=FAILED', 7).message).toBe("operator 'gt' is not allowed on enum field 'status' at position 7");
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
