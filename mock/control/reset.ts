// Reset: the fixtures, read again from their file, in a cleared store (the insertion sequence
// starts again, so the demo data has the same keys and cursors as at start-up), no idempotency
// keys, no faults, an empty journal, no pending jobs on any replica. A fixtures file that cannot
// be loaded is refused before anything changes. The clock is left alone: moving it is the clock API's job.
import { loadFixtures } from '../services/fixtures';
import type { ControlContext } from './context';

export async function resetState(c: ControlContext): Promise<void> {
  const { store } = c.deps;
  // Checked here first, so a file that cannot be loaded is refused before anything changes; then
  // every replica reads it (on Redis each one keeps its own copy for new customers and rates).
  const fixtures = c.fixtures.reload();
  await c.cluster.ask('reload-fixtures');
  await c.cluster.ask('clear-jobs');
  await store.reset(() => loadFixtures(store, fixtures));
  // The customers made since are gone, and with them their own clocks, on every replica.
  await c.cluster.ask('sync');
  await c.faults.clear();
  await c.cluster.announceFaults();
  await c.cluster.ask('flush-journal');
  await c.journal.reset();
}
