// The state machines of the mock, as the document declares them (`x-lifecycle`, generated into
// spec/generated/lifecycles.ts): a move the declaration does not list is refused with
// INVALID_STATE_TRANSITION, and the event a move emits is the one it lists.
import { ServiceError } from '../errors/catalogue';
import { initialOf, transitionOf, type LifecycleName } from '../../spec/lifecycles';
import type { EventType } from './records';

/** A record after a move, and the event the move emits (null: none). */
export interface Step<T> {
  next: T;
  event: EventType | null;
}

/** The event of the declared transition from → to; INVALID_STATE_TRANSITION when it is not declared. */
export function transitionEvent(name: LifecycleName, from: string, to: string, message: string): EventType | null {
  const transition = transitionOf(name, from, to);
  if (!transition) throw new ServiceError('INVALID_STATE_TRANSITION', { from, to }, message);
  return transition.event;
}

/** The event of a record created in `state`; INVALID_STATE_TRANSITION when it is not an initial state. */
export function creationEvent(name: LifecycleName, state: string): EventType | null {
  const entry = initialOf(name, state);
  if (!entry) throw new ServiceError('INVALID_STATE_TRANSITION', { from: null, to: state }, `A new ${name} cannot start in ${state}.`);
  return entry.event;
}
