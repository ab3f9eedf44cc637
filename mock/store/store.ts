// The store interface, asynchronous so the shared (Redis) store and the memory store are one contract; every rule
// that must hold under concurrency is one atomic call here, never a read-then-write in a handler.
import type { RecordTypes } from '../domain/records';
import type { SortOrder } from '../shared';

export type { SortOrder };
export type Kind = keyof RecordTypes;

export interface PageQuery<T> {
  /** The list's owner: a customer id, or a subscription id for execution logs. */
  scope: string;
  limit: number;
  order: SortOrder;
  /** Position key (insertion sequence) the page starts from, exclusive. */
  from?: { key: number; direction: 'NEXT' | 'PREVIOUS' };
  /** Only records matching this are returned (execution-log filters). */
  where?: (record: T) => boolean;
}

export interface PageSlice<T> {
  items: Array<{ key: number; record: T }>;
  hasBefore: boolean;
  hasAfter: boolean;
}

export interface IdempotencyEntry {
  fingerprint: string;
  state: 'IN_PROGRESS' | 'DONE';
  expiresAt: number;
  /** The first answer, replayed as it was (a 204 has no body). */
  response?: { status: number; body?: unknown };
}

/** One stored record with its list (scope) and its insertion key (the position cursors name). */
export interface StoredRecord {
  scope: string;
  id: string;
  key: number;
  record: unknown;
}

/**
 * The whole state of a store as plain JSON (control API snapshot): records by kind in insertion
 * order with their scopes and keys, balances, finished idempotency entries, and the sequence the
 * next insertion continues from. Importing it restores list order, so cursors stay valid.
 */
export interface StoreState {
  sequence: number;
  records: Partial<Record<Kind, StoredRecord[]>>;
  balances: Array<{ accountId: string; asset: string; value: string }>;
  /** `ownClock`: a key of a customer with a clock of its own, whose expiry that clock alone decides. */
  idempotency: Array<{ key: string; ownClock?: boolean } & IdempotencyEntry>;
}

/** A change of one balance: a decimal string, negative for a debit. */
export interface BalanceMove {
  accountId: string;
  asset: string;
  delta: string;
}

/** A balance a move was refused on, as it stood. */
export interface RefusedBalance {
  accountId: string;
  asset: string;
  balance: string;
}

/**
 * What `updateWithBalances` did: the new record; or, nothing changed, the balance that was too
 * low (`short`) or that would have reached the largest the document can express (`over`,
 * BALANCE_CEILING); or undefined (no record).
 */
export type BalancedUpdate<T> = { record: T } | { short: RefusedBalance } | { over: RefusedBalance } | undefined;

/**
 * An event a write causes, kept with the write in the same atomic step (an outbox): a write that
 * lands has its event, even when its replica dies before publishing it. `id` names the
 * publication (DomainEvent.origin), so publishing it twice queues its deliveries once; `event` is
 * plain JSON, opaque to the store.
 */
export interface OutboxEntry {
  id: string;
  event: unknown;
}

/** The outbox entries of an update, from the record it is about to write (it may be asked again if the store retries). */
export type OutboxOf<T> = (next: T) => readonly OutboxEntry[];

export type IdempotencyClaim =
  { outcome: 'CLAIMED' } | { outcome: 'IN_PROGRESS'; entry: IdempotencyEntry } | { outcome: 'DONE'; entry: IdempotencyEntry };

export interface Store {
  get<K extends Kind>(kind: K, id: string): Promise<RecordTypes[K] | undefined>;
  /** `outbox`: entries written in the same atomic step (OutboxEntry). */
  insert<K extends Kind>(kind: K, scope: string, id: string, record: RecordTypes[K], outbox?: readonly OutboxEntry[]): Promise<void>;
  /** Replaces a record that exists; its place in lists is unchanged. */
  replace<K extends Kind>(kind: K, id: string, record: RecordTypes[K]): Promise<void>;
  /**
   * Atomic read-modify-write: `change` sees the current record and returns the new one (or
   * throws to abort). Resolves to the new record, or undefined when there is none. A shared
   * store may call `change` more than once (it retries when another replica wrote in between).
   * `outbox`: the entries of the record written, in the same atomic step.
   */
  update<K extends Kind>(
    kind: K,
    id: string,
    change: (current: RecordTypes[K]) => RecordTypes[K],
    outbox?: OutboxOf<RecordTypes[K]>,
  ): Promise<RecordTypes[K] | undefined>;
  remove(kind: Kind, id: string): Promise<void>;
  page<K extends Kind>(kind: K, query: PageQuery<RecordTypes[K]>): Promise<PageSlice<RecordTypes[K]>>;
  /** Every record of a kind in a scope, in insertion order (small sets only: subscriptions of a customer). */
  all<K extends Kind>(kind: K, scope: string): Promise<Array<RecordTypes[K]>>;

