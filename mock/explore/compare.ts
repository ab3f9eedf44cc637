// --compare-with, at the end of a run: the operation events each target's receiver got, compared
// as counts per type (each step's answers are compared as the step is sent: run-context.ts).
import type { RunContext } from './run-context';

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
