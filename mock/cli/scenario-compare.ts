// `fos-mock scenario run <file...> --compare-with <B>`: each scenario against the first target
// (--url, or an in-process mock) and then B; prints the differences, writes the Markdown and JUnit
// reports asked for, and sets exit code 1 on a difference the allow-list (--allow) does not allow.
import { writeFileSync } from 'node:fs';
import type { Comparison } from '../scenarios/compare';
import { UserError } from '../scenarios/errors';
import { out } from './target';

export interface CompareFlags {
  compareWith: string;
  allow?: string;
  reportMd?: string;
  junit?: string;
  /** B's client secret for the scenario's customer (else the scenario's own). */
  compareSecret?: string;
}

export async function runComparison(files: string[], a: string, flags: CompareFlags): Promise<void> {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded with the scenario tools, not by `serve`
  const tools = require('./scenario-tools') as typeof import('./scenario-tools');
  const allow = flags.allow ? tools.readAllowList(flags.allow) : [];
  const comparisons: Comparison[] = [];
  let broken = 0;
  out(`fos-mock: comparing A ${a} with B ${flags.compareWith}`);
  for (const file of files) {
    try {
      const scenario = tools.loadScenarioFile(file);
      out(tools.formatHeader(scenario.name, file));
      const comparison = tools.applyAllowList(
        await tools.compareTargets(scenario, { a, b: flags.compareWith }, flags.compareSecret),
        allow,
      );
      comparisons.push(comparison);
      out(tools.formatComparison(comparison));
    } catch (error) {
      // A file that cannot be read does not stop the others; a target where nothing listens does.
      if (!(error instanceof UserError) || error.name === 'MockTargetError') throw error;
      process.stderr.write(`✗ ${error.message}\n`);
      broken++;
    }
  }
  if (flags.reportMd) {
    writeFileSync(flags.reportMd, tools.markdownReport(comparisons));
    out(`fos-mock: the fidelity report is in ${flags.reportMd}`);
  }
  if (flags.junit) {
    writeFileSync(flags.junit, tools.junitReport(comparisons));
    out(`fos-mock: the JUnit report is in ${flags.junit}`);
  }
  if (broken > 0 || comparisons.some((c) => tools.unallowed(c).length > 0)) process.exitCode = 1;
}
