// In-memory store: the default. Records are immutable values (domain code builds a new object
// for every change), so they are handed out without copying.
import { deepFreeze } from './freeze';
import { checkedImport } from './import-check';
import { Decimal } from './decimal';
import type { RecordTypes } from './records';
import { sliceSorted } from './slice';
import { SortedIndex } from './sorted-index';
import type {
  BalancedUpdate,
  BalanceMove,
  IdempotencyClaim,
  IdempotencyEntry,
  Kind,
  PageQuery,
  PageSlice,
  Store,
  StoredRecord,
  StoreState,
} from './store';

interface Entry {
  key: number;
  scope: string;
  record: unknown;
}

/** Expired idempotency keys are swept after this many new claims (lazy expiry in between). */
const SWEEP_EVERY = 1000;

export class MemoryStore implements Store {
  private sequence = 0;
  private readonly entries = new Map<Kind, Map<string, Entry>>();
  private readonly indexes = new Map<string, SortedIndex>();
  private readonly byKey = new Map<string, string>();
  private readonly balanceTable = new Map<string, InstanceType<typeof Decimal>>();
  private readonly idempotency = new Map<string, IdempotencyEntry>();
  private claimsSinceSweep = 0;

  private table(kind: Kind): Map<string, Entry> {
    let table = this.entries.get(kind);
    if (!table) this.entries.set(kind, (table = new Map<string, Entry>()));
    return table;
  }

  private index(kind: Kind, scope: string): SortedIndex {
    const name = `${kind}\u0000${scope}`;
    let index = this.indexes.get(name);
    if (!index) this.indexes.set(name, (index = new SortedIndex()));
    return index;
  }

  async get<K extends Kind>(kind: K, id: string): Promise<RecordTypes[K] | undefined> {
    return this.table(kind).get(id)?.record as RecordTypes[K] | undefined;
  }

  async insert<K extends Kind>(kind: K, scope: string, id: string, record: RecordTypes[K]): Promise<void> {
    this.insertNow(kind, scope, id, record);
  }

  /** The insert, synchronous: callers that must not yield between a check and the write use it. */
  private insertNow<K extends Kind>(kind: K, scope: string, id: string, record: RecordTypes[K]): void {
    const table = this.table(kind);
    if (table.has(id)) throw new Error(`store: ${kind} ${id} exists already`);
    const key = ++this.sequence;
    table.set(id, { key, scope, record: deepFreeze(record) });
    this.index(kind, scope).append(key);
    this.byKey.set(`${kind}\u0000${key}`, id);
  }

  async replace<K extends Kind>(kind: K, id: string, record: RecordTypes[K]): Promise<void> {
    const entry = this.table(kind).get(id);
    if (!entry) throw new Error(`store: ${kind} ${id} does not exist`);
    entry.record = deepFreeze(record);
  }

  async update<K extends Kind>(
    kind: K,
    id: string,
    change: (current: RecordTypes[K]) => RecordTypes[K],
  ): Promise<RecordTypes[K] | undefined> {
    // Synchronous between read and write: no other request can interleave.
    const entry = this.table(kind).get(id);
    if (!entry) return undefined;
    entry.record = deepFreeze(change(entry.record as RecordTypes[K]));
    return entry.record as RecordTypes[K];
  }

  async remove(kind: Kind, id: string): Promise<void> {
    const table = this.table(kind);
    const entry = table.get(id);
    if (!entry) return;
    table.delete(id);
    this.index(kind, entry.scope).remove(entry.key);
    this.byKey.delete(`${kind}\u0000${entry.key}`);
  }

  async all<K extends Kind>(kind: K, scope: string): Promise<Array<RecordTypes[K]>> {
    const index = this.index(kind, scope);
    const out: Array<RecordTypes[K]> = [];
    for (let i = 0; i < index.size; i++) out.push(this.recordAt(kind, index.at(i) as number) as RecordTypes[K]);
    return out;
  }

  private recordAt(kind: Kind, key: number): unknown {
    const id = this.byKey.get(`${kind}\u0000${key}`) as string;
    return this.table(kind).get(id)?.record;
  }

