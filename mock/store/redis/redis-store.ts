// The shared store: every record, list, balance and idempotency key in Redis, so replicas on one
// Redis are one service and a restart loses nothing. Each rule that must hold under concurrency
// is one script (scripts.ts); a read-modify-write with a function of ours (update, settlement)
// writes only if what it read is still stored, and tries again otherwise (optimistic, like
// WATCH/MULTI, but on the one shared connection).
//
// The keys' layout: redis-keys.ts. Balances: redis-balances.ts. Walks and filtered pages:
// redis-walk.ts. The whole state out and in: redis-state-transfer.ts.
import { ServiceError } from '../../errors/catalogue';
import { Decimal } from '../../domain/decimal';
import { deepFreeze } from '../freeze';
import { checkedImport } from '../import-check';
import type { RecordTypes } from '../../domain/records';
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
  StoreState,
} from '../store';
import { connectRedis, unavailableOnLoss, type RedisClient } from './connection';
import { applyMoves } from './redis-balances';
import { filteredPage, walkList } from './redis-walk';
import type { StoreAccess } from './store-access';
import { RedisKeys } from './redis-keys';
import { queueStateWrites, readState } from './redis-state-transfer';
import { defineScripts, outboxArgs, runScript, type ScriptName } from './scripts';

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

export interface RedisStoreOptions {
  url: string;
  /** Prefix of every key (default "fos:"): several mocks, or tests, can share one Redis. */
  prefix?: string;
}

export class RedisStore implements Store {
  private readonly parsed = new Map<string, { stored: string; version: string; record: unknown }>();

  private readonly keys: RedisKeys;
  /** What the store's helpers (balances, walks) need of it. */
  private readonly access: StoreAccess;

  private constructor(
    readonly client: RedisClient,
    readonly prefix: string,
  ) {
    this.keys = new RedisKeys(prefix);
    this.access = {
      client,
      keys: this.keys,
      decode: (kind, id, stored) => this.decode(kind, id, stored),
      run: (name, keys, args) => this.run(name, keys, args),
    };
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
    const raw = await this.call(this.client.hget(this.keys.records(kind), id));
    return raw === null ? undefined : (this.decode(kind, id, raw) as RecordTypes[K]);
  }

  async insert<K extends Kind>(kind: K, scope: string, id: string, record: RecordTypes[K], outbox?: readonly OutboxEntry[]): Promise<void> {
    const keys = [this.keys.records(kind), this.keys.meta(kind), this.keys.list(kind, scope), this.keys.key('seq'), ...this.keys.outbox()];
    await this.inserting('fosInsert', kind, id, [...keys, this.keys.version()], [id, JSON.stringify(record), scope, ...outboxArgs(outbox)]);
  }

  /** Runs a script that inserts a record; its refusal of an id that exists names the kind and id. */
  private async inserting(name: ScriptName, kind: Kind, id: string, keys: string[], args: string[]): Promise<unknown> {
    try {
      return await this.run(name, keys, args);
    } catch (error) {
      if ((error as Error).message.includes('store: record exists already'))
        throw new Error(`store: ${kind} ${id} exists already`, { cause: error });
      throw error;
    }
  }

