// `npm run bench`: runs the benchmarks and writes bench/results/latest.json and latest.md.
// Knobs (environment), for a quick smoke run or a subset:
//   BENCH_ONLY                   which to run: throughput,scaling,webhooks,suite,explore,redis,container,soak (default all but
//                                soak). The sections not run keep their last results in latest.json/.md.
//   BENCH_DURATION, BENCH_ROUNDS seconds per load run (default 5) and rounds (default 3), for all.
//   BENCH_SCALING_SIZES          operations stored (default 1000,100000,1000000).
//   BENCH_SCALING_CONNECTIONS    connections of the scaling runs (default 10).
//   BENCH_WEBHOOK_SUBSCRIPTIONS  subscription counts (default 1,10,100).
//   BENCH_WEBHOOK_DELIVERIES     deliveries per burst (default 10000).
//   BENCH_WEBHOOK_RATE           deliveries a second in the paced phase (default 1000).
//   BENCH_SUITE_ROUNDS           contract-suite runs (default BENCH_ROUNDS).
//   BENCH_EXPLORE_RUNS           explore's generated runs per seed (default 200).
//   BENCH_REDIS_CONNECTIONS      connections of the Redis-mode runs (default 10,50).
//   SOAK_DURATION_S, SOAK_RESET_EVERY_S, SOAK_LOOPS  the soak: length (1800), reset period (180), client loops (8).
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus, totalmem } from 'node:os';
import { projectPath } from '../spec/project-root';
import { containerBench, containerMarkdown, type ContainerResult } from './container';
import { exploreBench, exploreMarkdown, type ExploreBenchResult } from './explore';
import { tableRow } from './lib/markdown';
import { redisMode, type RedisModeResult } from './redis-mode';
import { redisModeMarkdown } from './redis-mode-markdown';
import { scaling, scalingMarkdown, type ScalingResult } from './scaling';
import { soak, soakMarkdown, type SoakResult } from './soak';
import { suiteMarkdown, suiteTime, type SuiteResult } from './suite-time';
import { throughput, WARM_UP_S, type Row } from './throughput';
import { webhookMarkdown, webhooks, type WebhookResult } from './webhooks';

const BENCHMARKS = ['throughput', 'scaling', 'webhooks', 'suite', 'explore', 'redis', 'container', 'soak'] as const;
type Benchmark = (typeof BENCHMARKS)[number];
/** What `npm run bench` runs when BENCH_ONLY does not say: all but the half-hour soak (BENCH_ONLY=soak). */
const DEFAULT_BENCHMARKS: readonly Benchmark[] = BENCHMARKS.filter((b) => b !== 'soak');

/** Each new section carries the machine and settings it ran with: a subset run keeps the others. */
type Section<T> = T & { machine: string; at: string };

interface Results {
  // Benchmarks 1, 2 and 5 (throughput.ts), at the top level as before.
  machine?: string;
  durationS?: number;
  rounds?: number;
  /** Seconds of unmeasured load per target and endpoint before the rounds (absent: a run made without). */
  warmUpS?: number;
  rows?: Row[];
  startup?: Array<{ target: string; startupMs: number; idleMb: number }>;
  scaling?: Section<ScalingResult>;
  webhooks?: Section<WebhookResult>;
  suite?: Section<SuiteResult>;
  explore?: Section<ExploreBenchResult>;
  redis?: Section<RedisModeResult>;
  container?: Section<ContainerResult>;
  soak?: Section<SoakResult>;
}

function ratioTable(rows: Row[]): string[] {
  const lines = [
    '| benchmark | connections | target | req/s | p50 ms | p99 ms | peak MB | non-2xx | × prism as shipped | × prism silent | × mockoon |',
    '|---|---|---|---|---|---|---|---|---|---|---|',
  ];
  for (const row of rows) {
    const peer = (name: string) =>
      rows.find((r) => r.benchmark === row.benchmark && r.connections === row.connections && r.target === name);
    const ratio = (name: string) => {
      const other = peer(name);
      return other && other.rps > 0 ? (row.rps / other.rps).toFixed(2) : '-';
    };
    lines.push(
      tableRow([
        row.benchmark,
        row.connections,
        row.target,
        row.rps.toFixed(0),
        row.p50,
        row.p99,
        row.peakMb.toFixed(0),
        row.non2xx,
        ratio('prism (as shipped)'),
        ratio('prism (-v silent)'),
        ratio('mockoon (as shipped)'),
      ]),
    );
  }
  return lines;
}

