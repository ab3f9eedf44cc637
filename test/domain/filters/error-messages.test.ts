// What a refused filter says: each syntax error's exact message, how characters are shown in it
// (printable ASCII quoted, anything else as U+XXXX), and that echoed text is cut at 64 characters.
import { describe, expect, it } from '@jest/globals';
import { FilterSyntaxError } from '../../../mock/domain/filters';
import { show } from '../../../mock/domain/filters/errors';
import { Tokenizer, describeToken, showChar } from '../../../mock/domain/filters/tokenizer';
import { parse } from './support';

/** The message of the FilterSyntaxError that parsing `text` throws. */
function messageOf(text: string): string {
  try {
    parse(text);
  } catch (error) {
    expect(error).toBeInstanceOf(FilterSyntaxError);
    return (error as FilterSyntaxError).message;
  }
  throw new Error(`expected ${JSON.stringify(text)} to be refused`);
}

describe('how a character is shown', () => {
  it.each([
    [' ', "' '"],
    ['~', "'~'"],
    ['5', "'5'"],
    ['\u001f', 'U+001F'],
    ['\u007f', 'U+007F'],
    ['\t', 'U+0009'],
    ['é', 'U+00E9'],
    ['\u20ac', 'U+20AC'],
  ])('%j is shown as %s', (c, shown) => {
    expect(showChar(c)).toBe(shown);
  });

  it("a stray character in place of '[' is named in the message", () => {
    expect(messageOf('status~FAILED')).toBe("expected '[' but found '~' at position 6");
    expect(messageOf('status\u00e9')).toBe("expected '[' but found U+00E9 at position 6");
  });

  it('a missing token at the end of the text is "end of input", an identifier is quoted', () => {
    expect(messageOf('status')).toBe("expected '[' but found end of input at position 6");
    expect(messageOf('and(status[eq]=FAILED')).toBe("expected ',' or ')' but found end of input at position 21");
    expect(messageOf('status[eq]=FAILED)')).toBe("unexpected ')' at position 17");
    expect(describeToken({ kind: 'ident', text: 'status', position: 0 })).toBe("'status'");
    expect(describeToken({ kind: 'end', text: '', position: 3 })).toBe('end of input');
  });
});

describe('echoed text is cut short', () => {
  it('text of 64 characters is shown whole, longer text is cut at 64 with an ellipsis', () => {
    const sixtyFour = 'x'.repeat(64);
    expect(show(sixtyFour)).toBe(`'${sixtyFour}'`);
    expect(show(`${sixtyFour}y`)).toBe(`'${sixtyFour}…'`);
    expect(messageOf(`${'f'.repeat(70)}[eq]=1`)).toBe(`unknown field '${'f'.repeat(64)}…' at position 0`);
  });
});

describe('value errors', () => {
  it("'|' outside an 'in' list says to quote it", () => {
    expect(messageOf('messageId[eq]=a|b')).toBe(
      "'|' separates values only for operator 'in' (quote the value to use it literally) at position 15",
    );
  });

  it('a quote in the middle of an unquoted value is refused', () => {
    expect(messageOf('messageId[eq]=ab"c"')).toBe("unexpected '\"' in unquoted value (quote the whole value) at position 16");
  });

  it('a backslash at the very end leaves the quoted value unterminated, reported at its opening quote', () => {
    expect(messageOf('messageId[eq]="ab\\')).toBe('unterminated quoted value at position 14');
    expect(messageOf('messageId[eq]="ab')).toBe('unterminated quoted value at position 14');
  });

  it('only \\" and \\\\ may be escaped', () => {
    expect(messageOf('messageId[eq]="a\\nb"')).toBe("invalid escape of 'n' (only \\\" and \\\\ are allowed) at position 16");
  });

  it('nothing but a delimiter may follow a quoted value', () => {
    expect(messageOf('messageId[eq]="a" b')).toBe("unexpected 'b' after quoted value at position 18");
  });

  it('an empty value is refused where it starts', () => {
    expect(messageOf('messageId[eq]= ,')).toBe('empty value at position 15');
  });
});

describe('the tokens of a filter', () => {
  it('a character that starts no token is one "other" token and the next token follows it', () => {
    const tokens = new Tokenizer('5=x');
    expect(tokens.next()).toEqual({ kind: 'other', text: '5', position: 0 });
    expect(tokens.next()).toEqual({ kind: '=', text: '=', position: 1 });
    expect(tokens.next()).toEqual({ kind: 'ident', text: 'x', position: 2 });
    expect(tokens.next()).toEqual({ kind: 'end', text: '', position: 3 });
  });

  it('peek does not move on, and the end token sits after trailing whitespace', () => {
    const tokens = new Tokenizer(' ab_1 \t');
    expect(tokens.peek()).toEqual({ kind: 'ident', text: 'ab_1', position: 1 });
    expect(tokens.next()).toEqual({ kind: 'ident', text: 'ab_1', position: 1 });
    expect(tokens.next()).toEqual({ kind: 'end', text: '', position: 7 });
  });
});
