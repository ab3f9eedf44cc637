// The default store, in memory, in plain data structures (docs/decisions: the plain memory
// store). Per kind: a Map from id to its entry, and per scope an array of the same entries in
// ascending insertion key, which is the order lists are paged in. Records are kept as the frozen
// objects they were written as: a read hands out the stored object itself, so the response
// encoder can keep a record's JSON and its passed check beside it (mock/http/response-encoder.ts).
// Every method runs without an await between its read and its write: within one event loop
// that makes each call atomic, as the Store interface asks.
import { Decimal } from '../domain/decimal';
import { BALANCE_CEILING } from '../domain/money';
import type { RecordTypes } from '../domain/records';
import { sliceSorted, type SortedKeys } from '../shared';
import { deepFreeze } from './freeze';
import { checkedImport } from './import-check';
import type {
  BalancedUpdate,
  BalanceMove,
  IdempotencyClaim,
  IdempotencyEntry,
  Kind,
  OutboxEntry,
  OutboxOf,
  PageQuery,
  PageSlice,
  Store,
  StoredRecord,
  StoreState,
} from './store';

/** One stored record; the same object sits in its kind's id map and in its scope's list. */
interface Entry {
  readonly scope: string;
  readonly key: number;
  record: unknown;
}

/** One kind's records: by id, and per scope in ascending insertion key. */
interface KindTable {
  byId: Map<string, Entry>;
  byScope: Map<string, Entry[]>;
}

/** Expired idempotency keys are swept after this many new claims (lazy expiry in between). */
const SWEEP_EVERY = 1000;

export class MemoryStore implements Store {
  private sequence = 0;
  private readonly tables = new Map<Kind, KindTable>();
  /** Balances by account, then asset. */
  private readonly balanceTable = new Map<string, Map<string, Decimal>>();
  /** Idempotency entries by key, in claim order (a Map keeps insertion order), which is expiry order. */
  private readonly idempotency = new Map<string, IdempotencyEntry>();
  private claimsSinceSweep = 0;
  /** Keys on a customer's own clock: they expire by that clock, so the sweep (by the mock's) passes them by. */
  private readonly ownClockKeys = new Set<string>();
  /** Outbox entries by id, with when (real time, monotonic) each was written or last taken: in that order. */
  private readonly outbox = new Map<string, { entry: OutboxEntry; at: number }>();

  private table(kind: Kind): KindTable {
    let table = this.tables.get(kind);
    if (!table) this.tables.set(kind, (table = { byId: new Map(), byScope: new Map() }));
    return table;
  }

  async get<K extends Kind>(kind: K, id: string): Promise<RecordTypes[K] | undefined> {
    return this.table(kind).byId.get(id)?.record as RecordTypes[K] | undefined;
  }

  async insert<K extends Kind>(kind: K, scope: string, id: string, record: RecordTypes[K], outbox?: readonly OutboxEntry[]): Promise<void> {
    this.insertNow(kind, scope, id, this.sequence + 1, record);
    this.addToOutbox(outbox);
  }

  /** The insert, synchronous: callers that must not yield between a check and the write use it. */
  private insertNow(kind: Kind, scope: string, id: string, key: number, record: unknown): void {
    const table = this.table(kind);
    if (table.byId.has(id)) throw new Error(`store: ${kind} ${id} exists already`);
    this.sequence = Math.max(this.sequence, key);
    const entry: Entry = { scope, key, record: deepFreeze(record) };
    table.byId.set(id, entry);
    let list = table.byScope.get(scope);
    if (!list) table.byScope.set(scope, (list = []));
    // Keys only grow, so a new record goes last; an import inserts in key order too.
    list.push(entry);
  }

  async replace<K extends Kind>(kind: K, id: string, record: RecordTypes[K]): Promise<void> {
    const entry = this.table(kind).byId.get(id);
    if (!entry) throw new Error(`store: ${kind} ${id} does not exist`);
    entry.record = deepFreeze(record);
  }

  async update<K extends Kind>(
    kind: K,
    id: string,
    change: (current: RecordTypes[K]) => RecordTypes[K],
    outbox?: OutboxOf<RecordTypes[K]>,
  ): Promise<RecordTypes[K] | undefined> {
    const entry = this.table(kind).byId.get(id);
    if (!entry) return undefined;
    const next = deepFreeze(change(entry.record as RecordTypes[K]));
    const entries = outbox?.(next);
    entry.record = next;
    this.addToOutbox(entries);
    return next;
  }

  async remove(kind: Kind, id: string): Promise<void> {
    const table = this.table(kind);
    const entry = table.byId.get(id);
    if (!entry) return;
    table.byId.delete(id);
    const list = table.byScope.get(entry.scope)!;
    list.splice(lowerBound(list, entry.key), 1);
    if (list.length === 0) table.byScope.delete(entry.scope);
  }

  async all<K extends Kind>(kind: K, scope: string): Promise<Array<RecordTypes[K]>> {
    const list = this.table(kind).byScope.get(scope) ?? [];
    return list.map((entry) => entry.record as RecordTypes[K]);
  }

