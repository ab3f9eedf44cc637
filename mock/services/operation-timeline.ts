// The state timeline of every operation: each OPERATION_* event is kept as a timeline record
// under the operation's id, so the inspector shows every state an operation entered and when
// (the service's Operation carries its current state only). A listener of the event bus, like
// the webhook dispatcher: the change it follows is made whether or not the record is kept.
import type { DomainEvent } from '../events/event-bus';
import type { Operation, TimelineRecord } from '../store/records';
import type { Deps } from './deps';

function timelineOf(event: DomainEvent, id: string): TimelineRecord | undefined {
  if (event.resource !== 'OPERATION') return undefined;
  const operation = event.payload.data as Operation | undefined;
  if (!operation?.currentState) return undefined;
  const { status, reason } = operation.currentState;
  return { id, operationId: operation.id, eventType: event.eventType, at: event.atTime, status, ...(reason ? { reason } : {}) };
}

/** Keeps every operation's timeline from now on; answers the unsubscribe. */
export function recordOperationTimelines(deps: Pick<Deps, 'events' | 'store' | 'newId'>, onError: (error: unknown) => void): () => void {
  return deps.events.subscribe(async (event) => {
    const record = timelineOf(event, deps.newId());
    if (!record) return;
    await deps.store.insert('timeline', record.operationId, record.id, record).catch(onError);
  });
}
