// Runs the breaks: a baseline against the unbroken mock, then each break against the test files
// that should notice it (or the whole suite with --all), and the catch table. See
// ../break-catching.ts for how breaks are made and the command line.
import { rmSync } from 'node:fs';
import type { AppOptions, MockApp } from '../../../mock/app';
import { firstFailureLine, pad, runJest, seconds, startMock, tempDir, type JestRun } from '../lib';
import { BREAKS, type Break } from './index';
import { breakRecord, writeRecord } from './record';

interface Outcome {
  brk: Break;
  run: JestRun;
  caught: boolean;
  first?: { name: string; line: string };
}

const BASE: AppOptions = { config: { strictResponses: false, logLevel: 'silent' } };

async function runAgainst(brk: Pick<Break, 'options' | 'wrap' | 'after'>, patterns: string[]): Promise<JestRun> {
  // The options get `mock()` before the mock exists; it answers once the mock runs.
  const started: { mock?: MockApp } = {};
  const options =
    brk.options?.(() => {
      if (!started.mock) throw new Error('break-catching: the mock is not running yet');
      return started.mock;
    }) ?? {};
  const running = await startMock({ ...BASE, ...options, config: { ...BASE.config, ...options.config } }, brk.wrap);
  started.mock = running.mock;
  brk.after?.(running.mock);
  const reportDir = tempDir('breaks');
  try {
    return await runJest({
      patterns,
      args: ['--reporters=default'],
      env: {
        CONTRACT_BASE_URL: running.url,
        CONTRACT_CONTROL_URL: undefined,
        CONTRACT_PROXY: undefined,
        CONTRACT_CLIENT_ID: undefined,
        CONTRACT_CLIENT_SECRET: undefined,
        CONTRACT_REPORT_DIR: reportDir,
      },
    });
  } finally {
    await running.close();
    rmSync(reportDir, { recursive: true, force: true });
  }
}

const patternsFor = (files: string[], all: boolean) => (all ? ['contract-tests'] : files.map((f) => `contract-tests/${f}\\.test\\.ts$`));

async function pool<T, R>(items: T[], jobs: number, work: (item: T) => Promise<R>): Promise<R[]> {
  const out = new Array<R>(items.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.max(1, jobs) }, async () => {
      while (next < items.length) {
        const i = next++;
        out[i] = await work(items[i]!);
      }
    }),
  );
  return out;
}

function argValue(name: string): string | undefined {
  const at = process.argv.indexOf(name);
  return at >= 0 ? process.argv[at + 1] : undefined;
}

export async function main(): Promise<number> {
  const all = process.argv.includes('--all');
  const jobs = Number(argValue('--jobs') ?? 1);
  const only = argValue('--only')?.split(',');
  const breaks = only ? BREAKS.filter((b) => only.includes(b.id)) : BREAKS;
  if (only && breaks.length !== only.length)
    throw new Error(`unknown break id in --only: ${only.filter((id) => !BREAKS.some((b) => b.id === id)).join(', ')}`);
  const started = Date.now();
  const startedAt = new Date(started).toISOString();

  // Baseline: the unbroken mock, with the same options, passes every file the breaks will use.
  const files = [...new Set(breaks.flatMap((b) => b.files))];
  process.stdout.write(`baseline: the unbroken mock (strict responses off) against ${all ? 'the whole suite' : files.join(', ')} ...\n`);
  const baseline = await runAgainst({}, patternsFor(files, all));
  if (baseline.failed || baseline.brokenFiles.length || baseline.code !== 0 || baseline.passed === 0) {
    process.stdout.write(
      `${baseline.output.slice(-6000)}\nBASELINE FAILED (${baseline.failed} failed, ${baseline.brokenFiles.length} files broken): ` +
        'a caught break would mean nothing. Fix the suite or the mock first.\n',
    );
    return 1;
  }
  process.stdout.write(`baseline: ${baseline.passed} passed, ${baseline.skipped} skipped in ${seconds(baseline.ms)}\n\n`);

  const outcomes = await pool(breaks, jobs, async (brk): Promise<Outcome> => {
    const run = await runAgainst(brk, patternsFor(brk.files, all));
    const failed = run.tests.find((t) => t.status === 'failed');
    const caught = run.failed > 0 || run.brokenFiles.length > 0 || run.code !== 0;
    const first = failed
      ? { name: `${failed.file.replace(/^contract-tests\//, '')}: ${failed.fullName}`, line: firstFailureLine(failed) }
      : run.brokenFiles[0]
        ? { name: run.brokenFiles[0].file, line: run.brokenFiles[0].message.split('\n')[0] ?? '' }
        : undefined;
    process.stdout.write(`${caught ? 'caught  ' : 'MISSED  '} ${pad(brk.id, 30)} ${run.failed}/${run.total} failed, ${seconds(run.ms)}\n`);
    return { brk, run, caught, first };
  });

  const caught = outcomes.filter((o) => o.caught).length;
  const lines = ['', '| # | break | caught? | tests failed | first failing test | what it said |', '|---|---|---|---|---|---|'];
  outcomes.forEach((o, i) => {
    const cell = (t: string) => t.replace(/\|/g, '\\|').replace(/\n/g, ' ');
    const cells = [
      i + 1,
      `\`${o.brk.id}\` (${o.brk.rules.join(', ')}): ${cell(o.brk.what)}`,
      o.caught ? 'yes' : '**NO**',
      `${o.run.failed}/${o.run.total}`,
      cell(o.first?.name ?? '-'),
      cell(o.first?.line ?? '-'),
    ];
    lines.push(`| ${cells.join(' | ')} |`);
  });
  const share = ((100 * caught) / outcomes.length).toFixed(0);
  lines.push(
    '',
    `${caught}/${outcomes.length} breaks caught (${share}%); baseline ${baseline.passed} tests green; ` +
      `total time ${seconds(Date.now() - started)}${all ? ' (whole suite per break)' : ' (the break’s files per break)'}.`,
  );
  const written = writeRecord(
    {
      startedAt,
      durationMs: Date.now() - started,
      wholeSuitePerBreak: all,
      baseline: { passed: baseline.passed, skipped: baseline.skipped, failed: baseline.failed },
      breaks: outcomes.map((o) => breakRecord(o.brk, o.run, o.caught)),
    },
    !only,
  );
  lines.push(`Failing tests per break: ${written.join(', ')} (npm run rules:table turns it into docs/rules/rule-table.md).`);
  const missed = outcomes.filter((o) => !o.caught);
  if (missed.length) lines.push(`NOT CAUGHT: ${missed.map((o) => o.brk.id).join(', ')}: the suite has a hole there.`);
  process.stdout.write(`${lines.join('\n')}\n`);
  return missed.length ? 1 : 0;
}
