// The Redis mode: what keeping the state in Redis costs. The same fos-mock (compiled dist, strict
// responses on, as shipped) once in memory and once as one replica on a fresh redis-server
// (started here, loopback, append-only file off), asked for a page of accounts and for quotes,
// targets alternating over several rounds, medians. Besides req/s and latency, where the time
// goes: Redis commands per request (INFO commandstats before and after each timed run, scripts'
// own commands included), the CPU time of the mock and of redis-server per request
// (/proc/<pid>/stat), and a traced run on one connection (MONITOR) that tells the commands the
// mock sends from those its scripts run, and counts the reads redis-server makes (/proc/<pid>/io).
// Its probes are in lib/redis-probes.ts and its Markdown in redis-mode-markdown.ts.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { load, median, serviceRequests, type LoadRequest, type LoadResult } from './lib/load';
import { freePort, memoryOf, startServer, type Server } from './lib/processes';
import { benchFixtures, fosMock, fosMockOnRedis, tokenFrom } from './lib/targets';
import { add, cpuSeconds, keyShape, mockClients, readCalls, redisStats, scriptNames, sha1, type CommandTally } from './lib/redis-probes';
import { startRedisServer } from '../test/support/redis-server';

export interface RedisModeOptions {
  durationS: number;
  rounds: number;
  connections: number[];
  /** Seconds of the traced run (one connection, MONITOR on) per endpoint. */
  traceS?: number;
}

const LIST = 'GET /api/accounts?limit=10';
const QUOTE = 'POST /v1/quotes';
const ENDPOINTS = { list: LIST, quote: QUOTE } as const;
type Endpoint = keyof typeof ENDPOINTS;
export const MEMORY = 'fos-mock in memory';
export const ON_REDIS = 'fos-mock on Redis (1 replica)';
export type Target = typeof MEMORY | typeof ON_REDIS;

/** The targets: Redis throughput at least this share of memory's, and its p99 under this at 10 connections. */
export const THROUGHPUT_TARGET = 0.5;
export const P99_TARGET_MS = 20;
export const P99_TARGET_CONNECTIONS = 10;
/** Commands the bench itself sends to Redis (INFO, CLIENT LIST, MONITOR…): not the mock's. */
const BENCH_COMMANDS = new Set(['info', 'client|list', 'client|setname', 'monitor', 'config|resetstat', 'ping']);

export interface RedisModeRow {
  benchmark: string;
  target: Target;
  connections: number;
  rps: number;
  p50: number;
  p99: number;
  /** Mean latency by Little's law (connections ÷ req/s), beside the percentiles (lib/load.ts, to 0.01 ms). */
  latencyMs: number;
  non2xx: number;
  /** Requests answered over all rounds. */
  requests: number;
  /** CPU time (user + system) per request, µs, over all rounds: the mock's process, and redis-server's (Redis target only). */
  mockCpuUs: number;
  redisCpuUs: number | null;
  /** Share of one core while the load ran: the mock, redis-server, and the load generator (this process). */
  mockCpuPct: number;
  redisCpuPct: number | null;
  loadCpuPct: number;
  peakMb: number;
}

export interface RedisModeRatio {
  benchmark: string;
  connections: number;
  /** Redis req/s ÷ memory req/s (medians). */
  rps: number;
  p99Memory: number;
  p99Redis: number;
  throughputMet: boolean;
  /** Only judged at 10 connections. */
  p99Met: boolean | null;
}

export interface CommandCount {
  command: string;
  perRequest: number;
  /** Time Redis spent in it per request, µs (a script's own time includes the commands it ran). */
  usPerRequest: number;
}

/** From INFO commandstats over every timed Redis run of one benchmark and connection count. */
export interface RedisCommands {
  benchmark: string;
  connections: number;
  requests: number;
  /** Every command Redis executed, the ones scripts ran included, per request. */
  perRequest: number;
  commands: CommandCount[];
  /** Bytes Redis received from and sent to its clients per request (INFO stats total_net_input/output_bytes). */
  bytesInPerRequest: number;
  bytesOutPerRequest: number;
}

