// Recursive-descent parser turning `filters` query text into a typed FilterNode tree.
import type { FilterNode, FilterValue } from './ast';
import { FilterSyntaxError, show } from './errors';
import { type FieldSpec, type FieldTable, isOperator, operatorsFor } from './fields';
import { parseDateTime, parseIntegerLiteral } from './literals';
import { type RawValue, type Token, Tokenizer, describeToken } from './tokenizer';

// Both limits bound the work (and the recursion) a hostile query string can cause.
export const MAX_FILTER_LENGTH = 2048;
export const MAX_NESTING_DEPTH = 32;

/*
 * Grammar (whitespace between tokens is ignored):
 *   filter     := expression END
 *   expression := term (';' term)*                 ';' is implicit AND, binding loosest
 *   term       := group | condition
 *   group      := ('and' | 'or') '(' expression (',' expression)* ')'
 *   condition  := FIELD '[' OPERATOR ']' '=' value ('|' value)*    ('|' only for 'in')
 *   value      := unquoted text up to , ; ) | or END  |  '"' text with \" \\ escapes '"'
 */
export function parseFilter(text: string, fields: FieldTable): FilterNode {
  if (text.length > MAX_FILTER_LENGTH) {
    throw new FilterSyntaxError(`filter is longer than ${MAX_FILTER_LENGTH} characters`, MAX_FILTER_LENGTH);
  }
  return new Parser(text, fields).parse();
}

class Parser {
  private readonly tokens: Tokenizer;

  constructor(
    text: string,
    private readonly fields: FieldTable,
  ) {
    this.tokens = new Tokenizer(text);
  }

  parse(): FilterNode {
    if (this.tokens.peek().kind === 'end') throw new FilterSyntaxError('empty expression', 0);
    const node = this.parseExpression(0);
    const trailing = this.tokens.next();
    if (trailing.kind !== 'end') throw new FilterSyntaxError(`unexpected ${describeToken(trailing)}`, trailing.position);
    return node;
  }

  /** `depth` is the number of enclosing and(...)/or(...) groups. */
  private parseExpression(depth: number): FilterNode {
    const terms = [this.parseTerm(depth)];
    while (this.tokens.peek().kind === ';') {
      this.tokens.next();
      terms.push(this.parseTerm(depth));
    }
    // A lone term is returned as is so `a` and `and(a)` stay distinguishable and printing round-trips.
    return terms.length === 1 ? terms[0]! : { kind: 'and', children: terms };
  }

  private parseTerm(depth: number): FilterNode {
    const name = this.tokens.next();
    if (name.kind !== 'ident') {
      throw new FilterSyntaxError(`expected a condition but found ${describeToken(name)}`, name.position);
    }
    // A name followed by '(' is a group, so and/or are not reserved and could still be field names.
    return this.tokens.peek().kind === '(' ? this.parseGroup(name, depth + 1) : this.parseCondition(name);
  }

  private parseGroup(name: Token, depth: number): FilterNode {
    const kind = name.text;
    if (kind !== 'and' && kind !== 'or') {
      throw new FilterSyntaxError(`unknown function ${show(kind)} (expected 'and' or 'or')`, name.position);
    }
    if (depth > MAX_NESTING_DEPTH) {
      throw new FilterSyntaxError(`nesting deeper than ${MAX_NESTING_DEPTH} levels`, name.position);
    }
    this.tokens.next(); // '('
    const first = this.tokens.peek();
    if (first.kind === ')') throw new FilterSyntaxError(`${kind}(...) needs at least one argument`, first.position);
    const children = [this.parseExpression(depth)];
    for (;;) {
      const token = this.tokens.next();
      if (token.kind === ')') return { kind, children };
      if (token.kind !== ',') {
        throw new FilterSyntaxError(`expected ',' or ')' but found ${describeToken(token)}`, token.position);
      }
      children.push(this.parseExpression(depth));
    }
  }

  private parseCondition(name: Token): FilterNode {
    const field = name.text;
    // Own properties only: 'constructor' or '__proto__' must not resolve through the prototype chain.
    const spec = Object.hasOwn(this.fields, field) ? this.fields[field] : undefined;
    if (spec === undefined) throw new FilterSyntaxError(`unknown field ${show(field)}`, name.position);

    this.expect('[');
    const opToken = this.tokens.next();
    if (opToken.kind !== 'ident') {
      throw new FilterSyntaxError(`expected an operator but found ${describeToken(opToken)}`, opToken.position);
    }
    const op = opToken.text;
    if (!isOperator(op)) throw new FilterSyntaxError(`unknown operator ${show(op)}`, opToken.position);
    if (!operatorsFor(spec.type).includes(op)) {
      throw new FilterSyntaxError(`operator '${op}' is not allowed on ${spec.type} field '${field}'`, opToken.position);
    }
    this.expect(']');
    this.expect('=');

    const values = this.tokens.readValues(op === 'in').map((raw) => typedValue(raw, field, spec));
    return { kind: 'condition', field, fieldType: spec.type, op, values };
  }

  private expect(kind: '[' | ']' | '='): void {
    const token = this.tokens.next();
    if (token.kind !== kind) {
      throw new FilterSyntaxError(`expected '${kind}' but found ${describeToken(token)}`, token.position);
    }
  }
}

function typedValue(raw: RawValue, field: string, spec: FieldSpec): FilterValue {
  const { text, position } = raw;
  switch (spec.type) {
    case 'integer': {
      const n = parseIntegerLiteral(text);
      if (n === undefined) throw new FilterSyntaxError(`${show(text)} is not an integer`, position);
      return n;
    }
    case 'date-time': {
      const ms = parseDateTime(text);
      if (ms === undefined) {
        throw new FilterSyntaxError(`${show(text)} is not an RFC 3339 date-time (e.g. 2026-11-21T10:00:00Z)`, position);
      }
      return ms;
    }
    case 'enum':
      if (!spec.values.includes(text)) {
        throw new FilterSyntaxError(
          `${show(text)} is not an allowed value for field '${field}' (allowed: ${spec.values.join(', ')})`,
          position,
        );
      }
      return text;
    case 'string':
      return text;
  }
}
