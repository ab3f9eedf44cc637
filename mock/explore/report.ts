// What an explore run found, for a terminal, as Markdown (--report-md) and as JUnit XML (--junit):
// one test case per check, failed for the check that broke, with the shrunk steps and the scenario.
import { CHECK_NAMES, CHECKS, type CheckName } from './checks';
import type { ExploreReport } from './explore';

const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

function targetLine(r: ExploreReport): string {
  const t = r.target;
  const what = t.isMock
    ? 'a fos-mock (control API on)'
    : `not a fos-mock${t.writes ? ', writes allowed' : ', reads only (no --allow-writes)'}`;
  const events = t.receiver ? 'checked' : 'not checked (no receiver it can reach)';
  return `${t.url}: ${what}; events ${events}; another customer's ids ${t.foreign.length ? t.foreign.join(', ') : 'none (not checked)'}`;
}

/** The checks that could not act on this target, each with why. */
function notChecked(r: ExploreReport): Array<{ checks: CheckName[]; why: string }> {
  const out: Array<{ checks: CheckName[]; why: string }> = [];
  if (!r.target.isMock) out.push({ checks: ['money.balances'], why: 'balances are read through the control API' });
  // Every event check reads the run's receiver: without one, none of them acted.
  if (!r.target.receiver)
    out.push({
      checks: ['lifecycle.events', 'events.payload', ...(r.target.compareWith ? (['compare.events'] as const) : [])],
      why: 'no receiver the target can reach',
    });
  if (r.target.foreign.length === 0) out.push({ checks: ['tenancy.isolation'], why: 'no other customer: --foreign-client-id' });
  if (!r.target.writes)
    out.push({
      checks: ['quote.consumed-once', 'idempotency.replay', 'idempotency.conflict', 'lifecycle.transition', 'records.read-back'],
      why: 'writes need --allow-writes',
    });
  if (!r.target.compareWith) out.push({ checks: CHECK_NAMES.filter((c) => c.startsWith('compare.')), why: 'no --compare-with' });
  return out;
}

const skipped = (r: ExploreReport, check: CheckName) => notChecked(r).some((n) => n.checks.includes(check));

export function formatReport(r: ExploreReport): string {
  const { result } = r;
  const rate = result.searchMs > 0 ? ((result.steps * 1000) / result.searchMs).toFixed(0) : '-';
  const lines = [
    `target ${targetLine(r)}`,
    `seed ${result.seed}: ${result.runs} runs, ${result.steps} steps in ${seconds(result.searchMs)} (${rate} steps/s)`,
  ];
  for (const n of notChecked(r)) lines.push(`not checked: ${n.checks.join(', ')} (${n.why})`);
  if (result.allowedHits.length > 0)
    lines.push(`allowed (--allow): ${result.allowedHits.length} failure(s), first: ${result.allowedHits[0]!.message.split('\n')[0]}`);
  const failed = result.failed;
  if (!failed) {
    lines.push(`✓ no check failed (${CHECK_NAMES.length} checks)`);
    return lines.join('\n');
  }
  lines.push(
    `✗ ${failed.failure.message}`,
    `  at step ${failed.failure.step} of a run shrunk from ${failed.unshrunkSteps} to ${failed.steps.length} steps ` +
      `(${failed.shrinks} shrinks, ${seconds(failed.shrinkMs)})`,
    `  generated: ${failed.acts}`,
    `  reproduce: ${r.command}`,
  );
  if (r.scenarioError) lines.push(`  no scenario written: ${r.scenarioError}`);
  if (r.scenario)
    lines.push(
      `  scenario: ${r.scenario.file} (${r.scenario.steps} steps; ` +
        `on the oracle ${r.scenario.onOracle}, on the target ${r.scenario.onTarget})`,
    );
  return lines.join('\n');
}

export function markdownReport(r: ExploreReport): string {
  const failed = r.result.failed;
  const rows = CHECK_NAMES.map((name) => {
    const outcome = failed?.failure.check === name ? '**failed**' : skipped(r, name) ? 'not checked' : 'held';
    return `| \`${name}\` | ${CHECKS[name]} | ${outcome} |`;
  });
  const out = [
    '# fos-mock explore',
    '',
    `Target ${targetLine(r)}.`,
    '',
    `Seed ${r.result.seed}: ${r.result.runs} runs, ${r.result.steps} steps in ${seconds(r.result.searchMs)}. Reproduce: \`${r.command}\``,
    '',
    '| check | rule | outcome |',
    '|---|---|---|',
    ...rows,
  ];
  if (failed) {
    out.push(
      '',
      `## ${failed.failure.check}`,
      '',
      failed.failure.message,
      '',
      `Shrunk from ${failed.unshrunkSteps} to ${failed.steps.length} steps: ${failed.acts}`,
    );
    if (r.scenario)
      out.push('', `Scenario: \`${r.scenario.file}\` (on the oracle ${r.scenario.onOracle}; on the target ${r.scenario.onTarget}).`);
  }
  return `${out.join('\n')}\n`;
}

const xml = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

export function junitReport(r: ExploreReport): string {
  const failed = r.result.failed;
  const cases = CHECK_NAMES.map((name) => {
    const open = `    <testcase classname="fos-mock explore" name="${xml(name)}: ${xml(CHECKS[name])}">`;
    if (failed?.failure.check !== name) return `${open}</testcase>`;
    const detail = [
      failed.failure.message,
      `steps: ${failed.acts}`,
      `reproduce: ${r.command}`,
      r.scenario ? `scenario: ${r.scenario.file}` : '',
    ]
      .filter(Boolean)
      .join('\n');
    return `${open}\n      <failure message="${xml(failed.failure.message.split('\n')[0]!)}">${xml(detail)}</failure>\n    </testcase>`;
  });
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="fos-mock explore" tests="${CHECK_NAMES.length}" failures="${failed ? 1 : 0}">`,
    `  <testsuite name="explore seed ${r.result.seed}" tests="${CHECK_NAMES.length}" failures="${failed ? 1 : 0}" ` +
      `time="${(r.result.searchMs / 1000).toFixed(3)}">`,
    ...cases,
    '  </testsuite>',
    '</testsuites>',
    '',
  ].join('\n');
}
