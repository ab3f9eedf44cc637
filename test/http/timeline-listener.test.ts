// The timeline listener keeps, for each operation, one record of the states its OPERATION_* events
// carried, in order, and nothing for other resources' events or an event with no state.
import { describe, expect, it } from '@jest/globals';
import { EventBus, type DomainEvent } from '../../mock/events/event-bus';
import { legacyEntry, recordOperationTimelines, TIMELINE_LIMIT, timelineEntries } from '../../mock/services/operation-timeline';
import { MemoryStore } from '../../mock/store';

const CUSTOMER = 'customer-1';

function harness() {
  const store = new MemoryStore();
  const events = new EventBus();
  const errors: unknown[] = [];
  recordOperationTimelines({ events, store }, (error) => errors.push(error));
  const emit = (event: Partial<DomainEvent>) => events.publish({ customerId: CUSTOMER, ...event } as DomainEvent);
  const state = (id: string, eventType: DomainEvent['eventType'], status: string, at: string, reason?: object): Partial<DomainEvent> => ({
    resource: 'OPERATION',
    eventType,
    atTime: at,
    payload: { data: { id, currentState: { status, createdAt: at, ...(reason ? { reason } : {}) } } },
  });
  return { store, emit, state, errors };
}

describe('the operation timeline listener', () => {
  it('keeps an operation’s states in one record under its customer, in order, a reason only where there is one', async () => {
    const { store, emit, state, errors } = harness();
    await emit(state('op-1', 'OPERATION_REQUESTED', 'REQUESTED', '2026-11-21T12:00:00.000Z'));
    await emit(state('op-1', 'OPERATION_FAILED', 'FAILED', '2026-11-21T12:00:05.000Z', { code: 'X', message: 'no' }));
    expect(await store.get('timeline', 'op-1')).toEqual({
      id: 'op-1',
      entries: [
        { eventType: 'OPERATION_REQUESTED', at: '2026-11-21T12:00:00.000Z', status: 'REQUESTED' },
        { eventType: 'OPERATION_FAILED', at: '2026-11-21T12:00:05.000Z', status: 'FAILED', reason: { code: 'X', message: 'no' } },
      ],
    });
    expect((await store.all('timeline', CUSTOMER)).map((t) => t.id)).toEqual(['op-1']);
    expect(errors).toEqual([]);
  });

  it('an event published twice (a job run again) adds its state once', async () => {
    const { store, emit, state } = harness();
    const requested = state('op-1', 'OPERATION_REQUESTED', 'REQUESTED', '2026-11-21T12:00:00.000Z');
    await emit(requested);
    await emit(requested);
    expect((await store.get('timeline', 'op-1'))!.entries).toHaveLength(1);
  });

  it('two first events of an operation at once both land in its one timeline', async () => {
    const { store, emit, state, errors } = harness();
    await Promise.all([
      emit(state('op-1', 'OPERATION_REQUESTED', 'REQUESTED', '2026-11-21T12:00:00.000Z')),
      emit(state('op-1', 'OPERATION_COMPLETED', 'COMPLETED', '2026-11-21T12:00:00.000Z')),
    ]);
    expect((await store.get('timeline', 'op-1'))!.entries.map((e) => e.status).sort()).toEqual(['COMPLETED', 'REQUESTED']);
    expect(errors).toEqual([]);
  });

  it(`a runaway timeline keeps its latest ${TIMELINE_LIMIT} states`, async () => {
    const { store, emit, state } = harness();
    for (let i = 0; i < TIMELINE_LIMIT + 5; i++)
      await emit(state('op-1', 'OPERATION_REQUESTED', `S${i}`, new Date(Date.UTC(2026, 10, 21) + i).toISOString()));
    const entries = (await store.get('timeline', 'op-1'))!.entries;
    expect(entries).toHaveLength(TIMELINE_LIMIT);
    expect(entries[0]!.status).toBe('S5');
    expect(entries[TIMELINE_LIMIT - 1]!.status).toBe(`S${TIMELINE_LIMIT + 4}`);
  });

  it('keeps nothing for an event of another resource, or an operation event with no state', async () => {
    const { store, emit } = harness();
    await emit({ resource: 'ACCOUNT', eventType: 'ACCOUNT_CREATED', payload: { data: { id: 'a', currentState: { status: 'X' } } } });
    await emit({ resource: 'OPERATION', eventType: 'OPERATION_REQUESTED', payload: { data: { id: 'op-2' } } });
    await emit({ resource: 'OPERATION', eventType: 'OPERATION_REQUESTED', payload: {} });
    expect(await store.all('timeline', CUSTOMER)).toEqual([]);
  });

  it('an insert that fails for another reason than an existing timeline is reported at once, not tried again', async () => {
    const { store, emit, state, errors } = harness();
    let inserts = 0;
    store.insert = () => (inserts++, Promise.reject(new Error('disk full')));
    await emit(state('op-1', 'OPERATION_REQUESTED', 'REQUESTED', '2026-11-21T12:00:00.000Z'));
    expect(errors).toEqual([new Error('disk full')]);
    expect(inserts).toBe(1);
  });

  it('a timeline that exists for its insert but not for its update is tried once more, then reported, not forever', async () => {
    const { store, emit, state, errors } = harness();
    let inserts = 0;
    // As if another writer made and removed it between each update and insert.
    store.update = () => Promise.resolve(undefined);
    store.insert = () => (inserts++, Promise.reject(new Error('store: timeline op-1 exists already')));
    await emit(state('op-1', 'OPERATION_REQUESTED', 'REQUESTED', '2026-11-21T12:00:00.000Z'));
    expect(errors).toEqual([new Error('store: timeline op-1 exists already')]);
    expect(inserts).toBe(2);
  });

  it('a store that fails is reported, not thrown at the change that published the event', async () => {
    const { store, emit, state, errors } = harness();
    store.update = () => Promise.reject(new Error('store down'));
    await expect(emit(state('op-1', 'OPERATION_REQUESTED', 'REQUESTED', '2026-11-21T12:00:00.000Z'))).resolves.toBeUndefined();
    expect(errors).toEqual([new Error('store down')]);
  });

  it('states kept in the earlier form (a store that outlived an upgrade) are read first, in order, then the timeline', async () => {
    const { store, emit, state } = harness();
    const earlier = (id: string, status: string, at: string) => ({ id, operationId: 'op-1', eventType: `OPERATION_${status}`, at, status });
    await store.insert('timeline', 'op-1', 't-1', earlier('t-1', 'REQUESTED', '2026-11-21T12:00:00.000Z') as never);
    await store.insert('timeline', 'op-1', 't-2', earlier('t-2', 'PROCESSING', '2026-11-21T12:00:01.000Z') as never);
    // Under the operation's id only records of the earlier form are states.
    await store.insert('timeline', 'op-1', 'odd', { id: 'odd', entries: [] });
    await emit(state('op-1', 'OPERATION_COMPLETED', 'COMPLETED', '2026-11-21T12:00:05.000Z'));
    expect((await timelineEntries(store, 'op-1')).map((e) => e.status)).toEqual(['REQUESTED', 'PROCESSING', 'COMPLETED']);
    expect(await timelineEntries(store, 'op-2')).toEqual([]);
    for (let i = 0; i < TIMELINE_LIMIT; i++)
      await emit(state('op-1', 'OPERATION_COMPLETED', `S${i}`, new Date(Date.UTC(2026, 10, 22) + i).toISOString()));
    const latest = await timelineEntries(store, 'op-1');
    expect(latest).toHaveLength(TIMELINE_LIMIT);
    expect(latest[0]!.status).toBe('S0');
  });

  it('a record is a state of the earlier form only with an operation id, an event type and no entries', () => {
    const at = '2026-11-21T12:00:00.000Z';
    expect(legacyEntry({ id: 't', operationId: 'op-1', eventType: 'OPERATION_REQUESTED', at, status: 'REQUESTED' })).toEqual({
      operationId: 'op-1',
      entry: { eventType: 'OPERATION_REQUESTED', at, status: 'REQUESTED' },
    });
    for (const record of [
      null,
      'op-1',
      {},
      { operationId: 'op-1', at },
      { eventType: 'OPERATION_REQUESTED', at },
      { operationId: 1, eventType: 'OPERATION_REQUESTED' },
      { operationId: 'op-1', eventType: 7 },
      { id: 'op-1', operationId: 'op-1', eventType: 'OPERATION_REQUESTED', entries: [] },
    ])
      expect(legacyEntry(record)).toBeUndefined();
  });
});
