// The suite's transition checks, read from the document's lifecycles (x-lifecycle on each status
// field, generated into spec/generated/lifecycles.ts) as the mock's state machines are: a status
// change seen on a target is a declared transition, and the events a record sends are the ones its
// declared transitions emit.
import { expect } from '@jest/globals';
import { eventsAlong, initialOf, transitionOf, type LifecycleName } from '../../spec/lifecycles';

/** A record created in `status`: the lifecycle declares it as an initial state. */
export function expectCreatedIn(name: LifecycleName, status: string | undefined): void {
  expect({ lifecycle: name, created: status, initial: initialOf(name, status ?? '') !== undefined }).toMatchObject({ initial: true });
}

/** A status change seen on the target (`from` before, `to` after): the lifecycle declares it. */
export function expectTransition(name: LifecycleName, from: string | undefined, to: string | undefined): void {
  const declared = transitionOf(name, from ?? '', to ?? '') !== undefined;
  expect({ lifecycle: name, from, to, declared }).toMatchObject({ declared: true });
}

/** The events a record sends from its creation in the first state along the others, as the lifecycle declares them. */
export function declaredEvents(name: LifecycleName, ...path: string[]): string[] {
  return eventsAlong(name, path);
}
