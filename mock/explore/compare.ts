// --compare-with: each step of a run is sent to the second target too, on that target's own
// records (the same names saved from its own answers), and the two answers are compared in the
// kinds of the fidelity report (status, code, field, type, state); ids, times and amounts are
// left aside. The first difference is a failure named compare.<kind>, shrunk like any other.
import { stepDifferences } from '../scenarios/compare';
import type { HttpAnswer } from '../scenarios/http';
import { TemplateError } from '../scenarios/template';
import type { Step } from '../scenarios/types';
import { CheckFailure, type CheckName } from './checks';
import type { RunContext } from './run-context';

export async function compareWithTwin(run: RunContext, twin: RunContext, step: Step, answer: HttpAnswer): Promise<void> {
  const what =
    step.call ??
    (step.control !== undefined ? `control ${step.control}` : step.clock !== undefined ? `clock ${step.clock}` : 'webhooks idle');
  let other: HttpAnswer;
  try {
    other = await twin.send(step);
  } catch (error) {
    // A name the second target never saved (it refused what made it on the first) or no answer.
    if (!(error instanceof TemplateError) && !(error instanceof CheckFailure)) throw error;
    return run.fail('compare.status', `${what}: the second target could not be sent it (${error.message})`);
  }
  const [first] = stepDifferences({ answer }, { answer: other });
  if (first)
    run.fail(`compare.${first.kind}` as CheckName, `${what}: ${first.path} is ${first.a} on the first target, ${first.b} on the second`);
}

/** The OPERATION_* event types each receiver got, compared as counts per type. */
export function compareEvents(run: RunContext, twin: RunContext): void {
  const count = (types: string[]) => {
    const counts = new Map<string, number>();
    for (const type of types.filter((t) => t.startsWith('OPERATION_'))) counts.set(type, (counts.get(type) ?? 0) + 1);
    return [...counts]
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([type, n]) => `${type}×${n}`)
      .join(', ');
  };
  const a = count(run.receiver?.eventTypes() ?? []);
  const b = count(twin.receiver?.eventTypes() ?? []);
  if (a !== b) run.fail('compare.events', `events delivered: [${a}] on the first target, [${b}] on the second`);
}
