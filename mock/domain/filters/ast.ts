// The parsed filter tree that parseFilter produces and matchesFilter evaluates.
import type { FieldType, Operator } from './fields';

/** integer → number, date-time → epoch milliseconds, string/enum → string. */
export type FilterValue = number | string;

export interface ConditionNode {
  readonly kind: 'condition';
  readonly field: string;
  // Carried in the node so evaluation needs no field table (it must know to parse record dates).
  readonly fieldType: FieldType;
  readonly op: Operator;
  /** Exactly one value, except for 'in' which has one or more. */
  readonly values: readonly FilterValue[];
}

export interface GroupNode {
  readonly kind: 'and' | 'or';
  readonly children: readonly FilterNode[];
}

export type FilterNode = ConditionNode | GroupNode;