function markdown(results: Results): string {
  const lines = ['# fos-mock benchmarks', ''];
  if (results.rows && results.startup) {
    const warmUp = results.warmUpS ? ` after a ${results.warmUpS} s warm-up` : '';
    lines.push(
      `Machine: ${results.machine}. ${results.rounds} rounds of ${results.durationS} s per target${warmUp}, targets alternating; medians.`,
      '',
      ...ratioTable(results.rows),
      '',
    );
    lines.push(
      '| start-up (launch to first answer) | ms | idle RSS MB |',
      '|---|---|---|',
      ...results.startup.map((s) => `| ${s.target} | ${s.startupMs.toFixed(0)} | ${s.idleMb.toFixed(0)} |`),
      '',
    );
  }
  const section = (body: string[], meta: { machine: string; at: string }) => {
    const [heading, ...rest] = body;
    lines.push(heading as string, '', `Machine: ${meta.machine}. Run ${meta.at}.`, ...rest, '');
  };
  if (results.scaling) section(scalingMarkdown(results.scaling), results.scaling);
  if (results.webhooks) section(webhookMarkdown(results.webhooks), results.webhooks);
  if (results.suite) section(suiteMarkdown(results.suite), results.suite);
  if (results.explore) section(exploreMarkdown(results.explore), results.explore);
  if (results.redis) section(redisModeMarkdown(results.redis), results.redis);
  if (results.container) section(containerMarkdown(results.container), results.container);
  if (results.soak) section(soakMarkdown(results.soak), results.soak);
  return lines.join('\n');
}

const list = (value: string | undefined, fallback: number[]) =>
  value
    ? value
        .split(',')
        .map((v) => Number(v.trim()))
        .filter((v) => Number.isFinite(v) && v > 0)
    : fallback;

function previousResults(file: string): Results {
  if (!existsSync(file)) return {};
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as Results;
  } catch {
    return {};
  }
}

