// Cross-check: the contract suite against the mock THROUGH Prism's validating proxy, so every
// response the mock gives is judged a second time by an independent validator (Prism's) as
// well as by the suite's own (spec/contract's ajv).
//
//   suite ──► prism proxy (document copy, --errors) ──► mock (in this process, strict on)
//     └──────────── control API (/_mock, not in the document) ────────────────┘
//
// - The mock runs in this process (createApp on an ephemeral port); Prism is
//   `prism proxy <document> <mock> --errors --validate-request=false`.
// - --errors: a response that breaks the document becomes Prism's 500 problem+json, which the
//   suite's client fails (undocumented status, no X-Request-Id, not the Error body). Violations
//   Prism only warns about come back in its sl-violations header, which the client also fails.
// - Request validation is off and the document copy has no security requirements: the suite
//   sends invalid requests and bad tokens ON PURPOSE to check the target's refusals; Prism
//   validating them would answer in the target's place (422 or 401 problem+json).
// - The control API is not in the document: the suite reaches it at CONTRACT_CONTROL_URL,
//   the mock itself. CONTRACT_PROXY=prism skips (with the reason) the tests whose raw bytes
//   Prism does not pass on as sent: malformed JSON, a body on an operation that takes none.
// - Prism's log is kept (reports/prism-proxy/prism.log) and scanned: any "Violation" line or
//   request Prism ended with its own error fails the run, whatever jest said.
//
//   npx tsx scripts/contract/prism-proxy.ts [jest test path patterns...]
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { documentWithoutSecurity, ROOT, runSuite, seconds, skipReason, startMock, startPrism, tempDir, runMain } from './lib';

async function main(): Promise<number> {
  const patterns = process.argv.slice(2).filter((a) => !a.startsWith('--'));
  const reportDir = join(ROOT, 'reports', 'prism-proxy');
  rmSync(reportDir, { recursive: true, force: true });
  mkdirSync(reportDir, { recursive: true });
  const started = Date.now();

  const mock = await startMock();
  const dir = tempDir('proxy');
  const document = documentWithoutSecurity(dir);
  const prism = await startPrism(['proxy', document, mock.url, '--errors', '--validate-request=false', '-v', 'info']);
  process.stdout.write(
    `mock ${mock.url}; prism proxy ${prism.url} (--errors, request validation off, document without security requirements)\n`,
  );

  let run;
  try {
    run = await runSuite(prism.url, reportDir, patterns, { CONTRACT_CONTROL_URL: mock.url, CONTRACT_PROXY: 'prism' });
  } finally {
    await prism.close();
    await mock.close();
    rmSync(dir, { recursive: true, force: true });
  }

  writeFileSync(join(reportDir, 'prism.log'), `${prism.log.join('\n')}\n`);
  const forwarded = prism.log.filter((l) => /Forwarding "\w+" request/.test(l)).length;
  const violations = prism.log.filter((l) => /Violation:/.test(l));
  const terminated = prism.log.filter((l) => /Request terminated with error/.test(l));
  const unresolved = prism.log.filter((l) => /Route not resolved|NO_PATH_MATCHED/.test(l));

  const reasons = new Map<string, number>();
  for (const t of run.tests.filter((t) => t.status === 'pending' || t.status === 'skipped'))
    reasons.set(skipReason(t), (reasons.get(skipReason(t)) ?? 0) + 1);
  const lines = [
    '',
    'Prism proxy cross-check',
    `  tests: ${run.passed} passed, ${run.failed} failed, ${run.skipped} skipped (${run.total}); ` +
      `files that could not run: ${run.brokenFiles.length}`,
    ...[...reasons].map(([reason, n]) => `    skipped ${n}: ${reason}`),
    `  requests through Prism: ${forwarded}; violations in Prism's log: ${violations.length}; ` +
      `requests Prism answered itself: ${terminated.length}${unresolved.length ? ` (${unresolved.length} unknown routes)` : ''}`,
    ...violations.slice(0, 20).map((l) => `    ${l.trim()}`),
    ...terminated.slice(0, 20).map((l) => `    ${l.trim()}`),
    `  Prism's log: ${join('reports', 'prism-proxy', 'prism.log')}; summary: ${join('reports', 'prism-proxy', 'contract-summary.md')}`,
    `  time: ${seconds(Date.now() - started)}`,
  ];
  const ok =
    run.code === 0 &&
    run.failed === 0 &&
    run.brokenFiles.length === 0 &&
    violations.length === 0 &&
    terminated.length === 0 &&
    run.passed > 0;
  lines.push(ok ? 'PASS: every response the suite provoked also satisfies Prism; no violation reported.' : 'FAIL: see above.');
  process.stdout.write(`${lines.join('\n')}\n`);
  return ok ? 0 : 1;
}

runMain(main);
