// The contract suite on one shared mock, its test files at once: jest workers, each file acting as
// its own fresh customer with a clock of its own (contract-tests/support/session.ts), all against
// one mock over HTTP, as a team's CI with parallel workers, or several teams, share one container.
// A file that moved the mock's clock, or saw another's records, would fail here and not alone.
//
//   suite (WORKERS jest workers) ──► one mock (in this process, strict on, demo data)
//
// Fails (exit 1) on any failed test or a file that could not run; the coverage table and the
// summary go to reports/shared-parallel/.
//
//   npm run test:contract:shared [-- jest test path patterns...]
import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { firstFailureLine, ROOT, runSuite, seconds, startMock, runMain } from './lib';

/** Files at once: more than this machine's cores on purpose, so files overlap whatever the machine. */
const WORKERS = 4;

async function main(): Promise<number> {
  const patterns = process.argv.slice(2).filter((a) => !a.startsWith('--'));
  const reportDir = join(ROOT, 'reports', 'shared-parallel');
  rmSync(reportDir, { recursive: true, force: true });
  mkdirSync(reportDir, { recursive: true });
  const started = Date.now();

  const mock = await startMock();
  process.stdout.write(`one shared mock ${mock.url}; the contract suite with ${WORKERS} jest workers\n`);
  let run;
  try {
    run = await runSuite(mock.url, reportDir, patterns, {}, WORKERS);
  } finally {
    await mock.close();
  }
  const ok = run.failed === 0 && run.brokenFiles.length === 0 && run.total > 0;
  const lines = [
    '',
    `Contract suite, ${WORKERS} workers at once, one shared mock`,
    `  tests: ${run.passed} passed, ${run.failed} failed, ${run.skipped} skipped (${run.total}); ` +
      `files that could not run: ${run.brokenFiles.length}`,
    ...run.tests.filter((t) => t.status === 'failed').map((t) => `    ✗ ${t.file}: ${t.title}\n        ${firstFailureLine(t)}`),
    ...run.brokenFiles.map((f) => `    ✗ ${f.file} could not run: ${f.message.split('\n')[0]}`),
    `  reports: reports/shared-parallel/; time: ${seconds(Date.now() - started)}`,
    ok ? 'PASS: every file passed beside the others on one shared mock.' : 'FAIL: see above.',
  ];
  process.stdout.write(`${lines.join('\n')}\n`);
  return ok ? 0 : 1;
}

runMain(main);
