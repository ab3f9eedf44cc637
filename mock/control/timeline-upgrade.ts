// Snapshots saved before an operation's timeline was one record (fos-mock 1.x before this change,
// same snapshot version) hold a `timeline` record per state entered, `{id, operationId, eventType,
// at, status, reason?}`, listed under the operation's id. Restored as they are, the inspector
// would show those operations without a timeline; so a restore reads them as today's form: one
// record per operation (id = the operation's, listed under its customer), its states in the
// order they were kept, at the key of its first.
import { legacyEntry } from '../services/operation-timeline';
import type { TimelineRecord } from '../domain/records';
import type { StoreState, StoredRecord } from '../store';

/** The records with every per-state timeline record grouped into its operation's timeline; anything else as it was. */
export function upgradeTimelines(records: StoreState['records']): StoreState['records'] {
  const list = records.timeline;
  // Anything that is not a list of records is left as it is for the import to refuse.
  if (!Array.isArray(list) || list.some((item) => typeof item !== 'object' || item === null)) return records;
  // Each record's form read once: the state it holds when it is a record per state.
  const read = list.map((item) => ({ item, legacy: legacyEntry(item.record) }));
  if (!read.some(({ legacy }) => legacy)) return records;
  const customerOf = new Map((records.operation ?? []).map((item) => [item.id, item.scope]));
  const earlier = new Map<string, StoredRecord & { record: TimelineRecord }>();
  const kept: StoredRecord[] = [];
  for (const { item, legacy } of read.sort((a, b) => a.item.key - b.item.key)) {
    if (!legacy) {
      kept.push(item);
      continue;
    }
    const { operationId, entry } = legacy;
    const timeline = earlier.get(operationId);
    if (timeline) timeline.record.entries.push(entry);
    else
      earlier.set(operationId, {
        // An operation the snapshot does not hold keeps its list: nothing is dropped.
        scope: customerOf.get(operationId) ?? item.scope,
        id: operationId,
        key: item.key,
        record: { id: operationId, entries: [entry] },
      });
  }
  // A timeline already in today's form (states entered after the store was upgraded) gets the
  // older states first; anything else is left for the import's own checks (a repeated id refused).
  const upgraded = kept.map((item) => {
    const older = earlier.get(item.id);
    const now = item.record as Partial<TimelineRecord>;
    if (!older || !Array.isArray(now.entries)) return item;
    earlier.delete(item.id);
    return { ...item, record: { ...now, entries: [...older.record.entries, ...now.entries] } };
  });
  return { ...records, timeline: [...upgraded, ...earlier.values()].sort((a, b) => a.key - b.key) };
}
