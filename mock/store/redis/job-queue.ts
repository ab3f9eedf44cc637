// The job queue in Redis: every replica claims from it, so a due job runs once whichever replica
// scheduled it, and the job of a replica that dies is claimed again once its lease (real time,
// Redis's clock) runs out. Each step is one script. Keys under "<prefix>s:job:", inside the
// store's "s:", so a reset or snapshot import of the state drops the jobs with it (a customer's own
// clock has a queue of its own under "<prefix>s:job:c:<customerId>:", the same keys inside):
//   seq              job ids (16 digits: ids of equal due time sort in the order scheduled)
//   data, grp        hash id → the job's JSON, id → its group
//   g:<group>        sorted set: the group's jobs by due time (mock time)
//   due              sorted set: the first job of each group with none running, by due time
//   busy             hash group → the id of its running job
//   run              sorted set: running jobs by the end of their lease (real time)
//   claim            hash id → the token of the claim that holds it
//   runs             hash id → how many times the job was claimed
//   unique           hash of the unique keys of jobs scheduled (JobSpec.unique)
//   attempts         hash webhook message id → attempts made
//
// Why not BullMQ or Redis Streams: a BullMQ delay is counted in real time (Date.now()) and ordered
// groups are in BullMQ Pro only; a stream's consumer group hands entries to consumers without a
// due time and without one-at-a-time order per key. Here the mock clock decides what is due, and
// a subscription's deliveries go out one at a time in order.
import type { ClaimedJob, JobCounts, JobQueue, JobSpec, PendingJob } from '../job-queue';
import { unavailableOnLoss, type RedisClient } from './connection';

/**
 * The scripts' shared functions. `add` adds a job (group, dueAt, json, unique key or '') unless its
 * unique key was seen, and makes it its group's head in "due" when it comes first and the group is
 * idle; `forget` removes a job from every key that names it.
 */
const ADD = `
local function now_ms()
  local t = redis.call('TIME')
  return tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
end
local function head(p, group)
  local first = redis.call('ZRANGE', p .. 'g:' .. group, 0, 0, 'WITHSCORES')
  if first[1] then redis.call('ZADD', p .. 'due', first[2], first[1]) end
end
-- A job gone from every key that names it (done, or dropped with its group).
local function forget(p, group, id)
  redis.call('ZREM', p .. 'g:' .. group, id)
  redis.call('ZREM', p .. 'due', id)
  redis.call('ZREM', p .. 'run', id)
  redis.call('HDEL', p .. 'data', id)
  redis.call('HDEL', p .. 'grp', id)
  redis.call('HDEL', p .. 'claim', id)
  redis.call('HDEL', p .. 'runs', id)
end
local function add(p, group, dueAt, json, unique)
  if unique ~= '' and redis.call('HSETNX', p .. 'unique', unique, '1') == 0 then return end
  local id = string.format('%016d', redis.call('INCR', p .. 'seq'))
  redis.call('HSET', p .. 'data', id, json)
  redis.call('HSET', p .. 'grp', id, group)
  local g = p .. 'g:' .. group
  redis.call('ZADD', g, dueAt, id)
  if redis.call('HEXISTS', p .. 'busy', group) == 0 then
    local first = redis.call('ZRANGE', g, 0, 1)
    if first[1] == id then
      if first[2] then redis.call('ZREM', p .. 'due', first[2]) end
      redis.call('ZADD', p .. 'due', dueAt, id)
    end
  end
end`;

