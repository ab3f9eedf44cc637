// The score per file of the last mutation run (reports/mutation/mutation.json), as docs/testing.md's
// markdown table, and the mutants that escaped, by file, for whoever writes the next test.
//
//   npx tsx scripts/mutation/score-table.ts [--survivors] [--file part-of-a-path] [--reports a.json,b.json]
//
// With --reports, a file's mutants come from the last report that has it: a run over a few files
// (`npm run mutation -- --mutate <files>`, its report copied aside) laid over a whole run.
//
// The score is Stryker's: (killed + timed out) ÷ (killed + timed out + survived + no coverage);
// ignored mutants (reached only while modules load, `ignoreStatic`, or marked equivalent by a
// `Stryker disable` comment that says why) and runtime errors are outside it. Exits 1 when the
// total is under 90% or a file under 80% (the targets of #17).
import { readFileSync } from 'node:fs';
import { projectPath } from '../../spec/project-root';

interface Mutant {
  mutatorName: string;
  replacement?: string;
  status: string;
  location: { start: { line: number; column: number } };
}
interface Report {
  files: Record<string, { mutants: Mutant[] }>;
}

const TOTAL_TARGET = 90;
const FILE_TARGET = 80;
const DETECTED = new Set(['Killed', 'Timeout']);
const UNDETECTED = new Set(['Survived', 'NoCoverage']);

interface Score {
  detected: number;
  undetected: number;
  ignored: number;
  errors: number;
}

function score(mutants: Mutant[]): Score {
  const s = { detected: 0, undetected: 0, ignored: 0, errors: 0 };
  for (const m of mutants) {
    if (DETECTED.has(m.status)) s.detected++;
    else if (UNDETECTED.has(m.status)) s.undetected++;
    else if (m.status === 'Ignored') s.ignored++;
    else s.errors++;
  }
  return s;
}

const percent = (s: Score) => (s.detected + s.undetected === 0 ? 100 : (100 * s.detected) / (s.detected + s.undetected));

function main(): number {
  const args = process.argv.slice(2);
  const only = args.includes('--file') ? args[args.indexOf('--file') + 1] : undefined;
  const reportPaths = args.includes('--reports')
    ? (args[args.indexOf('--reports') + 1] ?? '').split(',')
    : [projectPath('reports', 'mutation', 'mutation.json')];
  const merged: Report['files'] = {};
  for (const path of reportPaths) Object.assign(merged, (JSON.parse(readFileSync(path, 'utf8')) as Report).files);
  const files = Object.entries(merged)
    .filter(([name]) => !only || name.includes(only))
    .sort(([a], [b]) => a.localeCompare(b));
  const all = score(files.flatMap(([, f]) => f.mutants));
  const lines = [
    '| file | score % | killed or timed out | survived or not covered | ignored (static or marked equivalent) | errors |',
    '|---|---|---|---|---|---|',
  ];
  const misses: string[] = [];
  for (const [name, file] of files) {
    const s = score(file.mutants);
    const p = percent(s);
    if (p < FILE_TARGET) misses.push(`${name} ${p.toFixed(1)}%`);
    lines.push(`| \`${name}\` | ${p.toFixed(1)} | ${s.detected} | ${s.undetected} | ${s.ignored} | ${s.errors} |`);
  }
  const total = percent(all);
  const counts = `${all.detected} | ${all.undetected} | ${all.ignored} | ${all.errors}`;
  lines.push(`| **all ${files.length} files** | **${total.toFixed(2)}** | ${counts} |`);
  process.stdout.write(`${lines.join('\n')}\n`);
  if (args.includes('--survivors')) {
    for (const [name, file] of files) {
      const escaped = file.mutants.filter((m) => UNDETECTED.has(m.status));
      if (escaped.length === 0) continue;
      process.stdout.write(`\n${name}\n`);
      for (const m of escaped.sort((a, b) => a.location.start.line - b.location.start.line)) {
        const replacement = (m.replacement ?? '').replace(/\s+/g, ' ').slice(0, 120);
        process.stdout.write(`  ${m.location.start.line}:${m.location.start.column} ${m.status} ${m.mutatorName}: ${replacement}\n`);
      }
    }
  }
  if (total < TOTAL_TARGET) process.stderr.write(`total ${total.toFixed(2)}% is under ${TOTAL_TARGET}%\n`);
  if (misses.length > 0) process.stderr.write(`under ${FILE_TARGET}%: ${misses.join(', ')}\n`);
  return total < TOTAL_TARGET || misses.length > 0 ? 1 : 0;
}

process.exit(main());