  async page<K extends Kind>(kind: K, query: PageQuery<RecordTypes[K]>): Promise<PageSlice<RecordTypes[K]>> {
    const list = this.table(kind).byScope.get(query.scope) ?? [];
    const keys: SortedKeys = { size: list.length, keyAt: (slot) => list[slot]!.key, lowerBound: (key) => lowerBound(list, key) };
    const where = query.where;
    const slice = sliceSorted(keys, {
      limit: query.limit,
      order: query.order,
      from: query.from,
      matchesSlot: where ? (slot) => where(list[slot]!.record as RecordTypes[K]) : undefined,
    });
    return {
      items: slice.slots.map((slot) => ({ key: list[slot]!.key, record: list[slot]!.record as RecordTypes[K] })),
      hasBefore: slice.hasBefore,
      hasAfter: slice.hasAfter,
    };
  }

  async insertConsumingQuote<K extends Kind>(
    quoteId: string,
    kind: K,
    scope: string,
    id: string,
    record: RecordTypes[K],
    outbox?: readonly OutboxEntry[],
  ): Promise<boolean> {
    // No await between the check and the writes: no other caller can pass the quote check in between.
    const quote = this.table('quote').byId.get(quoteId);
    const current = quote?.record as RecordTypes['quote'] | undefined;
    if (!quote || !current || current.operationId !== null) return false;
    // Inserted first (it throws, writing nothing, when the id exists), then the quote marked.
    this.insertNow(kind, scope, id, this.sequence + 1, record);
    quote.record = deepFreeze({ ...current, operationId: id });
    this.addToOutbox(outbox);
    return true;
  }

  private balanceOf(accountId: string, asset: string): Decimal {
    return this.balanceTable.get(accountId)?.get(asset) ?? new Decimal(0);
  }

  private setBalanceNow(accountId: string, asset: string, value: Decimal): void {
    let assets = this.balanceTable.get(accountId);
    if (!assets) this.balanceTable.set(accountId, (assets = new Map<string, Decimal>()));
    assets.set(asset, value);
  }

  async getBalance(accountId: string, asset: string): Promise<string> {
    return this.balanceOf(accountId, asset).toFixed();
  }

  async setBalance(accountId: string, asset: string, value: string): Promise<void> {
    this.setBalanceNow(accountId, asset, new Decimal(value));
  }

  async moveBalance(accountId: string, asset: string, delta: string): Promise<string | null> {
    const next = this.balanceOf(accountId, asset).plus(delta);
    if (next.isNegative() || next.gte(BALANCE_CEILING)) return null;
    this.setBalanceNow(accountId, asset, next);
    return next.toFixed();
  }

  async balances(accountId: string): Promise<Record<string, string>> {
    const out: Record<string, string> = {};
    for (const [asset, value] of this.balanceTable.get(accountId) ?? []) out[asset] = value.toFixed();
    return out;
  }

  async updateWithBalances<K extends Kind>(
    kind: K,
    id: string,
    change: (current: RecordTypes[K]) => RecordTypes[K],
    moves: BalanceMove[],
    outbox?: OutboxOf<RecordTypes[K]>,
  ): Promise<BalancedUpdate<RecordTypes[K]>> {
    const entry = this.table(kind).byId.get(id);
    if (!entry) return undefined;
    const next = deepFreeze(change(entry.record as RecordTypes[K]));
    // Every move is worked out before any is applied: all or nothing.
    const values = new Map<string, { accountId: string; asset: string; value: Decimal }>();
    for (const move of moves) {
      const key = `${move.accountId}\n${move.asset}`;
      const stored = this.balanceOf(move.accountId, move.asset);
      const value = (values.get(key)?.value ?? stored).plus(move.delta);
      const refused = { accountId: move.accountId, asset: move.asset, balance: stored.toFixed() };
      if (value.isNegative()) return { short: refused };
      if (value.gte(BALANCE_CEILING)) return { over: refused };
      values.set(key, { accountId: move.accountId, asset: move.asset, value });
    }
    const entries = outbox?.(next);
    for (const { accountId, asset, value } of values.values()) this.setBalanceNow(accountId, asset, value);
    entry.record = next;
    this.addToOutbox(entries);
    return { record: next };
  }

  async takeOutbox(staleMs: number, limit: number): Promise<OutboxEntry[]> {
    const now = performance.now();
    const taken: OutboxEntry[] = [];
    // Oldest first (the map's order): the first one not stale ends the look.
    for (const [id, item] of this.outbox) {
      if (taken.length >= limit || now - item.at < staleMs) break;
      taken.push(item.entry);
      this.outbox.delete(id);
    }
    // Taken: written again at the back, stamped now.
    for (const entry of taken) this.outbox.set(entry.id, { entry, at: now });
    return taken;
  }

  async outboxDone(ids: readonly string[]): Promise<void> {
    for (const id of ids) this.outbox.delete(id);
  }

