// The replicas as one service. A control call that moves time or waits for work (advance, freeze,
// unfreeze, webhooks idle, reset, snapshot import) asks every replica to do its part and waits
// for all of them: in memory there is one replica, this process; on Redis (REDIS_URL) the ask
// goes over the bus (mock/store/redis/bus.ts) to every replica on that Redis, this one included.
// Due jobs are in the store's queue, shared on Redis: whichever replica claims a job runs it, so
// "run what is due" means until nothing is due or running on any replica.
// A change of the shared clock or faults is announced the same way, and the control call
// that made it answers only once every replica has taken it: the very next request, on any
// replica, sees it. A replica that missed a message (its bus connection was down) catches up
// within a second: it also reads the shared control state every second.
import type { ControllableClock } from '../clock';
import { ServiceError } from '../errors/catalogue';
import type { FaultRegistry } from '../http/faults';
import type { JournalRecord } from '../http/journal';
import type { JournalExchange } from '../http/journal-exchange';
import type { CustomerClocks } from '../jobs/customer-clocks';
import type { Scheduler } from '../jobs/scheduler';
import type { RedisBus, RedisSharedState } from '../store';

/**
 * What a replica is asked to do: run what is due (taking the shared clock first), wait until its
 * events are queued and nothing due is left, wait for its running jobs, drop the jobs (once its
 * running ones have finished), take the shared clock and faults as they are now, send its
 * journal entries, or read its fixtures file again (a reset).
 */
export type ClusterAction = 'run-due' | 'idle' | 'wait-jobs' | 'clear-jobs' | 'sync' | 'flush-journal' | 'reload-fixtures';
const ACTIONS: readonly string[] = ['run-due', 'idle', 'wait-jobs', 'clear-jobs', 'sync', 'flush-journal', 'reload-fixtures'];

/** Asks every replica to run what is due on one customer's own clock (the customer id follows). */
const RUN_DUE_OF = 'run-due-of:';

/** Asks every replica for the exchange of a request (the request id follows). */
const EXCHANGE_ASK = 'journal-exchange:';

/** Asks every replica for the records verification reads (a customer id, or nothing for everyone's, follows). */
const RECORDS_ASK = 'journal-records:';
/** Tells every replica to forget a customer's own journal (its id follows). */
const FORGET_ASK = 'journal-forget:';

/** Every this often a replica reads the shared control state, in case it missed an announcement. */
const RESYNC_MS = 1_000;

export interface ReplicaParts {
  clock: ControllableClock;
  /** The customers' own clocks: read again on a sync; their jobs drained by `idle`, cleared with the rest. */
  clocks: CustomerClocks;
  faults: FaultRegistry;
  journal: {
    flush(): Promise<void>;
    exchange(requestId: string): JournalExchange | undefined;
    records(customerId?: string): JournalRecord[];
    forgetCustomer(customerId: string): void;
  };
  scheduler: Scheduler;
  /** This replica's fixtures: read again from their file on a reset. */
  fixtures: { reload(): unknown };
  /** Resolves when the events published on this replica have their deliveries queued. */
  webhooks: { accepted(): Promise<void> };
  /**
   * Puts back what the shared state must hold should Redis have lost it (restarted empty, or
   * flushed): the secret this replica signs with, the fixtures. Run every second.
   */
  heal?: () => Promise<void>;
  onError(error: unknown): void;
}

export interface Cluster {
  /** Runs an action on every replica; resolves when each has done it. */
  ask(action: ClusterAction): Promise<void>;
  /**
   * Runs what is due on a customer's own clock on every replica (each reads that clock again
   * first), and waits until nothing of it is due or running; no other customer's jobs run.
   */
  runDueOf(customerId: string): Promise<void>;
  /** When the earliest job of the cluster falls due (the queue is shared on Redis). */
  nextDueAt(): Promise<number | undefined>;
  /**
   * Moves the clock forward by `ms`, as one atomic step on the shared clock (two replicas
   * advancing at once add up), and takes the result here.
   */
  advanceClock(ms: number): Promise<void>;
  /** Publishes this replica's clock after a control call froze or unfroze it (every replica takes it at its next `sync`). */
  clockChanged(): Promise<void>;
  /**
   * Tells every replica that the faults changed, and waits until each one has taken them.
   */
  announceFaults(): Promise<void>;
  /** What was sent and answered for a request, from the replica that answered it (undefined when none keeps it). */
  journalExchange(requestId: string): Promise<JournalExchange | undefined>;
  /**
   * What every replica keeps for verification, newest first: a customer's own
   * journal, or each replica's last requests; each replica keeps the requests it answered.
   */
  journalRecords(customerId?: string): Promise<JournalRecord[]>;
  /** Every replica forgets one customer's own journal (its reset). */
  forgetCustomerJournal(customerId: string): Promise<void>;
  /** Throws 503 SERVICE_UNAVAILABLE when this replica has lost the shared state (answered before anything else). */
  assertAvailable(): void;
  close(): Promise<void>;
}

