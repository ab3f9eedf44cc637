// The lifecycles the document declares (`x-lifecycle` on each status field with states, generated
// into spec/generated/lifecycles.ts): the mock's state machines, the contract suite's transition
// checks and any other client of the table read them through these look-ups.
import { LIFECYCLES } from './generated/lifecycles';

export { LIFECYCLES };

export type LifecycleName = keyof typeof LIFECYCLES;
type Lifecycle = (typeof LIFECYCLES)[LifecycleName];
/** The states of one lifecycle, e.g. `StateOf<'operation'>` is 'REQUESTED' | 'COMPLETED' | …. */
export type StateOf<N extends LifecycleName> = (typeof LIFECYCLES)[N]['states'][number];
/** Every event a lifecycle emits. */
export type LifecycleEvent = NonNullable<Lifecycle['transitions'][number]['event'] | Lifecycle['initial'][number]['event']>;

export interface Transition {
  from: string;
  to: string;
  /** The event the transition emits; null when it emits none. */
  event: LifecycleEvent | null;
}

export interface Entry {
  state: string;
  /** The event emitted when a record is created in this state; null when none. */
  event: LifecycleEvent | null;
}

export const LIFECYCLE_NAMES = Object.keys(LIFECYCLES) as LifecycleName[];

/** Every allowed transition of a lifecycle. */
export function transitionsOf(name: LifecycleName): readonly Transition[] {
  return LIFECYCLES[name].transitions;
}

/** The transition from → to when the lifecycle allows it; undefined when it does not. */
export function transitionOf(name: LifecycleName, from: string, to: string): Transition | undefined {
  return transitionsOf(name).find((t) => t.from === from && t.to === to);
}

/** The initial states of a lifecycle (a record may be created in them), each with its event, in declared order. */
export function initialStates(name: LifecycleName): readonly Entry[] {
  return LIFECYCLES[name].initial;
}

/** The initial state `state` (a record may be created in it) with its event; undefined when it is not initial. */
export function initialOf(name: LifecycleName, state: string): Entry | undefined {
  return initialStates(name).find((i) => i.state === state);
}

export function isTerminal(name: LifecycleName, state: string): boolean {
  return (LIFECYCLES[name].terminal as readonly string[]).includes(state);
}

/**
 * The events a record emits along a path of states, from its creation in the first (an initial
 * state) through each transition; a step the lifecycle does not allow is an error naming it.
 */
export function eventsAlong(name: LifecycleName, path: readonly string[]): LifecycleEvent[] {
  const [first, ...rest] = path;
  const entry = first === undefined ? undefined : initialOf(name, first);
  if (!entry) throw new Error(`${name} lifecycle: ${String(first)} is not an initial state`);
  const events = entry.event ? [entry.event] : [];
  let from = entry.state;
  for (const to of rest) {
    const step = transitionOf(name, from, to);
    if (!step) throw new Error(`${name} lifecycle: ${from} -> ${to} is not an allowed transition`);
    if (step.event) events.push(step.event);
    from = to;
  }
  return events;
}