  /**
   * Inserts a record that consumes a quote (an operation), as one atomic step: the record is
   * inserted and the quote marked used by it, or nothing is written and the answer is false when
   * the quote is held already (or does not exist). So a quote is consumed once, and a replica that
   * dies mid-request never leaves a quote consumed by an operation that was not stored. Throws,
   * writing nothing, when the id exists. `outbox`: written in the same step, when the record is.
   */
  insertConsumingQuote<K extends Kind>(
    quoteId: string,
    kind: K,
    scope: string,
    id: string,
    record: RecordTypes[K],
    outbox?: readonly OutboxEntry[],
  ): Promise<boolean>;

  getBalance(accountId: string, asset: string): Promise<string>;
  setBalance(accountId: string, asset: string, value: string): Promise<void>;
  /**
   * Atomically adds `delta` (a decimal string, may be negative); refuses (null) when the result
   * would be negative or reach BALANCE_CEILING.
   */
  moveBalance(accountId: string, asset: string, delta: string): Promise<string | null>;
  balances(accountId: string): Promise<Record<string, string>>;
  /**
   * One atomic step over a record and balances (settlement): the record becomes `change(current)`
   * and every move is applied, in order, all or nothing. A move that would take a balance below
   * zero, or to BALANCE_CEILING or above, changes nothing and answers that balance. `change` may throw to abort, and may be called
   * again if another replica changed what it read. `outbox`: the entries of the record written,
   * in the same step (none when a move is refused).
   */
  updateWithBalances<K extends Kind>(
    kind: K,
    id: string,
    change: (current: RecordTypes[K]) => RecordTypes[K],
    moves: BalanceMove[],
    outbox?: OutboxOf<RecordTypes[K]>,
  ): Promise<BalancedUpdate<RecordTypes[K]>>;

  /**
   * The outbox entries written, or last taken, at least `staleMs` ago (real time), at most
   * `limit`, oldest first: those whose writer died (or failed) before publishing them. Each is
   * taken for another `staleMs`, so another replica passes it by meanwhile.
   */
  takeOutbox(staleMs: number, limit: number): Promise<OutboxEntry[]>;
  /** Drops outbox entries once their events are published. */
  outboxDone(ids: readonly string[]): Promise<void>;

  /**
   * `ownClock`: `now` is a customer's own clock (POST /_mock/customers {clock}), which decides this
   * key's expiry alone: it sweeps no other key, and the mock's clock never sweeps it.
   */
  claimIdempotencyKey(key: string, fingerprint: string, now: number, ttlMs: number, ownClock?: boolean): Promise<IdempotencyClaim>;
  completeIdempotencyKey(key: string, response: { status: number; body: unknown }): Promise<void>;
  releaseIdempotencyKey(key: string): Promise<void>;

  /**
   * Everything, as plain JSON; idempotency keys still in progress, or expired at `now` (the mock's
   * clock), are left out. Finished keys on a customer's own clock are all there (`ownClock`): that
   * clock decides which have expired, and the caller knows it.
   */
  exportState(now: number): Promise<StoreState>;
  /** Replaces everything with `state` (which the caller has checked); the store is unchanged if it throws. */
  importState(state: StoreState): Promise<void>;
  /**
   * Runs `load` (the demo fixtures) if this store holds no state yet, once: a replica that starts
   * on a shared store already in use loads nothing. Resolves true when it loaded.
   */
  seedOnce(load: () => Promise<void>): Promise<boolean>;
  /**
   * Empties the store and runs `load` (the fixtures), as one step that no other reset, import or
   * seeding cuts into (POST /_mock/reset); the insertion sequence starts again.
   */
  reset(load: () => Promise<void>): Promise<void>;
  /** Empties the store: records, balances, idempotency keys, the outbox; the insertion sequence starts again. */
  clear(): Promise<void>;
}
