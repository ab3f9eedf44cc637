// The `filters` query language, property-based: random trees printed in random styles parse back
// to the same tree and evaluate the same; arbitrary text parses or fails with a position inside it.
// Explicit imports: @types/jest is not installed, so the jest globals have no ambient types.
import { describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import {
  EXECUTION_LOG_FIELDS,
  FilterSyntaxError,
  MAX_FILTER_LENGTH,
  OPERATORS,
  matchesFilter,
  type FilterNode,
  type FilterValue,
  type Operator,
} from '../../../mock/domain/filters';
import { cond, ms, parse } from './support';

describe('properties', () => {
  type Field = keyof typeof EXECUTION_LOG_FIELDS;
  const fieldNames = Object.keys(EXECUTION_LOG_FIELDS) as Field[];
  const MIN_MS = ms('1970-01-01T00:00:00Z');
  const MAX_MS = ms('2100-01-01T00:00:00Z');

  // Strings rich in the characters the grammar treats specially.
  const stringValue = fc.string({
    unit: fc.oneof(
      fc.constantFrom('"', '\\', '|', ',', ';', ')', '(', '[', ']', '=', ' ', '\t', 'é'),
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
    return fc
      .constantFrom(...ops)
      .chain((op) =>
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
      'and(',
      'or(',
      '(',
      ')',
      ',',
      ';',
      '[',
      ']',
      '=',
      '|',
      '"',
      '\\',
      ' ',
      'x',
      'status',
      'httpStatus',
      'eq',
      'in',
      'gt',
      '5',
      'FAILED',
    );
    fc.assert(
      fc.property(
        fc.array(token, { maxLength: 30 }).map((parts) => parts.join('')),
        (text) => {
          try {
            parse(text);
          } catch (error) {
            expect(error).toBeInstanceOf(FilterSyntaxError);
            const { position } = error as FilterSyntaxError;
            expect(position).toBeGreaterThanOrEqual(0);
            expect(position).toBeLessThanOrEqual(text.length);
          }
        },
      ),
      { numRuns: 1000 },
    );
  });
});
