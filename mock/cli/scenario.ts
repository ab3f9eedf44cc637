// `fos-mock scenario run <file...>`: runs scenario files (or every *.yaml of a folder) against
// a mock - the one at --url / FOS_MOCK_URL, or an in-process one started for the run - printing a
// line per step. Exit code 1 when any scenario fails or cannot be read.
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { Command } from 'commander';
import { UserError } from '../scenarios/errors';
import type { ScenarioResult } from '../scenarios/types';
import { deferred } from '../lazy/deferred';
import { guarded, out, withUrlOption, type Env } from './target';
import { runComparison, type CompareFlags } from './scenario-compare';

/** Files as given; a folder stands for its *.yaml / *.yml files, in name order. */
export function expandFiles(paths: string[]): string[] {
  return paths.flatMap((path) => {
    let isFolder: boolean;
    try {
      isFolder = statSync(path).isDirectory();
    } catch {
      return [path]; // the loader says it does not exist
    }
    if (!isFolder) return [path];
    const files = readdirSync(path)
      .filter((name) => /\.ya?ml$/.test(name))
      .sort();
    if (files.length === 0) throw new UserError(`${path} holds no .yaml scenario files`);
    return files.map((name) => join(path, name));
  });
}

// Loaded when a scenario runs (ajv for the scenario schema, the runner, an in-process mock), not
// when `serve` starts, which must answer within half a second.
// eslint-disable-next-line @typescript-eslint/no-require-imports -- a require inside `deferred` is what defers the load
const scenarioTools = deferred(() => require('./scenario-tools') as typeof import('./scenario-tools'));

export function registerScenarioCommand(cli: Command, env: Env): void {
  const scenario = cli.command('scenario').description('run QA scenario files (YAML; schema: spec/scenario.schema.json)');
  withUrlOption(
    scenario
      .command('run')
      .summary('run scenario files against a mock (exit code 1 if any fails)')
      .description(
        'run scenario files against a mock: the one at --url (or FOS_MOCK_URL), else an in-process mock started for the run ' +
          '(demo data, frozen clock); exit code 1 if any fails',
      )
      .argument('<file...>', 'scenario files, or folders of them (e.g. fixtures/scenarios)')
      .option('--compare-with <base>', 'run each scenario against this second target too and report where the answers differ')
      .option('--allow <file>', 'with --compare-with: differences to accept (YAML list of {step?, kind?, path?, scenario?, reason?})')
      .option(
        '--compare-secret <secret>',
        "with --compare-with: the second target's client secret for the scenario's customer (env FOS_COMPARE_SECRET)",
      )
      .option('--report-md <file>', 'with --compare-with: write the fidelity report as Markdown')
      .option('--junit <file>', 'with --compare-with: write the fidelity report as JUnit XML'),
    'base URL of a running mock (env FOS_MOCK_URL); without either, an in-process mock is started for the run',
  ).action(async (paths: string[], flags: { url?: string } & Partial<CompareFlags>) =>
    guarded(async () => {
      const { formatHeader, formatResult, formatTotals, progressPrinter, runScenario, loadScenarioFile, startLocalMock } = scenarioTools();
      const files = expandFiles(paths);
      if (!flags.compareWith && (flags.allow || flags.reportMd || flags.junit))
        throw new UserError('--allow, --report-md and --junit go with --compare-with <base>');
      const given = flags.url || env.FOS_MOCK_URL || undefined;
      const local = given ? undefined : await startLocalMock();
      const baseUrl = given ?? (local as { url: string }).url;
      if (local) out(`fos-mock: started an in-process mock at ${baseUrl} (demo data, frozen clock)`);
      const results: ScenarioResult[] = [];
      let broken = 0;
      try {
        if (flags.compareWith) {
          const compareSecret = flags.compareSecret ?? env.FOS_COMPARE_SECRET;
          return await runComparison(files, baseUrl, { ...flags, compareWith: flags.compareWith, compareSecret });
        }
        for (const file of files) {
          try {
            const parsed = loadScenarioFile(file);
            out(formatHeader(parsed.name, file));
            const result = await runScenario(parsed, { baseUrl, onStep: progressPrinter(process.stdout) });
            results.push(result);
            out(formatResult(result));
          } catch (error) {
            // A file that cannot be read does not stop the others; nothing listening there does.
            if (!(error instanceof UserError) || error.name === 'MockTargetError') throw error;
            process.stderr.write(`✗ ${error.message}\n`);
            broken++;
          }
        }
      } finally {
        await local?.stop();
      }
      if (files.length > 1) out(formatTotals(results, broken));
      if (broken > 0 || results.some((r) => !r.passed)) process.exitCode = 1;
    }),
  );
}
