// Snapshots saved before an operation's timeline was one record (fos-mock 1.x before this change,
// same snapshot version) hold a `timeline` record per state entered, `{id, operationId, eventType,
// at, status, reason?}`, listed under the operation's id. Restored as they are, the inspector
// would show those operations without a timeline; so a restore reads them as today's form: one
// record per operation (id = the operation's, listed under its customer), its states in the
// order they were kept, at the key of its first.
import type { TimelineEntry, TimelineRecord } from '../store/records';
import type { StoreState, StoredRecord } from '../store/store';

interface StateRecord extends TimelineEntry {
  id: string;
  operationId: string;
}

function isStateRecord(record: unknown): record is StateRecord {
  const r = record as Partial<StateRecord> | null;
  return typeof r === 'object' && r !== null && typeof r.operationId === 'string' && typeof r.eventType === 'string' && !('entries' in r);
}

/** The records with every per-state timeline record grouped into its operation's timeline; anything else as it was. */
export function upgradeTimelines(records: StoreState['records']): StoreState['records'] {
  const list = records.timeline;
  if (!list?.some((item) => isStateRecord(item.record))) return records;
  const customerOf = new Map((records.operation ?? []).map((item) => [item.id, item.scope]));
  const grouped = new Map<string, StoredRecord & { record: TimelineRecord }>();
  const kept: StoredRecord[] = [];
  for (const item of [...list].sort((a, b) => a.key - b.key)) {
    if (!isStateRecord(item.record)) {
      kept.push(item);
      continue;
    }
    const { id: _id, operationId, ...entry } = item.record;
    const timeline = grouped.get(operationId);
    if (timeline) timeline.record.entries.push(entry);
    else
      grouped.set(operationId, {
        // An operation the snapshot does not hold keeps its list: nothing is dropped.
        scope: customerOf.get(operationId) ?? item.scope,
        id: operationId,
        key: item.key,
        record: { id: operationId, entries: [entry] },
      });
  }
  return { ...records, timeline: [...kept, ...grouped.values()].sort((a, b) => a.key - b.key) };
}
