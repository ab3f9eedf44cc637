// A generated step of a run, as fast-check's model-based testing wants it: `check` says whether
// it can run on what the run has made so far, `run` sends its calls and checks their answers.
import type { AsyncCommand } from 'fast-check';
import type { HttpAnswer } from '../scenarios/http';
import type { Step } from '../scenarios/types';
import type { Model } from './model';
import type { RunContext } from './run-context';

export abstract class Act implements AsyncCommand<Model, RunContext> {
  abstract check(model: Readonly<Model>): boolean;
  abstract run(model: Model, run: RunContext): Promise<void>;
  abstract toString(): string;
}

export const accepted = (answer: HttpAnswer) => answer.status >= 200 && answer.status < 300;

/** Remembers an answered mutating call (not one a fault answered): replays are compared with it. */
export function remember(model: Model, run: RunContext, step: Step, answer: HttpAnswer): void {
  const key = step.headers?.['x-idempotency-key'];
  if (typeof key !== 'string' || (answer.body as { code?: unknown } | undefined)?.code === 'INJECTED_FAULT') return;
  // A refusal before the key is kept (a malformed request) does not burn it: only accepted calls.
  if (accepted(answer)) model.calls.push({ step, key, answer, index: run.index, atMs: model.clockMs });
}