/** One replica's part of an action. */
async function perform(parts: ReplicaParts, action: ClusterAction, sync?: () => Promise<void>): Promise<null> {
  const all = () => [parts.scheduler, ...parts.clocks.ownSchedulers()];
  switch (action) {
    case 'sync':
      await sync?.();
      await parts.clocks.refresh();
      break;
    case 'flush-journal':
      await parts.journal.flush();
      break;
    case 'run-due':
      await sync?.();
      await parts.scheduler.drain();
      break;
    case 'idle':
      // Every customer's first attempts too (retries wait for their own clock to reach them).
      await parts.webhooks.accepted();
      await Promise.all(all().map((scheduler) => scheduler.drain()));
      break;
    case 'wait-jobs':
      await Promise.all(all().map((scheduler) => scheduler.idle()));
      break;
    case 'reload-fixtures':
      parts.fixtures.reload();
      break;
    case 'clear-jobs':
      // A job already running finishes against the old state rather than half into the new one.
      await Promise.all(all().map((scheduler) => scheduler.clear()));
      break;
  }
  return null;
}

/** One replica's part of running a customer's due jobs: its clock read again, then its queue drained. */
async function performFor(parts: ReplicaParts, customerId: string): Promise<null> {
  await parts.clocks.refresh();
  const own = await parts.clocks.own(customerId);
  await parts.webhooks.accepted();
  await own?.scheduler.drain();
  return null;
}

/** This process alone. */
export function localCluster(parts: ReplicaParts): Cluster {
  return {
    ask: async (action) => {
      await perform(parts, action);
    },
    runDueOf: async (customerId) => {
      await performFor(parts, customerId);
    },
    nextDueAt: () => parts.scheduler.nextDueAt(),
    advanceClock: (ms) => {
      parts.clock.advance(ms);
      return Promise.resolve();
    },
    clockChanged: () => Promise.resolve(),
    announceFaults: () => Promise.resolve(),
    journalExchange: (requestId) => Promise.resolve(parts.journal.exchange(requestId)),
    journalRecords: (customerId) => Promise.resolve(parts.journal.records(customerId)),
    forgetCustomerJournal: (customerId) => Promise.resolve(parts.journal.forgetCustomer(customerId)),
    assertAvailable: () => undefined,
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
    // A question rather than an action: each replica answers with what it keeps, or null.
    if (message.startsWith(EXCHANGE_ASK)) return Promise.resolve(parts.journal.exchange(message.slice(EXCHANGE_ASK.length)) ?? null);
    if (message.startsWith(RUN_DUE_OF)) return performFor(parts, message.slice(RUN_DUE_OF.length));
    if (message.startsWith(RECORDS_ASK)) return Promise.resolve(parts.journal.records(message.slice(RECORDS_ASK.length) || undefined));
    if (message.startsWith(FORGET_ASK)) {
      parts.journal.forgetCustomer(message.slice(FORGET_ASK.length));
      return Promise.resolve(null);
    }
    if (!ACTIONS.includes(message)) return Promise.reject(new Error(`cluster: unknown action ${JSON.stringify(message)}`));
    return perform(parts, message as ClusterAction, sync);
  });
  // One resync at a time: a slow one (Redis away, a reset under way) is not stacked up every second.
  // Told once when resyncing starts failing (Redis away), not every second while it does.
  let resyncing = false;
  let polling = false;
  let failing = false;
  const resync = setInterval(() => {
    bus.heartbeat();
    // Jobs other replicas scheduled that fell due, and those whose replica died (lease run out);
    // one poll at a time (a poll lasts while this replica's jobs run).
    if (!polling) {
      polling = true;
      const schedulers = [parts.scheduler, ...parts.clocks.ownSchedulers()];
      void Promise.all(schedulers.map((scheduler) => scheduler.poll())).finally(() => (polling = false));
    }
    if (resyncing) return;
    resyncing = true;
    void sync()
      .then(() => parts.clocks.refresh())
      .then(() => parts.heal?.())
      .then(
        () => (failing = false),
        (error: unknown) => {
          if (!failing) parts.onError(error);
          failing = true;
        },
      )
      .finally(() => (resyncing = false));
  }, RESYNC_MS);
  resync.unref();
  const ask = async (action: ClusterAction) => {
    await bus.ask(action);
  };
  return {
    ask,
    runDueOf: async (customerId) => {
      await bus.ask(`${RUN_DUE_OF}${customerId}`);
    },
    nextDueAt: () => parts.scheduler.nextDueAt(),
    advanceClock: async (ms) => parts.clock.adopt(await shared.advanceClock(ms)),
    clockChanged: () => shared.writeClock(parts.clock.state()),
    announceFaults: async () => {
      await ask('sync');
    },
    // The replica that answered the request answers at once; the others are not waited for, and
    // a failed ask leaves the summary alone.
    journalExchange: async (requestId) =>
      ((await bus.askFirst(`${EXCHANGE_ASK}${requestId}`, (reply) => reply !== null)) ?? undefined) as JournalExchange | undefined,
    journalRecords: async (customerId) => newestFirst((await bus.ask(`${RECORDS_ASK}${customerId ?? ''}`)) as JournalRecord[][]),
    forgetCustomerJournal: async (customerId) => {
      await bus.ask(`${FORGET_ASK}${customerId}`);
    },
    assertAvailable: () => {
      if (!bus.connected || !shared.connected)
        throw new ServiceError('SERVICE_UNAVAILABLE', { dependency: 'redis', reason: 'not connected' });
    },
    close: async () => {
      clearInterval(resync);
      await bus.close();
    },
  };
}

/** Each replica's records merged, newest first by mock time (ties keep the replicas' order). */
function newestFirst(replies: JournalRecord[][]): JournalRecord[] {
  return replies.flat().sort((a, b) => Date.parse(b.entry.at) - Date.parse(a.entry.at));
}
