// Public surface of the `filters` query language: parse, evaluate, the error type, and the field tables.
export type { ConditionNode, FilterNode, FilterValue, GroupNode } from './ast';
export { FilterSyntaxError } from './errors';
export { EXECUTION_LOG_FIELDS, EXECUTION_LOG_STATUSES, WEBHOOK_EVENT_TYPES } from './execution-log-fields';
export { OPERATORS, type FieldSpec, type FieldTable, type FieldType, type Operator } from './fields';
export { matchesFilter } from './evaluate';
export { MAX_FILTER_LENGTH, MAX_NESTING_DEPTH, parseFilter } from './parser';
