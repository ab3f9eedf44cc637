// The breaks run as data: per break, the rules it breaks and every test that failed under it, so
// `npm run rules:table` can say which rule's tests catch which break without running them again.
// A run of every break is also written to docs/rules/breaks-run.json (committed: the README's rule
// table comes from it); a run of some breaks (--only) only to reports/breaks/breaks-run.json.
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { dirname, join } from 'node:path';
import type { JestRun } from '../lib';
import type { Break } from './break';

export interface BreakRecord {
  id: string;
  what: string;
  rules: string[];
  files: string[];
  caught: boolean;
  failed: number;
  total: number;
  ms: number;
  /** Every failing test, as "file: full name" (the names carry the tests' rule tags). */
  failedTests: string[];
  brokenFiles: string[];
}

export interface BreaksRunRecord {
  startedAt: string;
  durationMs: number;
  commit: string;
  cores: number;
  wholeSuitePerBreak: boolean;
  baseline: { passed: number; skipped: number; failed: number };
  breaks: BreakRecord[];
}

export const COMMITTED_RECORD = join('docs', 'rules', 'breaks-run.json');
const REPORT_RECORD = join('reports', 'breaks', 'breaks-run.json');

export function breakRecord(brk: Break, run: JestRun, caught: boolean): BreakRecord {
  return {
    id: brk.id,
    what: brk.what,
    rules: [...brk.rules],
    files: brk.files,
    caught,
    failed: run.failed,
    total: run.total,
    ms: run.ms,
    failedTests: run.tests.filter((t) => t.status === 'failed').map((t) => `${t.file.replace(/^contract-tests\//, '')}: ${t.fullName}`),
    brokenFiles: run.brokenFiles.map((f) => f.file),
  };
}

function commit(): string {
  try {
    return execFileSync('git', ['rev-parse', '--short', 'HEAD'], { encoding: 'utf8' }).trim();
  } catch {
    return 'unknown';
  }
}

/** Writes the record; `complete` (every break ran) also writes the committed copy. */
export function writeRecord(record: Omit<BreaksRunRecord, 'commit' | 'cores'>, complete: boolean): string[] {
  const full: BreaksRunRecord = { ...record, commit: commit(), cores: cpus().length };
  const text = `${JSON.stringify(full, null, 2)}\n`;
  const paths = complete ? [REPORT_RECORD, COMMITTED_RECORD] : [REPORT_RECORD];
  for (const path of paths) {
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, text);
  }
  return paths;
}
