// Explore's power, measured: every deliberate break of `npm run test:contract:breaks` (applied to
// the mock the same way, without touching its source), explored with no hand-written test for
// up to --time each. A break is caught when explore reports a failure; the table gives the check,
// how far the run was shrunk, and whether the written scenario fails on the broken mock and passes
// on the oracle (an unbroken in-process mock). First a baseline: the unbroken mock, same options,
// must give no failure, or a catch would mean nothing.
//
//   npx tsx scripts/explore/break-catching.ts [--time 60s] [--seed N] [--only id,id] [--out file.md] [--scenarios dir]
//     --scenarios  keep the written scenarios in this folder (default: a temporary one, removed)
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AppOptions, MockApp } from '../../mock/app';
import { parseDuration } from '../../mock/domain/duration';
import { explore, UnusableTarget, type ExploreReport } from '../../mock/explore';
import { BREAKS, type Break } from '../contract/breaks/index';
import { EXPLORE_RECORD, type ExploreBreaksRecord } from './record';
import { runMain, startMock } from '../contract/lib';

const BASE: AppOptions = { config: { strictResponses: false, logLevel: 'silent' } };

function argValue(name: string): string | undefined {
  const at = process.argv.indexOf(name);
  return at >= 0 ? process.argv[at + 1] : undefined;
}

async function exploreAgainst(
  brk: Pick<Break, 'options' | 'wrap' | 'after'>,
  settings: { timeMs: number; seed: number; outDir: string; oracle: string },
): Promise<ExploreReport> {
  const started: { mock?: MockApp } = {};
  const options =
    brk.options?.(() => {
      if (!started.mock) throw new Error('explore breaks: the mock is not running yet');
      return started.mock;
    }) ?? {};
  const running = await startMock({ ...BASE, ...options, config: { ...BASE.config, ...options.config } }, brk.wrap);
  started.mock = running.mock;
  brk.after?.(running.mock);
  try {
    return await explore({
      url: running.url,
      rate: 0,
      seed: settings.seed,
      runs: Number.MAX_SAFE_INTEGER,
      timeMs: settings.timeMs,
      shrinkMs: 60_000,
      maxSteps: 30,
      outDir: settings.outDir,
      oracle: () => Promise.resolve(settings.oracle),
      command: `npx tsx scripts/explore/break-catching.ts --seed ${settings.seed}`,
    });
  } finally {
    await running.close();
  }
}

const cell = (text: string) => text.replace(/\|/g, '\\|').replace(/\n/g, ' ');