  async replace<K extends Kind>(kind: K, id: string, record: RecordTypes[K]): Promise<void> {
    try {
      await this.run('fosReplace', [this.keys.records(kind), this.keys.version()], [id, JSON.stringify(record)]);
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
    outbox?: OutboxOf<RecordTypes[K]>,
  ): Promise<RecordTypes[K] | undefined> {
    const outcome = await this.updateWithBalances(kind, id, change, [], outbox);
    return outcome && 'record' in outcome ? outcome.record : undefined;
  }

  async remove(kind: Kind, id: string): Promise<void> {
    await this.run('fosRemove', [this.keys.records(kind), this.keys.meta(kind)], [id, `${this.keys.key('list', kind)}:`]);
    this.parsed.delete(`${kind}\u0000${id}`);
  }

  async all<K extends Kind>(kind: K, scope: string): Promise<Array<RecordTypes[K]>> {
    const out: Array<RecordTypes[K]> = [];
    for await (const item of walkList(this.access, kind, scope, false, '')) out.push(item.record as RecordTypes[K]);
    return out;
  }

  async page<K extends Kind>(kind: K, query: PageQuery<RecordTypes[K]>): Promise<PageSlice<RecordTypes[K]>> {
    if (query.where) return filteredPage(this.access, kind, query, query.where);
    const reply = (await this.run(
      'fosPage',
      [this.keys.list(kind, query.scope), this.keys.records(kind)],
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
      const fetched = await this.call(this.client.hmget(this.keys.records(kind), ...missing.map((item) => item.id)));
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

  // ---------------------------------------------------------------- quotes
  async insertConsumingQuote<K extends Kind>(
    quoteId: string,
    kind: K,
    scope: string,
    id: string,
    record: RecordTypes[K],
    outbox?: readonly OutboxEntry[],
  ): Promise<boolean> {
    const keys = [
      this.keys.records(kind),
      this.keys.meta(kind),
      this.keys.list(kind, scope),
      this.keys.key('seq'),
      this.keys.records('quote'),
      ...this.keys.outbox(),
      this.keys.version(),
    ];
    const args = [id, JSON.stringify(record), scope, quoteId, ...outboxArgs(outbox)];
    return (await this.inserting('fosInsertConsuming', kind, id, keys, args)) === 1;
  }

  // ---------------------------------------------------------------- balances
  async getBalance(accountId: string, asset: string): Promise<string> {
    return (await this.call(this.client.hget(this.keys.balance(accountId), asset))) ?? '0';
  }

  async setBalance(accountId: string, asset: string, value: string): Promise<void> {
    await this.call(
      this.client
        .multi()
        .hset(this.keys.balance(accountId), asset, new Decimal(value).toFixed())
        .sadd(this.keys.key('bal-accounts'), accountId)
        .exec(),
    );
  }

  async moveBalance(accountId: string, asset: string, delta: string): Promise<string | null> {
    const outcome = await applyMoves(this.access, undefined, [{ accountId, asset, delta }]);
    return outcome.short || outcome.over ? null : (outcome.values.get(`${accountId}:${asset}`) as string);
  }

  async balances(accountId: string): Promise<Record<string, string>> {
    return this.call(this.client.hgetall(this.keys.balance(accountId)));
  }

  async updateWithBalances<K extends Kind>(
    kind: K,
    id: string,
    change: (current: RecordTypes[K]) => RecordTypes[K],
    moves: BalanceMove[],
    outbox?: OutboxOf<RecordTypes[K]>,
  ): Promise<BalancedUpdate<RecordTypes[K]>> {
    const outcome = await applyMoves(this.access, { kind, id, change, outbox }, moves);
    if (outcome.missing) return undefined;
    if (outcome.short) return { short: outcome.short };
    if (outcome.over) return { over: outcome.over };
    return { record: outcome.record as RecordTypes[K] };
  }

  // ---------------------------------------------------------------- outbox
  async takeOutbox(staleMs: number, limit: number): Promise<OutboxEntry[]> {
    const reply = (await this.run('fosTakeOutbox', this.keys.outbox(), [staleMs, limit])) as string[];
    const taken: OutboxEntry[] = [];
    for (let i = 0; i < reply.length; i += 2) taken.push({ id: reply[i] as string, event: JSON.parse(reply[i + 1] as string) as unknown });
    return taken;
  }

  async outboxDone(ids: readonly string[]): Promise<void> {
    if (ids.length === 0) return;
    const [outbox, index] = this.keys.outbox();
    await this.call(
      this.client
        .multi()
        .hdel(outbox, ...ids)
        .zrem(index, ...ids)
        .exec(),
    );
  }

  // ---------------------------------------------------------------- idempotency keys
  async claimIdempotencyKey(key: string, fingerprint: string, now: number, ttlMs: number, ownClock = false): Promise<IdempotencyClaim> {
    const reply = (await this.run(
      'fosClaimKey',
      [this.keys.idem(key), this.keys.key('idem-exp')],
      [
        key,
        fingerprint,
        now,
        String(now + ttlMs),
        `${this.keys.key('idem')}:`,
        IN_PROGRESS_LEASE_MS,
        ownClock ? '1' : '0',
        this.keys.key('idem-own'),
      ],
    )) as string[];
    if (reply[0] === 'CLAIMED') return { outcome: 'CLAIMED' };
    const [state, storedPrint, expiresAt, response] = reply as [IdempotencyEntry['state'], string, string, string];
    const entry: IdempotencyEntry = { fingerprint: storedPrint, state, expiresAt: Number(expiresAt) };
    if (response) entry.response = JSON.parse(response) as IdempotencyEntry['response'];
    return state === 'IN_PROGRESS' ? { outcome: 'IN_PROGRESS', entry } : { outcome: 'DONE', entry };
  }

  async completeIdempotencyKey(key: string, response: { status: number; body: unknown }): Promise<void> {
    await this.run('fosCompleteKey', [this.keys.idem(key)], [JSON.stringify(response)]);
  }

  async releaseIdempotencyKey(key: string): Promise<void> {
    const write = this.client.multi().del(this.keys.idem(key)).zrem(this.keys.key('idem-exp'), key);
    await this.call(write.srem(this.keys.key('idem-own'), key).exec());
  }

  // ---------------------------------------------------------------- whole state
  async exportState(now: number): Promise<StoreState> {
    return readState(this.client, this.keys, now);
  }

  async importState(state: StoreState): Promise<void> {
    // Everything is checked before anything changes; then one MULTI replaces the whole state.
    const maxKey = checkedImport(state);
    // A block of new versions, one per record: none a replica has cached under the same id.
    const count = Object.values(state.records).reduce((n, list) => n + (list?.length ?? 0), 0);
    const version = (await this.call(this.client.incrby(this.keys.version(), count))) - count;
    await this.begin();
    const write = this.client.multi();
    queueStateWrites(write, this.keys, state, version, maxKey);
    // The fixtures marker survives: an imported state is never seeded over.
    write.set(this.keys.key('seeded'), '1');
    write.del(this.keys.key('seeding'));
    try {
      await this.call(write.exec());
    } catch (error) {
      await this.client.del(this.keys.key('seeding')).catch(() => undefined);
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
    while ((await this.run('fosBegin', [this.keys.key('seeding')], [this.keys.key('*'), REPLACE_LEASE_MS])) !== 1) {
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
      await this.call(this.client.multi().set(this.keys.key('seeded'), '1').del(this.keys.key('seeding')).exec());
    }
  }

  async clear(): Promise<void> {
    await this.begin();
    await this.call(this.client.del(this.keys.key('seeding')));
  }

  // ---------------------------------------------------------------- fixtures, once
  /**
   * Decides which replica loads the demo data into an empty Redis: the first to claim it loads
   * it and marks it done; a replica that starts later finds it done and loads nothing, and one
   * that starts at the same moment waits for the marker.
   */
  async seedOnce(load: () => Promise<void>, waitMs = 30_000): Promise<boolean> {
    const marker = this.keys.key('seeded');
    // Seeded, or holding records (the sequence has moved): nothing to load.
    if ((await this.call(this.client.exists(marker, this.keys.key('seq')))) > 0) return false;
    const claimed = await this.call(this.client.set(this.keys.key('seeding'), '1', 'PX', waitMs, 'NX'));
    if (claimed === 'OK') {
      try {
        await load();
      } catch (error) {
        // Let another replica (or the next start) try, instead of waiting on a claim nobody holds.
        await this.client.del(this.keys.key('seeding')).catch(() => undefined);
        throw error;
      }
      await this.call(this.client.multi().set(marker, '1').del(this.keys.key('seeding')).exec());
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
