// Reset: the fixtures in a cleared store (the insertion sequence starts again, so the demo data
// has the same keys and cursors as at start-up), no idempotency keys, no faults, an empty
// journal, no pending jobs on any replica. The clock is left alone: moving it is the clock API's job.
import { loadFixtures } from '../services/fixtures';
import type { ControlContext } from './context';

export async function resetState(c: ControlContext): Promise<void> {
  const { store } = c.deps;
  await c.cluster.ask('clear-jobs');
  await store.reset(() => loadFixtures(store, c.fixtures));
  await c.faults.clear();
  await c.cluster.announceFaults();
  await c.cluster.ask('flush-journal');
  await c.journal.reset();
}
