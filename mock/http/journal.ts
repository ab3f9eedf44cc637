// The request journal: every request the mock answers (service and control API), the last
// JOURNAL_SIZE kept in a ring buffer, so recording costs O(1) whatever the traffic. With a shared
// state (REDIS_URL) every replica pushes its requests to one list in Redis instead, and the
// control API reads that: the journal of the whole service. What was sent and answered (headers,
// bodies: journal-exchange.ts) is kept for every request, whether or not anyone looks, and stays
// with the replica that answered, the last JOURNAL_SIZE; it leaves the journal with its secrets
// masked.
//
// Each customer also has a journal of its own: its last CUSTOMER_JOURNAL_SIZE
// authenticated requests with what they sent, kept by the replica that answered, so one busy
// tenant does not push another's requests out of what its tests verify. At most CUSTOMER_JOURNALS
// customers keep one (the least recently seen is dropped), so the memory stays bounded whatever
// the number of customers.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { NextFunction, Request, Response } from 'express';
import { exchangeOf, exchangeView, withoutSecrets, type JournalExchange } from './journal-exchange';
import { localsOf } from './request-id';
import type { Clock } from '../clock';

export const JOURNAL_SIZE = 1000;
/** Requests kept in each customer's own journal. */
export const CUSTOMER_JOURNAL_SIZE = 500;
/** Customers that keep a journal of their own at once: the least recently seen is dropped past it. */
export const CUSTOMER_JOURNALS = 200;

/** What an injected fault did to a request (left on the response's locals by applyFault). */
export interface FaultTrace {
  id: string;
  latencyMs?: number;
  error?: number;
  drop?: boolean;
}

export interface JournalEntry {
  requestId: string;
  method: string;
  path: string;
  /** 0 when the connection closed without an answer (a dropped request). */
  status: number;
  latencyMs: number;
  at: string;
  /** The customer of the bearer token (authenticated service calls). */
  customerId?: string;
  fault?: FaultTrace;
}

/** Where a shared journal is kept (mock/store/redis/shared-state.ts): entries as JSON, newest first. */
export interface SharedJournal {
  /** Queues an entry; it reaches the shared journal within a few milliseconds. */
  journalPush(json: string, size: number): void;
  /** Sends what this replica has queued. */
  journalFlush(): Promise<void>;
  journalLatest(limit: number): Promise<string[]>;
  journalClear(): Promise<void>;
}

/** A request as verification reads it: its summary, and what it sent (credentials masked) when still kept. */
export interface JournalRecord {
  entry: JournalEntry;
  request?: ReturnType<typeof exchangeView>['request'];
}

/** A ring of the last `capacity` entries with their exchanges: O(1) to write, read newest first. */
/** The answer a customer's journal does not keep. */
const NO_ANSWER: JournalExchange['response'] = Object.freeze({ headers: {}, truncated: false });

type Kept = { entry: JournalEntry; exchange: JournalExchange | undefined };

class Ring {
  private readonly items: Array<Kept | undefined>;
  private next = 0;
  private count = 0;
  constructor(private readonly capacity: number) {
    this.items = new Array<Kept | undefined>(capacity);
  }
  push(entry: JournalEntry, exchange: JournalExchange | undefined): void {
    this.items[this.next] = { entry, exchange };
    this.next = (this.next + 1) % this.capacity;
    this.count = Math.min(this.count + 1, this.capacity);
  }
  newestFirst() {
    const out: Array<{ entry: JournalEntry; exchange: JournalExchange | undefined }> = [];
    for (let i = 1; i <= this.count; i++) out.push(this.items[(this.next - i + this.capacity) % this.capacity]!);
    return out;
  }
}

/** The record as it may leave the journal: the request's part of the exchange, masked. */
function recordOf({ entry, exchange }: { entry: JournalEntry; exchange: JournalExchange | undefined }): JournalRecord {
  return exchange ? { entry, request: exchangeView(withoutSecrets(exchange)).request } : { entry };
}

export class Journal {
  private readonly ring: Array<JournalEntry | undefined>;
  private next = 0;
  private count = 0;
  /** This replica's last `capacity` exchanges and their request ids, a ring like the entries' (written in O(1), searched when read). */
  private readonly keptIds: Array<string | undefined>;
  private readonly kept: Array<JournalExchange | undefined>;
  private readonly keptEntries: Array<JournalEntry | undefined>;
  private keptNext = 0;
  /** Each customer's own journal; a Map keeps insertion order, so its first key is the least recently seen. */
  private readonly byCustomer = new Map<string, Ring>();

  /** Told of each entry as it is recorded (the inspector's push channel, the request log line). */
  onRecord: ((entry: JournalEntry) => void) | undefined;

  constructor(
    readonly capacity: number = JOURNAL_SIZE,
    private readonly shared?: SharedJournal,
  ) {
    // Only slots written since the last clear are read, so an unsized array answers the same.
    // Stryker disable next-line ArrayDeclaration: equivalent, see above
    this.ring = new Array<JournalEntry | undefined>(capacity);
    this.keptIds = new Array<string | undefined>(capacity);
    this.kept = new Array<JournalExchange | undefined>(capacity);
    this.keptEntries = new Array<JournalEntry | undefined>(capacity);
  }

