// What every service is given: the store, the clock and the rest, injected by the app factory.
import type { ControllableClock } from '../clock';
import type { ResolvedConfig } from '../config';
import type { CursorCodec } from '../domain/pagination/cursor';
import type { HostLookup } from '../domain/url-policy';
import type { AssetScales } from '../domain/money';
import type { Rate } from '../domain/quotes';
import type { EventBus } from '../events/event-bus';
import type { EventOutbox } from '../events/outbox';
import type { CustomerClocks } from '../jobs/customer-clocks';
import type { Scheduler } from '../jobs/scheduler';
import type { Store } from '../store';

export interface ReferenceData {
  rates: Rate[];
  scales: AssetScales;
}

export interface Deps {
  store: Store;
  /** The mock's clock: that of every customer without one of its own. */
  clock: ControllableClock;
  /** Each customer's clock (its own, or the mock's) and the scheduler of its jobs. */
  clocks: CustomerClocks;
  config: ResolvedConfig;
  codec: CursorCodec;
  events: EventBus;
  /** Every write that causes events hands them to the store with it, and publishes them through this (events/outbox.ts). */
  outbox: EventOutbox;
  /** The scheduler of the jobs on the mock's clock. */
  scheduler: Scheduler;
  reference: ReferenceData;
  newId: () => string;
  /** Resolves subscription host names for the URL policies (dns.promises.lookup with all: true by default). */
  lookup: HostLookup;
}
