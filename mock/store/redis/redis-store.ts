// The shared store: every record, list, balance and idempotency key in Redis, so replicas on one
// Redis are one service and a restart loses nothing. Each rule that must hold under concurrency
// is one script (scripts.ts); a read-modify-write with a function of ours (update, settlement)
// writes only if what it read is still stored, and tries again otherwise (optimistic, like
// WATCH/MULTI, but on the one shared connection).
//
// Layout under the prefix (default "fos:"), all store data under "s:" so `clear` leaves the
// clock, faults and the shared secret (shared-state.ts) alone:
//   s:seq                    insertion sequence (the keys cursors name)
//   s:rec:<kind>             hash id → "<version>|<record JSON>" (version: a new one from "version" on every write)
//   s:meta:<kind>            hash id → "<key>|<scope>"
//   s:list:<kind>:<scope>    sorted set id by key: a page is O(log n + page size)
//   s:bal:<account>          hash asset → decimal string; s:bal-accounts: the accounts that have one
//   s:idem:<key>, s:idem-exp idempotency entries and their expiry (mock time) index
import { ServiceError } from '../../errors/catalogue';
import { Decimal } from '../../domain/decimal';
import { BALANCE_CEILING } from '../../domain/money';
import { deepFreeze } from '../freeze';
import { checkedImport } from '../import-check';
import type { RecordTypes } from '../../domain/records';
import type {
  BalancedUpdate,
  BalanceMove,
  IdempotencyClaim,
  IdempotencyEntry,
  Kind,
  PageQuery,
  PageSlice,
  RefusedBalance,
  Store,
  StoredRecord,
  StoreState,
} from '../store';
import { connectRedis, unavailableOnLoss, type RedisClient } from './connection';
import { defineScripts, runScript, type ScriptName } from './scripts';

/** Optimistic writes give up after this many conflicts in a row (a livelock would be a bug). */
const MAX_ATTEMPTS = 1_000;
/**
 * Parsed records kept per process: a record read again unchanged is the same frozen object, which
 * the response encoder's cache keys on. Never stale: the stored value (or, for pages, its version,
 * new on every write) is read every time and compared.
 */
const PARSED_CACHE_SIZE = 20_000;
/** How long (real time) a claimed idempotency key is held for a request that never finishes. */
const IN_PROGRESS_LEASE_MS = 60_000;
/** How long a reset, import or seeding may hold the state before another replica may take over. */
const REPLACE_LEASE_MS = 30_000;
/** Records fetched per round trip while a filtered page walks its list. */
const WALK_CHUNK = 100;

export interface RedisStoreOptions {
  url: string;
  /** Prefix of every key (default "fos:"): several mocks, or tests, can share one Redis. */
  prefix?: string;
}

export class RedisStore implements Store {
  private readonly parsed = new Map<string, { stored: string; version: string; record: unknown }>();

  private constructor(
    readonly client: RedisClient,
    readonly prefix: string,
  ) {
    // After a reconnection Redis may be another (restarted empty, its version counter at zero):
    // nothing parsed before can be trusted by version.
    client.on('ready', () => this.parsed.clear());
  }

  static async open(options: RedisStoreOptions): Promise<RedisStore> {
    const client = await connectRedis({ url: options.url, name: 'fos-mock:store' });
    defineScripts(client);
    return new RedisStore(client, options.prefix ?? 'fos:');
  }

  async close(): Promise<void> {
    await this.client.quit().catch(() => this.client.disconnect());
  }

  // ---------------------------------------------------------------- keys
  private key(...parts: string[]): string {
    return `${this.prefix}s:${parts.join(':')}`;
  }
  /** The version counter: outside "s:", so neither clear nor import starts it again (a cached version is never reused). */
  private versionKey() {
    return `${this.prefix}version`;
  }
  private records(kind: Kind) {
    return this.key('rec', kind);
  }
  private meta(kind: Kind) {
    return this.key('meta', kind);
  }
  private list(kind: Kind, scope: string) {
    return this.key('list', kind, scope);
  }
  private balanceKey(accountId: string) {
    return this.key('bal', accountId);
  }
  private idemKey(key: string) {
    return this.key('idem', key);
  }

  private run(name: ScriptName, keys: string[], args: Array<string | number>): Promise<unknown> {
    return unavailableOnLoss(runScript(this.client, name, keys, args));
  }