  add(entry: JournalEntry, exchange?: JournalExchange): void {
    this.onRecord?.(entry);
    if (entry.customerId) this.addForCustomer(entry.customerId, entry, exchange);
    if (exchange) {
      this.keptIds[this.keptNext] = entry.requestId;
      this.kept[this.keptNext] = exchange;
      this.keptEntries[this.keptNext] = entry;
      this.keptNext = (this.keptNext + 1) % this.capacity;
    }
    if (this.shared) {
      this.shared.journalPush(JSON.stringify(entry), this.capacity);
      return;
    }
    this.ring[this.next] = entry;
    this.next = (this.next + 1) % this.capacity;
    this.count = Math.min(this.count + 1, this.capacity);
  }

  /** Newest first, at most `limit`. */
  latest(limit: number = this.capacity): JournalEntry[] {
    const out: JournalEntry[] = [];
    for (let i = 1; i <= Math.min(limit, this.count); i++)
      out.push(this.ring[(this.next - i + this.capacity) % this.capacity] as JournalEntry);
    return out;
  }

  private addForCustomer(customerId: string, entry: JournalEntry, exchange: JournalExchange | undefined): void {
    let ring = this.byCustomer.get(customerId);
    if (ring) this.byCustomer.delete(customerId);
    else {
      ring = new Ring(CUSTOMER_JOURNAL_SIZE);
      if (this.byCustomer.size >= CUSTOMER_JOURNALS) this.byCustomer.delete(this.byCustomer.keys().next().value as string);
    }
    // Set again: the customer becomes the most recently seen.
    this.byCustomer.set(customerId, ring);
    // Only what was sent: verification reads nothing else, and the answers (pages of records)
    // would hold far more for 200 customers' 500 requests than the request side does.
    ring.push(entry, exchange && { request: exchange.request, response: NO_ANSWER });
  }

  /**
   * What this replica keeps for verification, newest first: a customer's own journal, or (no
   * customer) its last `capacity` requests of everyone, each with what it sent, masked.
   */
  records(customerId?: string): JournalRecord[] {
    if (customerId !== undefined) return (this.byCustomer.get(customerId)?.newestFirst() ?? []).map(recordOf);
    const out: JournalRecord[] = [];
    for (let i = 1; i <= this.capacity; i++) {
      const at = (this.keptNext - i + this.capacity) % this.capacity;
      const exchange = this.kept[at];
      const entry = this.keptEntries[at];
      if (!exchange || !entry) break;
      out.push(recordOf({ entry, exchange }));
    }
    return out;
  }

  /** Forgets one customer's own journal (its reset); the journal of everyone keeps its entries. */
  forgetCustomer(customerId: string): void {
    this.byCustomer.delete(customerId);
  }

  /** Sends this replica's queued entries to the shared journal (before it is read). */
  async flush(): Promise<void> {
    await this.shared?.journalFlush();
  }

  /** The journal the control API shows: this process's, or the whole service's when shared (each replica flushes first). */
  async entries(limit: number = this.capacity): Promise<JournalEntry[]> {
    if (!this.shared) return this.latest(limit);
    const json = await this.shared.journalLatest(Math.min(limit, this.capacity));
    return json.map((text) => JSON.parse(text) as JournalEntry);
  }

  /** One entry still kept, by its request id. */
  async find(requestId: string): Promise<JournalEntry | undefined> {
    return (await this.entries()).find((entry) => entry.requestId === requestId);
  }

  /** What was sent and answered, secrets masked, if this replica answered the request and still keeps it. */
  exchange(requestId: string): JournalExchange | undefined {
    const at = this.keptIds.indexOf(requestId);
    const kept = at === -1 ? undefined : this.kept[at];
    return kept && withoutSecrets(kept);
  }

  get size(): number {
    return this.count;
  }

  async reset(): Promise<void> {
    this.clear();
    await this.flush();
    if (this.shared) await this.shared.journalClear();
  }

  clear(): void {
    this.keptIds.fill(undefined);
    this.kept.fill(undefined);
    this.keptEntries.fill(undefined);
    this.keptNext = 0;
    this.byCustomer.clear();
    this.ring.fill(undefined);
    this.next = 0;
    this.count = 0;
  }

  /** Records the request once, when its answer is finished or its connection closes. */
  track(clock: Clock, req: IncomingMessage, res: ServerResponse, path: string, url: string = req.url ?? path): void {
    const started = performance.now();
    const at = new Date(clock.now()).toISOString();
    // Node's server emits 'close' once for every response that had its connection, after 'finish'
    // when it was sent whole: one listener (a 'finish' one too was a second call and made the
    // response's own listener an array). A pipelined response still queued when its connection
    // dies gets neither event, as before.
    res.once('close', () => {
      const locals = localsOf(res);
      const finished = res.writableFinished;
      const entry: JournalEntry = {
        requestId: String(locals.requestId),
        // Stryker disable next-line StringLiteral: a request Node's server parsed always has a method
        method: req.method ?? '',
        path,
        status: finished ? res.statusCode : 0,
        latencyMs: Math.round((performance.now() - started) * 1e3) / 1e3,
        at,
      };
      if (locals.customerId) entry.customerId = locals.customerId as string;
      if (locals.fault) entry.fault = locals.fault as FaultTrace;
      this.add(entry, exchangeOf(req, res, url, locals));
    });
  }

  /** `track` for the requests Express answers (control API, docs, unknown paths). */
  middleware(clock: Clock) {
    return (req: Request, res: Response, next: NextFunction): void => {
      this.track(clock, req, res, req.originalUrl.split('?')[0] ?? req.originalUrl, req.originalUrl);
      next();
    };
  }
}
