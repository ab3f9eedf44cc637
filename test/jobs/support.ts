// What the scheduler's tests share: a scheduler on a MemoryJobQueue and a mock clock, jobs by
// name, and ways to let the event loop run. Schedulers made here are stopped after each test.
import { afterEach, jest } from '@jest/globals';
import { createClock, type ControllableClock } from '../../mock/clock';
import { Scheduler } from '../../mock/jobs/scheduler';
import { type ClaimedJob, type JobQueue, type JobSpec, MemoryJobQueue } from '../../mock/store';

export const START = Date.parse('2025-03-10T12:00:00.000Z');
/** The kind whose handler logs the job's name in `ran`. */
export const RUN = 'run';

export const schedulers: Scheduler[] = [];

afterEach(() => {
  for (const scheduler of schedulers.splice(0)) scheduler.stop();
  jest.useRealTimers();
});

/** A job named `name` (its data) due at `dueAt`, in its own group unless told. */
export function at(name: string, dueAt: number, group = name, kind = RUN): JobSpec {
  return { kind, group, dueAt, data: { name } };
}

export const nameOf = (job: ClaimedJob) => (job.data as { name: string }).name;

export function setup(options: { frozen?: boolean; clock?: ControllableClock; queue?: JobQueue; workers?: number; leaseMs?: number } = {}) {
  const clock = options.clock ?? createClock({ start: START, frozen: options.frozen ?? true });
  const queue = options.queue ?? new MemoryJobQueue();
  const errors: unknown[] = [];
  const scheduler = new Scheduler(clock, queue, (error) => errors.push(error), {
    leaseMs: options.leaseMs ?? 30_000,
    workers: options.workers,
  });
  schedulers.push(scheduler);
  const ran: string[] = [];
  scheduler.handle(RUN, (job) => {
    ran.push(nameOf(job));
    return Promise.resolve(undefined);
  });
  /** Lets a jump's re-arming start the due jobs (it first asks the queue), then waits for them. */
  const afterJump = async () => {
    await settle();
    await scheduler.idle();
  };
  return { clock, queue, scheduler, errors, ran, afterJump };
}

/** Lets pending promise callbacks and immediate callbacks run (real timers only). */
export const settle = () => new Promise<void>((resolve) => setImmediate(resolve));

export async function settleMany(times = 5): Promise<void> {
  for (let i = 0; i < times; i++) await settle();
}

export function deferred() {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
}

/** Tells whether a promise has settled by now (after pending callbacks ran). */
export async function isSettled(promise: Promise<unknown>): Promise<boolean> {
  let settled = false;
  void promise.then(
    () => (settled = true),
    () => (settled = true),
  );
  await settleMany();
  return settled;
}
