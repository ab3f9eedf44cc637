// Walking a list of the shared store a chunk per round trip (fosWalk), for what a plain page
// cannot do: every record of a scope, and a page with a filter of ours (execution logs).
import type { RecordTypes } from '../../domain/records';
import type { Kind, PageQuery, PageSlice } from '../store';
import type { StoreAccess } from './store-access';

/** Records fetched per round trip while a list is walked. */
const WALK_CHUNK = 100;

/** The records of a list past `bound` (exclusive) in one direction, fetched a chunk per round trip. */
export async function* walkList(
  access: StoreAccess,
  kind: Kind,
  scope: string,
  descending: boolean,
  bound: string,
): AsyncGenerator<{ id: string; key: number; record: unknown }> {
  for (;;) {
    const found = (await access.run(
      'fosWalk',
      [access.keys.list(kind, scope), access.keys.records(kind)],
      [descending ? '1' : '0', bound, WALK_CHUNK],
    )) as Array<string | null>;
    for (let i = 0; i < found.length; i += 3) {
      const id = found[i] as string;
      const raw = found[i + 2];
      bound = found[i + 1] as string;
      if (raw !== null && raw !== undefined) yield { id, key: Number(bound), record: access.decode(kind, id, raw) };
    }
    if (found.length < WALK_CHUNK * 3) return;
  }
}

/**
 * A page with a filter of ours (execution logs): the list is walked from the cursor, a chunk per
 * round trip, until the page is full, then on each side only as far as the first match.
 */
export async function filteredPage<K extends Kind>(
  access: StoreAccess,
  kind: K,
  query: PageQuery<RecordTypes[K]>,
  where: (record: RecordTypes[K]) => boolean,
): Promise<PageSlice<RecordTypes[K]>> {
  const descending = query.order === 'DESCENDING';
  const backwards = query.from?.direction === 'PREVIOUS';
  // Walking backwards along the order is walking forwards along the other order.
  const along = backwards ? !descending : descending;
  const bound = query.from ? String(query.from.key) : '';
  const items: Array<{ key: number; record: RecordTypes[K] }> = [];
  let more = false;
  for await (const item of walkList(access, kind, query.scope, along, bound)) {
    if (!where(item.record as RecordTypes[K])) continue;
    if (items.length === query.limit) {
      more = true;
      break;
    }
    items.push({ key: item.key, record: item.record as RecordTypes[K] });
  }
  // The other side: anything matching at or behind the cursor (or behind the first item).
  const anyBehind = async (): Promise<boolean> => {
    if (!query.from) return false;
    const edge = items.length > 0 ? String(items[0]!.key) : String(backwards ? query.from.key - 1 : query.from.key + 1);
    for await (const item of walkList(access, kind, query.scope, !along, edge)) if (where(item.record as RecordTypes[K])) return true;
    return false;
  };
  const behind = await anyBehind();
  if (backwards) items.reverse();
  return { items, hasBefore: backwards ? more : behind, hasAfter: backwards ? behind : more };
}
