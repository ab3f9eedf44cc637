// The fault runs at full size: the scenarios of test/faults/ (shared code in test/faults/support/),
// one after another, each with its own redis-server and three `fos-mock serve --redis` replicas.
//
//   1. a replica killed (SIGKILL) half-way through producing 2,000 webhook events for a
//      subscriber that fails every third attempt;
//   2. Redis killed for 15 s and started again under load from 24 client loops;
//   3. a replica killed during a 100-way race on one quote, 10 races.
//
// Prints the rules each run checked (held or broken, with the first problems) and its figures as
// markdown, and writes them to bench/results/fault-runs.md and bench/results/fault-runs.json.
// Exit code 1 if any rule is broken or a run could not finish. FAULTS_* variables change the
// sizes (test/faults/support/sizes.ts). Without redis-server: fails under CI=true, else one
// SKIPPED line and exit 0.
//
//   npm run test:faults [-- 1 3]      (all runs, or the ones named)
import { spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus, totalmem } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { projectPath } from '../../spec/project-root';
import { markdown, summaryLine, unfinishedRun, type RunResult } from '../../test/faults/support/findings';
import { runRedisOutage } from '../../test/faults/support/run-redis-outage';
import { runQuoteRaceKill } from '../../test/faults/support/run-quote-race-kill';
import { runWebhooksThroughKill } from '../../test/faults/support/run-webhooks-kill';
import { faultSizes, JOB_LEASE_MS, type FaultSizes } from '../../test/faults/support/sizes';
import { redisServerPath } from '../../test/support/redis-server';
import { runMain } from '../contract/lib';

const RUNS: Record<string, { title: string; run: (sizes: FaultSizes) => Promise<RunResult> }> = {
  '1': { title: 'a replica killed while events are produced', run: runWebhooksThroughKill },
  '2': { title: 'Redis stopped under load', run: runRedisOutage },
  '3': { title: 'a replica killed during a race on one quote', run: runQuoteRaceKill },
};

async function main(): Promise<number> {
  const redis = redisServerPath();
  if (!redis) {
    if (['true', '1'].includes((process.env.CI ?? '').toLowerCase())) {
      process.stdout.write('FAIL: fault runs: redis-server not found (PATH, /usr/bin/redis-server), and CI=true\n');
      return 1;
    }
    process.stdout.write('SKIPPED: fault runs: redis-server not found (apt-get install redis-server); nothing was run\n');
    return 0;
  }
  const named = process.argv.slice(2).filter((a) => !a.startsWith('--'));
  for (const name of named) if (!RUNS[name]) throw new Error(`unknown run "${name}": the runs are ${Object.keys(RUNS).join(', ')}`);
  const chosen = named.length > 0 ? named : Object.keys(RUNS);
  const sizes = faultSizes(true);

  const results: RunResult[] = [];
  for (const name of chosen) {
    const { title, run } = RUNS[name]!;
    process.stdout.write(`run ${name}: ${title}...\n`);
    const started = performance.now();
    let result: RunResult;
    try {
      result = await run(sizes);
    } catch (error) {
      result = unfinishedRun(name, title, error, performance.now() - started);
    }
    results.push(result);
    process.stdout.write(`${summaryLine(result)}\n`);
  }

  const cpu = cpus();
  const redisVersion = spawnSync(redis, ['--version'], { encoding: 'utf8' }).stdout.trim().split(' ').slice(0, 3).join(' ');
  const heading = [
    `Run ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC. Machine: ${cpu.length} × ${cpu[0]?.model.trim() ?? 'cpu'}, ` +
      `${Math.round(totalmem() / 2 ** 30)} GiB, Node ${process.version}, ${redisVersion}. ` +
      `Three \`fos-mock serve --redis\` replicas from the sources per run, JOB_LEASE_MS=${JOB_LEASE_MS}; the clients, the ` +
      'subscriber, the replicas and redis-server share the machine. `npm run test:faults`; the small sizes run in `npm test` ' +
      '(test/faults/replica-faults.test.ts).',
  ];
  const report = markdown(results, heading);
  const folder = projectPath('bench', 'results');
  mkdirSync(folder, { recursive: true });
  writeFileSync(join(folder, 'fault-runs.md'), report);
  writeFileSync(
    join(folder, 'fault-runs.json'),
    JSON.stringify({ at: new Date().toISOString(), node: process.version, redis: redisVersion, cpus: cpu.length, results }, null, 2) + '\n',
  );
  process.stdout.write(`\n${report}\nwritten: bench/results/fault-runs.md, bench/results/fault-runs.json\n`);
  return results.every((r) => r.rules.every((rule) => rule.holds)) ? 0 : 1;
}

runMain(main);
