// Turns filter text into tokens; values are read on request because where a value ends depends on context (after '=').
import { FilterSyntaxError, show } from './errors';

// 'other' is any character that cannot start a token; the parser reports it in context ("expected '=' but found '5'").
export type TokenKind = 'ident' | '[' | ']' | '=' | '(' | ')' | ',' | ';' | 'other' | 'end';

export interface Token {
  readonly kind: TokenKind;
  readonly text: string;
  readonly position: number;
}

/** One value after '=' (one item of an 'in' list), unquoted and unescaped. */
export interface RawValue {
  readonly text: string;
  /** Where the value starts: its first character, or its opening quote. */
  readonly position: number;
}

const PUNCTUATION: ReadonlySet<string> = new Set(['[', ']', '=', '(', ')', ',', ';']);
// '|' ends a value too, so that 'in' lists split and a stray '|' elsewhere is reported rather than swallowed.
const VALUE_END: ReadonlySet<string> = new Set([',', ';', ')', '|']);
const IDENT_START = /^[A-Za-z_]$/;
const IDENT_PART = /^[A-Za-z0-9_]$/;

function isWhitespace(c: string | undefined): boolean {
  return c === ' ' || c === '\t' || c === '\n' || c === '\r';
}

/** A character for an error message; control and non-ASCII characters as U+XXXX so messages stay readable. */
export function showChar(c: string): string {
  const code = c.charCodeAt(0);
  return code >= 0x20 && code < 0x7f ? `'${c}'` : `U+${code.toString(16).toUpperCase().padStart(4, '0')}`;
}

export function describeToken(token: Token): string {
  if (token.kind === 'end') return 'end of input';
  return token.kind === 'other' ? showChar(token.text) : show(token.text);
}

export class Tokenizer {
  private pos = 0;

  constructor(private readonly input: string) {}

  peek(): Token {
    const saved = this.pos;
    try {
      return this.next();
    } finally {
      this.pos = saved;
    }
  }

  next(): Token {
    this.skipWhitespace();
    const start = this.pos;
    const c = this.input[start];
    if (c === undefined) return { kind: 'end', text: '', position: start };
    if (PUNCTUATION.has(c)) {
      this.pos++;
      return { kind: c as TokenKind, text: c, position: start };
    }
    if (IDENT_START.test(c)) {
      // Stryker disable next-line StringLiteral: any fallback of other than one character fails IDENT_PART just like ''
      while (IDENT_PART.test(this.input[this.pos] ?? '')) this.pos++;
      return { kind: 'ident', text: this.input.slice(start, this.pos), position: start };
    }
    this.pos++;
    return { kind: 'other', text: c, position: start };
  }

  /**
   * Reads the value(s) after '=', leaving the cursor on the delimiter that ends them.
   * With `list` (operator 'in') unquoted '|' separates items; otherwise it is an error.
   */
  readValues(list: boolean): RawValue[] {
    const values: RawValue[] = [this.readValue()];
    while (this.input[this.pos] === '|') {
      if (!list) {
        throw new FilterSyntaxError("'|' separates values only for operator 'in' (quote the value to use it literally)", this.pos);
      }
      this.pos++;
      values.push(this.readValue());
    }
    return values;
  }

  private readValue(): RawValue {
    this.skipWhitespace();
    const start = this.pos;
    const text = this.input[start] === '"' ? this.readQuoted() : this.readUnquoted();
    if (text === '') throw new FilterSyntaxError('empty value', start);
    return { text, position: start };
  }

  private readUnquoted(): string {
    const start = this.pos;
    for (let c = this.input[this.pos]; c !== undefined && !VALUE_END.has(c); c = this.input[++this.pos]) {
      // A quote mid-value is almost certainly a mistake; rejecting it keeps the meaning of '"' unambiguous.
      if (c === '"') throw new FilterSyntaxError("unexpected '\"' in unquoted value (quote the whole value)", this.pos);
    }
    let end = this.pos;
    // Stryker disable next-line EqualityOperator,ConditionalExpression: when end passes start the slice below is '' all the same
    while (end > start && isWhitespace(this.input[end - 1])) end--;
    return this.input.slice(start, end);
  }

  private readQuoted(): string {
    const open = this.pos++;
    let text = '';
    for (;;) {
      const c = this.input[this.pos];
      if (c === undefined) throw new FilterSyntaxError('unterminated quoted value', open);
      if (c === '"') {
        this.pos++;
        break;
      }
      if (c === '\\') {
        const escaped = this.input[this.pos + 1];
        if (escaped === undefined) throw new FilterSyntaxError('unterminated quoted value', open);
        if (escaped !== '"' && escaped !== '\\') {
          throw new FilterSyntaxError(`invalid escape of ${showChar(escaped)} (only \\" and \\\\ are allowed)`, this.pos);
        }
        text += escaped;
        this.pos += 2;
        continue;
      }
      text += c;
      this.pos++;
    }
    this.skipWhitespace();
    const after = this.input[this.pos];
    if (after !== undefined && !VALUE_END.has(after)) {
      throw new FilterSyntaxError(`unexpected ${showChar(after)} after quoted value`, this.pos);
    }
    return text;
  }

  private skipWhitespace(): void {
    while (isWhitespace(this.input[this.pos])) this.pos++;
  }
}