/** The traced run: one connection, MONITOR on, so each command is seen once and tagged by who sent it. */
export interface RedisTrace {
  benchmark: string;
  requests: number;
  /** Commands the mock sent (a script call counts one), per request. */
  sentPerRequest: number;
  /** Commands run inside scripts, per request. */
  inScriptsPerRequest: number;
  /** Reads redis-server made per request (each one batch the mock wrote): the round trips. */
  readsPerRequest: number;
  /** Per command (a script by its name): sent by the mock and run in scripts, per request, and the bytes of the arguments sent. */
  commands: Array<{ command: string; sent: number; inScripts: number; bytesSent: number }>;
}

export interface RedisModeResult {
  durationS: number;
  rounds: number;
  traceS: number;
  redisVersion: string;
  rows: RedisModeRow[];
  ratios: RedisModeRatio[];
  commands: RedisCommands[];
  traces: RedisTrace[];
  /** The mock's Redis traffic with no request, and redis-server's reads (its own timers included), per second. */
  idle: { commandsPerS: number; readsPerS: number };
  redisPeakMb: number;
  redisUsedMb: number;
}

interface Sample {
  result: LoadResult;
  wallS: number;
  mockCpuS: number;
  redisCpuS: number;
  loadCpuS: number;
}

export async function redisMode(options: RedisModeOptions): Promise<RedisModeResult> {
  const traceS = options.traceS ?? Math.min(options.durationS, 3);
  const dir = mkdtempSync(join(tmpdir(), 'fos-bench-redis-'));
  const fixtures = benchFixtures(dir);
  const redisServer = await startRedisServer({ appendonly: false });
  const admin = new Redis(redisServer.url, { protocol: 2, connectionName: 'fos-bench:admin', maxRetriesPerRequest: 1 });
  admin.on('error', () => undefined);
  const servers: Server[] = [];
  try {
    const serverInfo = await admin.info('server');
    const redisPid = Number(/^process_id:(\d+)/m.exec(serverInfo)?.[1]);
    const redisVersion = /^redis_version:(\S+)/m.exec(serverInfo)?.[1] ?? '?';
    if (!redisPid) throw new Error('redis-server did not tell its process id (INFO server)');
    const byTarget = new Map<Target, Server>();
    for (const spec of [
      fosMock(MEMORY, await freePort(), fixtures, true),
      fosMockOnRedis(ON_REDIS, await freePort(), fixtures, true, redisServer.url),
    ]) {
      const server = await startServer(spec);
      servers.push(server);
      byTarget.set(spec.name as Target, server);
    }

    // Each target's own token and account (the same fixture file, so the same accounts).
    const requests = new Map<Target, Record<Endpoint, LoadRequest>>();
    for (const [target, server] of byTarget) {
      const token = await tokenFrom(server.url);
      const page = (await (
        await fetch(`${server.url}/api/accounts?limit=10`, { headers: { authorization: `Bearer ${token}` } })
      ).json()) as {
        data: Array<{ id: string }>;
      };
      const accountId = page.data[0]?.id;
      if (!accountId) throw new Error(`${target}: no account on the first page`);
      requests.set(target, serviceRequests(token, accountId));
    }

    const samples = new Map<string, Sample[]>();
    const commandCalls = new Map<string, CommandTally>();
    const targets = [MEMORY, ON_REDIS] as const;
    for (let round = 0; round < options.rounds; round++) {
      for (const connections of options.connections) {
        for (const endpoint of ['list', 'quote'] as const) {
          // Alternate the order each round so neither target always runs on a warmer machine.
          for (const target of round % 2 === 0 ? targets : [...targets].reverse()) {
            const server = byTarget.get(target) as Server;
            const request = (requests.get(target) as Record<Endpoint, LoadRequest>)[endpoint];
            const onRedis = target === ON_REDIS;
            const statsBefore = onRedis ? await redisStats(admin) : undefined;
            const mockBefore = cpuSeconds(server.child.pid);
            const redisBefore = cpuSeconds(redisPid);
            const loadBefore = process.cpuUsage();
            const started = process.hrtime.bigint();
            const result = await load(server.url, request, connections, options.durationS);
            const wallS = Number(process.hrtime.bigint() - started) / 1e9;
            const loadUsage = process.cpuUsage(loadBefore);
            const sample: Sample = {
              result,
              wallS,
              mockCpuS: cpuSeconds(server.child.pid) - mockBefore,
              redisCpuS: cpuSeconds(redisPid) - redisBefore,
              loadCpuS: (loadUsage.user + loadUsage.system) / 1e6,
            };
            const key = `${endpoint}\u0000${target}\u0000${connections}`;
            samples.set(key, [...(samples.get(key) ?? []), sample]);
            if (statsBefore) {
              const after = await redisStats(admin);
              const entry = commandCalls.get(`${endpoint}\u0000${connections}`) ?? {
                requests: 0,
                calls: new Map<string, number>(),
                usec: new Map<string, number>(),
                bytesIn: 0,
                bytesOut: 0,
              };
              entry.requests += result.ok + result.non2xx;
              entry.bytesIn += after.bytesIn - statsBefore.bytesIn;
              entry.bytesOut += after.bytesOut - statsBefore.bytesOut;
              for (const [command, now] of after.commands) {
                if (BENCH_COMMANDS.has(command)) continue;
                const then = statsBefore.commands.get(command) ?? { calls: 0, usec: 0 };
                if (now.calls > then.calls) add(entry.calls, command, now.calls - then.calls);
                if (now.usec > then.usec) add(entry.usec, command, now.usec - then.usec);
              }
              commandCalls.set(`${endpoint}\u0000${connections}`, entry);
            }
          }
        }
      }
    }

    const rows: RedisModeRow[] = [];
    for (const [key, list] of samples) {
      const [endpoint, target, connections] = key.split('\u0000') as [Endpoint, Target, string];
      const server = byTarget.get(target) as Server;
      const requestsMade = list.reduce((sum, s) => sum + s.result.ok + s.result.non2xx, 0);
      const wall = list.reduce((sum, s) => sum + s.wallS, 0);
      const total = (pick: (s: Sample) => number) => list.reduce((sum, s) => sum + pick(s), 0);
      const rps = median(list.map((s) => s.result.rps));
      rows.push({
        benchmark: ENDPOINTS[endpoint],
        target,
        connections: Number(connections),
        rps,
        p50: median(list.map((s) => s.result.p50)),
        p99: median(list.map((s) => s.result.p99)),
        latencyMs: rps > 0 ? (Number(connections) / rps) * 1000 : 0,
        non2xx: list.reduce((sum, s) => sum + s.result.non2xx + s.result.errors, 0),
        requests: requestsMade,
        mockCpuUs: requestsMade > 0 ? (total((s) => s.mockCpuS) / requestsMade) * 1e6 : 0,
        redisCpuUs: target === ON_REDIS && requestsMade > 0 ? (total((s) => s.redisCpuS) / requestsMade) * 1e6 : null,
        mockCpuPct: (total((s) => s.mockCpuS) / wall) * 100,
        redisCpuPct: target === ON_REDIS ? (total((s) => s.redisCpuS) / wall) * 100 : null,
        loadCpuPct: (total((s) => s.loadCpuS) / wall) * 100,
        peakMb: memoryOf(server.child.pid).peakMb,
      });
    }
    rows.sort((a, b) => a.benchmark.localeCompare(b.benchmark) || a.connections - b.connections || a.target.localeCompare(b.target));

    const ratios: RedisModeRatio[] = [];
    for (const row of rows.filter((r) => r.target === ON_REDIS)) {
      const memory = rows.find((r) => r.target === MEMORY && r.benchmark === row.benchmark && r.connections === row.connections);
      if (!memory) continue;
      const rps = memory.rps > 0 ? row.rps / memory.rps : 0;
      ratios.push({
        benchmark: row.benchmark,
        connections: row.connections,
        rps,
        p99Memory: memory.p99,
        p99Redis: row.p99,
        throughputMet: rps >= THROUGHPUT_TARGET,
        p99Met: row.connections === P99_TARGET_CONNECTIONS ? row.p99 < P99_TARGET_MS : null,
      });
    }

    const names = scriptNames();
    const commands: RedisCommands[] = [];
    for (const [key, entry] of commandCalls) {
      const [endpoint, connections] = key.split('\u0000') as [Endpoint, string];
      const per = (n: number) => (entry.requests > 0 ? n / entry.requests : 0);
      const list = [...entry.calls].map(([command, calls]) => ({
        command,
        perRequest: per(calls),
        usPerRequest: per(entry.usec.get(command) ?? 0),
      }));
      list.sort((a, b) => b.perRequest - a.perRequest || b.usPerRequest - a.usPerRequest);
      commands.push({
        benchmark: ENDPOINTS[endpoint],
        connections: Number(connections),
        requests: entry.requests,
        perRequest: list.reduce((sum, c) => sum + c.perRequest, 0),
        commands: list,
        bytesInPerRequest: per(entry.bytesIn),
        bytesOutPerRequest: per(entry.bytesOut),
      });
    }
    commands.sort((a, b) => a.benchmark.localeCompare(b.benchmark) || a.connections - b.connections);

    // The traced runs, after the timed ones (MONITOR slows Redis down).
    const onRedis = byTarget.get(ON_REDIS) as Server;
    const { idle, traces } = await trace(admin, redisPid, onRedis, requests.get(ON_REDIS) as Record<Endpoint, LoadRequest>, traceS, names);
    const memoryInfo = await admin.info('memory');
    return {
      durationS: options.durationS,
      rounds: options.rounds,
      traceS,
      redisVersion,
      rows,
      ratios,
      commands,
      traces,
      idle,
      redisPeakMb: memoryOf(redisPid).peakMb,
      redisUsedMb: Number(/^used_memory:(\d+)/m.exec(memoryInfo)?.[1] ?? 0) / 2 ** 20,
    };
  } finally {
    admin.disconnect();
    await Promise.all(servers.map((s) => s.stop()));
    await redisServer.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

async function trace(
  admin: Redis,
  redisPid: number,
  server: Server,
  requests: Record<Endpoint, LoadRequest>,
  traceS: number,
  names: Map<string, string>,
): Promise<{ idle: RedisModeResult['idle']; traces: RedisTrace[] }> {
  const clients = await mockClients(admin);
  const monitor = await admin.monitor();
  let sent = new Map<string, number>();
  let inScripts = new Map<string, number>();
  let bytesSent = new Map<string, number>();
  monitor.on('monitor', (_time: string, args: string[], source: string) => {
    const name = (args[0] ?? '?').toLowerCase();
    // A command with the key it acts on, ids left out: which part of the mock sent it.
    const withKey = args[1] === undefined || name === 'multi' || name === 'exec' ? name : `${name} ${keyShape(args[1])}`;
    if (source === 'lua') return add(inScripts, withKey);
    if (!clients.has(source)) return;
    const script =
      name === 'evalsha' || name === 'eval' ? names.get(name === 'evalsha' ? (args[1] ?? '') : sha1(args[1] ?? '')) : undefined;
    const label = script ? `${name} ${script}` : withKey;
    add(sent, label);
    add(
      bytesSent,
      label,
      args.reduce((sum, arg) => sum + Buffer.byteLength(arg), 0),
    );
  });
  const reset = () => {
    sent = new Map();
    inScripts = new Map();
    bytesSent = new Map();
  };
  const total = (counts: Map<string, number>) => [...counts.values()].reduce((sum, n) => sum + n, 0);
  try {
    // Idle first: what the mock sends, and redis-server reads, with no request at all.
    const idleS = 2;
    reset();
    let reads = readCalls(redisPid);
    await new Promise((resolve) => setTimeout(resolve, idleS * 1000));
    const idle = { commandsPerS: total(sent) / idleS, readsPerS: (readCalls(redisPid) - reads) / idleS };
    const traces: RedisTrace[] = [];
    for (const endpoint of ['list', 'quote'] as const) {
      reset();
      reads = readCalls(redisPid);
      const started = process.hrtime.bigint();
      const result = await load(server.url, requests[endpoint], 1, traceS);
      const wallS = Number(process.hrtime.bigint() - started) / 1e9;
      // MONITOR lines still on their way.
      await new Promise((resolve) => setTimeout(resolve, 200));
      const made = result.ok + result.non2xx;
      const per = (n: number) => (made > 0 ? n / made : 0);
      const readsMade = Math.max(0, readCalls(redisPid) - reads - idle.readsPerS * wallS);
      const commandNames = [...new Set([...sent.keys(), ...inScripts.keys()])];
      const commands = commandNames.map((command) => ({
        command,
        sent: per(sent.get(command) ?? 0),
        inScripts: per(inScripts.get(command) ?? 0),
        bytesSent: per(bytesSent.get(command) ?? 0),
      }));
      commands.sort((a, b) => b.sent + b.inScripts - (a.sent + a.inScripts));
      traces.push({
        benchmark: ENDPOINTS[endpoint],
        requests: made,
        sentPerRequest: per(Math.max(0, total(sent) - idle.commandsPerS * wallS)),
        inScriptsPerRequest: per(total(inScripts)),
        readsPerRequest: per(readsMade),
        commands,
      });
    }
    return { idle, traces };
  } finally {
    monitor.disconnect();
  }
}
