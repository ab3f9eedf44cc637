// The container image, built and run for real with podman (npm run test:container; CI runs it):
//
//   1. the base image the Containerfile names (docker.io/library/node:24-slim): used when podman
//      has it, else a local stand-in is made under that name (stand-in-base.ts; nothing pulled);
//   2. `podman build --pull=never` of the real Containerfile;
//   3. in memory, bridge network, `-p 127.0.0.1:<free port>:4010`: the token call (start-up time to
//      its first answer), the image's HEALTHCHECK (`podman healthcheck run`), idle memory, the whole
//      contract suite in URL mode (its webhook receiver on this machine, reached from the container
//      as host.containers.internal), then `podman stop`: exit code 0 within 2 s;
//   4. the same with REDIS_URL naming a redis-server outside the container (host network);
//   5. STATE_FILE=/data/state.json on a volume: the state survives `podman restart` (state-check.ts).
//
// podman runs with scripts/container/containers.conf (CONTAINERS_CONF). Without podman, runc or
// redis-server: fails under CI=true naming what to install, else one SKIPPED line and exit 0.
// Reports: reports/container/ (summary.md, each run's contract reports and container output).
//
//   npm run test:container [-- jest test path patterns...]
import { execFileSync } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { firstFailureLine, freePort, ROOT, runSuite, seconds, type JestRun, runMain } from '../contract/lib';
import { redisServerPath, startRedisServer, type RedisServer } from '../../test/support/redis-server';
import { healthy, memoryMb, startContainer, stopContainer, type Started } from './container-run';
import { check } from './http';
import { buildImage, imageSizes, prepareBase } from './image';
import { podman, podmanOk } from './podman';
import { stateRunArgs, stateSurvivesRestart } from './state-check';

const IMAGE = 'localhost/fos-mock:test-container';
const REPORTS = join(ROOT, 'reports', 'container');
/** The stop the image promises: SIGTERM answered within 2 s. */
const STOP_LIMIT_MS = 2_000;

const say = (line: string) => process.stdout.write(`${line}\n`);

function missingTools(): string[] {
  const has = (tool: string) => {
    try {
      execFileSync('sh', ['-c', `command -v ${tool}`], { stdio: 'ignore' });
      return true;
    } catch {
      return false;
    }
  };
  return [...['podman', 'runc'].filter((tool) => !has(tool)), ...(redisServerPath() ? [] : ['redis-server'])];
}

function suiteLines(run: JestRun): string[] {
  const failures = run.tests.filter((t) => t.status === 'failed');
  return [
    `    contract suite: ${run.passed} passed, ${run.failed} failed, ${run.skipped} skipped (${run.total}); ` +
      `files that could not run: ${run.brokenFiles.length}`,
    ...failures.slice(0, 20).map((t) => `      ✗ ${t.file}: ${t.title}\n          ${firstFailureLine(t)}`),
    ...run.brokenFiles.map((f) => `      could not run ${f.file}: ${f.message.split('\n')[0]}`),
  ];
}

const suitePassed = (run: JestRun) => run.code === 0 && run.failed === 0 && run.brokenFiles.length === 0 && run.passed > 0;

/** Health check, idle memory, the suite, the stop: one run of the image; returns whether it passed. */
async function suiteRun(
  label: string,
  container: Started,
  patterns: string[],
  env: Record<string, string>,
  lines: string[],
): Promise<boolean> {
  check(await healthy(container.name), `${label}: podman healthcheck run`);
  const idle = await memoryMb(container.name);
  lines.push(
    `  ${label}: first token answered ${seconds(container.startupMs)} after podman run; healthy; idle memory ${idle.toFixed(1)} MB`,
  );
  const reportDir = join(REPORTS, label);
  mkdirSync(reportDir, { recursive: true });
  const run = await runSuite(container.url, reportDir, patterns, env);
  lines.push(...suiteLines(run));
  const stopped = await stopContainer(container.name);
  writeFileSync(join(reportDir, 'container.log'), stopped.output);
  const stopOk = stopped.exitCode === 0 && stopped.stopMs < STOP_LIMIT_MS;
  lines.push(
    `    podman stop: ${stopped.stopMs} ms, exit code ${stopped.exitCode}${stopOk ? '' : ` (expected 0 within ${STOP_LIMIT_MS} ms)`}`,
  );
  return suitePassed(run) && stopOk;
}

