// What replicas share besides the records (redis-store.ts): the signing secret, the mock clock,
// the injected faults, the request journal, rate-limit buckets, and a message bus so a control
// call made on one replica acts on all (bus.ts). Plain data only: the rules that use it live
// with their owners (http/faults.ts, http/journal.ts, http/rate-limit.ts, mock/cluster/).
//
// Keys under the prefix, apart from the store's "s:" so a reset of the records keeps them:
//   secret        the secret tokens and cursors are signed with (when FOS_MOCK_SECRET is not given)
//   c:state       hash: offset and frozenAt of the mock clock, faults (a version bumped on every change)
//   c:faults      hash id → fault JSON; c:journal: list of request JSON, newest first
//   c:bucket:<k>  rate-limit bucket JSON
import type { ClockState } from '../../clock';
import { unavailableOnLoss, type RedisClient } from './connection';

/** The journal is trimmed after this many pushes: it holds at most its size plus about this many per replica. */
const TRIM_EVERY = 200;
/** Journal entries wait at most this long, or for this many, before they go to Redis in one command. */
const JOURNAL_FLUSH_MS = 10;
const JOURNAL_BATCH = 100;

export interface ControlState {
  clock: ClockState | undefined;
  faultsVersion: number;
}

export class RedisSharedState {
  private pushes = 0;
  private journalBatch: string[] = [];
  private journalTimer: NodeJS.Timeout | undefined;
  private journalSize = 1;
  /** Told when journal entries could not be written (the requests were answered already). */
  onJournalLost: (error: unknown) => void = () => undefined;

  constructor(
    readonly client: RedisClient,
    readonly prefix: string,
  ) {
    client.defineCommand('fosFaultHit', {
      numberOfKeys: 2,
      // KEYS: faults, state. ARGV: id. Counts one hit and uses up one of `times` (gone at zero, a
      // change every replica sees); answers the fault as it is now, or nothing if it is gone.
      lua: `
local raw = redis.call('HGET', KEYS[1], ARGV[1])
if not raw then return false end
local fault = cjson.decode(raw)
fault.hits = fault.hits + 1
if fault.remaining ~= nil then
  fault.remaining = fault.remaining - 1
  if fault.remaining <= 0 then
    redis.call('HDEL', KEYS[1], ARGV[1])
    redis.call('HINCRBY', KEYS[2], 'faults', 1)
    return cjson.encode(fault)
  end
end
local out = cjson.encode(fault)
redis.call('HSET', KEYS[1], ARGV[1], out)
return out`,
    });
    client.defineCommand('fosAdvance', {
      numberOfKeys: 1,
      // KEYS: state. ARGV: ms. Moves the frozen instant, or the offset of a running clock, in one
      // step; answers offset and frozenAt as they are now.
      lua: `
local frozen = redis.call('HGET', KEYS[1], 'frozenAt')
if frozen and frozen ~= '' then
  redis.call('HSET', KEYS[1], 'frozenAt', string.format('%d', tonumber(frozen) + tonumber(ARGV[1])))
else
  redis.call('HSET', KEYS[1], 'offset', string.format('%d', tonumber(redis.call('HGET', KEYS[1], 'offset') or '0') + tonumber(ARGV[1])))
end
return redis.call('HMGET', KEYS[1], 'offset', 'frozenAt')`,
    });
    client.defineCommand('fosCas', {
      numberOfKeys: 1,
      // KEYS: a string key. ARGV: expected ('' when absent), next, time to live in ms (real time).
      // Writes only over the value read.
      lua: `
local current = redis.call('GET', KEYS[1]) or ''
if current ~= ARGV[1] then return 0 end
redis.call('SET', KEYS[1], ARGV[2], 'PX', ARGV[3])
return 1`,
    });
  }

  private key(name: string): string {
    return `${this.prefix}${name}`;
  }

  /** The shared secret: the first replica's candidate is kept in Redis, and every later one reads it. */
  async secret(candidate: string): Promise<string> {
    const key = this.key('secret');
    await unavailableOnLoss(this.client.set(key, candidate, 'NX'));
    return (await unavailableOnLoss(this.client.get(key))) ?? candidate;
  }

  /** The clock and the faults' version, in one round trip. */
  async readControl(): Promise<ControlState> {
    const [offset, frozenAt, faults] = await unavailableOnLoss(this.client.hmget(this.key('c:state'), 'offset', 'frozenAt', 'faults'));
    const clock = offset === null ? undefined : { offset: Number(offset), frozenAt: frozenAt ? Number(frozenAt) : null };
    return { clock, faultsVersion: Number(faults ?? 0) };
  }

  /** Whether the connection is up now (ioredis reconnects by itself). */
  get connected(): boolean {
    return this.client.status === 'ready';
  }

