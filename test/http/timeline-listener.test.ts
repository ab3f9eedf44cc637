// The timeline listener keeps a record for each OPERATION event that carries an operation's state,
// and nothing for other resources' events or an event with no state.
import { describe, expect, it } from '@jest/globals';
import { recordOperationTimelines } from '../../mock/services/operation-timeline';
import type { DomainEvent } from '../../mock/events/event-bus';

function harness() {
  let listener: ((event: DomainEvent) => Promise<void>) | undefined;
  const inserted: unknown[] = [];
  const deps = {
    events: { subscribe: (l: typeof listener) => ((listener = l), () => undefined) },
    store: {
      insert: (...args: unknown[]) => {
        inserted.push(args);
        return Promise.resolve();
      },
    },
    newId: () => 'timeline-1',
  };
  recordOperationTimelines(deps as never, () => undefined);
  return { emit: (event: Partial<DomainEvent>) => listener!(event as DomainEvent), inserted };
}

describe('the operation timeline listener', () => {
  it('keeps an operation event’s state, without a reason when there is none', async () => {
    const { emit, inserted } = harness();
    await emit({
      resource: 'OPERATION',
      eventType: 'OPERATION_REQUESTED',
      atTime: '2026-11-21T12:00:00.000Z',
      payload: { data: { id: 'op-1', currentState: { status: 'REQUESTED', createdAt: '2026-11-21T12:00:00.000Z' } } },
    });
    expect(inserted).toEqual([
      [
        'timeline',
        'op-1',
        'timeline-1',
        { id: 'timeline-1', operationId: 'op-1', eventType: 'OPERATION_REQUESTED', at: '2026-11-21T12:00:00.000Z', status: 'REQUESTED' },
      ],
    ]);
  });

  it('keeps nothing for an event of another resource, or an operation event with no state', async () => {
    const { emit, inserted } = harness();
    await emit({
      resource: 'ACCOUNT',
      eventType: 'ACCOUNT_CREATED',
      payload: { data: { id: 'a', currentState: { status: 'X' } } },
    });
    await emit({ resource: 'OPERATION', eventType: 'OPERATION_REQUESTED', payload: { data: { id: 'op-2' } } });
    await emit({ resource: 'OPERATION', eventType: 'OPERATION_REQUESTED', payload: {} });
    expect(inserted).toEqual([]);
  });
});