async function main(): Promise<number> {
  const missing = missingTools();
  if (missing.length) {
    const what = `${missing.join(', ')} not found (Debian: apt-get install ${missing.join(' ')})`;
    if (['true', '1'].includes((process.env.CI ?? '').toLowerCase())) {
      say(`FAIL: container image: ${what}, and CI=true`);
      return 1;
    }
    say(`SKIPPED: container image: ${what}; nothing was built or run`);
    return 0;
  }
  const patterns = process.argv.slice(2).filter((a) => !a.startsWith('--'));
  rmSync(REPORTS, { recursive: true, force: true });
  mkdirSync(REPORTS, { recursive: true });
  const started = Date.now();
  const lines = ['', 'Container image'];
  const names = ['fos-mock-test-memory', 'fos-mock-test-redis', 'fos-mock-test-state'].map((n) => `${n}-${process.pid}`);
  const volume = `fos-mock-test-state-${process.pid}`;
  let redis: RedisServer | undefined;
  let ok = false;
  try {
    lines.push(`  ${await prepareBase(say)}`);
    say(`podman build --pull=never -t ${IMAGE} -f Containerfile . (output: reports/container/build.log)`);
    const buildMs = await buildImage(IMAGE, join(REPORTS, 'build.log'));
    const sizes = await imageSizes(IMAGE);
    const mb = (bytes: number) => (bytes / 1e6).toFixed(1);
    lines.push(`  built in ${seconds(buildMs)}: ${mb(sizes.image)} MB, of which ${mb(sizes.image - sizes.base)} MB over the base`);

    const webhookPort = await freePort();
    const memoryPort = await freePort();
    const inMemory = await startContainer(names[0]!, `http://127.0.0.1:${memoryPort}`, ['-p', `127.0.0.1:${memoryPort}:4010`], IMAGE);
    const memoryOk = await suiteRun(
      'memory',
      inMemory,
      patterns,
      {
        CONTRACT_WEBHOOK_URL: `http://host.containers.internal:${webhookPort}`,
        CONTRACT_WEBHOOK_PORT: String(webhookPort),
      },
      lines,
    );

    redis = await startRedisServer();
    const redisPort = await freePort();
    const onRedis = await startContainer(
      names[1]!,
      `http://127.0.0.1:${redisPort}`,
      ['--network', 'host', '-e', `PORT=${redisPort}`, '-e', 'HOST=127.0.0.1', '-e', `REDIS_URL=${redis.url}`],
      IMAGE,
    );
    const redisOk = await suiteRun('redis', onRedis, patterns, {}, lines);

    await podmanOk(['volume', 'create', volume]);
    const statePort = await freePort();
    const withState = await startContainer(
      names[2]!,
      `http://127.0.0.1:${statePort}`,
      ['-p', `127.0.0.1:${statePort}:4010`, ...stateRunArgs(volume)],
      IMAGE,
    );
    lines.push(...(await stateSurvivesRestart(withState.name, withState.url)));
    const stateStop = await stopContainer(withState.name);
    writeFileSync(join(REPORTS, 'state-container.log'), stateStop.output);
    check(stateStop.exitCode === 0, `the state-file container's exit code (${stateStop.exitCode})`);
    ok = memoryOk && redisOk;
  } catch (error) {
    lines.push(`  ${String((error as Error).message ?? error)}`);
  } finally {
    for (const name of names) await podman(['rm', '-f', '-v', name]);
    await podman(['volume', 'rm', '-f', volume]);
    await redis?.stop();
  }
  lines.push(
    `  reports: reports/container/ (build.log, <run>/contract-summary.md, <run>/container.log); time: ${seconds(Date.now() - started)}`,
    ok
      ? 'PASS: the image built, answered the contract suite in memory and on Redis, kept its state across a restart, and stopped cleanly.'
      : 'FAIL: see above.',
  );
  writeFileSync(join(REPORTS, 'summary.md'), `${lines.join('\n')}\n`);
  say(lines.join('\n'));
  return ok ? 0 : 1;
}

runMain(main);