  private call<T>(call: Promise<T>): Promise<T> {
    return unavailableOnLoss(call);
  }

  /** The parsed record at this version, if this process holds it. */
  private cached(kind: Kind, id: string, version: string): unknown {
    const name = `${kind}\u0000${id}`;
    const hit = this.parsed.get(name);
    if (!hit || hit.version !== version) return undefined;
    // Used again: to the back of the eviction order, so records read often stay.
    this.parsed.delete(name);
    this.parsed.set(name, hit);
    return hit.record;
  }

  /** A stored value ("<version>|<json>") as a frozen record; the same object as last time when it is unchanged. */
  private decode(kind: Kind, id: string, stored: string): unknown {
    const name = `${kind}\u0000${id}`;
    const hit = this.parsed.get(name);
    if (hit && hit.stored === stored) return hit.record;
    const bar = stored.indexOf('|');
    const record = deepFreeze(JSON.parse(stored.slice(bar + 1)) as unknown);
    if (hit) this.parsed.delete(name);
    else if (this.parsed.size >= PARSED_CACHE_SIZE) this.parsed.delete(this.parsed.keys().next().value as string);
    this.parsed.set(name, { stored, version: stored.slice(0, bar), record });
    return record;
  }

  // ---------------------------------------------------------------- records
  async get<K extends Kind>(kind: K, id: string): Promise<RecordTypes[K] | undefined> {
    const raw = await this.call(this.client.hget(this.records(kind), id));
    return raw === null ? undefined : (this.decode(kind, id, raw) as RecordTypes[K]);
  }

  async insert<K extends Kind>(kind: K, scope: string, id: string, record: RecordTypes[K]): Promise<void> {
    try {
      await this.run(
        'fosInsert',
        [this.records(kind), this.meta(kind), this.list(kind, scope), this.key('seq'), this.versionKey()],
        [id, JSON.stringify(record), scope],
      );
    } catch (error) {
      if ((error as Error).message.includes('store: record exists already'))
        throw new Error(`store: ${kind} ${id} exists already`, { cause: error });
      throw error;
    }
  }

  async replace<K extends Kind>(kind: K, id: string, record: RecordTypes[K]): Promise<void> {
    try {
      await this.run('fosReplace', [this.records(kind), this.versionKey()], [id, JSON.stringify(record)]);
    } catch (error) {
      if ((error as Error).message.includes('store: record does not exist'))
        throw new Error(`store: ${kind} ${id} does not exist`, { cause: error });
      throw error;
    }
  }

  async update<K extends Kind>(
    kind: K,
    id: string,
    change: (current: RecordTypes[K]) => RecordTypes[K],
  ): Promise<RecordTypes[K] | undefined> {
    const outcome = await this.updateWithBalances(kind, id, change, []);
    return outcome && 'record' in outcome ? outcome.record : undefined;
  }

  async remove(kind: Kind, id: string): Promise<void> {
    await this.run('fosRemove', [this.records(kind), this.meta(kind)], [id, `${this.key('list', kind)}:`]);
    this.parsed.delete(`${kind}\u0000${id}`);
  }

  async all<K extends Kind>(kind: K, scope: string): Promise<Array<RecordTypes[K]>> {
    const out: Array<RecordTypes[K]> = [];
    for await (const item of this.walk(kind, scope, false, '')) out.push(item.record as RecordTypes[K]);
    return out;
  }

  /** The records of a list past `bound` (exclusive) in one direction, fetched a chunk per round trip. */
  private async *walk(
    kind: Kind,
    scope: string,
    descending: boolean,
    bound: string,
  ): AsyncGenerator<{ id: string; key: number; record: unknown }> {
    for (;;) {
      const found = (await this.run(
        'fosWalk',
        [this.list(kind, scope), this.records(kind)],
        [descending ? '1' : '0', bound, WALK_CHUNK],
      )) as Array<string | null>;
      for (let i = 0; i < found.length; i += 3) {
        const id = found[i] as string;
        const raw = found[i + 2];
        bound = found[i + 1] as string;
        if (raw !== null && raw !== undefined) yield { id, key: Number(bound), record: this.decode(kind, id, raw) };
      }
      if (found.length < WALK_CHUNK * 3) return;
    }
  }

