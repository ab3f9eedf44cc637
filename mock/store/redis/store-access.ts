// What the shared store's helpers (redis-balances.ts, redis-walk.ts) need of the store: its
// connection, its keys, its scripts, and its parsed-record cache (so a record read again unchanged
// is the same frozen object, which the response encoder keys on).
import type { Kind } from '../store';
import type { RedisClient } from './connection';
import type { RedisKeys } from './redis-keys';
import type { ScriptName } from './scripts';

export interface StoreAccess {
  client: RedisClient;
  keys: RedisKeys;
  /** A stored value ("<version>|<json>") as a frozen record. */
  decode(kind: Kind, id: string, stored: string): unknown;
  /** A script of scripts.ts; a lost Redis is 503 SERVICE_UNAVAILABLE. */
  run(name: ScriptName, keys: string[], args: Array<string | number>): Promise<unknown>;
}
