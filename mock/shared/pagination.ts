// The one pagination walk, shared by the store and by fixed lists (reference look-ups): a
// binary search to the cursor's position, then a walk of at most `limit` matching items.

export type SortOrder = 'ASCENDING' | 'DESCENDING';

export interface SortedKeys {
  size: number;
  /** Key at an index slot; keys ascend with the slot. */
  keyAt(slot: number): number;
  /** First slot whose key is >= key. */
  lowerBound(key: number): number;
}

export interface SliceQuery {
  limit: number;
  order: SortOrder;
  from?: { key: number; direction: 'NEXT' | 'PREVIOUS' };
  /** Filter on the item at a slot; absent means every item matches. */
  matchesSlot?: (slot: number) => boolean;
}

export interface SlotSlice {
  slots: number[];
  hasBefore: boolean;
  hasAfter: boolean;
}

export function sliceSorted(keys: SortedKeys, query: SliceQuery): SlotSlice {
  const n = keys.size;
  const descending = query.order === 'DESCENDING';
  // Positions count along the requested order; slots are the ascending index.
  const slotAt = (position: number) => (descending ? n - 1 - position : position);
  const matches = (position: number) => !query.matchesSlot || query.matchesSlot(slotAt(position));
  const anyMatch = (from: number, step: 1 | -1) => {
    for (let p = from; p >= 0 && p < n; p += step) if (matches(p)) return true;
    return false;
  };

  let start = 0;
  let step: 1 | -1 = 1;
  const from = query.from;
  if (from) {
    if (from.direction === 'NEXT') {
      // First position strictly after the cursor's key along the order.
      start = descending ? n - keys.lowerBound(from.key) : keys.lowerBound(from.key + 1);
    } else {
      // Last position strictly before it; walk backwards.
      start = descending ? n - 1 - keys.lowerBound(from.key + 1) : keys.lowerBound(from.key) - 1;
      step = -1;
    }
  }

  const positions: number[] = [];
  for (let p = start; p >= 0 && p < n && positions.length < query.limit; p += step) if (matches(p)) positions.push(p);
  if (step === -1) positions.reverse();

  const first = positions[0];
  const last = positions[positions.length - 1];
  const hasBefore = first !== undefined ? anyMatch(first - 1, -1) : step === 1 && anyMatch(start - 1, -1);
  const hasAfter = last !== undefined ? anyMatch(last + 1, 1) : step === -1 && anyMatch(start + 1, 1);
  return { slots: positions.map(slotAt), hasBefore, hasAfter };
}

/** Keys for a fixed array: item i has key i + 1. */
export function arrayKeys(length: number): SortedKeys {
  return {
    size: length,
    keyAt: (slot) => slot + 1,
    lowerBound: (key) => Math.min(Math.max(key - 1, 0), length),
  };
}