  async page<K extends Kind>(kind: K, query: PageQuery<RecordTypes[K]>): Promise<PageSlice<RecordTypes[K]>> {
    if (query.where) return this.filteredPage(kind, query, query.where);
    const reply = (await this.run(
      'fosPage',
      [this.list(kind, query.scope), this.records(kind)],
      [query.limit, query.order === 'DESCENDING' ? '1' : '0', query.from ? String(query.from.key) : '', query.from?.direction ?? 'NEXT'],
    )) as Array<string | number | null>;
    // Records this process has parsed at the version listed are not fetched again.
    const listed: Array<{ id: string; key: number; version: string }> = [];
    for (let i = 2; i < reply.length; i += 3)
      listed.push({ id: reply[i] as string, key: Number(reply[i + 1]), version: String(reply[i + 2]) });
    // Each record held here, as listed or as fetched (never looked up again: fetching may evict).
    const records = listed.map((item) => this.cached(kind, item.id, item.version));
    const missing = listed.filter((_, i) => records[i] === undefined);
    if (missing.length > 0) {
      const fetched = await this.call(this.client.hmget(this.records(kind), ...missing.map((item) => item.id)));
      missing.forEach((item, i) => {
        const raw = fetched[i];
        // A record changed again since the page was read is shown as it is now; one removed since is left out.
        if (raw !== null && raw !== undefined) records[listed.indexOf(item)] = this.decode(kind, item.id, raw);
      });
    }
    const items: PageSlice<RecordTypes[K]>['items'] = [];
    listed.forEach((item, i) => {
      if (records[i] !== undefined) items.push({ key: item.key, record: records[i] as RecordTypes[K] });
    });
    return { items, hasBefore: reply[0] === 1, hasAfter: reply[1] === 1 };
  }

  /**
   * A page with a filter of ours (execution logs): the list is walked from the cursor, a chunk per
   * round trip, until the page is full, then on each side only as far as the first match.
   */
  private async filteredPage<K extends Kind>(
    kind: K,
    query: PageQuery<RecordTypes[K]>,
    where: (record: RecordTypes[K]) => boolean,
  ): Promise<PageSlice<RecordTypes[K]>> {
    const descending = query.order === 'DESCENDING';
    const backwards = query.from?.direction === 'PREVIOUS';
    // Walking backwards along the order is walking forwards along the other order.
    const along = backwards ? !descending : descending;
    const bound = query.from ? String(query.from.key) : '';
    const items: Array<{ key: number; record: RecordTypes[K] }> = [];
    let more = false;
    for await (const item of this.walk(kind, query.scope, along, bound)) {
      if (!where(item.record as RecordTypes[K])) continue;
      if (items.length === query.limit) {
        more = true;
        break;
      }
      items.push({ key: item.key, record: item.record as RecordTypes[K] });
    }
    // The other side: anything matching at or behind the cursor (or behind the first item).
    const anyBehind = async (): Promise<boolean> => {
      if (!query.from) return false;
      const edge = items.length > 0 ? String(items[0]!.key) : String(backwards ? query.from.key - 1 : query.from.key + 1);
      for await (const item of this.walk(kind, query.scope, !along, edge)) if (where(item.record as RecordTypes[K])) return true;
      return false;
    };
    const behind = await anyBehind();
    if (backwards) items.reverse();
    return { items, hasBefore: backwards ? more : behind, hasAfter: backwards ? behind : more };
  }

  // ---------------------------------------------------------------- quotes
  async insertConsumingQuote<K extends Kind>(
    quoteId: string,
    kind: K,
    scope: string,
    id: string,
    record: RecordTypes[K],
  ): Promise<boolean> {
    try {
      const keys = [this.records(kind), this.meta(kind), this.list(kind, scope), this.key('seq'), this.records('quote'), this.versionKey()];
      return (await this.run('fosInsertConsuming', keys, [id, JSON.stringify(record), scope, quoteId])) === 1;
    } catch (error) {
      if ((error as Error).message.includes('store: record exists already'))
        throw new Error(`store: ${kind} ${id} exists already`, { cause: error });
      throw error;
    }
  }

  // ---------------------------------------------------------------- balances
  async getBalance(accountId: string, asset: string): Promise<string> {
    return (await this.call(this.client.hget(this.balanceKey(accountId), asset))) ?? '0';
  }