async function main() {
  const durationS = Number(process.env.BENCH_DURATION ?? 5);
  const rounds = Number(process.env.BENCH_ROUNDS ?? 3);
  const only = (process.env.BENCH_ONLY ?? DEFAULT_BENCHMARKS.join(',')).split(',').map((b) => b.trim());
  const unknown = only.filter((b) => !BENCHMARKS.includes(b as Benchmark));
  if (unknown.length > 0) throw new Error(`BENCH_ONLY: unknown ${unknown.join(', ')} (known: ${BENCHMARKS.join(', ')})`);
  const runs = (b: Benchmark) => only.includes(b);
  const machine = `${cpus().length} × ${cpus()[0]?.model ?? 'cpu'}, ${(totalmem() / 2 ** 30).toFixed(0)} GiB, Node ${process.version}`;
  const at = new Date().toISOString().slice(0, 16).replace('T', ' ');
  process.stdout.write(`fos-mock benchmarks on ${machine}: ${only.join(', ')}; ${rounds} rounds of ${durationS} s\n`);

  const jsonFile = projectPath('bench', 'results', 'latest.json');
  const results = previousResults(jsonFile);
  // Why a run is invalid: a benchmark that saw errors is not measuring what it claims.
  const problems: string[] = [];
  if (runs('throughput')) {
    const { rows, startup } = await throughput({ durationS, rounds, connections: [10, 50] });
    rows.sort((a, b) => a.benchmark.localeCompare(b.benchmark) || a.connections - b.connections || b.rps - a.rps);
    Object.assign(results, { machine, durationS, rounds, warmUpS: WARM_UP_S, rows, startup });
    for (const r of rows.filter((row) => row.non2xx > 0))
      problems.push(`non-2xx answers from ${r.target} (${r.benchmark}, ${r.connections} conn)`);
  }
  if (runs('scaling')) {
    const sizes = list(process.env.BENCH_SCALING_SIZES, [1_000, 100_000, 1_000_000]);
    const result = await scaling({ sizes, durationS, rounds, connections: Number(process.env.BENCH_SCALING_CONNECTIONS ?? 10) });
    results.scaling = { machine, at, ...result };
    for (const r of result.rows.filter((row) => row.non2xx > 0))
      problems.push(`non-2xx answers in scaling (${r.benchmark}, ${r.size} operations)`);
  }
  if (runs('webhooks')) {
    const result = await webhooks({
      subscriptions: list(process.env.BENCH_WEBHOOK_SUBSCRIPTIONS, [1, 10, 100]),
      deliveries: Number(process.env.BENCH_WEBHOOK_DELIVERIES ?? 10_000),
      perSecond: Number(process.env.BENCH_WEBHOOK_RATE ?? 1_000),
      durationS,
      rounds,
    });
    results.webhooks = { machine, at, ...result };
    for (const r of result.rows.filter((row) => row.missing > 0))
      problems.push(`${r.missing} webhook deliveries never arrived (${r.subscriptions} subscriptions)`);
  }
  if (runs('suite')) {
    const result = await suiteTime(Number(process.env.BENCH_SUITE_ROUNDS ?? rounds));
    results.suite = { machine, at, ...result };
    if (result.failedRounds > 0) problems.push(`the contract suite failed in ${result.failedRounds} round(s)`);
  }
  if (runs('explore')) {
    const result = await exploreBench({ rounds, runs: Number(process.env.BENCH_EXPLORE_RUNS ?? 200) });
    results.explore = { machine, at, ...result };
    if (result.shrink.some((r) => !r.found)) problems.push('explore missed the quote-usable-twice break in a shrink round');
  }
  if (runs('redis')) {
    const result = await redisMode({ durationS, rounds, connections: list(process.env.BENCH_REDIS_CONNECTIONS, [10, 50]) });
    results.redis = { machine, at, ...result };
    for (const r of result.rows.filter((row) => row.non2xx > 0))
      problems.push(`non-2xx answers from ${r.target} (${r.benchmark}, ${r.connections} conn)`);
    // The targets are goals to report, not validity: a miss does not make the run invalid.
    for (const r of result.ratios) {
      const p99 = r.p99Met === null ? '' : `, p99 ${r.p99Redis} ms < 20 ms ${r.p99Met ? 'met' : 'MISSED'}`;
      const rps = `${r.rps.toFixed(2)}× memory req/s ≥ 0.5× ${r.throughputMet ? 'met' : 'MISSED'}`;
      process.stdout.write(`Redis mode, ${r.benchmark} at ${r.connections} connections: ${rps}${p99}\n`);
    }
  }

  if (runs('container')) {
    const result = await containerBench(rounds);
    if (result) results.container = { machine, at, ...result };
  }

  if (runs('soak')) {
    const result = await soak({
      durationS: Number(process.env.SOAK_DURATION_S ?? 1800),
      resetEveryS: Number(process.env.SOAK_RESET_EVERY_S ?? 180),
      loops: Number(process.env.SOAK_LOOPS ?? 8),
    });
    results.soak = { machine, at, ...result };
    if (result.failures > 0) problems.push(`${result.failures} soak requests answered 5xx or not at all`);
    process.stdout.write(
      `Soak: worst reset level ${(result.worstGrowth * 100).toFixed(1)}% over the first: ${result.met ? 'met' : 'MISSED'}\n`,
    );
  }

  // The JSON first: the numbers are kept even if rendering them fails.
  writeFileSync(jsonFile, JSON.stringify(results, null, 2) + '\n');
  const md = markdown(results);
  writeFileSync(projectPath('bench', 'results', 'latest.md'), md);
  process.stdout.write(md);
  if (problems.length > 0) {
    process.stderr.write(`\nINVALID: ${problems.join('; ')}\n`);
    process.exit(1);
  }
}

main().catch((error) => {
  process.stderr.write(`bench failed: ${(error as Error).stack}\n`);
  process.exit(1);
});
