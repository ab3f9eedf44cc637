// Benchmark 6 of the issue: how long the contract suite takes against the in-process mock, end
// to end, as `npm run test:contract` runs it (`jest contract-tests`: jest's start-up, the
// transform cache as it stands, every file starting its own mock). Several rounds, median.
// Its reports go to a temporary directory, not reports/, so a benchmark run leaves no trace.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { median } from './lib/load';
import { tableRow } from './lib/markdown';
import { projectPath } from '../spec/project-root';

export interface SuiteRound {
  seconds: number;
  tests: number;
  passed: number;
  failed: number;
  skipped: number;
  files: number;
  exitCode: number | null;
}

export interface SuiteResult {
  rounds: SuiteRound[];
  medianSeconds: number;
  tests: number;
  /** Rounds that did not pass cleanly (a failing suite is not the run being timed). */
  failedRounds: number;
}

async function oneRound(): Promise<SuiteRound> {
  const dir = mkdtempSync(join(tmpdir(), 'fos-bench-suite-'));
  const outputFile = join(dir, 'results.json');
  // The in-process mock: a target URL left in the environment would time another server.
  const env: NodeJS.ProcessEnv = { ...process.env, CONTRACT_REPORT_DIR: dir, JEST_JUNIT_OUTPUT_DIR: dir };
  delete env.CONTRACT_BASE_URL;
  delete env.CONTRACT_CONTROL_URL;
  const started = process.hrtime.bigint();
  const child = spawn(
    process.execPath,
    [projectPath('node_modules', 'jest', 'bin', 'jest.js'), 'contract-tests', '--json', `--outputFile=${outputFile}`],
    {
      cwd: projectPath(),
      env,
      stdio: ['ignore', 'ignore', 'pipe'],
    },
  );
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr = (stderr + chunk.toString()).slice(-4000)));
  const [exitCode] = (await once(child, 'exit')) as [number | null];
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  try {
    const json = JSON.parse(readFileSync(outputFile, 'utf8')) as {
      numTotalTests: number;
      numPassedTests: number;
      numFailedTests: number;
      numPendingTests: number;
      numTodoTests: number;
      numTotalTestSuites: number;
    };
    return {
      seconds,
      tests: json.numTotalTests,
      passed: json.numPassedTests,
      failed: json.numFailedTests,
      skipped: json.numPendingTests + json.numTodoTests,
      files: json.numTotalTestSuites,
      exitCode,
    };
  } catch {
    throw new Error(`suite-time: jest wrote no results (exit ${exitCode}): ${stderr}`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export async function suiteTime(rounds: number): Promise<SuiteResult> {
  const done: SuiteRound[] = [];
  for (let round = 0; round < rounds; round++) {
    const result = await oneRound();
    process.stdout.write(`suite: round ${round + 1}: ${result.seconds.toFixed(1)} s, ${result.passed}/${result.tests} passed\n`);
    done.push(result);
  }
  return {
    rounds: done,
    medianSeconds: median(done.map((r) => r.seconds)),
    tests: median(done.map((r) => r.tests)),
    failedRounds: done.filter((r) => r.exitCode !== 0 || r.failed > 0).length,
  };
}

/** The Markdown section for latest.md. */
export function suiteMarkdown(result: SuiteResult): string[] {
  return [
    '## Contract suite run time (benchmark 6)',
    '',
    '`jest contract-tests` against the in-process mock, end to end (jest start-up included, transform cache warm after the first round), ' +
      `${result.rounds.length} rounds.`,
    '',
    '| median s | rounds s | tests | passed | failed | skipped | files | tests/s |',
    '|---|---|---|---|---|---|---|---|',
    tableRow([
      result.medianSeconds.toFixed(1),
      result.rounds.map((r) => r.seconds.toFixed(1)).join(', '),
      result.tests,
      result.rounds.map((r) => r.passed).join(', '),
      result.rounds.map((r) => r.failed).join(', '),
      result.rounds.map((r) => r.skipped).join(', '),
      result.rounds[0]?.files ?? 0,
      (result.tests / result.medianSeconds).toFixed(1),
    ]),
  ];
}
