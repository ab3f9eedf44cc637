// In-memory store: the default. Records are immutable values (domain code builds a new object
// for every change). Each kind is a RecordTable (record-table.ts): records kept compactly by
// columns, those written or read again lately handed out as the same frozen objects without copying.
import { deepFreeze } from './freeze';
import { checkedImport } from './import-check';
import { Decimal } from './decimal';
import { RecordCodec } from './record-codec';
import { packKey, unpackKey } from './idempotency-keys';
import { IdempotencyMap } from './idempotency-map';
import { KeptForms } from './kept-forms';
import { handedOutAt } from './record-marks';
import type { KeptJson } from './kept-json';
import { RecordTable, type WriteCheck } from './record-table';
import type { RecordTypes } from './records';
import { sliceSorted } from './slice';
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

/** Kinds of few records whose ids recur in many others (an operation names its customer and account). */
const NAMED_KINDS: ReadonlySet<Kind> = new Set<Kind>(['customer', 'account', 'beneficiary', 'subscription']);

/** Expired idempotency keys are swept after this many new claims (lazy expiry in between). */
const SWEEP_EVERY = 1000;

export class MemoryStore implements Store {
  private sequence = 0;
  /** Field names, key sets and short texts written once for every record and idempotency answer. */
  private readonly codec = new RecordCodec();
  private readonly tables = new Map<Kind, RecordTable>();
  private readonly balanceTable = new Map<string, InstanceType<typeof Decimal>>();
  /** Idempotency entries and removed records' answers in the codec's form, outside the heap. */
  private readonly kept = new KeptForms(this.codec);
  /**
   * Each entry as the number it is kept under (an answer kept for 24 h is bytes, not an object
   * tree: kept-forms.ts), by packed key (idempotency-keys.ts), in claim order; two-UUID keys as
   * their 32 bytes (idempotency-map.ts). An entry in progress (a moment) is the object itself.
   */
  private readonly idempotency = new IdempotencyMap<number | IdempotencyEntry>();
  /** Answers linked to a record that was removed since (`kind:insertion key` → the number the answer is kept under, whole). */
  private readonly removedAnswers = new Map<string, number>();
  private claimsSinceSweep = 0;
  /** Per kind, the checks its writes run (checkWrites); kept across `clear`, as the app that asked for them is. */
  private readonly writeChecks = new Map<Kind, WriteCheck[]>();

  private table(kind: Kind): RecordTable {
    let table = this.tables.get(kind);
    if (!table) this.tables.set(kind, (table = new RecordTable(this.codec, this.checksOf(kind))));
    return table;
  }

  private checksOf(kind: Kind): WriteCheck[] {
    let checks = this.writeChecks.get(kind);
    if (!checks) this.writeChecks.set(kind, (checks = []));
    return checks;
  }

  checkWrites(kind: Kind, key: object, passes: (record: unknown) => boolean): void {
    const checks = this.checksOf(kind);
    if (!checks.some((check) => check.key === key)) checks.push({ key, passes });
  }

  async get<K extends Kind>(kind: K, id: string): Promise<RecordTypes[K] | undefined> {
    return this.table(kind).get(id) as RecordTypes[K] | undefined;
  }

  async insert<K extends Kind>(kind: K, scope: string, id: string, record: RecordTypes[K]): Promise<void> {
    this.insertNow(kind, scope, id, record);
  }

  /** The insert, synchronous: callers that must not yield between a check and the write use it. */
  private insertNow<K extends Kind>(kind: K, scope: string, id: string, record: RecordTypes[K]): void {
    const table = this.table(kind);
    if (table.has(id)) throw new Error(`store: ${kind} ${id} exists already`);
    if (NAMED_KINDS.has(kind)) this.codec.name(id);
    table.insert(id, scope, ++this.sequence, record);
  }

  async replace<K extends Kind>(kind: K, id: string, record: RecordTypes[K]): Promise<void> {
    if (!this.table(kind).replace(id, record)) throw new Error(`store: ${kind} ${id} does not exist`);
  }

  async update<K extends Kind>(
    kind: K,
    id: string,
    change: (current: RecordTypes[K]) => RecordTypes[K],
  ): Promise<RecordTypes[K] | undefined> {
    // Synchronous between read and write: no other request can interleave.
    const table = this.table(kind);
    const current = table.get(id) as RecordTypes[K] | undefined;
    if (current === undefined) return undefined;
    const next = deepFreeze(change(current));
    table.replace(id, next);
    return next;
  }

  async remove(kind: Kind, id: string): Promise<void> {
    const linked = this.table(kind).remove(id);
    if (linked) this.removedAnswers.set(removedKey(kind, linked.key), this.kept.add(linked.answer));
  }

  async all<K extends Kind>(kind: K, scope: string): Promise<Array<RecordTypes[K]>> {
    const table = this.table(kind);
    const list = table.list(scope);
    const out: Array<RecordTypes[K]> = [];
    for (let i = 0; i < (list?.size ?? 0); i++) out.push(table.recordAt(list!.rowAt(i)) as RecordTypes[K]);
    return out;
  }