  async setBalance(accountId: string, asset: string, value: string): Promise<void> {
    await this.call(
      this.client
        .multi()
        .hset(this.balanceKey(accountId), asset, new Decimal(value).toFixed())
        .sadd(this.key('bal-accounts'), accountId)
        .exec(),
    );
  }

  async moveBalance(accountId: string, asset: string, delta: string): Promise<string | null> {
    const outcome = await this.applyMoves(undefined, [{ accountId, asset, delta }]);
    return outcome.short || outcome.over ? null : (outcome.values.get(`${accountId}:${asset}`) as string);
  }

  async balances(accountId: string): Promise<Record<string, string>> {
    return this.call(this.client.hgetall(this.balanceKey(accountId)));
  }

  async updateWithBalances<K extends Kind>(
    kind: K,
    id: string,
    change: (current: RecordTypes[K]) => RecordTypes[K],
    moves: BalanceMove[],
  ): Promise<BalancedUpdate<RecordTypes[K]>> {
    const outcome = await this.applyMoves({ kind, id, change }, moves);
    if (outcome.missing) return undefined;
    if (outcome.short) return { short: outcome.short };
    if (outcome.over) return { over: outcome.over };
    return { record: outcome.record as RecordTypes[K] };
  }

  /**
   * Every change of balances, with or without a record: read the record and the balances in one
   * round trip, compute in decimal, refuse a move below zero, and commit only over the values read
   * (a refusal too is checked against them: it must not rest on a stale read); on a conflict,
   * again from the start.
   */
  private async applyMoves<K extends Kind>(
    target: { kind: K; id: string; change: (current: RecordTypes[K]) => RecordTypes[K] } | undefined,
    moves: BalanceMove[],
  ): Promise<{
    missing?: true;
    short?: RefusedBalance;
    over?: RefusedBalance;
    record?: RecordTypes[K];
    /** The new balances by "account:asset". */
    values: Map<string, string>;
  }> {
    for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
      // Read in one round trip (sent together, answered in order); the commit checks them all.
      const [raw, ...stored] = await this.call(
        Promise.all([
          target ? this.client.hget(this.records(target.kind), target.id) : Promise.resolve(null),
          ...moves.map((move) => this.client.hget(this.balanceKey(move.accountId), move.asset)),
        ]),
      );
      if (target && (raw === null || raw === undefined)) return { missing: true, values: new Map() };
      const next = target ? target.change(this.decode(target.kind, target.id, raw as string) as RecordTypes[K]) : undefined;
      const checks = new Map<string, { accountId: string; asset: string; expected: string; value: InstanceType<typeof Decimal> }>();
      let short: RefusedBalance | undefined;
      let over: RefusedBalance | undefined;
      moves.forEach((move, i) => {
        const name = `${move.accountId}:${move.asset}`;
        const read = stored[i] ?? null;
        const check = checks.get(name) ?? {
          accountId: move.accountId,
          asset: move.asset,
          expected: read ?? '',
          value: new Decimal(read ?? 0),
        };
        check.value = check.value.plus(move.delta);
        const refused = () => ({ accountId: move.accountId, asset: move.asset, balance: new Decimal(read ?? 0).toFixed() });
        if (check.value.isNegative() && !short && !over) short = refused();
        if (check.value.gte(BALANCE_CEILING) && !short && !over) over = refused();
        checks.set(name, check);
      });
      const refusedAny = short ?? over;
      const balanceWrites = [...checks.values()].map((c) => ({ ...c, next: refusedAny ? '' : c.value.toFixed() }));
      const record = target && { kind: target.kind, id: target.id, expected: raw as string, next: refusedAny ? '' : JSON.stringify(next) };
      const written = await this.commit(record, balanceWrites);
      if (written === undefined) continue;
      const values = new Map(balanceWrites.map((b) => [`${b.accountId}:${b.asset}`, b.next]));
      if (short) return { short, values };
      if (over) return { over, values };
      return { record: target ? (this.decode(target.kind, target.id, written) as RecordTypes[K]) : undefined, values };
    }
    throw new Error(target ? `store: ${target.kind} ${target.id} kept changing` : 'store: balances kept changing');
  }

  /**
   * Writes a record (JSON; the script stamps its new version) and balances only if each still
   * holds the value read (a next of '' only checks). Undefined when something changed since;
   * otherwise the record's new stored value, or '' when no record was written.
   */
  private async commit(
    record: { kind: Kind; id: string; expected: string; next: string } | undefined,
    balances: Array<{ accountId: string; asset: string; expected: string; next: string }>,
  ): Promise<string | undefined> {
    const args: Array<string | number> = [record?.id ?? '', record?.expected ?? '', record?.next ?? '', balances.length];
    for (const b of balances) args.push(this.balanceKey(b.accountId), b.accountId, b.asset, b.expected, b.next);
    const recordsKey = record ? this.records(record.kind) : this.key('unused');
    const reply = await this.run('fosCommit', [recordsKey, this.key('bal-accounts'), this.versionKey()], args);
    if (reply === 0) return undefined;
    return typeof reply === 'string' ? reply : '';
  }

  // ---------------------------------------------------------------- idempotency keys
  async claimIdempotencyKey(key: string, fingerprint: string, now: number, ttlMs: number, ownClock = false): Promise<IdempotencyClaim> {
    const reply = (await this.run(
      'fosClaimKey',
      [this.idemKey(key), this.key('idem-exp')],
      [key, fingerprint, now, String(now + ttlMs), `${this.key('idem')}:`, IN_PROGRESS_LEASE_MS, ownClock ? '1' : '0'],
    )) as string[];
    if (reply[0] === 'CLAIMED') return { outcome: 'CLAIMED' };
    const [state, storedPrint, expiresAt, response] = reply as [IdempotencyEntry['state'], string, string, string];
    const entry: IdempotencyEntry = { fingerprint: storedPrint, state, expiresAt: Number(expiresAt) };
    if (response) entry.response = JSON.parse(response) as IdempotencyEntry['response'];
    return state === 'IN_PROGRESS' ? { outcome: 'IN_PROGRESS', entry } : { outcome: 'DONE', entry };
  }

  async completeIdempotencyKey(key: string, response: { status: number; body: unknown }): Promise<void> {
    await this.run('fosCompleteKey', [this.idemKey(key)], [JSON.stringify(response)]);
  }

  async releaseIdempotencyKey(key: string): Promise<void> {
    await this.call(this.client.multi().del(this.idemKey(key)).zrem(this.key('idem-exp'), key).exec());
  }

  // ---------------------------------------------------------------- whole state
  async exportState(now: number): Promise<StoreState> {
    const records: StoreState['records'] = {};
    for (const kind of await this.kinds()) {
      const [stored, meta] = await Promise.all([
        this.call(this.client.hgetall(this.records(kind))),
        this.call(this.client.hgetall(this.meta(kind))),
      ]);
      const list: StoredRecord[] = Object.entries(meta).map(([id, value]) => {
        const bar = value.indexOf('|');
        const body = (stored[id] as string).slice((stored[id] as string).indexOf('|') + 1);
        return { scope: value.slice(bar + 1), id, key: Number(value.slice(0, bar)), record: JSON.parse(body) as unknown };
      });
      list.sort((a, b) => a.key - b.key);
      if (list.length > 0) records[kind] = list;
    }
    const balances: StoreState['balances'] = [];
    for (const accountId of (await this.call(this.client.smembers(this.key('bal-accounts')))).sort()) {
      for (const [asset, value] of Object.entries(await this.balances(accountId))) balances.push({ accountId, asset, value });
    }
    const idempotency: StoreState['idempotency'] = [];
    for (const key of await this.call(this.client.zrangebyscore(this.key('idem-exp'), `(${now}`, '+inf'))) {
      const e = await this.call(this.client.hgetall(this.idemKey(key)));
      if (e.state !== 'DONE') continue;
      const entry = { key, fingerprint: e.fingerprint as string, state: 'DONE' as const, expiresAt: Number(e.expiresAt) };
      idempotency.push(e.response ? { ...entry, response: JSON.parse(e.response) as IdempotencyEntry['response'] } : entry);
    }
    const sequence = Number((await this.call(this.client.get(this.key('seq')))) ?? 0);
    return { sequence, records, balances, idempotency };
  }

  /** The kinds that have records, read from the keys (a kind is known once something of it was stored). */
  private async kinds(): Promise<Kind[]> {
    const keys = await this.scan(this.key('meta', '*'));
    return keys.map((key) => key.slice(this.key('meta', '').length) as Kind);
  }

  private async scan(pattern: string): Promise<string[]> {
    const found: string[] = [];
    let cursor = '0';
    do {
      const [next, keys] = await this.call(this.client.scan(cursor, 'MATCH', pattern, 'COUNT', 1000));
      cursor = next;
      found.push(...keys);
    } while (cursor !== '0');
    return found;
  }

  async importState(state: StoreState): Promise<void> {
    // Everything is checked before anything changes; then one MULTI replaces the whole state.
    const maxKey = checkedImport(state);
    // A block of new versions, one per record: none a replica has cached under the same id.
    const count = Object.values(state.records).reduce((n, list) => n + (list?.length ?? 0), 0);
    let version = (await this.call(this.client.incrby(this.versionKey(), count))) - count;
    await this.begin();
    const write = this.client.multi();
    for (const [kind, list] of Object.entries(state.records) as Array<[Kind, StoredRecord[]]>) {
      for (const item of list) {
        write.hset(this.records(kind), item.id, `${++version}|${JSON.stringify(item.record)}`);
        write.hset(this.meta(kind), item.id, `${item.key}|${item.scope}`);
        write.zadd(this.list(kind, item.scope), item.key, item.id);
      }
    }
    write.set(this.key('seq'), Math.max(state.sequence, maxKey));
    for (const b of state.balances) {
      write.hset(this.balanceKey(b.accountId), b.asset, new Decimal(b.value).toFixed());
      write.sadd(this.key('bal-accounts'), b.accountId);
    }
    for (const { key, ...entry } of state.idempotency) {
      const fields: Record<string, string> = { fingerprint: entry.fingerprint, state: entry.state, expiresAt: String(entry.expiresAt) };
      if (entry.response) fields.response = JSON.stringify(entry.response);
      write.hset(this.idemKey(key), fields);
      write.zadd(this.key('idem-exp'), entry.expiresAt, key);
    }
    // The fixtures marker survives: an imported state is never seeded over.
    write.set(this.key('seeded'), '1');
    write.del(this.key('seeding'));
    try {
      await this.call(write.exec());
    } catch (error) {
      await this.client.del(this.key('seeding')).catch(() => undefined);
      throw error;
    }
    this.parsed.clear();
  }

  /**
   * Empties the store and takes the claim that keeps other resets, imports and seedings out
   * until this one is done (fosBegin); waits while another replica holds it.
   */
  private async begin(): Promise<void> {
    const until = Date.now() + REPLACE_LEASE_MS;
    while ((await this.run('fosBegin', [this.key('seeding')], [this.key('*'), REPLACE_LEASE_MS])) !== 1) {
      if (Date.now() > until)
        throw new ServiceError('SERVICE_UNAVAILABLE', { dependency: 'redis', reason: 'another replica is replacing the state' });
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    this.parsed.clear();
  }

  async reset(load: () => Promise<void>): Promise<void> {
    await this.begin();
    try {
      await load();
    } finally {
      await this.call(this.client.multi().set(this.key('seeded'), '1').del(this.key('seeding')).exec());
    }
  }

  async clear(): Promise<void> {
    await this.begin();
    await this.call(this.client.del(this.key('seeding')));
  }

  // ---------------------------------------------------------------- fixtures, once
  /**
   * Decides which replica loads the demo data into an empty Redis: the first to claim it loads
   * it and marks it done; a replica that starts later finds it done and loads nothing, and one
   * that starts at the same moment waits for the marker.
   */
  async seedOnce(load: () => Promise<void>, waitMs = 30_000): Promise<boolean> {
    const marker = this.key('seeded');
    // Seeded, or holding records (the sequence has moved): nothing to load.
    if ((await this.call(this.client.exists(marker, this.key('seq')))) > 0) return false;
    const claimed = await this.call(this.client.set(this.key('seeding'), '1', 'PX', waitMs, 'NX'));
    if (claimed === 'OK') {
      try {
        await load();
      } catch (error) {
        // Let another replica (or the next start) try, instead of waiting on a claim nobody holds.
        await this.client.del(this.key('seeding')).catch(() => undefined);
        throw error;
      }
      await this.call(this.client.multi().set(marker, '1').del(this.key('seeding')).exec());
      return true;
    }
    const until = Date.now() + waitMs;
    while (Date.now() < until) {
      if ((await this.call(this.client.exists(marker))) === 1) return false;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    throw new Error('fos-mock: another replica began loading the fixtures and did not finish');
  }
}
