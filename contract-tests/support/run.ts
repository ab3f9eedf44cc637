// One run of the suite: its id (shared by every test file of the run, whether they run in band
// or in worker processes) and the records the test files leave for the reporter: each call's
// (operationId, status), each drift, each contract violation, the target.
import { appendFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { isMainThread } from 'node:worker_threads';
import { projectPath } from '../../spec/project-root';
import { settings } from './settings';

export type RunRecord =
  | { kind: 'call'; file: string; operationId: string; status: number }
  | { kind: 'drift'; file: string; operationId: string; status: number; field: string; message: string }
  | { kind: 'webhook-drift'; file: string; eventType: string; field: string; message: string }
  | { kind: 'violation'; file: string; operationId: string; status: number; problems: string[]; knownBug: boolean }
  | { kind: 'target'; file: string; label: string; inProcess: boolean; control: boolean; mock: boolean }
  | { kind: 'document'; operations: Array<{ operationId: string; method: string; path: string; statuses: number[] }> };

export function reportDir(): string {
  return settings().reportDir ?? projectPath('reports');
}

export function recordsDir(): string {
  return join(reportDir(), 'contract');
}

/**
 * The contract reporter sets CONTRACT_RUN_ID before any worker starts (workers inherit it).
 * Without the reporter, the jest process's pid stands in: a worker process's parent, or the
 * process itself when jest runs in band or in worker threads.
 */
export function runId(): string {
  const fromReporter = process.env.CONTRACT_RUN_ID;
  if (fromReporter) return fromReporter;
  const inChildWorker = isMainThread && typeof process.send === 'function' && process.env.JEST_WORKER_ID !== undefined;
  return `pid-${inChildWorker ? process.ppid : process.pid}`;
}

let ensured = false;
export function record(entry: RunRecord): void {
  const dir = recordsDir();
  if (!ensured) {
    mkdirSync(dir, { recursive: true });
    ensured = true;
  }
  // One line per record, appended: small writes with O_APPEND do not interleave across processes.
  appendFileSync(join(dir, `records-${runId()}.jsonl`), `${JSON.stringify(entry)}\n`);
}
