// The state timeline of every operation: each OPERATION_* event adds the state it carries to the
// operation's `timeline` record (id = the operation's, scoped by its customer), so the inspector
// shows every state an operation entered and when (the service's Operation carries its current
// state only). A listener of the event bus, like the webhook dispatcher: the change it follows is
// made whether or not the entry is kept.
import type { DomainEvent } from '../events/event-bus';
import type { Operation, TimelineEntry, TimelineRecord } from '../domain/records';
import type { Store } from '../store';
import type { Deps } from './deps';

/** The states a timeline keeps, its latest: an operation enters a few; this bounds a runaway one. */
export const TIMELINE_LIMIT = 100;

function entryOf(event: DomainEvent): { operationId: string; entry: TimelineEntry } | undefined {
  if (event.resource !== 'OPERATION') return undefined;
  const operation = event.payload.data as Operation | undefined;
  if (!operation?.currentState) return undefined;
  const { status, reason } = operation.currentState;
  return { operationId: operation.id, entry: { eventType: event.eventType, at: event.atTime, status, ...(reason ? { reason } : {}) } };
}

/** The timeline with `entry` added: the same entry again (an event published twice by a job run again) adds nothing. */
function withEntry(timeline: TimelineRecord, entry: TimelineEntry): TimelineRecord {
  const last = timeline.entries[timeline.entries.length - 1];
  if (last && JSON.stringify(last) === JSON.stringify(entry)) return timeline;
  return { ...timeline, entries: [...timeline.entries, entry].slice(-TIMELINE_LIMIT) };
}

/**
 * Adds the entry to the operation's timeline, made by its first event. Two first events at once
 * (replicas) both find none: the one whose insert loses adds to the winner's instead.
 */
export async function appendTimelineEntry(store: Store, customerId: string, operationId: string, entry: TimelineEntry): Promise<void> {
  for (let attempt = 0; ; attempt++) {
    if (await store.update('timeline', operationId, (timeline) => withEntry(timeline, entry))) return;
    try {
      return await store.insert('timeline', customerId, operationId, { id: operationId, entries: [entry] });
    } catch (error) {
      if (attempt > 0 || !/exists already/.test((error as Error).message)) throw error;
    }
  }
}

/**
 * A timeline record of the form fos-mock kept before: one per state entered, `{id, operationId,
 * eventType, at, status, reason?}`, listed under the operation's id. A store kept across an upgrade
 * (Redis) still holds them, and snapshots saved then carry them (mock/control/timeline-upgrade.ts).
 */
export function legacyEntry(record: unknown): { operationId: string; entry: TimelineEntry } | undefined {
  const r = record as Partial<TimelineEntry & { id: string; operationId: string }> | null;
  if (typeof r !== 'object' || r === null || typeof r.operationId !== 'string' || typeof r.eventType !== 'string' || 'entries' in r)
    return undefined;
  const { id: _id, operationId, ...entry } = r;
  return { operationId, entry: entry as TimelineEntry };
}

/**
 * An operation's states in order, the latest TIMELINE_LIMIT: its timeline record, after any it has
 * in the earlier form (states entered before an upgrade of a store that outlived it).
 */
export async function timelineEntries(store: Store, operationId: string): Promise<TimelineEntry[]> {
  const [timeline, earlier] = await Promise.all([
    store.get('timeline', operationId),
    store.page('timeline', { scope: operationId, limit: TIMELINE_LIMIT, order: 'ASCENDING' }),
  ]);
  const legacy = earlier.items.flatMap(({ record }) => legacyEntry(record)?.entry ?? []);
  return [...legacy, ...(timeline?.entries ?? [])].slice(-TIMELINE_LIMIT);
}

/** Keeps every operation's timeline from now on; answers the unsubscribe. */
export function recordOperationTimelines(deps: Pick<Deps, 'events' | 'store'>, onError: (error: unknown) => void): () => void {
  return deps.events.subscribe(async (event) => {
    const found = entryOf(event);
    if (!found) return;
    await appendTimelineEntry(deps.store, event.customerId, found.operationId, found.entry).catch(onError);
  });
}
