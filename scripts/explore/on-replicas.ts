// Explore with no false alarms, and the mock as one service on Redis: explore runs for --time
// against (1) the in-process mock on memory, (2) two replicas on one Redis behind a round-robin
// balancer, each step compared with an in-process memory mock (--compare-with). Any failure or
// difference is a false alarm or a fidelity break of the replicas: exit 1. Without redis-server:
// part 2 fails under CI=true, else is SKIPPED with one line.
//
//   npx tsx scripts/explore/on-replicas.ts [--time 10m] [--seed N]
import { startLocalMock } from '../../mock/cli/local-mock';
import { parseDuration } from '../../mock/domain/duration';
import { explore, formatReport, type ExploreReport } from '../../mock/explore';
import { redisServerPath, startRedisServer } from '../../test/support/redis-server';
import { startReplicas } from '../../test/support/replicas';
import { startRoundRobin } from '../../test/support/round-robin';
import { runMain } from '../contract/lib';

function argValue(name: string): string | undefined {
  const at = process.argv.indexOf(name);
  return at >= 0 ? process.argv[at + 1] : undefined;
}

async function search(url: string, seed: number, timeMs: number, compareWith?: string): Promise<ExploreReport> {
  return explore({
    url,
    ...(compareWith ? { compareWith } : {}),
    rate: 0,
    seed,
    runs: Number.MAX_SAFE_INTEGER,
    timeMs,
    shrinkMs: 120_000,
    maxSteps: 30,
    command: `npx tsx scripts/explore/on-replicas.ts --seed ${seed}`,
    onRun: ({ runs, steps }) => {
      if (runs % 500 === 0) process.stdout.write(`  ${runs} runs, ${steps} steps\n`);
    },
  });
}

async function main(): Promise<number> {
  const timeMs = parseDuration(argValue('--time') ?? '10m');
  const seed = Number(argValue('--seed') ?? 1);
  let failed = false;

  process.stdout.write(`1. the in-process mock on memory, ${timeMs / 1000} s\n`);
  const memory = await startLocalMock();
  try {
    const report = await search(memory.url, seed, timeMs);
    process.stdout.write(`${formatReport(report)}\n`);
    failed ||= report.result.failed !== undefined;
  } finally {
    await memory.stop();
  }

  process.stdout.write(
    `2. two replicas on Redis behind a round-robin balancer, compared with an in-process memory mock, ${timeMs / 1000} s\n`,
  );
  if (!redisServerPath()) {
    if (process.env.CI === 'true') throw new Error('redis-server is not installed (CI=true: apt-get install redis-server)');
    process.stdout.write('SKIPPED part 2: no redis-server on this machine\n');
    return failed ? 1 : 0;
  }
  const redis = await startRedisServer();
  const replicas = await startReplicas(2, { redisUrl: redis.url });
  const balancer = await startRoundRobin(replicas.urls);
  const oracle = await startLocalMock();
  try {
    const report = await search(balancer.url, seed, timeMs, oracle.url);
    process.stdout.write(`${formatReport(report)}\n`);
    failed ||= report.result.failed !== undefined;
  } finally {
    await oracle.stop();
    await balancer.close();
    await replicas.stopAll();
    await redis.stop();
  }
  return failed ? 1 : 0;
}

runMain(main);
