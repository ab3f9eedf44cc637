// The one check of a state to import (snapshot), shared by both stores: each kind's ids and
// insertion keys are unique, and keys are whole numbers from 1. It runs before anything changes,
// so a refused state leaves the store as it was.
import type { StoreState } from './store';

/** Throws on the first flaw; answers the largest key (the sequence continues after it). */
export function checkedImport(state: StoreState): number {
  let maxKey = 0;
  for (const [kind, list] of Object.entries(state.records)) {
    const ids = new Set<string>();
    const keys = new Set<number>();
    for (const item of list ?? []) {
      if (ids.has(item.id)) throw new Error(`store: ${kind} ${item.id} appears twice`);
      if (!Number.isSafeInteger(item.key) || item.key < 1 || keys.has(item.key))
        throw new Error(`store: ${kind} ${item.id} has a missing or repeated key ${item.key}`);
      ids.add(item.id);
      keys.add(item.key);
      maxKey = Math.max(maxKey, item.key);
    }
  }
  return maxKey;
}
