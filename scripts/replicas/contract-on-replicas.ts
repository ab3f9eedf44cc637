// Two replicas of the mock on one Redis, behind a round-robin balancer, must be one service: the
// whole contract suite (URL mode, unchanged) and every shipped scenario run through the balancer,
// so consecutive requests of one test land on different replicas.
//
//   suite / scenarios ──► round-robin balancer ──► replica 0 ─┐
//                          (strict alternation)  └► replica 1 ─┴─► redis-server (throwaway)
//
// - redis-server: test/support/redis-server.ts (a temporary folder, loopback, nothing saved).
// - Replicas: `fos-mock serve --redis <url>` from the sources (test/support/replicas.ts), default
//   settings, one shared FOS_MOCK_SECRET; their output is kept in reports/replicas/replica-<i>.log.
// - The suite: as scripts/contract/prism-proxy.ts runs it (runSuite: CONTRACT_BASE_URL the
//   balancer, demo-client, CONTRACT_ALLOW_WRITES=1, --runInBand, the contract reporter writing to
//   reports/replicas/); the control API is reached through the balancer too.
// - Scenarios: `fos-mock scenario run fixtures/scenarios/ --url <balancer>`.
// - Fails (exit 1) on any failed test, a file that could not run, a failed scenario, or a replica
//   that died during the run. Without redis-server: fails under CI=true, else one SKIPPED line
//   and exit 0.
//
//   npm run test:replicas [-- jest test path patterns...]
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { firstFailureLine, ROOT, runSuite, seconds, runMain } from '../contract/lib';
import { redisServerPath, startRedisServer, type RedisServer } from '../../test/support/redis-server';
import { startReplicas, type Replicas } from '../../test/support/replicas';
import { startRoundRobin, type RoundRobin } from '../../test/support/round-robin';

const REPLICAS = 2;

interface ScenarioRun {
  code: number | null;
  passed: number;
  failed: number;
  output: string;
}

/** `fos-mock scenario run fixtures/scenarios/ --url <url>` from the sources, echoed as it runs. */
async function runScenarios(url: string): Promise<ScenarioRun> {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', join(ROOT, 'mock', 'main.ts'), 'scenario', 'run', join('fixtures', 'scenarios'), '--url', url],
    { cwd: ROOT, env: { ...process.env, FOS_MOCK_URL: undefined }, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let output = '';
  const take = (chunk: Buffer) => {
    output += chunk.toString('utf8');
    process.stdout.write(chunk);
  };
  child.stdout.on('data', take);
  child.stderr.on('data', take);
  const timer = setTimeout(() => child.kill('SIGKILL'), 5 * 60_000);
  const [code] = (await once(child, 'exit')) as [number | null];
  clearTimeout(timer);
  // One result line per scenario (mock/scenarios/reporter.ts): "✓ name: ..." or "✗ name: ...";
  // a file that cannot be read is a "✗ message" line on stderr.
  const results = output.split('\n').filter((l) => /^[✓✗] /.test(l));
  return { code, passed: results.filter((l) => l.startsWith('✓')).length, failed: results.filter((l) => l.startsWith('✗')).length, output };
}

async function main(): Promise<number> {
  if (!redisServerPath()) {
    if (['true', '1'].includes((process.env.CI ?? '').toLowerCase())) {
      process.stdout.write('FAIL: contract suite on replicas: redis-server not found (PATH, /usr/bin/redis-server), and CI=true\n');
      return 1;
    }
    process.stdout.write('SKIPPED: contract suite on replicas: redis-server not found (apt-get install redis-server); nothing was run\n');
    return 0;
  }
  const patterns = process.argv.slice(2).filter((a) => !a.startsWith('--'));
  const reportDir = join(ROOT, 'reports', 'replicas');
  rmSync(reportDir, { recursive: true, force: true });
  mkdirSync(reportDir, { recursive: true });
  const started = Date.now();

  let redis: RedisServer | undefined;
  let replicas: Replicas | undefined;
  let balancer: RoundRobin | undefined;
  const lines: string[] = ['', 'Contract suite and scenarios on replicas'];
  let ok: boolean;
  try {
    redis = await startRedisServer();
    replicas = await startReplicas(REPLICAS, { redisUrl: redis.url });
    balancer = await startRoundRobin(replicas.urls);
    process.stdout.write(`redis ${redis.url}; replicas ${replicas.urls.join(', ')}; round-robin balancer ${balancer.url}\n`);

    const run = await runSuite(balancer.url, reportDir, patterns);
    const afterSuite = [...balancer.counts];
    const scenarios = await runScenarios(balancer.url);
    writeFileSync(join(reportDir, 'scenarios.log'), scenarios.output);

    const failures = run.tests.filter((t) => t.status === 'failed');
    lines.push(
      `  tests: ${run.passed} passed, ${run.failed} failed, ${run.skipped} skipped (${run.total}); ` +
        `files that could not run: ${run.brokenFiles.length}`,
      ...failures.slice(0, 30).map((t) => `    ✗ ${t.file}: ${t.title}\n        ${firstFailureLine(t)}`),
      ...(failures.length > 30 ? [`    ... and ${failures.length - 30} more (reports/replicas/contract-summary.md)`] : []),
      ...run.brokenFiles.map((f) => `    could not run ${f.file}: ${f.message.split('\n')[0]}`),
      `  scenarios: ${scenarios.passed} passed, ${scenarios.failed} failed (exit code ${scenarios.code})`,
      `  requests per replica: ${balancer.counts.map((c, i) => `replica ${i} ${c}`).join(', ')} ` +
        `(suite ${afterSuite.join(' / ')}, scenarios ${balancer.counts.map((c, i) => c - afterSuite[i]!).join(' / ')})`,
    );
    ok = run.code === 0 && run.failed === 0 && run.brokenFiles.length === 0 && run.passed > 0;
    ok = ok && scenarios.code === 0 && scenarios.failed === 0 && scenarios.passed > 0;
  } finally {
    // A replica that ended before it was asked to is a failure, whatever the tests said.
    const died: number[] = [];
    await balancer?.close();
    if (replicas) {
      const alive = await Promise.all(
        replicas.urls.map((url) =>
          fetch(`${url}/_mock/health`).then(
            (res) => res.status === 200,
            () => false,
          ),
        ),
      );
      alive.forEach((up, i) => {
        if (!up) died.push(i);
      });
      await replicas.stopAll();
      replicas.output.forEach((text, i) => writeFileSync(join(reportDir, `replica-${i}.log`), text));
    }
    await redis?.stop();
    if (died.length) {
      ok = false;
      lines.push(`  replicas not answering at the end: ${died.join(', ')} (logs: reports/replicas/replica-<i>.log)`);
    }
  }
  lines.push(
    `  reports: reports/replicas/ (contract-summary.md, scenarios.log, replica-<i>.log); time: ${seconds(Date.now() - started)}`,
    ok ? 'PASS: two replicas on one Redis answered the contract suite and every scenario as one service.' : 'FAIL: see above.',
  );
  process.stdout.write(`${lines.join('\n')}\n`);
  return ok ? 0 : 1;
}

runMain(main);
