// The whole shared state out (a snapshot's store part) and in (the writes of an import, queued on
// the caller's MULTI so the state is replaced at once). The checks of an import, and the claim
// that keeps other replicas out meanwhile, are the store's (redis-store.ts).
import type { ChainableCommander } from 'ioredis';
import { Decimal } from '../../domain/decimal';
import type { IdempotencyEntry, Kind, StoredRecord, StoreState } from '../store';
import { unavailableOnLoss, type RedisClient } from './connection';
import type { RedisKeys } from './redis-keys';

/**
 * Every record with its list key and scope, every balance, every finished idempotency key still
 * live at `now`, and every finished key on a customer's own clock (`ownClock`: its clock decides).
 */
export async function readState(client: RedisClient, keys: RedisKeys, now: number): Promise<StoreState> {
  const call = <T>(promise: Promise<T>) => unavailableOnLoss(promise);
  const records: StoreState['records'] = {};
  for (const kind of await kindsStored(client, keys)) {
    const [stored, meta] = await Promise.all([call(client.hgetall(keys.records(kind))), call(client.hgetall(keys.meta(kind)))]);
    const list: StoredRecord[] = Object.entries(meta).map(([id, value]) => {
      const bar = value.indexOf('|');
      const body = (stored[id] as string).slice((stored[id] as string).indexOf('|') + 1);
      return { scope: value.slice(bar + 1), id, key: Number(value.slice(0, bar)), record: JSON.parse(body) as unknown };
    });
    list.sort((a, b) => a.key - b.key);
    if (list.length > 0) records[kind] = list;
  }
  const balances: StoreState['balances'] = [];
  for (const accountId of (await call(client.smembers(keys.key('bal-accounts')))).sort()) {
    for (const [asset, value] of Object.entries(await call(client.hgetall(keys.balance(accountId)))))
      balances.push({ accountId, asset, value });
  }
  const idempotency: StoreState['idempotency'] = [];
  const live = await call(client.zrangebyscore(keys.key('idem-exp'), `(${now}`, '+inf'));
  const own = (await call(client.smembers(keys.key('idem-own')))).sort();
  for (const [key, ownClock] of [...live.map((k) => [k, false] as const), ...own.map((k) => [k, true] as const)]) {
    const e = await call(client.hgetall(keys.idem(key)));
    if (e.state !== 'DONE') continue;
    const entry = { key, fingerprint: e.fingerprint as string, state: 'DONE' as const, expiresAt: Number(e.expiresAt) };
    const kept = e.response ? { ...entry, response: JSON.parse(e.response) as IdempotencyEntry['response'] } : entry;
    idempotency.push(ownClock ? { ...kept, ownClock } : kept);
  }
  const sequence = Number((await call(client.get(keys.key('seq')))) ?? 0);
  return { sequence, records, balances, idempotency };
}

/**
 * Queues the writes of a checked state on `write`: each record under a version of its own from
 * `firstVersion` on (a block the caller reserved, so no replica has one cached under the same id).
 */
export function queueStateWrites(
  write: ChainableCommander,
  keys: RedisKeys,
  state: StoreState,
  firstVersion: number,
  maxKey: number,
): void {
  let version = firstVersion;
  for (const [kind, list] of Object.entries(state.records) as Array<[Kind, StoredRecord[]]>) {
    for (const item of list) {
      write.hset(keys.records(kind), item.id, `${++version}|${JSON.stringify(item.record)}`);
      write.hset(keys.meta(kind), item.id, `${item.key}|${item.scope}`);
      write.zadd(keys.list(kind, item.scope), item.key, item.id);
    }
  }
  write.set(keys.key('seq'), Math.max(state.sequence, maxKey));
  for (const b of state.balances) {
    write.hset(keys.balance(b.accountId), b.asset, new Decimal(b.value).toFixed());
    write.sadd(keys.key('bal-accounts'), b.accountId);
  }
  for (const { key, ownClock, ...entry } of state.idempotency) {
    const fields: Record<string, string> = { fingerprint: entry.fingerprint, state: entry.state, expiresAt: String(entry.expiresAt) };
    if (entry.response) fields.response = JSON.stringify(entry.response);
    write.hset(keys.idem(key), fields);
    // A key on a customer's own clock stays out of the expiry index the mock's clock sweeps.
    if (ownClock) write.sadd(keys.key('idem-own'), key);
    else write.zadd(keys.key('idem-exp'), entry.expiresAt, key);
  }
}

/** The kinds that have records, read from the keys (a kind is known once something of it was stored). */
async function kindsStored(client: RedisClient, keys: RedisKeys): Promise<Kind[]> {
  const prefix = keys.meta('' as Kind);
  const found: string[] = [];
  let cursor = '0';
  do {
    const [next, batch] = await unavailableOnLoss(client.scan(cursor, 'MATCH', keys.key('meta', '*'), 'COUNT', 1000));
    cursor = next;
    found.push(...batch);
  } while (cursor !== '0');
  return found.map((key) => key.slice(prefix.length) as Kind);
}