const SCRIPTS = {
  /** ARGV: prefix, n, then n times group, dueAt, json, unique key. */
  fosJobSchedule: `${ADD}
for i = 0, tonumber(ARGV[2]) - 1 do add(ARGV[1], ARGV[3 + i * 4], ARGV[4 + i * 4], ARGV[5 + i * 4], ARGV[6 + i * 4]) end
return 1`,
  /**
   * ARGV: prefix, now (mock), lease ms, claim token. Gives back the jobs whose lease ran out, then
   * claims the earliest due group head: { id, json, runs }, or nothing.
   */
  fosJobClaim: `${ADD}
local p = ARGV[1]
local real = now_ms()
for _, id in ipairs(redis.call('ZRANGEBYSCORE', p .. 'run', '-inf', real, 'LIMIT', 0, 100)) do
  redis.call('ZREM', p .. 'run', id)
  redis.call('HDEL', p .. 'claim', id)
  local group = redis.call('HGET', p .. 'grp', id)
  if group then
    redis.call('HDEL', p .. 'busy', group)
    head(p, group)
  end
end
local id = redis.call('ZRANGEBYSCORE', p .. 'due', '-inf', ARGV[2], 'LIMIT', 0, 1)[1]
if not id then return false end
redis.call('ZREM', p .. 'due', id)
redis.call('HSET', p .. 'busy', redis.call('HGET', p .. 'grp', id), id)
redis.call('ZADD', p .. 'run', string.format('%d', real + tonumber(ARGV[3])), id)
redis.call('HSET', p .. 'claim', id, ARGV[4])
return { id, redis.call('HGET', p .. 'data', id), redis.call('HINCRBY', p .. 'runs', id, 1) }`,
  /**
   * ARGV: prefix, id, claim token, whether a follow-up comes ('1' or '0'), then its group, dueAt,
   * json, unique key. 0 when the claim was lost.
   */
  fosJobDone: `${ADD}
local p, id = ARGV[1], ARGV[2]
if redis.call('HGET', p .. 'claim', id) ~= ARGV[3] then return 0 end
local group = redis.call('HGET', p .. 'grp', id)
forget(p, group, id)
redis.call('HDEL', p .. 'busy', group)
head(p, group)
if ARGV[4] == '1' then add(p, ARGV[5], ARGV[6], ARGV[7], ARGV[8]) end
return 1`,
  /** ARGV: prefix, id, claim token, lease ms. */
  fosJobRenew: `${ADD}
local p = ARGV[1]
if redis.call('HGET', p .. 'claim', ARGV[2]) ~= ARGV[3] then return 0 end
redis.call('ZADD', p .. 'run', 'XX', string.format('%d', now_ms() + tonumber(ARGV[4])), ARGV[2])
return 1`,
  /**
   * ARGV: prefix, limit, group ('' for all). The first `limit` jobs not completed by due time
   * (ties by id: the order scheduled), and how many there are: { total, id, dueAt, running, json, ... }.
   * Without a group it reads only the groups that can hold them: those of the first `limit` group
   * heads in "due", and the running ones (whose heads are not in "due"); a group whose head comes
   * later has no job among the first `limit`.
   */
  fosJobList: `
local p, limit, only = ARGV[1], tonumber(ARGV[2]), ARGV[3]
local groups, total = {}, 0
if only ~= '' then
  groups[only] = true
  total = redis.call('ZCARD', p .. 'g:' .. only)
else
  total = redis.call('HLEN', p .. 'data')
  for _, id in ipairs(redis.call('ZRANGE', p .. 'due', 0, limit - 1)) do
    local group = redis.call('HGET', p .. 'grp', id)
    if group then groups[group] = true end
  end
  for _, group in ipairs(redis.call('HKEYS', p .. 'busy')) do groups[group] = true end
end
local rows = {}
for group in pairs(groups) do
  local found = redis.call('ZRANGE', p .. 'g:' .. group, 0, limit - 1, 'WITHSCORES')
  for i = 1, #found, 2 do rows[#rows + 1] = { found[i], tonumber(found[i + 1]), group } end
end
table.sort(rows, function(a, b) if a[2] == b[2] then return a[1] < b[1] end return a[2] < b[2] end)
local out = { total }
for i = 1, math.min(#rows, limit) do
  local id, due, group = rows[i][1], rows[i][2], rows[i][3]
  out[#out + 1] = id
  out[#out + 1] = string.format('%d', due)
  out[#out + 1] = redis.call('HGET', p .. 'busy', group) == id and 1 or 0
  out[#out + 1] = redis.call('HGET', p .. 'data', id)
end
return out`,
  /** ARGV: prefix, group. Drops the group's jobs but the running one; answers how many. */
  fosJobDropGroup: `${ADD}
local p, group = ARGV[1], ARGV[2]
local busy = redis.call('HGET', p .. 'busy', group)
local dropped = 0
for _, id in ipairs(redis.call('ZRANGE', p .. 'g:' .. group, 0, -1)) do
  if id ~= busy then
    forget(p, group, id)
    dropped = dropped + 1
  end
end
return dropped`,
  /** ARGV: prefix. Deletes every key of the queue. */
  fosJobClear: `
local cursor = '0'
repeat
  local found = redis.call('SCAN', cursor, 'MATCH', ARGV[1] .. '*', 'COUNT', 1000)
  cursor = found[1]
  for _, key in ipairs(found[2]) do redis.call('UNLINK', key) end
until cursor == '0'
return 1`,
} as const;

