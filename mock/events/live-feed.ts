// What changed, for the inspector's push channel (GET /_mock/live): the journal, a record, a
// delivery attempt, the jobs, the clock, the faults. Topics are gathered for LIVE_INTERVAL_MS and
// handed on together, so a burst of thousands of requests is one notice, not thousands; the page
// then reads what its view shows. With a shared state the notices also go to every other replica
// (`relay`, over Redis pub/sub), so a page open on one replica sees what another did.
import type { components } from '../../spec/generated/control-api-types';

/** The document's LiveTopic (spec/control-openapi.yaml). */
export type LiveTopic = components['schemas']['LiveTopic'];
/** Every topic, once: the compiler refuses a list that misses one of the document's or names another. */
const ALL_TOPICS: Record<LiveTopic, true> = { requests: true, state: true, deliveries: true, jobs: true, clock: true, faults: true };
export const LIVE_TOPICS = Object.keys(ALL_TOPICS) as readonly LiveTopic[];
export type LiveListener = (topics: readonly LiveTopic[]) => void;

/** At most one notice this often, per replica. */
export const LIVE_INTERVAL_MS = 100;
/** A replica with a page open says so this often; another takes it as watched for WATCHED_MS after. */
export const WATCHING_EVERY_MS = 1_000;
const WATCHED_MS = 3_000;

export class LiveFeed {
  private readonly listeners = new Set<LiveListener>();
  private readonly pending = new Set<LiveTopic>();
  private timer: NodeJS.Timeout | undefined;
  /** Sends this replica's notices to the others (set on a shared state). */
  relay: ((topics: readonly LiveTopic[]) => void) | undefined;
  /** Tells the other replicas that a page is open here (set on a shared state). */
  relayWatching: (() => void) | undefined;
  private watchedUntil = 0;
  private watchingTimer: NodeJS.Timeout | undefined;

  /** Notes a change; nothing is done while no page is open here or on another replica (nothing is relayed either). */
  notify(...topics: LiveTopic[]): void {
    if (!this.watched) return;
    for (const topic of topics) this.pending.add(topic);
    if (!this.timer) {
      this.timer = setTimeout(() => this.flush(), LIVE_INTERVAL_MS);
      this.timer.unref();
    }
  }

  /** Notices another replica relayed: to this replica's listeners only (never relayed again). */
  receive(topics: readonly string[]): void {
    const known = topics.filter((topic): topic is LiveTopic => (LIVE_TOPICS as readonly string[]).includes(topic));
    if (known.length > 0) for (const listener of this.listeners) listener(known);
  }

  subscribe(listener: LiveListener): () => void {
    this.listeners.add(listener);
    this.sayWatching();
    return () => {
      this.listeners.delete(listener);
      if (this.listeners.size === 0 && this.watchingTimer) {
        clearInterval(this.watchingTimer);
        this.watchingTimer = undefined;
      }
    };
  }

  /** Another replica has a page open. */
  receiveWatching(): void {
    this.watchedUntil = Date.now() + WATCHED_MS;
  }

  /** Whether a page is open here, or was said to be open on another replica within the last seconds. */
  get watched(): boolean {
    return this.listeners.size > 0 || Date.now() < this.watchedUntil;
  }

  /** While a page is open here, the other replicas are told so now and every WATCHING_EVERY_MS. */
  private sayWatching(): void {
    if (!this.relayWatching) return;
    this.relayWatching();
    if (!this.watchingTimer) {
      this.watchingTimer = setInterval(() => this.relayWatching?.(), WATCHING_EVERY_MS);
      this.watchingTimer.unref();
    }
  }

  close(): void {
    if (this.watchingTimer) clearInterval(this.watchingTimer);
    this.watchingTimer = undefined;
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    this.pending.clear();
    this.listeners.clear();
  }

  private flush(): void {
    this.timer = undefined;
    const topics = [...this.pending];
    this.pending.clear();
    for (const listener of this.listeners) listener(topics);
    this.relay?.(topics);
  }
}
