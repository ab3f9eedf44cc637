// The fidelity report of `scenario run --compare-with`: lines for a terminal, a Markdown page
// and a JUnit file (one test case per step, failing on a difference the allow-list does not allow).
import type { Comparison, Difference } from './compare';
import { unallowed } from './allow-list';

const cell = (text: string) => text.replace(/\|/g, '\\|').replace(/\n/g, ' ');
const code = (text: string) => `\`${cell(text)}\``;
const row = (cells: string[]) => `| ${cells.join(' | ')} |`;
const allowedText = (d: Difference) => (d.allowed === undefined ? 'no' : d.allowed === true ? 'yes' : `yes: ${d.allowed}`);

/** One line per difference, then a summary line, for stdout. */
export function formatComparison(c: Comparison): string {
  const lines = c.differences.map(
    (d) =>
      `  ${d.allowed === undefined ? '✗' : '~'} ${d.step}/${c.total} ${d.title} ${d.kind} ${d.path}: ${d.a} (A) vs ${d.b} (B)` +
      (d.allowed === undefined ? '' : ' (allowed)'),
  );
  const open = unallowed(c).length;
  const allowed = c.differences.length - open;
  lines.push(
    open === 0
      ? `✓ ${c.name}: no difference${allowed ? ` beyond ${allowed} allowed` : ''} between A and B in ${c.total} steps`
      : `✗ ${c.name}: ${open} difference${open === 1 ? '' : 's'}${allowed ? ` (and ${allowed} allowed)` : ''} between A and B`,
  );
  return lines.join('\n');
}

export function markdownReport(comparisons: Comparison[]): string {
  const [first] = comparisons;
  const lines = ['# Fidelity report', ''];
  if (first)
    lines.push(`A: ${first.urls.a} · B: ${first.urls.b}. Shapes, codes and states are compared; ids, times and amounts are not.`, '');
  lines.push('| scenario | steps | differences | allowed |', '|---|---|---|---|');
  for (const c of comparisons) {
    const open = unallowed(c).length;
    lines.push(`| ${cell(c.name)} | ${c.total} | ${open} | ${c.differences.length - open} |`);
  }
  for (const c of comparisons) {
    lines.push('', `## ${c.name}`, '');
    if (c.file) lines.push(`File: \`${c.file}\``, '');
    if (c.differences.length === 0) {
      lines.push('No difference.');
      continue;
    }
    lines.push('| step | call | kind | field | A | B | allowed |', '|---|---|---|---|---|---|---|');
    for (const d of c.differences)
      lines.push(
        row([
          `${d.step}${d.name ? ` (${cell(d.name)})` : ''}`,
          code(d.title),
          d.kind,
          code(d.path),
          cell(d.a),
          cell(d.b),
          cell(allowedText(d)),
        ]),
      );
  }
  return `${lines.join('\n')}\n`;
}

function xml(text: string): string {
  return text.replace(/[<>&"']/g, (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', '"': '&quot;', "'": '&apos;' })[c] as string);
}

export function junitReport(comparisons: Comparison[]): string {
  let tests = 0;
  let failures = 0;
  const suites = comparisons.map((c) => {
    const cases = Array.from({ length: c.total }, (_, i) => {
      const step = i + 1;
      const mine = c.differences.filter((d) => d.step === step);
      const open = mine.filter((d) => d.allowed === undefined);
      const title = mine[0]?.title ?? c.runs.a.steps[i]?.title ?? `step ${step}`;
      const name = xml(`step ${step}: ${title}`);
      tests++;
      if (open.length === 0) return `    <testcase classname="${xml(c.name)}" name="${name}"/>`;
      failures++;
      const text = open.map((d) => `${d.kind} ${d.path}: ${d.a} (A) vs ${d.b} (B)`).join('\n');
      return (
        `    <testcase classname="${xml(c.name)}" name="${name}">\n` +
        `      <failure message="${xml(text.split('\n')[0] as string)}" type="${xml(open[0]?.kind ?? '')}">${xml(text)}</failure>\n` +
        '    </testcase>'
      );
    });
    const fails = c.total - cases.filter((line) => line.endsWith('/>')).length;
    return `  <testsuite name="${xml(c.name)}" tests="${c.total}" failures="${fails}">\n${cases.join('\n')}\n  </testsuite>`;
  });
  return (
    '<?xml version="1.0" encoding="UTF-8"?>\n' +
    `<testsuites name="fos-mock fidelity" tests="${tests}" failures="${failures}">\n${suites.join('\n')}\n</testsuites>\n`
  );
}