type ScriptName = keyof typeof SCRIPTS;

export class RedisJobQueue implements JobQueue {
  private readonly keys: string;

  constructor(
    private readonly client: RedisClient,
    prefix: string,
    private readonly leaseMs: number,
    /**
     * A queue of its own inside the mock's (a customer's own clock: "c:<customerId>:"), whose
     * jobs fall due by that clock; the mock's queue's clear (a reset) drops it too.
     */
    namespace = '',
  ) {
    this.keys = `${prefix}s:job:${namespace}`;
    for (const [name, lua] of Object.entries(SCRIPTS)) client.defineCommand(name, { numberOfKeys: 0, lua });
  }

  private run(name: ScriptName, args: Array<string | number>): Promise<unknown> {
    const command = (this.client as unknown as Record<ScriptName, (...a: Array<string | number>) => Promise<unknown>>)[name];
    return unavailableOnLoss(command.call(this.client, this.keys, ...args));
  }

  async schedule(jobs: readonly JobSpec[]): Promise<void> {
    if (jobs.length === 0) return;
    await this.run('fosJobSchedule', [jobs.length, ...jobs.flatMap(encode)]);
  }

  async claim(now: number, claim: string): Promise<ClaimedJob | undefined> {
    const found = (await this.run('fosJobClaim', [now, this.leaseMs, claim])) as [string, string, number] | null;
    if (!found) return undefined;
    return { ...(JSON.parse(found[1]) as JobSpec), id: found[0], claim, runs: found[2] };
  }

  async complete(job: ClaimedJob, next?: JobSpec): Promise<boolean> {
    return (await this.run('fosJobDone', [job.id, job.claim, ...(next ? ['1', ...encode(next)] : ['0'])])) === 1;
  }

  async renew(job: ClaimedJob): Promise<boolean> {
    return (await this.run('fosJobRenew', [job.id, job.claim, this.leaseMs])) === 1;
  }

  async nextDueAt(): Promise<number | undefined> {
    const [, score] = await unavailableOnLoss(this.client.zrange(`${this.keys}due`, '0', '0', 'WITHSCORES'));
    return score === undefined ? undefined : Number(score);
  }

  async counts(): Promise<JobCounts> {
    const [all, running] = await Promise.all([
      unavailableOnLoss(this.client.hlen(`${this.keys}data`)),
      unavailableOnLoss(this.client.zcard(`${this.keys}run`)),
    ]);
    return { waiting: all - running, running };
  }

  async list(limit: number, group?: string): Promise<{ total: number; jobs: PendingJob[] }> {
    const [total, ...flat] = (await this.run('fosJobList', [limit, group ?? ''])) as [number, ...Array<string | number>];
    const jobs: PendingJob[] = [];
    for (let i = 0; i + 3 < flat.length; i += 4) {
      const spec = JSON.parse(String(flat[i + 3])) as JobSpec;
      jobs.push({ ...spec, id: String(flat[i]), dueAt: Number(flat[i + 1]), running: flat[i + 2] === 1 });
    }
    return { total, jobs };
  }

  async clear(): Promise<void> {
    await this.run('fosJobClear', []);
  }

  async dropGroup(group: string): Promise<number> {
    return (await this.run('fosJobDropGroup', [group])) as number;
  }

  nextAttempt(messageId: string): Promise<number> {
    return unavailableOnLoss(this.client.hincrby(`${this.keys}attempts`, messageId, 1));
  }

  async attemptsMade(messageId: string): Promise<number> {
    return Number((await unavailableOnLoss(this.client.hget(`${this.keys}attempts`, messageId))) ?? 0);
  }

  async setAttemptsMade(messageId: string, made: number): Promise<void> {
    await unavailableOnLoss(this.client.hset(`${this.keys}attempts`, messageId, made));
  }
}

function encode(spec: JobSpec): Array<string | number> {
  return [spec.group, spec.dueAt, JSON.stringify(spec), spec.unique ?? ''];
}
