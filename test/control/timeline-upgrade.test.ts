// A snapshot saved when an operation's timeline was a record per state is read as today's form
// (one record per operation) on restore: mock/control/timeline-upgrade.ts.
import { describe, expect, it } from '@jest/globals';
import { upgradeTimelines } from '../../mock/control/timeline-upgrade';

const state = (id: string, operationId: string, status: string) => ({
  id,
  operationId,
  eventType: `OPERATION_${status}`,
  at: '2026-11-21T12:00:00.000Z',
  status,
});

describe('timelines of an older snapshot', () => {
  it('are grouped per operation in key order, under its customer, at the key of their first state', () => {
    const records = {
      operation: [{ scope: 'customer-1', id: 'op-1', key: 1, record: {} }],
      timeline: [
        { scope: 'op-1', id: 't-3', key: 4, record: state('t-3', 'op-1', 'COMPLETED') },
        { scope: 'op-1', id: 't-1', key: 2, record: state('t-1', 'op-1', 'REQUESTED') },
        { scope: 'op-9', id: 't-2', key: 3, record: state('t-2', 'op-9', 'REQUESTED') },
      ],
    };
    const { id: _a, operationId: _b, ...requested } = state('t-1', 'op-1', 'REQUESTED');
    const { id: _c, operationId: _d, ...completed } = state('t-3', 'op-1', 'COMPLETED');
    const { id: _e, operationId: _f, ...orphan } = state('t-2', 'op-9', 'REQUESTED');
    expect(upgradeTimelines(records).timeline).toEqual([
      { scope: 'customer-1', id: 'op-1', key: 2, record: { id: 'op-1', entries: [requested, completed] } },
      // An operation the snapshot does not hold keeps its list: nothing is dropped.
      { scope: 'op-9', id: 'op-9', key: 3, record: { id: 'op-9', entries: [orphan] } },
    ]);
    expect(upgradeTimelines(records).operation).toBe(records.operation);
  });

  it('of today’s form are left as they are', () => {
    const records = { timeline: [{ scope: 'customer-1', id: 'op-1', key: 2, record: { id: 'op-1', entries: [] } }] };
    expect(upgradeTimelines(records)).toBe(records);
    expect(upgradeTimelines({})).toEqual({});
  });

  it('join their operation’s timeline of today’s form, the older states first; a repeated id is left for the import to refuse', () => {
    const { id: _a, operationId: _b, ...requested } = state('t-1', 'op-1', 'REQUESTED');
    const completed = { eventType: 'OPERATION_COMPLETED', at: '2026-11-21T12:00:05.000Z', status: 'COMPLETED' };
    const today = { scope: 'customer-1', id: 'op-1', key: 5, record: { id: 'op-1', entries: [completed] } };
    const records = {
      operation: [{ scope: 'customer-1', id: 'op-1', key: 1, record: {} }],
      timeline: [today, { scope: 'op-1', id: 't-1', key: 2, record: state('t-1', 'op-1', 'REQUESTED') }],
    };
    expect(upgradeTimelines(records).timeline).toEqual([{ ...today, record: { id: 'op-1', entries: [requested, completed] } }]);
    const repeated = { ...records, timeline: [...records.timeline, { ...today, key: 6 }] };
    expect(upgradeTimelines(repeated).timeline!.map((item) => item.id)).toEqual(['op-1', 'op-1']);
  });

  it('that are not records at all are left for the import to refuse, not read', () => {
    const records = { timeline: [null, { scope: 'op-1', id: 't-1', key: 2, record: state('t-1', 'op-1', 'REQUESTED') }] };
    expect(() => upgradeTimelines(records as never)).not.toThrow();
  });
});