  async pageToSend<K extends Kind>(
    kind: K,
    query: Omit<PageQuery<RecordTypes[K]>, 'where'>,
  ): Promise<PageSlice<RecordTypes[K] | KeptJson>> {
    const table = this.table(kind);
    return this.slice(table, query, (row) => table.sendAt(row) as RecordTypes[K] | KeptJson);
  }

  async page<K extends Kind>(kind: K, query: PageQuery<RecordTypes[K]>): Promise<PageSlice<RecordTypes[K]>> {
    const table = this.table(kind);
    return this.slice(table, query, (row) => table.recordAt(row) as RecordTypes[K]);
  }

  /** A page of `table`, each record read by `read` once (a filtered page tests it, then lists it). */
  private slice<T>(table: RecordTable, query: PageQuery<T>, read: (row: number) => T): PageSlice<T> {
    const list = table.list(query.scope);
    const keys = {
      size: list?.size ?? 0,
      keyAt: (slot: number) => list!.keyAt(slot),
      lowerBound: (key: number) => list?.lowerBound(key) ?? 0,
    };
    const where = query.where;
    // A filtered page reads a record to test it, then lists it: one read of the table, since a
    // second would count as the record read again (record-table.ts keeps such records decoded).
    const seen = where ? new Map<number, T>() : undefined;
    const recordAt = (slot: number) => {
      let record = seen?.get(slot);
      if (record === undefined) {
        record = read(list!.rowAt(slot));
        seen?.set(slot, record);
      }
      return record;
    };
    const slice = sliceSorted(keys, {
      limit: query.limit,
      order: query.order,
      from: query.from,
      matchesSlot: where ? (slot) => where(recordAt(slot)) : undefined,
    });
    // The rows of an unfiltered page are known before any is read: their reads are made together.
    if (!where && list) table.warm(slice.slots.map((slot) => list.rowAt(slot)));
    return {
      items: slice.slots.map((slot) => ({ key: keys.keyAt(slot), record: recordAt(slot) })),
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
    const quotes = this.table('quote');
    const quote = quotes.get(quoteId) as RecordTypes['quote'] | undefined;
    if (!quote || quote.operationId !== null) return false;
    // Inserted first (it throws, writing nothing, when the id exists), then the quote marked;
    // synchronously, so another caller cannot pass the quote check in between.
    this.insertNow(kind, scope, id, record);
    quotes.replace(quoteId, { ...quote, operationId: id });
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
    const table = this.table(kind);
    const current = table.get(id) as RecordTypes[K] | undefined;
    if (current === undefined) return undefined;
    const next = deepFreeze(change(current));
    const values = new Map<string, InstanceType<typeof Decimal>>();
    for (const move of moves) {
      const key = `${move.accountId}:${move.asset}`;
      const stored = this.balanceTable.get(key) ?? new Decimal(0);
      const value = (values.get(key) ?? stored).plus(move.delta);
      if (value.isNegative()) return { short: { accountId: move.accountId, asset: move.asset, balance: stored.toFixed() } };
      values.set(key, value);
    }
    for (const [key, value] of values) this.balanceTable.set(key, value);
    table.replace(id, next);
    return { record: next };
  }

  // The map is keyed by the packed key (idempotency-keys.ts): the private methods below take that.
  async claimIdempotencyKey(key: string, fingerprint: string, now: number, ttlMs: number): Promise<IdempotencyClaim> {
    if (++this.claimsSinceSweep >= SWEEP_EVERY) this.sweep(now);
    const slot = packKey(key);
    const existing = this.idempotencyEntry(slot);
    if (existing && existing.expiresAt > now) {
      return existing.state === 'IN_PROGRESS' ? { outcome: 'IN_PROGRESS', entry: existing } : { outcome: 'DONE', entry: existing };
    }
    // Re-inserted, not overwritten: the map stays in claim order, which is expiry order (sweep).
    if (existing) this.dropIdempotency(slot);
    // Kept as it is while the request runs (a moment); in the compact form once it has its answer.
    // Frozen as the store's other values are (freeze.ts); its fields are all primitives.
    this.idempotency.set(slot, Object.freeze({ fingerprint, state: 'IN_PROGRESS', expiresAt: now + ttlMs }));
    return { outcome: 'CLAIMED' };
  }

  private keptIdempotency(slot: string): KeptEntry | undefined {
    return this.entryAsKept(this.idempotency.get(slot));
  }

  /** An entry from what the map holds for it: the number it is kept under, or the entry in progress. */
  private entryAsKept(kept: number | IdempotencyEntry | undefined): KeptEntry | undefined {
    return typeof kept === 'number' ? (this.kept.get(kept) as KeptEntry) : kept;
  }

  private idempotencyEntry(slot: string): IdempotencyEntry | undefined {
    const kept = this.keptIdempotency(slot);
    if (kept === undefined || !('shows' in kept)) return kept;
    const { shows, status, ...entry } = kept;
    return { ...entry, response: { status, body: this.linkedAnswer(shows) } };
  }

  /** The body of an answer kept as a link: from the record's row, or kept whole when it was removed. */
  private linkedAnswer(shows: AnswerLink): unknown {
    const removed = this.removedAnswers.get(removedKey(shows.kind, shows.key));
    if (removed !== undefined) return this.kept.get(removed);
    const answer = this.table(shows.kind).answerOf(shows.row, shows.key);
    if (answer === undefined) throw new Error(`store: the answer linked to ${shows.kind} ${shows.key} is lost`);
    return answer;
  }

  private keepIdempotency(slot: string, entry: IdempotencyEntry): void {
    // An entry answered again (its key claimed anew after expiry while the first request ran) lets
    // go of the record its first answer showed.
    const previous = this.idempotency.get(slot);
    this.unlinkEntry(this.entryAsKept(previous));
    const linked = this.linkIdempotency(entry);
    // Under its number when it has one (set in place: the map's order is the claim order).
    if (typeof previous === 'number') this.kept.put(previous, linked ?? entry);
    else this.idempotency.set(slot, this.kept.add(linked ?? entry));
  }

  /**
   * An answer whose body is a record as this store keeps it now (a create answers the record it
   * stored) is kept as a link to that record's row, which keeps the answer's difference from the
   * record as the record changes (record-table.ts, answer-delta.ts): not a second copy of it.
   */
  private linkIdempotency(entry: IdempotencyEntry): LinkedEntry | undefined {
    const { response, ...rest } = entry;
    const place = response && handedOutAt(response.body);
    if (!response || !place) return undefined;
    for (const [kind, table] of this.tables) {
      if (table !== place.table) continue;
      const shows = { kind, row: place.row, key: place.key };
      return table.linkAnswer(place.row) ? { ...rest, status: response.status, shows } : undefined;
    }
    return undefined;
  }

  /** Deletes an entry; a link it held lets its record's row stop keeping the answer. */
  private dropIdempotency(slot: string): void {
    const kept = this.idempotency.get(slot);
    this.unlinkEntry(this.entryAsKept(kept));
    if (typeof kept === 'number') this.kept.release(kept);
    this.idempotency.delete(slot);
  }

  private unlinkEntry(kept: KeptEntry | undefined): void {
    if (!kept || !('shows' in kept)) return;
    const { shows } = kept;
    this.table(shows.kind).unlinkAnswer(shows.row, shows.key);
    const removed = removedKey(shows.kind, shows.key);
    const answer = this.removedAnswers.get(removed);
    if (answer === undefined) return;
    this.kept.release(answer);
    this.removedAnswers.delete(removed);
  }

  async completeIdempotencyKey(key: string, response: { status: number; body: unknown }): Promise<void> {
    const slot = packKey(key);
    const entry = this.idempotencyEntry(slot);
    // Set again, not re-inserted: the map's order stays the claim order.
    if (entry) this.keepIdempotency(slot, { ...entry, state: 'DONE', response });
  }

  async releaseIdempotencyKey(key: string): Promise<void> {
    this.dropIdempotency(packKey(key));
  }

  async exportState(now: number): Promise<StoreState> {
    const records: StoreState['records'] = {};
    for (const [kind, table] of this.tables) {
      const list: StoredRecord[] = table.rows();
      if (list.length > 0) records[kind] = list;
    }
    const balances = [...this.balanceTable].map(([key, value]) => {
      const [accountId, asset] = key.split(':') as [string, string];
      return { accountId, asset, value: value.toFixed() };
    });
    // A key still in progress belongs to a request that will not be in the restored state.
    const idempotency = [...this.idempotency.keys()]
      .map((slot) => [unpackKey(slot), this.idempotencyEntry(slot)!] as const)
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
        if (NAMED_KINDS.has(kind)) this.codec.name(item.id);
        table.insert(item.id, item.scope, item.key, item.record);
      }
    }
    this.sequence = Math.max(state.sequence, maxKey);
    for (const balance of state.balances) this.balanceTable.set(`${balance.accountId}:${balance.asset}`, new Decimal(balance.value));
    for (const { key, ...entry } of state.idempotency) this.keepIdempotency(packKey(key), entry);
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
    this.removedAnswers.clear();
    this.kept.clear();
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
    for (const key of this.idempotency.keys()) {
      if (this.keptIdempotency(key)!.expiresAt > now) break;
      this.dropIdempotency(key);
    }
  }
}

/** Which record an answer kept as a link showed. */
interface AnswerLink {
  kind: Kind;
  /** The record's row: a few bytes where its id took 17. */
  row: number;
  /** The record's insertion key: a record inserted later in the same row (after a removal) is another record. */
  key: number;
}

/** Where the answer linked to a removed record is kept: insertion keys are unique in a store's life. */
function removedKey(kind: Kind, key: number): string {
  return `${kind}:${key}`;
}

/** An entry as kept: whole, or (`shows`) its answer's status with a link to the record it showed. */
type LinkedEntry = Omit<IdempotencyEntry, 'response'> & { status: number; shows: AnswerLink };
type KeptEntry = IdempotencyEntry | LinkedEntry;
