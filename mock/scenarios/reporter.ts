// Words a run for a terminal: one line per step (`✓ 3/9 POST /v1/quotes 201 (12 ms)`, or `✗`
// and what differed), a "running" line while a step is under way when the output is a
// terminal, a line per scenario and the totals.
import type { ScenarioResult, StepProgress } from './types';

export interface Output {
  write(text: string): unknown;
  isTTY?: boolean;
}

const CLEAR_LINE = '\r\x1b[2K';

export function formatStep(p: StepProgress): string {
  const mark = p.state === 'passed' ? '✓' : p.state === 'failed' ? '✗' : '…';
  const status = p.status !== undefined ? ` ${p.status}` : '';
  const ms = p.ms !== undefined ? ` (${p.ms} ms)` : '';
  const name = p.name ? ` - ${p.name}` : '';
  const line = `  ${mark} ${p.index}/${p.total} ${p.title}${status}${ms}${name}`;
  return p.error ? `${line}\n      ${p.error.split('\n').join('\n      ')}` : line;
}

/** An onStep callback that prints each finished step, and on a terminal the step under way. */
export function progressPrinter(out: Output): (p: StepProgress) => void {
  let pending = false;
  return (p) => {
    if (p.state === 'running') {
      if (out.isTTY) {
        out.write(formatStep(p));
        pending = true;
      }
      return;
    }
    out.write(`${pending ? CLEAR_LINE : ''}${formatStep(p)}\n`);
    pending = false;
  };
}

export function formatHeader(name: string, file?: string): string {
  return `▶ ${name}${file ? ` (${file})` : ''}`;
}

export function formatResult(result: ScenarioResult): string {
  if (result.passed) return `✓ ${result.name}: ${result.total}/${result.total} steps passed (${result.ms} ms)`;
  const failed = result.steps.find((s) => !s.ok);
  return `✗ ${result.name}: failed at step ${failed?.index ?? '?'}/${result.total}${failed ? ` (${failed.title})` : ''}`;
}

export function formatTotals(results: Array<{ passed: boolean }>, errors = 0): string {
  const passed = results.filter((r) => r.passed).length;
  const failed = results.length - passed + errors;
  const count = results.length + errors;
  return `${count} scenario${count === 1 ? '' : 's'}: ${passed} passed, ${failed} failed`;
}