  async page<K extends Kind>(kind: K, query: PageQuery<RecordTypes[K]>): Promise<PageSlice<RecordTypes[K]>> {
    const index = this.index(kind, query.scope);
    const keys = {
      size: index.size,
      keyAt: (slot: number) => index.at(slot) as number,
      lowerBound: (key: number) => index.lowerBound(key),
    };
    const where = query.where;
    const slice = sliceSorted(keys, {
      limit: query.limit,
      order: query.order,
      from: query.from,
      matchesSlot: where ? (slot) => where(this.recordAt(kind, keys.keyAt(slot)) as RecordTypes[K]) : undefined,
    });
    return {
      items: slice.slots.map((slot) => ({ key: keys.keyAt(slot), record: this.recordAt(kind, keys.keyAt(slot)) as RecordTypes[K] })),
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
  ): Promise<boolean> {
    // No await between the checks and the writes: within one event loop this is atomic.
    const entry = this.table('quote').get(quoteId);
    const quote = entry?.record as RecordTypes['quote'] | undefined;
    if (!entry || !quote || quote.operationId !== null) return false;
    // Inserted first (it throws, writing nothing, when the id exists), then the quote marked;
    // synchronously, so another caller cannot pass the quote check in between.
    this.insertNow(kind, scope, id, record);
    entry.record = deepFreeze({ ...quote, operationId: id });
    return true;
  }

  async getBalance(accountId: string, asset: string): Promise<string> {
    return (this.balanceTable.get(`${accountId}:${asset}`) ?? new Decimal(0)).toFixed();
  }

  async setBalance(accountId: string, asset: string, value: string): Promise<void> {
    this.balanceTable.set(`${accountId}:${asset}`, new Decimal(value));
  }

  async moveBalance(accountId: string, asset: string, delta: string): Promise<string | null> {
    const key = `${accountId}:${asset}`;
    const next = (this.balanceTable.get(key) ?? new Decimal(0)).plus(delta);
    if (next.isNegative()) return null;
    this.balanceTable.set(key, next);
    return next.toFixed();
  }

  async balances(accountId: string): Promise<Record<string, string>> {
    const out: Record<string, string> = {};
    for (const [key, value] of this.balanceTable) {
      const [account, asset] = key.split(':') as [string, string];
      if (account === accountId) out[asset] = value.toFixed();
    }
    return out;
  }

  async updateWithBalances<K extends Kind>(
    kind: K,
    id: string,
    change: (current: RecordTypes[K]) => RecordTypes[K],
    moves: BalanceMove[],
  ): Promise<BalancedUpdate<RecordTypes[K]>> {
    // Synchronous from the read to the last write: atomic within the one event loop.
    const entry = this.table(kind).get(id);
    if (!entry) return undefined;
    const next = change(entry.record as RecordTypes[K]);
    const values = new Map<string, InstanceType<typeof Decimal>>();
    for (const move of moves) {
      const key = `${move.accountId}:${move.asset}`;
      const stored = this.balanceTable.get(key) ?? new Decimal(0);
      const value = (values.get(key) ?? stored).plus(move.delta);
      if (value.isNegative()) return { short: { accountId: move.accountId, asset: move.asset, balance: stored.toFixed() } };
      values.set(key, value);
    }
    for (const [key, value] of values) this.balanceTable.set(key, value);
    entry.record = deepFreeze(next);
    return { record: entry.record as RecordTypes[K] };
  }

  async claimIdempotencyKey(key: string, fingerprint: string, now: number, ttlMs: number): Promise<IdempotencyClaim> {
    if (++this.claimsSinceSweep >= SWEEP_EVERY) this.sweep(now);
    const existing = this.idempotency.get(key);
    if (existing && existing.expiresAt > now) {
      return existing.state === 'IN_PROGRESS' ? { outcome: 'IN_PROGRESS', entry: existing } : { outcome: 'DONE', entry: existing };
    }
    // Re-inserted, not overwritten: the map stays in claim order, which is expiry order (sweep).
    this.idempotency.delete(key);
    this.idempotency.set(key, { fingerprint, state: 'IN_PROGRESS', expiresAt: now + ttlMs });
    return { outcome: 'CLAIMED' };
  }

  async completeIdempotencyKey(key: string, response: { status: number; body: unknown }): Promise<void> {
    const entry = this.idempotency.get(key);
    if (entry) this.idempotency.set(key, { ...entry, state: 'DONE', response: deepFreeze(response) });
  }

  async releaseIdempotencyKey(key: string): Promise<void> {
    this.idempotency.delete(key);
  }

  async exportState(now: number): Promise<StoreState> {
    const records: StoreState['records'] = {};
    for (const [kind, table] of this.entries) {
      const list: StoredRecord[] = [];
      // A Map iterates in insertion order, which is ascending key order.
      for (const [id, entry] of table) list.push({ scope: entry.scope, id, key: entry.key, record: entry.record });
      if (list.length > 0) records[kind] = list;
    }
    const balances = [...this.balanceTable].map(([key, value]) => {
      const [accountId, asset] = key.split(':') as [string, string];
      return { accountId, asset, value: value.toFixed() };
    });
    // A key still in progress belongs to a request that will not be in the restored state.
    const idempotency = [...this.idempotency]
      .filter(([, entry]) => entry.state === 'DONE' && entry.expiresAt > now)
      .map(([key, entry]) => ({ key, ...entry }));
    return { sequence: this.sequence, records, balances, idempotency };
  }

  async importState(state: StoreState): Promise<void> {
    // Check everything before changing anything: a refused state leaves the store as it was.
    const maxKey = checkedImport(state);
    this.clearNow();
    for (const [kind, list] of Object.entries(state.records) as Array<[Kind, StoredRecord[]]>) {
      const table = this.table(kind);
      for (const item of [...list].sort((a, b) => a.key - b.key)) {
        table.set(item.id, { key: item.key, scope: item.scope, record: deepFreeze(item.record) });
        this.index(kind, item.scope).append(item.key);
        this.byKey.set(`${kind}\u0000${item.key}`, item.id);
      }
    }
    this.sequence = Math.max(state.sequence, maxKey);
    for (const balance of state.balances) this.balanceTable.set(`${balance.accountId}:${balance.asset}`, new Decimal(balance.value));
    for (const { key, ...entry } of state.idempotency) this.idempotency.set(key, deepFreeze(entry));
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
    this.entries.clear();
    this.indexes.clear();
    this.byKey.clear();
    this.balanceTable.clear();
    this.idempotency.clear();
    this.claimsSinceSweep = 0;
  }

  /**
   * Drops expired keys from the front of the map (claim order = expiry order, one TTL for all),
   * stopping at the first live one: a sweep costs what it removes, not the number of keys kept.
   * Should the mock clock be set back, an expired key behind a live one waits for its turn;
   * a claim treats it as expired meanwhile.
   */
  private sweep(now: number): void {
    this.claimsSinceSweep = 0;
    for (const [key, entry] of this.idempotency) {
      if (entry.expiresAt > now) break;
      this.idempotency.delete(key);
    }
  }
}
