// A clock per customer, like Stripe's test clocks: a customer created with a clock of its own
// (POST /_mock/customers {clock}) has its quotes, tokens, idempotency keys, rate-limit bucket,
// auto-settlements and webhook retries on that clock, and its jobs in a queue of their own whose
// scheduler follows it. So tests sharing one mock move time apart: advancing one customer's clock
// runs only its jobs, and the mock's clock (which every other customer follows) never moves it.
//
// The clock is kept on the customer's record, so every replica reads the same one and a move is
// one atomic update of the store. Each replica holds a mirror per customer it has met (a request
// asks for a customer's clock without a round trip); a control call that moves a clock asks every
// replica to read it again (`refresh`, the cluster's "sync") before it answers.
import { createClock, type Clock, type ClockState, type ControllableClock } from '../clock';
import { ServiceError } from '../errors/catalogue';
import type { JobQueue, Store } from '../store';
import { Scheduler, type SchedulerOptions } from './scheduler';

/** A customer's own clock (this replica's mirror of the stored one) and the scheduler of its jobs. */
export interface OwnClock {
  clock: ControllableClock;
  scheduler: Scheduler;
}

export interface CustomerClocksParts {
  store: Store;
  /** The mock's clock: the clock of every customer without one of its own. */
  clock: ControllableClock;
  scheduler: Scheduler;
  /** The job queue of a customer's own clock (in memory, or its namespace of the Redis queue). */
  queueFor: (customerId: string) => JobQueue;
  onError: (error: unknown) => void;
  options: SchedulerOptions;
}

export class CustomerClocks {
  /** Customer id → its own clock, or null when it follows the mock's (a customer never gains or loses one). */
  private readonly known = new Map<string, OwnClock | null>();

  constructor(private readonly parts: CustomerClocksParts) {}

  /** The customer's clock if this replica knows it already (no await: the hot path of a request). */
  cached(customerId: string): Clock | undefined {
    const own = this.known.get(customerId);
    return own === undefined ? undefined : (own?.clock ?? this.parts.clock);
  }

  /** The clock the customer's time runs on: its own, or the mock's (also for an unknown id). */
  async clockOf(customerId: string): Promise<Clock> {
    return this.cached(customerId) ?? (await this.own(customerId))?.clock ?? this.parts.clock;
  }

  /** The scheduler the customer's jobs go to. */
  async schedulerOf(customerId: string): Promise<Scheduler> {
    return (await this.own(customerId))?.scheduler ?? this.parts.scheduler;
  }

  /** The customer's own clock, undefined when it follows the mock's or does not exist. */
  async own(customerId: string): Promise<OwnClock | undefined> {
    const known = this.known.get(customerId);
    if (known !== undefined) return known ?? undefined;
    const record = await this.parts.store.get('customer', customerId);
    // An unknown customer is not remembered: it may be created on another replica later.
    return record ? this.take(customerId, record.clock) : undefined;
  }

  /**
   * Changes a customer's own clock in the store (one atomic step) and takes the result here.
   * 404 for an unknown customer, 409 for one that follows the mock's clock.
   */
  async move(customerId: string, change: (state: ClockState) => ClockState): Promise<OwnClock> {
    const record = await this.parts.store.update('customer', customerId, (current) => {
      if (!current.clock) throw noOwnClock(customerId);
      return { ...current, clock: change(current.clock) };
    });
    if (!record) {
      throw new ServiceError('RESOURCE_NOT_FOUND', { resource: 'customer', id: customerId }, `No customer with id ${customerId}.`);
    }
    return this.take(customerId, record.clock) as OwnClock;
  }

  /**
   * The queue of a customer's own clock, to read (GET /_mock/jobs), without arming a scheduler
   * here: the one this replica runs, or else the shared queue's namespace (in memory, a customer
   * this process has not met has no jobs, and the empty queue says so).
   */
  queueOf(customerId: string): JobQueue {
    return this.known.get(customerId)?.scheduler.queue ?? this.parts.queueFor(customerId);
  }

  /** Every own clock's scheduler this replica runs. */
  ownSchedulers(): Scheduler[] {
    return [...this.known.values()].flatMap((own) => (own ? [own.scheduler] : []));
  }

  /** Reads the own clocks this replica knows again; forgets the customers gone (a reset, an import). */
  async refresh(): Promise<void> {
    await Promise.all(
      [...this.known.keys()].map(async (customerId) => {
        const record = await this.parts.store.get('customer', customerId);
        if (record) this.take(customerId, record.clock);
        else this.forget(customerId);
      }),
    );
  }

  stop(): void {
    for (const customerId of [...this.known.keys()]) this.forget(customerId);
  }

  private forget(customerId: string): void {
    this.known.get(customerId)?.scheduler.stop();
    this.known.delete(customerId);
  }

  private take(customerId: string, state: ClockState | undefined): OwnClock | undefined {
    const known = this.known.get(customerId);
    if (!state) {
      // A snapshot import may have put a customer without a clock under a known id.
      if (known) this.forget(customerId);
      this.known.set(customerId, null);
      return undefined;
    }
    if (known) {
      known.clock.adopt(state);
      return known;
    }
    const clock = createClock();
    clock.adopt(state);
    const { queueFor, onError, options } = this.parts;
    const scheduler = new Scheduler(clock, queueFor(customerId), onError, options);
    scheduler.handleAs(this.parts.scheduler);
    const own = { clock, scheduler };
    this.known.set(customerId, own);
    // Jobs another replica queued for this clock: armed here too (a running clock needs no move to reach them).
    void scheduler.poll();
    return own;
  }
}

/** 409: the customer follows the mock's clock, which only the mock's clock API moves. */
export function noOwnClock(customerId: string): ServiceError {
  return new ServiceError(
    'INVALID_STATE_TRANSITION',
    { customerId, reason: 'no own clock' },
    `Customer ${customerId} follows the mock's clock; give it its own with POST /_mock/customers {"clock":{}}.`,
  );
}
