// Reset: the fixtures in a cleared store (the insertion sequence starts again, so the demo data
// has the same keys and cursors as at start-up), no idempotency keys, no faults, an empty
// journal, no pending jobs. The clock is left alone: moving it is the clock API's job.
import { loadFixtures } from '../services/fixtures';
import type { ControlContext } from './context';

export async function resetState(c: ControlContext): Promise<void> {
  const { scheduler, store } = c.deps;
  // A job already running finishes against the old state rather than half into the new one.
  await scheduler.idle();
  scheduler.clear();
  await store.clear();
  await loadFixtures(store, c.fixtures);
  c.faults.clear();
  c.journal.clear();
}