  /** Written with the write it follows, in the same synchronous step. */
  private addToOutbox(entries: readonly OutboxEntry[] | undefined): void {
    // Real time, not the mock clock: staleness measures how long a publication has been waiting.
    const at = performance.now();
    for (const entry of entries ?? []) this.outbox.set(entry.id, { entry: deepFreeze(entry), at });
  }

  async claimIdempotencyKey(key: string, fingerprint: string, now: number, ttlMs: number, ownClock = false): Promise<IdempotencyClaim> {
    // A customer's own clock may be far from the mock's: its `now` sweeps nothing.
    if (ownClock) this.ownClockKeys.add(key);
    else if (++this.claimsSinceSweep >= SWEEP_EVERY) this.sweep(now);
    const existing = this.idempotency.get(key);
    if (existing && existing.expiresAt > now) {
      return existing.state === 'IN_PROGRESS' ? { outcome: 'IN_PROGRESS', entry: existing } : { outcome: 'DONE', entry: existing };
    }
    // Deleted, then set: the new claim goes last, so the map stays in expiry order (sweep).
    this.idempotency.delete(key);
    this.idempotency.set(key, Object.freeze({ fingerprint, state: 'IN_PROGRESS', expiresAt: now + ttlMs }));
    return { outcome: 'CLAIMED' };
  }

  async completeIdempotencyKey(key: string, response: { status: number; body: unknown }): Promise<void> {
    const entry = this.idempotency.get(key);
    // Set in place: a Map keeps the first insertion's position, so the order stays the claim order.
    if (entry) this.idempotency.set(key, deepFreeze({ ...entry, state: 'DONE', response }));
  }

  async releaseIdempotencyKey(key: string): Promise<void> {
    this.idempotency.delete(key);
    this.ownClockKeys.delete(key);
  }

  async exportState(now: number): Promise<StoreState> {
    const records: StoreState['records'] = {};
    for (const [kind, table] of this.tables) {
      // The id map holds insertion order, which is key order (an import inserts in key order).
      const list: StoredRecord[] = [];
      for (const [id, entry] of table.byId) list.push({ scope: entry.scope, id, key: entry.key, record: entry.record });
      if (list.length > 0) records[kind] = list;
    }
    const balances: StoreState['balances'] = [];
    for (const [accountId, assets] of this.balanceTable)
      for (const [asset, value] of assets) balances.push({ accountId, asset, value: value.toFixed() });
    // A key still in progress belongs to a request that will not be in the restored state.
    const idempotency = [...this.idempotency]
      .filter(([key, entry]) => entry.state === 'DONE' && (this.ownClockKeys.has(key) || entry.expiresAt > now))
      .map(([key, entry]) => (this.ownClockKeys.has(key) ? { key, ...entry, ownClock: true } : { key, ...entry }));
    return { sequence: this.sequence, records, balances, idempotency };
  }

  async importState(state: StoreState): Promise<void> {
    // Check everything before changing anything: a refused state leaves the store as it was.
    const maxKey = checkedImport(state);
    this.clearNow();
    for (const [kind, list] of Object.entries(state.records) as Array<[Kind, StoredRecord[]]>) {
      for (const item of [...list].sort((a, b) => a.key - b.key)) this.insertNow(kind, item.scope, item.id, item.key, item.record);
    }
    this.sequence = Math.max(state.sequence, maxKey);
    for (const balance of state.balances) this.setBalanceNow(balance.accountId, balance.asset, new Decimal(balance.value));
    for (const { key, ownClock, ...entry } of state.idempotency) {
      this.idempotency.set(key, deepFreeze(entry));
      if (ownClock) this.ownClockKeys.add(key);
    }
  }

  async reset(load: () => Promise<void>): Promise<void> {
    this.clearNow();
    await load();
  }

  async seedOnce(load: () => Promise<void>): Promise<boolean> {
    // A memory store is this process's own: it is empty until something is stored.
    if (this.sequence > 0) return false;
    await load();
    return true;
  }

  async clear(): Promise<void> {
    this.clearNow();
  }

  private clearNow(): void {
    this.sequence = 0;
    this.tables.clear();
    this.balanceTable.clear();
    this.idempotency.clear();
    this.ownClockKeys.clear();
    this.outbox.clear();
    this.claimsSinceSweep = 0;
  }

  /**
   * Drops expired keys from the front of the map (claim order = expiry order, one TTL for all),
   * stopping at the first live one: a sweep costs what it removes, not the number of keys kept.
   * Should the mock clock be set back, an expired key behind a live one waits for its turn; a
   * claim treats it as expired meanwhile.
   */
  private sweep(now: number): void {
    this.claimsSinceSweep = 0;
    for (const [key, entry] of this.idempotency) {
      if (this.ownClockKeys.has(key)) continue;
      if (entry.expiresAt > now) break;
      this.idempotency.delete(key);
    }
  }
}

/** The first index of `list` (ascending keys) whose key is >= `key`. */
function lowerBound(list: readonly Entry[], key: number): number {
  let low = 0;
  let high = list.length;
  while (low < high) {
    const mid = (low + high) >>> 1;
    if (list[mid]!.key < key) low = mid + 1;
    else high = mid;
  }
  return low;
}