  /** Moves the shared clock forward atomically; the clock as it is then. */
  async advanceClock(ms: number): Promise<ClockState> {
    const advance = (this.client as unknown as { fosAdvance(key: string, ms: string): Promise<[string, string]> }).fosAdvance(
      this.key('c:state'),
      String(Math.round(ms)),
    );
    const [offset, frozenAt] = await unavailableOnLoss(advance);
    return { offset: Number(offset), frozenAt: frozenAt ? Number(frozenAt) : null };
  }

  async writeClock(state: ClockState): Promise<void> {
    await unavailableOnLoss(
      this.client.hset(this.key('c:state'), {
        offset: String(state.offset),
        frozenAt: state.frozenAt === null ? '' : String(state.frozenAt),
      }),
    );
  }

  /** Sets the clock unless a replica set it already (the first replica's start decides). */
  async initClock(state: ClockState): Promise<void> {
    // Both or neither (one MULTI): two replicas starting together never mix their clocks.
    const key = this.key('c:state');
    await unavailableOnLoss(
      this.client
        .multi()
        .hsetnx(key, 'frozenAt', state.frozenAt === null ? '' : String(state.frozenAt))
        .hsetnx(key, 'offset', String(state.offset))
        .exec(),
    );
  }

  // ---------------------------------------------------------------- faults
  async faultsList(): Promise<string[]> {
    return Object.values(await unavailableOnLoss(this.client.hgetall(this.key('c:faults'))));
  }

  async faultPut(id: string, json: string): Promise<void> {
    await unavailableOnLoss(this.client.multi().hset(this.key('c:faults'), id, json).hincrby(this.key('c:state'), 'faults', 1).exec());
  }

  async faultRemove(id: string): Promise<boolean> {
    const replies = await unavailableOnLoss(
      this.client.multi().hdel(this.key('c:faults'), id).hincrby(this.key('c:state'), 'faults', 1).exec(),
    );
    return replies?.[0]?.[1] === 1;
  }

  async faultsClear(): Promise<void> {
    await unavailableOnLoss(this.client.multi().del(this.key('c:faults')).hincrby(this.key('c:state'), 'faults', 1).exec());
  }

  async faultHit(id: string): Promise<string | null> {
    const hit = (this.client as unknown as { fosFaultHit(...args: string[]): Promise<string | null> }).fosFaultHit(
      this.key('c:faults'),
      this.key('c:state'),
      id,
    );
    return unavailableOnLoss(hit);
  }

  // ---------------------------------------------------------------- journal
  /**
   * Adds a request (newest first). Entries are gathered and go out as one LPUSH every few
   * milliseconds (or every 100 entries), and the list is trimmed to `size` now and then: under
   * load, far fewer commands than requests. A journal read flushes every replica first.
   */
  journalPush(json: string, size: number): void {
    this.journalSize = size;
    this.journalBatch.push(json);
    if (this.journalBatch.length >= JOURNAL_BATCH) void this.journalFlush().catch(this.onJournalLost);
    else this.journalTimer ??= setTimeout(() => void this.journalFlush().catch(this.onJournalLost), JOURNAL_FLUSH_MS);
  }

  /** Sends the gathered entries now. */
  async journalFlush(): Promise<void> {
    if (this.journalTimer) clearTimeout(this.journalTimer);
    this.journalTimer = undefined;
    const batch = this.journalBatch;
    this.journalBatch = [];
    if (batch.length === 0) return;
    const key = this.key('c:journal');
    this.pushes += batch.length;
    if (this.pushes < TRIM_EVERY) {
      await unavailableOnLoss(this.client.lpush(key, ...batch));
      return;
    }
    this.pushes = 0;
    await unavailableOnLoss(
      this.client
        .multi()
        .lpush(key, ...batch)
        .ltrim(key, 0, this.journalSize - 1)
        .exec(),
    );
  }

  journalLatest(limit: number): Promise<string[]> {
    return unavailableOnLoss(this.client.lrange(this.key('c:journal'), 0, limit - 1));
  }

  async journalClear(): Promise<void> {
    await unavailableOnLoss(this.client.del(this.key('c:journal')));
  }

  // ---------------------------------------------------------------- compare-and-set values (rate-limit buckets)
  async getValue(name: string): Promise<string | null> {
    return unavailableOnLoss(this.client.get(this.key(`c:${name}`)));
  }

  /** Writes `next` if the value is still `expected`; the value is forgotten `ttlMs` of real time after its last write. */
  async casValue(name: string, expected: string | null, next: string, ttlMs: number): Promise<boolean> {
    const cas = (this.client as unknown as { fosCas(...args: string[]): Promise<number> }).fosCas(
      this.key(`c:${name}`),
      expected ?? '',
      next,
      String(Math.max(1, Math.round(ttlMs))),
    );
    return (await unavailableOnLoss(cas)) === 1;
  }
}
