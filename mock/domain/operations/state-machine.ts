// Operation states. Seed: operations are created REQUESTED and COMPLETED is seen; the event
// names add FAILED and ACTION_REQUIRED outcomes. The transitions between them, and the event each
// emits, are the document's `x-lifecycle` on OperationState.status (ours).
import { transitionOf, type StateOf } from '../../../spec/lifecycles';
import { creationEvent, transitionEvent, type Step } from '../lifecycle';
import type { EventType, Operation } from '../records';

export type OperationStatus = StateOf<'operation'>;

export function canMove(from: OperationStatus, to: OperationStatus): boolean {
  return transitionOf('operation', from, to) !== undefined;
}

export interface Reason {
  code: string;
  message: string;
  details?: Record<string, unknown>;
}

type Extra = { reason?: Reason; transactions?: Operation['transactions'] };

/** The event of a new operation (created in its initial state). */
export function operationCreatedEvent(operation: Operation): EventType | null {
  return creationEvent('operation', operation.currentState.status);
}

/** The operation after a transition, with the event it emits; throws when the lifecycle forbids it. */
export function stepOperation(operation: Operation, to: OperationStatus, at: string, extra: Extra = {}): Step<Operation> {
  const from = operation.currentState.status;
  const event = transitionEvent('operation', from, to, `An operation in ${from} cannot become ${to}.`);
  const currentState = extra.reason ? { status: to, createdAt: at, reason: extra.reason } : { status: to, createdAt: at };
  const next = {
    ...operation,
    currentState,
    transactions: [...operation.transactions, ...(extra.transactions ?? [])],
    updatedAt: at,
  };
  return { next, event };
}

/** The operation after a transition; throws when the lifecycle forbids it. */
export function moveOperation(operation: Operation, to: OperationStatus, at: string, extra: Extra = {}): Operation {
  return stepOperation(operation, to, at, extra).next;
}
