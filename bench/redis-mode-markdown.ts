// The Redis-mode benchmark's section of results/latest.md.
import { tableRow } from './lib/markdown';
import {
  MEMORY,
  ON_REDIS,
  P99_TARGET_CONNECTIONS,
  P99_TARGET_MS,
  THROUGHPUT_TARGET,
  type RedisModeResult,
  type RedisModeRow,
  type Target,
} from './redis-mode';

/** The memory mock's CPU per request over the Redis one's, for one benchmark and connection count. */
function cpuRatio(rows: RedisModeRow[], benchmark: string, connections: number): string {
  const cpu = (target: Target) =>
    rows.find((r) => r.target === target && r.benchmark === benchmark && r.connections === connections)?.mockCpuUs;
  const memory = cpu(MEMORY);
  const redis = cpu(ON_REDIS);
  return memory && redis ? (memory / redis).toFixed(2) : '-';
}

const fixed = (value: number | null, digits = 2) => (value === null ? '-' : value.toFixed(digits));

export function redisModeMarkdown(result: RedisModeResult): string[] {
  const lines = [
    '## Redis mode',
    '',
    `fos-mock (compiled, strict responses on) in memory against one replica on Redis (redis-server ${result.redisVersion}, fresh, ` +
      `loopback, append-only file off), the same fixtures; ${result.rounds} rounds of ${result.durationS} s per target, targets ` +
      'alternating; medians. The load generator, the mock and redis-server share the machine’s cores. ' +
      'CPU per request is over all rounds (user + system, /proc/<pid>/stat); CPU % is of one core while the load ran.',
    '',
    tableRow([
      'benchmark',
      'connections',
      'target',
      'req/s',
      'mean latency ms',
      'p50 ms',
      'p99 ms',
      'non-2xx',
      'mock CPU µs/req',
      'redis CPU µs/req',
      'mock CPU %',
      'redis CPU %',
      'load generator CPU %',
      'peak MB',
    ]),
    '|---|---|---|---|---|---|---|---|---|---|---|---|---|---|',
    ...result.rows.map((r) =>
      tableRow([
        r.benchmark,
        r.connections,
        r.target,
        r.rps.toFixed(0),
        r.latencyMs.toFixed(2),
        r.p50,
        r.p99,
        r.non2xx,
        r.mockCpuUs.toFixed(0),
        fixed(r.redisCpuUs, 0),
        r.mockCpuPct.toFixed(0),
        fixed(r.redisCpuPct, 0),
        r.loadCpuPct.toFixed(0),
        r.peakMb.toFixed(0),
      ]),
    ),
    '',
    tableRow([
      'benchmark',
      'connections',
      'Redis ÷ memory req/s',
      `≥ ${THROUGHPUT_TARGET}×`,
      'memory ÷ Redis mock CPU per request (the req/s ratio when the mock is the bottleneck)',
      'p99 ms memory / Redis',
      `Redis p99 < ${P99_TARGET_MS} ms (at ${P99_TARGET_CONNECTIONS} connections)`,
    ]),
    '|---|---|---|---|---|---|---|',
    ...result.ratios.map((r) =>
      tableRow([
        r.benchmark,
        r.connections,
        r.rps.toFixed(2),
        r.throughputMet ? 'met' : 'missed',
        cpuRatio(result.rows, r.benchmark, r.connections),
        `${r.p99Memory} / ${r.p99Redis}`,
        r.p99Met === null ? '-' : r.p99Met ? 'met' : 'missed',
      ]),
    ),
    '',
    'Redis commands per request over the timed runs (INFO commandstats; the commands scripts run are counted too, and a ' +
      'script’s time includes theirs):',
    '',
    tableRow([
      'benchmark',
      'connections',
      'requests',
      'commands per request',
      'bytes to / from Redis per request',
      'top commands (calls per request, µs in Redis per request)',
    ]),
    '|---|---|---|---|---|---|',
    ...result.commands.map((c) =>
      tableRow([
        c.benchmark,
        c.connections,
        c.requests,
        c.perRequest.toFixed(2),
        `${c.bytesInPerRequest.toFixed(0)} / ${c.bytesOutPerRequest.toFixed(0)}`,
        c.commands
          .slice(0, 6)
          .map((command) => `${command.command} ${command.perRequest.toFixed(2)} (${command.usPerRequest.toFixed(1)} µs)`)
          .join(', '),
      ]),
    ),
    '',
    `Traced on one connection for ${result.traceS} s per endpoint (MONITOR): the commands the mock sends (a script call is one) ` +
      'and those its scripts run, and the reads redis-server makes, each a batch the mock wrote (auto-pipelining): the round ' +
      `trips. With no request, the mock sends ${result.idle.commandsPerS.toFixed(1)} commands/s and redis-server reads ` +
      `${result.idle.readsPerS.toFixed(1)} times/s (its timers); both taken off.`,
    '',
    tableRow([
      'benchmark',
      'requests',
      'commands sent per request',
      'run in scripts per request',
      'round trips (Redis reads) per request',
      'per command and key: sent / in scripts per request (bytes sent)',
    ]),
    '|---|---|---|---|---|---|',
    ...result.traces.map((t) =>
      tableRow([
        t.benchmark,
        t.requests,
        t.sentPerRequest.toFixed(2),
        t.inScriptsPerRequest.toFixed(2),
        t.readsPerRequest.toFixed(2),
        t.commands
          .map((c) => `${c.command} ${c.sent.toFixed(2)} / ${c.inScripts.toFixed(2)}${c.sent > 0 ? ` (${c.bytesSent.toFixed(0)} B)` : ''}`)
          .join(', '),
      ]),
    ),
    '',
    `redis-server peak RSS ${result.redisPeakMb.toFixed(0)} MB, ${result.redisUsedMb.toFixed(0)} MB used at the end.`,
  ];
  return lines;
}
