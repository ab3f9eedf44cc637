// Target-agnosticism check: the whole contract suite against `prism mock spec/openapi.yaml`, a
// stateless server that answers every well-formed request with the document's example. The
// suite probes the target before registering its tests (contract-tests/support/probe-url.ts):
// a quote nobody created reads back 200, so the target is stateless, and every test that needs
// state or the API's rules is registered as skipped with that evidence as its reason. What is
// left (the shapes of every operation's answers, the document checks, calls any server must
// serve) must pass. A failure, a file that cannot run, or a skip without a reason fails this.
//
//   npx tsx scripts/contract/prism-stateless.ts [jest test path patterns...]
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT, runSuite, seconds, skipReason, startPrism, runMain } from './lib';

async function main(): Promise<number> {
  const patterns = process.argv.slice(2).filter((a) => !a.startsWith('--'));
  const reportDir = join(ROOT, 'reports', 'prism-stateless');
  rmSync(reportDir, { recursive: true, force: true });
  mkdirSync(reportDir, { recursive: true });
  const started = Date.now();

  const prism = await startPrism(['mock', join(ROOT, 'spec', 'openapi.yaml'), '-v', 'info']);
  process.stdout.write(`prism mock ${prism.url} (stateless: the document's examples)\n`);
  let run;
  try {
    // Writes are allowed: what skips, skips because the target keeps no state, not for want of permission.
    run = await runSuite(prism.url, reportDir, patterns, { CONTRACT_CONTROL_URL: undefined, CONTRACT_PROXY: undefined });
  } finally {
    await prism.close();
  }
  writeFileSync(join(reportDir, 'prism.log'), `${prism.log.join('\n')}\n`);
  const requests = prism.log.filter((l) => /Request received/.test(l)).length;
  // bad-input.test.ts sends bodies to operations that take none, on purpose (the answer must
  // still be documented): Prism flags those requests and still answers. Any other request it
  // finds invalid is a request the suite believes well-formed: a suite bug.
  const BODY_WHERE_NONE = /No supported content types, but request included a non-empty body/;
  const allViolations = prism.log.filter((l) => /Violation:/.test(l));
  const expected = allViolations.filter((l) => BODY_WHERE_NONE.test(l));
  const violations = allViolations.filter((l) => !BODY_WHERE_NONE.test(l));

  const reasons = new Map<string, number>();
  const skipped = run.tests.filter((t) => t.status === 'pending' || t.status === 'skipped');
  for (const t of skipped) reasons.set(skipReason(t), (reasons.get(skipReason(t)) ?? 0) + 1);
  const unexplained = reasons.get('(no reason stated)') ?? 0;
  const detected = [...reasons.keys()].some((r) => r.includes('stateless target'));
  const byFile = new Map<string, { passed: number; skipped: number; failed: number }>();
  for (const t of run.tests) {
    const row = byFile.get(t.file) ?? { passed: 0, skipped: 0, failed: 0 };
    if (t.status === 'passed') row.passed++;
    else if (t.status === 'failed') row.failed++;
    else row.skipped++;
    byFile.set(t.file, row);
  }
  const lines = [
    '',
    'Stateless target (prism mock) run',
    `  tests: ${run.passed} passed, ${run.failed} failed, ${run.skipped} skipped (${run.total}); ` +
      `files that could not run: ${run.brokenFiles.length}`,
    ...[...byFile].map(([file, r]) => `    ${file}: ${r.passed} passed, ${r.skipped} skipped${r.failed ? `, ${r.failed} FAILED` : ''}`),
    '  skipped, by reason:',
    ...[...reasons].sort((a, b) => b[1] - a[1]).map(([reason, n]) => `    ${String(n).padStart(4)}  ${reason}`),
    `  requests Prism answered: ${requests}; request violations Prism reported: ${violations.length} unexpected, ` +
      `${expected.length} expected (bodies sent on purpose to operations that take none)`,
    ...violations.slice(0, 10).map((l) => `    ${l.trim()}`),
    ...run.brokenFiles.map((b) => `  could not run: ${b.file}: ${b.message.split('\n')[0]}`),
    `  Prism's log: ${join('reports', 'prism-stateless', 'prism.log')}; ` +
      `summary: ${join('reports', 'prism-stateless', 'contract-summary.md')}`,
    `  time: ${seconds(Date.now() - started)}`,
  ];
  const problems: string[] = [];
  if (run.failed || run.brokenFiles.length || run.code !== 0)
    problems.push('tests failed against a stateless target: they must hold there or skip with a reason');
  if (unexplained) problems.push(`${unexplained} test(s) skipped without a stated reason`);
  if (!detected) problems.push('the probe did not find the target stateless');
  if (run.passed === 0) problems.push('nothing ran');
  if (violations.length) problems.push('Prism found requests the suite calls well-formed invalid');
  lines.push(
    problems.length
      ? `FAIL: ${problems.join('; ')}`
      : 'PASS: the shape checks hold against a stateless target and every other test skips with its reason.',
  );
  process.stdout.write(`${lines.join('\n')}\n`);
  return problems.length ? 1 : 0;
}

runMain(main);
