// Operation states. Seed: operations are created REQUESTED and COMPLETED is seen; the event
// names add FAILED and ACTION_REQUIRED outcomes. The transitions between them are ours.
import { ServiceError } from '../../errors/catalogue';
import type { EventType, Operation } from '../records';

export type OperationStatus = 'REQUESTED' | 'COMPLETED' | 'FAILED' | 'ACTION_REQUIRED';

const NEXT_STATES: Record<OperationStatus, OperationStatus[]> = {
  REQUESTED: ['COMPLETED', 'FAILED', 'ACTION_REQUIRED'],
  // A flagged operation is resolved by settling or failing it, or by returning it to processing.
  ACTION_REQUIRED: ['REQUESTED', 'COMPLETED', 'FAILED'],
  COMPLETED: [],
  FAILED: [],
};

export const OPERATION_EVENT: Record<OperationStatus, EventType> = {
  REQUESTED: 'OPERATION_REQUESTED',
  COMPLETED: 'OPERATION_COMPLETED',
  FAILED: 'OPERATION_FAILED',
  ACTION_REQUIRED: 'OPERATION_ACTION_REQUIRED',
};

export function canMove(from: OperationStatus, to: OperationStatus): boolean {
  return NEXT_STATES[from].includes(to);
}

export interface Reason {
  code: string;
  message: string;
  details?: Record<string, unknown>;
}

/** The operation after a transition; throws when the state machine forbids it. */
export function moveOperation(
  operation: Operation,
  to: OperationStatus,
  at: string,
  extra: { reason?: Reason; transactions?: Operation['transactions'] } = {},
): Operation {
  const from = operation.currentState.status as OperationStatus;
  if (!canMove(from, to)) {
    throw new ServiceError('INVALID_STATE_TRANSITION', { from, to }, `An operation in ${from} cannot become ${to}.`);
  }
  const currentState = extra.reason ? { status: to, createdAt: at, reason: extra.reason } : { status: to, createdAt: at };
  return {
    ...operation,
    currentState,
    transactions: [...operation.transactions, ...(extra.transactions ?? [])],
    updatedAt: at,
  };
}
