// The Lua scripts of the Redis store: each is one atomic step in Redis, so a rule that must hold
// when several replicas act at once (a record inserted once, a quote consumed once, a balance
// changed only from the value it was computed from, an idempotency key claimed once) never
// depends on a read and a later write from Node. Money is never added in Lua (its numbers are
// doubles): Node computes new balances in decimal and `commit` writes them only if every value
// it read is still the one stored. Key names a script builds from its arguments (a scope's list,
// an account's balances) assume one Redis server, not a Redis Cluster.
//
// A record is stored as "<version>|<json>": every write takes a new version from one counter
// (KEYS "version", never cleared), so a replica that has parsed a record can tell from its
// version alone, without its JSON, whether it still holds it as stored (pages answer versions).
const STAMP = `
local function stamp(json) return string.format('%d', redis.call('INCR', KEYS[#KEYS])) .. '|' .. json end
local function body(stored) return string.sub(stored, string.find(stored, '|', 1, true) + 1) end`;
/**
 * An outbox entry written in the same step as the write it follows (Store OutboxEntry): from
 * ARGV[from], a count n, then n times id and JSON; into the outbox hash and its index by when
 * (Redis's clock, real time, ms), the two keys given.
 */
const OUTBOX = `
local function outbox(hash, index, from)
  local n = tonumber(ARGV[from] or '0')
  if n == 0 then return end
  local t = redis.call('TIME')
  local real = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
  for i = 0, n - 1 do
    redis.call('HSET', hash, ARGV[from + 1 + 2 * i], ARGV[from + 2 + 2 * i])
    redis.call('ZADD', index, real, ARGV[from + 1 + 2 * i])
  end
end`;
import type { OutboxEntry } from '../store';
import type { RedisClient } from './connection';