async function main(): Promise<number> {
  const timeMs = parseDuration(argValue('--time') ?? '60s');
  const seed = Number(argValue('--seed') ?? 1);
  const only = argValue('--only')?.split(',');
  const breaks = only ? BREAKS.filter((b) => only.includes(b.id)) : BREAKS;
  const kept = argValue('--scenarios');
  const outDir = kept ?? mkdtempSync(join(tmpdir(), 'fos-explore-breaks-'));
  const oracle = await startMock(BASE);
  const started = Date.now();
  try {
    const settings = { timeMs, seed, outDir, oracle: oracle.url };
    process.stdout.write(`baseline: explore on the unbroken mock for ${timeMs / 1000} s ...\n`);
    const baseline = await exploreAgainst({}, settings);
    const base = baseline.result;
    if (base.failed) {
      process.stdout.write(`BASELINE FAILED: ${base.failed.failure.message}\n${base.failed.acts}\n`);
      return 1;
    }
    process.stdout.write(`baseline: ${base.runs} runs, ${base.steps} steps, nothing found\n`);
    const rows: string[] = [];
    const record: ExploreBreaksRecord = {
      startedAt: new Date(started).toISOString(),
      commit: execFileSync('git', ['rev-parse', '--short', 'HEAD'], { encoding: 'utf8' }).trim(),
      cores: cpus().length,
      seed,
      timePerBreakMs: timeMs,
      baseline: { runs: base.runs, steps: base.steps },
      breaks: [],
    };
    let caught = 0;
    for (const [i, brk] of breaks.entries()) {
      let report: ExploreReport;
      try {
        report = await exploreAgainst(brk, settings);
      } catch (error) {
        // Explore stops at the start with exit code 2 and says why (the token call refused): that names the break.
        if (!(error instanceof UnusableTarget)) throw error;
        caught++;
        process.stdout.write(`caught   ${brk.id.padEnd(30)} at the start (exit 2): ${error.message}\n`);
        record.breaks.push({ id: brk.id, rules: [...brk.rules], caught: true, check: 'target unusable (exit 2)' });
        rows.push(
          `| ${i + 1} | \`${brk.id}\` (${brk.rules.join(', ')}) | yes | exit 2 at the start | 0 s | - | - | ` +
            `${cell(error.message.slice(0, 160))} |`,
        );
        continue;
      }
      const failed = report.result.failed;
      if (failed) caught++;
      const scenario = report.scenario;
      const replay = scenario
        ? `${scenario.steps} steps; target ${scenario.onTarget}, oracle ${scenario.onOracle === 'passed' ? 'passed' : 'failed'}`
        : '-';
      const found = failed
        ? `${(report.result.searchMs / 1000).toFixed(1)} s, ${report.result.runs} runs`
        : `not in ${(timeMs / 1000).toFixed(0)} s (${report.result.runs} runs)`;
      process.stdout.write(`${failed ? 'caught  ' : 'MISSED  '} ${brk.id.padEnd(30)} ${failed ? failed.failure.check : ''} ${found}\n`);
      record.breaks.push({
        id: brk.id,
        rules: [...brk.rules],
        caught: failed !== undefined,
        ...(failed
          ? {
              check: failed.failure.check,
              foundAfterMs: report.result.searchMs,
              steps: failed.unshrunkSteps,
              shrunkSteps: failed.steps.length,
            }
          : {}),
        ...(scenario
          ? { scenarioOnTarget: scenario.onTarget, scenarioOnOracle: scenario.onOracle === 'passed' ? 'passed' : 'failed' }
          : {}),
      });
      const check = failed ? `\`${failed.failure.check}\`` : '-';
      const shrunk = failed ? `${failed.unshrunkSteps} → ${failed.steps.length}` : '-';
      const said = cell(failed?.failure.message.slice(0, 160) ?? '-');
      rows.push(
        `| ${i + 1} | \`${brk.id}\` (${brk.rules.join(', ')}) | ${failed ? 'yes' : '**NO**'} | ` +
          `${check} | ${found} | ${shrunk} | ${replay} | ${said} |`,
      );
    }
    const share = ((100 * caught) / breaks.length).toFixed(0);
    const table = [
      `# Explore against the deliberate breaks (seed ${seed}, up to ${timeMs / 1000} s each)`,
      '',
      `Baseline: the unbroken mock, ${base.runs} runs and ${base.steps} steps in ${(base.searchMs / 1000).toFixed(0)} s, nothing found.`,
      '',
      '| # | break (rules) | caught? | check | found after | steps (run → shrunk) | written scenario | what it said |',
      '|---|---|---|---|---|---|---|---|',
      ...rows,
      '',
      `${caught}/${breaks.length} breaks caught (${share}%) in ${((Date.now() - started) / 60000).toFixed(1)} min.`,
    ].join('\n');
    // A run of every break is the record the rule table reads (npm run rules:table).
    if (!only) writeFileSync(EXPLORE_RECORD, `${JSON.stringify({ ...record, durationMs: Date.now() - started }, null, 2)}\n`);
    const out = argValue('--out');
    if (out) writeFileSync(out, `${table}\n`);
    process.stdout.write(`\n${table}\n`);
    return 0;
  } finally {
    await oracle.close();
    if (!kept) rmSync(outDir, { recursive: true, force: true });
  }
}

runMain(main);
