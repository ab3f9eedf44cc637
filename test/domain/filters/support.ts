// Shared by the `filters` query-language tests: the execution-log field table they parse against,
// node builders for expected trees, and three sample conditions (A, B, C as text; a, b, c as nodes).
import {
  EXECUTION_LOG_FIELDS,
  parseFilter,
  type FieldTable,
  type FilterNode,
  type FilterValue,
  type Operator,
} from '../../../mock/domain/filters';

export const FIELDS: FieldTable = EXECUTION_LOG_FIELDS;
export const parse = (text: string): FilterNode => parseFilter(text, FIELDS);

export const ms = (iso: string): number => Date.parse(iso);
export const cond = (field: keyof typeof EXECUTION_LOG_FIELDS, op: Operator, ...values: FilterValue[]): FilterNode => ({
  kind: 'condition',
  field,
  fieldType: EXECUTION_LOG_FIELDS[field].type,
  op,
  values,
});
export const and = (...children: FilterNode[]): FilterNode => ({ kind: 'and', children });
export const or = (...children: FilterNode[]): FilterNode => ({ kind: 'or', children });

export const A = 'status[eq]=FAILED';
export const B = 'httpStatus[gte]=500';
export const C = 'messageId[eq]=m-1';
export const a = cond('status', 'eq', 'FAILED');
export const b = cond('httpStatus', 'gte', 500);
export const c = cond('messageId', 'eq', 'm-1');
