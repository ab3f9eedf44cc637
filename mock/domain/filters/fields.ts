// Types describing which fields a caller lets clients filter on, and which operators each field type supports.

export type FieldType = 'string' | 'enum' | 'integer' | 'date-time';

export type FieldSpec =
  | { readonly type: 'string' }
  | { readonly type: 'integer' }
  | { readonly type: 'date-time' }
  | { readonly type: 'enum'; readonly values: readonly string[] };

/** Filterable fields by name; the parser only accepts fields listed here (own properties only). */
export type FieldTable = { readonly [field: string]: FieldSpec };

export const OPERATORS = ['eq', 'ne', 'gt', 'gte', 'lt', 'lte', 'in'] as const;
export type Operator = (typeof OPERATORS)[number];

// Ordering an enum's values by their spelling is meaningless, so enums get equality operators only.
const ENUM_OPERATORS: readonly Operator[] = ['eq', 'ne', 'in'];

export function isOperator(text: string): text is Operator {
  return (OPERATORS as readonly string[]).includes(text);
}

export function operatorsFor(type: FieldType): readonly Operator[] {
  return type === 'enum' ? ENUM_OPERATORS : OPERATORS;
}
