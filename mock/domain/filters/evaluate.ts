// Evaluates a parsed filter tree against one record (e.g. an execution log).
import type { ConditionNode, FilterNode, FilterValue } from './ast';
import type { FieldType } from './fields';
import { parseDateTime } from './literals';

/**
 * Whether `record` satisfies `node`. Date-time fields are read from RFC 3339 strings (or Dates),
 * integer fields from numbers, string/enum fields from strings.
 */
export function matchesFilter(node: FilterNode, record: Readonly<Record<string, unknown>>): boolean {
  switch (node.kind) {
    case 'and':
      return node.children.every((child) => matchesFilter(child, record));
    case 'or':
      return node.children.some((child) => matchesFilter(child, record));
    case 'condition':
      return matchesCondition(node, record);
  }
}

function matchesCondition(node: ConditionNode, record: Readonly<Record<string, unknown>>): boolean {
  const actual = recordValue(node.fieldType, record[node.field]);
  // Like SQL NULL: a missing or mistyped value matches no condition, not even 'ne'.
  if (actual === undefined) return false;
  if (node.op === 'in') return node.values.some((value) => value === actual);
  const [expected] = node.values;
  if (expected === undefined) return false;
  const order = compare(actual, expected);
  switch (node.op) {
    case 'eq':
      return order === 0;
    case 'ne':
      return order !== 0;
    case 'gt':
      return order > 0;
    case 'gte':
      return order >= 0;
    case 'lt':
      return order < 0;
    case 'lte':
      return order <= 0;
  }
}

/** The record's value in the representation the parser uses for this field type, or undefined. */
function recordValue(type: FieldType, value: unknown): FilterValue | undefined {
  switch (type) {
    case 'integer':
      return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
    case 'date-time':
      if (value instanceof Date) return Number.isNaN(value.getTime()) ? undefined : value.getTime();
      return typeof value === 'string' ? parseDateTime(value) : undefined;
    case 'string':
    case 'enum':
      return typeof value === 'string' ? value : undefined;
  }
}

// Numbers (integers, epoch ms) compare numerically; strings by UTF-16 code units, i.e. lexicographically.
function compare(a: FilterValue, b: FilterValue): number {
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  const [x, y] = [String(a), String(b)];
  return x < y ? -1 : x > y ? 1 : 0;
}
