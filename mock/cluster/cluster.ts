// The replicas as one service. A control call that moves time or waits for work (advance, freeze,
// unfreeze, webhooks idle, reset, snapshot import) asks every replica to do its part and waits
// for all of them: in memory there is one replica, this process; on Redis (REDIS_URL) the ask
// goes over the bus (mock/store/redis/bus.ts) to every replica on that Redis, this one included.
// Before each request a replica on Redis also takes the shared clock and faults (`sync`), so a
// change made through any replica holds for the very next request on any other.
import type { ControllableClock } from '../clock';
import type { FaultRegistry } from '../http/faults';
import type { Scheduler } from '../jobs/scheduler';
import type { RedisBus } from '../store/redis/bus';
import type { RedisSharedState } from '../store/redis/shared-state';

/** What a replica is asked to do: report its earliest job, run what is due, wait for its work, or drop its jobs. */
export type ClusterAction = 'next-due' | 'run-due' | 'idle' | 'clear-jobs';
const ACTIONS: readonly string[] = ['next-due', 'run-due', 'idle', 'clear-jobs'];

export interface ReplicaParts {
  clock: ControllableClock;
  faults: FaultRegistry;
  scheduler: Scheduler;
  webhooks: { idle(): Promise<void> };
}

export interface Cluster {
  /** Takes the shared clock and faults before a request (shared state only). */
  readonly sync: (() => Promise<void>) | undefined;
  /** Runs an action on every replica; each one's reply (next-due: its earliest due time, else null). */
  ask(action: ClusterAction): Promise<Array<number | null>>;
  /** Publishes this replica's clock after a control call moved it. */
  clockChanged(): Promise<void>;
  close(): Promise<void>;
}

/** One replica's part of an action. */
async function perform(parts: ReplicaParts, action: ClusterAction, sync?: () => Promise<void>): Promise<number | null> {
  switch (action) {
    case 'next-due':
      return parts.scheduler.nextDueAt() ?? null;
    case 'run-due':
      await sync?.();
      await parts.scheduler.runDue();
      await parts.webhooks.idle();
      return null;
    case 'idle':
      await parts.scheduler.idle();
      await parts.webhooks.idle();
      return null;
    case 'clear-jobs':
      // A job already running finishes against the old state rather than half into the new one.
      await parts.scheduler.idle();
      parts.scheduler.clear();
      return null;
  }
}

/** This process alone. */
export function localCluster(parts: ReplicaParts): Cluster {
  return {
    sync: undefined,
    ask: async (action) => [await perform(parts, action)],
    clockChanged: () => Promise.resolve(),
    close: () => Promise.resolve(),
  };
}

/** Replicas sharing one Redis. */
export async function sharedCluster(
  parts: ReplicaParts,
  shared: RedisSharedState,
  openBus: (handle: (message: string) => Promise<unknown>) => Promise<RedisBus>,
): Promise<Cluster> {
  const sync = async () => {
    const control = await shared.readControl();
    if (control.clock) parts.clock.adopt(control.clock);
    await parts.faults.refresh(control.faultsVersion);
  };
  // The first replica on an empty Redis sets the clock (its CLOCK_START); later ones take it.
  await shared.initClock(parts.clock.state());
  await sync();
  const bus = await openBus((message) => {
    if (!ACTIONS.includes(message)) return Promise.reject(new Error(`cluster: unknown action ${JSON.stringify(message)}`));
    return perform(parts, message as ClusterAction, sync);
  });
  return {
    sync,
    ask: async (action) => (await bus.ask(action)).map((reply) => (typeof reply === 'number' ? reply : null)),
    clockChanged: () => shared.writeClock(parts.clock.state()),
    close: () => bus.close(),
  };
}