const SCRIPTS = {
  /**
   * KEYS: records, meta, list, sequence, outbox, outbox index, version. ARGV: id, json, scope, then
   * the outbox entries (OUTBOX). Answers the insertion key, or an error when the id exists.
   */
  fosInsert: {
    keys: 7,
    lua: `${STAMP}${OUTBOX}
if redis.call('HEXISTS', KEYS[1], ARGV[1]) == 1 then return redis.error_reply('store: record exists already') end
local key = redis.call('INCR', KEYS[4])
redis.call('HSET', KEYS[1], ARGV[1], stamp(ARGV[2]))
redis.call('HSET', KEYS[2], ARGV[1], string.format('%d', key) .. '|' .. ARGV[3])
redis.call('ZADD', KEYS[3], key, ARGV[1])
outbox(KEYS[5], KEYS[6], 4)
return key`,
  },
  /** KEYS: records, version. ARGV: id, json. */
  fosReplace: {
    keys: 2,
    lua: `${STAMP}
if redis.call('HEXISTS', KEYS[1], ARGV[1]) == 0 then return redis.error_reply('store: record does not exist') end
redis.call('HSET', KEYS[1], ARGV[1], stamp(ARGV[2]))
return 1`,
  },
  /** KEYS: records, meta. ARGV: id, list key prefix. Removes the record and its place in its list. */
  fosRemove: {
    keys: 2,
    lua: `
local meta = redis.call('HGET', KEYS[2], ARGV[1])
if not meta then return 0 end
local bar = string.find(meta, '|', 1, true)
redis.call('HDEL', KEYS[1], ARGV[1])
redis.call('HDEL', KEYS[2], ARGV[1])
redis.call('ZREM', ARGV[2] .. string.sub(meta, bar + 1), ARGV[1])
return 1`,
  },
  /**
   * KEYS: records (or the same key unused), balance accounts set, outbox, outbox index, version.
   * ARGV: id ('' for none), expected stored value, next json ('' to only check), n, then n times:
   * balance key, account id, asset, expected value ('' when absent), next value ('' to only
   * check), then the record's outbox entries (OUTBOX). Writes everything or nothing (0) when a
   * value read has changed since; answers the record's new stored value when it wrote one, else 1.
   */
  fosCommit: {
    keys: 5,
    lua: `${STAMP}${OUTBOX}
local n = tonumber(ARGV[4])
if ARGV[1] ~= '' then
  local current = redis.call('HGET', KEYS[1], ARGV[1])
  if current ~= ARGV[2] then return 0 end
end
for i = 0, n - 1 do
  local at = 5 + i * 5
  local current = redis.call('HGET', ARGV[at], ARGV[at + 2]) or ''
  if current ~= ARGV[at + 3] then return 0 end
end
local stored = 1
if ARGV[1] ~= '' and ARGV[3] ~= '' then
  stored = stamp(ARGV[3])
  redis.call('HSET', KEYS[1], ARGV[1], stored)
  outbox(KEYS[3], KEYS[4], 5 + n * 5)
end
for i = 0, n - 1 do
  local at = 5 + i * 5
  if ARGV[at + 4] ~= '' then
    redis.call('HSET', ARGV[at], ARGV[at + 2], ARGV[at + 4])
    redis.call('SADD', KEYS[2], ARGV[at + 1])
  end
end
return stored`,
  },
  /**
   * KEYS: list, records. ARGV: limit, descending ('1'/'0'), cursor key ('' for the first page),
   * direction (NEXT or PREVIOUS). One page in the requested order, as the memory store's walk
   * (slice.ts) has it: {hasBefore, hasAfter, id, key, version, id, key, version, ...}: each record's
   * version, not its JSON, so a replica that holds the record already reads only the version.
   */
  fosPage: {
    keys: 2,
    lua: `
local limit = tonumber(ARGV[1])
local desc = ARGV[2] == '1'
local from = ARGV[3]
local backwards = ARGV[4] == 'PREVIOUS'
local function any(min, max) return redis.call('ZCOUNT', KEYS[1], min, max) > 0 end
local function ascending(min, max) return redis.call('ZRANGEBYSCORE', KEYS[1], min, max, 'WITHSCORES', 'LIMIT', 0, limit + 1) end
local function descending(max, min) return redis.call('ZREVRANGEBYSCORE', KEYS[1], max, min, 'WITHSCORES', 'LIMIT', 0, limit + 1) end
local found
local before, after = false, false
if from == '' then
  if desc then found = descending('+inf', '-inf') else found = ascending('-inf', '+inf') end
elseif not backwards then
  if desc then found = descending('(' .. from, '-inf'); before = any(from, '+inf')
  else found = ascending('(' .. from, '+inf'); before = any('-inf', from) end
else
  if desc then found = ascending('(' .. from, '+inf'); after = any('-inf', from)
  else found = descending('(' .. from, '-inf'); after = any(from, '+inf') end
end
local count = #found / 2
local more = count > limit
if more then count = limit end
if backwards then before = more else after = after or more end
local out = { before and 1 or 0, after and 1 or 0 }
local ids = {}
for i = 1, count do
  local j = backwards and (count - i + 1) or i
  ids[i] = found[2 * j - 1]
  out[#out + 1] = found[2 * j - 1]
  out[#out + 1] = found[2 * j]
  out[#out + 1] = false
end
if count > 0 then
  local records = redis.call('HMGET', KEYS[2], unpack(ids))
  for i = 1, count do
    local r = records[i]
    out[2 + 3 * i] = r and string.sub(r, 1, string.find(r, '|', 1, true) - 1)
  end
end
return out`,
  },
  /**
   * KEYS: list, records. ARGV: descending ('1'/'0'), bound key ('' for an end), count. The next
   * `count` records strictly past the bound in the given direction: {id, key, json, ...}.
   */
  fosWalk: {
    keys: 2,
    lua: `
local desc = ARGV[1] == '1'
local bound = ARGV[2]
local n = tonumber(ARGV[3])
local found
if desc then
  found = redis.call('ZREVRANGEBYSCORE', KEYS[1], bound == '' and '+inf' or ('(' .. bound), '-inf', 'WITHSCORES', 'LIMIT', 0, n)
else
  found = redis.call('ZRANGEBYSCORE', KEYS[1], bound == '' and '-inf' or ('(' .. bound), '+inf', 'WITHSCORES', 'LIMIT', 0, n)
end
local out, ids = {}, {}
for i = 1, #found / 2 do ids[i] = found[2 * i - 1] end
if #ids == 0 then return out end
local records = redis.call('HMGET', KEYS[2], unpack(ids))
for i = 1, #ids do
  out[#out + 1] = ids[i]
  out[#out + 1] = found[2 * i]
  out[#out + 1] = records[i]
end
return out`,
  },
  /**
   * KEYS: records, meta, list, sequence, quote records, outbox, outbox index, version (last:
   * `stamp` takes it). ARGV: id, json, scope, quote id, then the outbox entries (OUTBOX).
   * Inserts the record and marks the quote used by it, in one step; 0 (nothing written) when the
   * quote is held already or does not exist, an error when the id exists.
   */
  fosInsertConsuming: {
    keys: 8,
    lua: `${STAMP}${OUTBOX}
local raw = redis.call('HGET', KEYS[5], ARGV[4])
if not raw then return 0 end
local quote = cjson.decode(body(raw))
if quote.operationId ~= nil and quote.operationId ~= cjson.null then return 0 end
if redis.call('HEXISTS', KEYS[1], ARGV[1]) == 1 then return redis.error_reply('store: record exists already') end
quote.operationId = ARGV[1]
redis.call('HSET', KEYS[5], ARGV[4], stamp(cjson.encode(quote)))
local key = redis.call('INCR', KEYS[4])
redis.call('HSET', KEYS[1], ARGV[1], stamp(ARGV[2]))
redis.call('HSET', KEYS[2], ARGV[1], string.format('%d', key) .. '|' .. ARGV[3])
redis.call('ZADD', KEYS[3], key, ARGV[1])
outbox(KEYS[6], KEYS[7], 5)
return 1`,
  },
  /**
   * KEYS: the key's entry, the expiry index. ARGV: key, fingerprint, now, expiresAt, entry key
   * prefix, lease ms. A live entry (expiresAt after now, mock time) is answered as it is;
   * otherwise the key is claimed IN_PROGRESS. A few expired entries are swept on the way (mock
   * time decides expiry, so Redis TTLs cannot). An IN_PROGRESS claim also holds a lease of real
   * time (Redis's clock): a claim whose request never finished (its replica died, or lost Redis
   * before it could release the key) can be claimed again once the lease is over. ARGV[7] '1': the
   * key is on a customer's own clock, whose `now` must not sweep other keys (nor theirs it): it is
   * neither a sweeper nor in the expiry index, but in the set ARGV[8] (a snapshot finds it there),
   * and goes with a reset.
   */
  fosClaimKey: {
    keys: 2,
    lua: `
local own = ARGV[7] == '1'
if not own then
  local dead = redis.call('ZRANGEBYSCORE', KEYS[2], '-inf', ARGV[3], 'LIMIT', 0, 20)
  for _, key in ipairs(dead) do
    redis.call('DEL', ARGV[5] .. key)
    redis.call('ZREM', KEYS[2], key)
  end
end
local t = redis.call('TIME')
local real = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local e = redis.call('HMGET', KEYS[1], 'fingerprint', 'state', 'expiresAt', 'response', 'lease')
local abandoned = e[2] == 'IN_PROGRESS' and e[5] and tonumber(e[5]) < real
if e[2] and tonumber(e[3]) > tonumber(ARGV[3]) and not abandoned then return { e[2], e[1], e[3], e[4] or '' } end
redis.call('DEL', KEYS[1])
redis.call('HSET', KEYS[1], 'fingerprint', ARGV[2], 'state', 'IN_PROGRESS', 'expiresAt', ARGV[4],
  'lease', string.format('%d', real + tonumber(ARGV[6])))
if own then redis.call('SADD', ARGV[8], ARGV[1]) else redis.call('ZADD', KEYS[2], ARGV[4], ARGV[1]) end
return { 'CLAIMED' }`,
  },
  /**
   * KEYS: the state-replacing claim ("seeding"). ARGV: the pattern of the store's keys, the
   * claim's lease in ms. Unless another replica is resetting, importing or seeding (0), deletes
   * every key of the store and takes the claim (1), in one step: no write of another replica can
   * land between the clear and the claim.
   */
  fosBegin: {
    keys: 1,
    lua: `
if redis.call('EXISTS', KEYS[1]) == 1 then return 0 end
local cursor = '0'
repeat
  local found = redis.call('SCAN', cursor, 'MATCH', ARGV[1], 'COUNT', 1000)
  cursor = found[1]
  for _, key in ipairs(found[2]) do redis.call('UNLINK', key) end
until cursor == '0'
redis.call('SET', KEYS[1], '1', 'PX', ARGV[2])
return 1`,
  },
  /**
   * KEYS: outbox, outbox index. ARGV: stale ms, limit. The entries written or taken at least
   * `stale` ms ago (Redis's clock), oldest first, each stamped now (taken): {id, json, ...}.
   */
  fosTakeOutbox: {
    keys: 2,
    lua: `
local t = redis.call('TIME')
local real = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local ids = redis.call('ZRANGEBYSCORE', KEYS[2], '-inf', real - tonumber(ARGV[1]), 'LIMIT', 0, tonumber(ARGV[2]))
local out = {}
for _, id in ipairs(ids) do
  local json = redis.call('HGET', KEYS[1], id)
  if json then
    redis.call('ZADD', KEYS[2], real, id)
    out[#out + 1] = id
    out[#out + 1] = json
  else
    redis.call('ZREM', KEYS[2], id)
  end
end
return out`,
  },
  /** KEYS: the key's entry. ARGV: response json. */
  fosCompleteKey: {
    keys: 1,
    lua: `
if redis.call('EXISTS', KEYS[1]) == 0 then return 0 end
redis.call('HSET', KEYS[1], 'state', 'DONE', 'response', ARGV[1])
return 1`,
  },
} as const;

export type ScriptName = keyof typeof SCRIPTS;

/** Registers the scripts on a connection; ioredis sends each by its SHA and loads it when Redis does not know it yet. */
export function defineScripts(client: RedisClient): void {
  for (const [name, script] of Object.entries(SCRIPTS)) client.defineCommand(name, { numberOfKeys: script.keys, lua: script.lua });
}

/** Runs a registered script. */
export function runScript(client: RedisClient, name: ScriptName, keys: string[], args: Array<string | number>): Promise<unknown> {
  const command = (client as unknown as Record<ScriptName, (...a: Array<string | number>) => Promise<unknown>>)[name];
  return command.call(client, ...keys, ...args);
}

/** Outbox entries as the scripts take them (OUTBOX in scripts.ts): a count, then each id and JSON. */
export function outboxArgs(entries: readonly OutboxEntry[] | undefined): string[] {
  const args = [String(entries?.length ?? 0)];
  for (const entry of entries ?? []) args.push(entry.id, JSON.stringify(entry.event));
  return args;
}
