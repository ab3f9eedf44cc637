// The outbox: a write and the events it causes land together or not at all. A service hands the
// store its events with the write (Store OutboxEntry, one atomic step), then publishes them and
// drops them from the outbox. A replica that dies between the two (or a publication that fails,
// Redis lost mid-way) leaves the entries behind; every replica's relay publishes entries left
// longer than the lease. Each entry's id is its publication's origin (DomainEvent.origin): the
// dispatcher queues a delivery once per origin and subscription, so an entry published twice (a
// relay racing a slow writer) is still delivered once.
import type { OutboxEntry, OutboxOf, Store } from '../store';
import type { DomainEvent, EventBus } from './event-bus';

/** How many left entries a relay takes at once, and how many such batches one round runs at most. */
const RELAY_BATCH = 100;
const RELAY_ROUND = 10;

export interface OutboxOptions {
  store: Store;
  bus: EventBus;
  newId: () => string;
  /** Real time an entry may wait for its writer before a relay publishes it (JOB_LEASE_MS). */
  leaseMs: number;
  /** Told of a publication that failed (its entry stays for a relay). */
  onError: (error: unknown) => void;
}

/** An update and the events of the change it made: what the store is handed (`change`, `of`), and the entries written. */
export interface EventfulUpdate<T> {
  change: (current: T) => T;
  of: OutboxOf<T>;
  entries(): readonly OutboxEntry[];
}

export class EventOutbox {
  private timer: NodeJS.Timeout | undefined;
  private relaying: Promise<number> | undefined;

  constructor(private readonly options: OutboxOptions) {}

  /** Outbox entries for events known before the write (an insert). */
  entries(...events: DomainEvent[]): OutboxEntry[] {
    return events.map((event) => ({ id: this.options.newId(), event }));
  }

  /**
   * For an update whose events depend on the change made (a transition and the event it emits):
   * `step` returns the new record and its events. The store calls `change`, then `of` with the
   * record it is about to write (both again when it retries); `entries()` are the last ones made,
   * which it wrote with the record.
   */
  update<T>(step: (current: T) => { next: T; events: DomainEvent[] }): EventfulUpdate<T> {
    let events: DomainEvent[] = [];
    let made: readonly OutboxEntry[] = [];
    return {
      change: (current) => {
        const stepped = step(current);
        events = stepped.events;
        return stepped.next;
      },
      of: () => (made = this.entries(...events)),
      entries: () => made,
    };
  }

  /**
   * Publishes entries written with a write, then drops them. A failure is reported, never thrown:
   * the write has landed, and its entries stay for a relay.
   */
  async publish(entries: readonly OutboxEntry[]): Promise<void> {
    if (entries.length === 0) return;
    try {
      for (const entry of entries) await this.options.bus.publish({ ...(entry.event as DomainEvent), origin: entry.id });
      await this.options.store.outboxDone(entries.map((entry) => entry.id));
    } catch (error) {
      this.options.onError(error);
    }
  }

  /**
   * Publishes the entries left for longer than the lease (`staleMs`: 0 takes every entry, ones
   * still on their way too, which is safe: a publication is queued once). Answers how many.
   */
  relay(staleMs = this.options.leaseMs): Promise<number> {
    // One round at a time in this process: a call during a round runs its own after it.
    const round = (this.relaying ?? Promise.resolve(0)).catch(() => 0).then(() => this.relayRound(staleMs));
    this.relaying = round;
    return round;
  }

  /** Batches until one is not full, at most RELAY_ROUND of them (an entry that fails again is taken again). */
  private async relayRound(staleMs: number): Promise<number> {
    let published = 0;
    for (let batch = 0; batch < RELAY_ROUND; batch++) {
      const left = await this.options.store.takeOutbox(staleMs, RELAY_BATCH);
      for (const entry of left) await this.publish([entry]);
      published += left.length;
      if (left.length < RELAY_BATCH) break;
    }
    return published;
  }

  /** A relay round every `everyMs` of real time, until stop(); none while the last one still runs (a slow store must not queue them up). */
  start(everyMs: number): void {
    let running = false;
    this.timer = setInterval(() => {
      if (running) return;
      running = true;
      this.relay()
        .catch((error: unknown) => this.options.onError(error))
        .finally(() => (running = false));
    }, everyMs);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    clearInterval(this.timer);
    await this.relaying?.catch(() => undefined);
  }
}
