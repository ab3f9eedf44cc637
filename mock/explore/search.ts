// The search: fast-check's model-based runs (fc.commands, fc.asyncModelRun) over the generated
// steps, seeded. First runs until one fails a check (or the runs or the time are used up), then
// that run is shrunk - replayed from its path, fewer and simpler steps each time - keeping only
// failures of the same check, within the shrink budget. See docs/decisions for why fast-check.
import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import type { Step } from '../scenarios/types';
import { actArbitraries } from './arbitraries';
import { CheckFailure } from './checks';
import { finalChecks, readStart } from './final-checks';
import { emptyModel, type Model } from './model';
import { HOOK_SUBSCRIPTION, RECEIVER, RunContext, type ForeignIds, type ForeignKind } from './run-context';
import type { ExploreTarget } from './target';
import type { Receiver } from '../receiver/receiver';

export interface SearchOptions {
  seed: number;
  /** Runs at most (each a fresh customer on a fos-mock). */
  runs: number;
  /** Time for finding a failure, ms (shrinking has its own budget). */
  timeMs: number;
  shrinkMs: number;
  maxSteps: number;
  /** Called after each run (for progress lines). */
  onRun?(done: { runs: number; steps: number; failed: boolean }): void;
  /** Whether a failure is accepted (the allow-list). */
  allowed?(failure: CheckFailure): boolean;
}

export interface FailedRun {
  failure: CheckFailure;
  /** The steps of the run up to the one that failed. */
  steps: Step[];
  /** Whether a receiver took the run's events (the scenario declares it). */
  receiver: boolean;
  /** The generated steps, as fast-check shows them. */
  acts: string;
}

export interface SearchResult {
  seed: number;
  runs: number;
  /** HTTP steps sent in the search (shrinking excluded). */
  steps: number;
  searchMs: number;
  /** Failures the allow-list accepted (each ended its run). */
  allowedHits: CheckFailure[];
  failed?: FailedRun & { path: string; shrinks: number; shrinkMs: number; unshrunkSteps: number };
}

/** A target and the receiver it reaches (none when it cannot reach this machine). */
export interface Side {
  target: ExploreTarget;
  receiver?: Receiver;
}

export async function search(main: Side, foreign: ForeignIds, options: SearchOptions, second?: Side): Promise<SearchResult> {
  const { target } = main;
  // With a second target, a step is generated only when both allow it.
  const both = (allow: (t: ExploreTarget) => boolean) => allow(target) && (!second || allow(second.target));
  const allowed = {
    writes: both((t) => t.writes),
    control: both((t) => t.isMock),
    clock: both((t) => t.isMock && !t.options.credentials),
    faults: target.isMock && !second,
    foreign: Object.keys(foreign) as ForeignKind[],
  };
  const arbitraries = actArbitraries(allowed);
  let runs = 0;
  let steps = 0;
  // While shrinking: the check the first failure broke.
  const shrinking: { check?: string } = {};
  let last: FailedRun | undefined;
  const allowedHits: CheckFailure[] = [];

  const setup = async (): Promise<{ model: Model; real: RunContext }> => {
    const session = await target.session(`explore ${options.seed}`);
    // Events are subscribed to only where both targets reach a receiver (or the one target does).
    const events = main.receiver !== undefined && (!second || second.receiver !== undefined);
    const twin = second
      ? new RunContext(
          second.target,
          await second.target.session(`explore ${options.seed}`),
          events ? second.receiver?.endpoint() : undefined,
        )
      : undefined;
    const endpoint = events ? main.receiver?.endpoint() : undefined;
    const run = new RunContext(target, session, endpoint, foreign, twin);
    return { model: emptyModel(session.customer.accounts.length, session.customer.beneficiaries.length), real: run };
  };

  const property = fc.asyncProperty(
    fc.commands(arbitraries, { maxCommands: options.maxSteps, size: 'large' }),
    async (acts: Iterable<fc.AsyncCommand<Model, RunContext>>) => {
      const { model, real } = await setup();
      const start = target.isMock ? await readStart(real) : undefined;
      try {
        // The run's first step: a subscription to every event, delivered to the run's receiver.
        if (real.receiver)
          await real.do({
            call: 'POST /api/subscriptions',
            body: { url: `{{receivers.${RECEIVER}.url}}`, includeAll: true },
            headers: { 'x-idempotency-key': randomUUID() },
            save: { [HOOK_SUBSCRIPTION]: 'body.id' },
          });
        await fc.asyncModelRun(() => Promise.resolve({ model, real }), acts);
        await finalChecks(model, real, start);
      } catch (error) {
        if (!(error instanceof CheckFailure)) throw error;
        // An allowed check (--allow) ends the run as passed: the difference is accepted.
        if (options.allowed?.(error)) {
          allowedHits.push(error);
          return;
        }
        // While shrinking, only the same check counts: a smaller run that fails another way is another finding.
        if (shrinking.check !== undefined && error.check !== shrinking.check) return;
        last = {
          failure: error,
          steps: [...real.steps],
          receiver: real.receiver !== undefined,
          acts: (acts as { toString(): string }).toString(),
        };
        throw error;
      } finally {
        if (shrinking.check === undefined) {
          runs++;
          steps += real.steps.length;
          options.onRun?.({ runs, steps, failed: last !== undefined });
        }
      }
    },
  );

  const started = Date.now();
  const found = await fc.check(property, {
    seed: options.seed,
    numRuns: options.runs,
    endOnFailure: true,
    ...(options.timeMs > 0 ? { interruptAfterTimeLimit: options.timeMs } : {}),
  });
  const searchMs = Date.now() - started;
  const result: SearchResult = { seed: options.seed, runs, steps, searchMs, allowedHits };
  // Interrupted by --time with no failure: the search is over, nothing found.
  if (!found.failed || (found.interrupted && !last)) return result;
  if (!last) throw found.errorInstance instanceof Error ? found.errorInstance : new Error('explore: the search failed without a check');
  const first = last;
  shrinking.check = first.failure.check;
  const shrinkStart = Date.now();
  const shrunk = await fc.check(property, {
    seed: found.seed,
    path: found.counterexamplePath ?? undefined,
    interruptAfterTimeLimit: options.shrinkMs,
  });
  const final = shrunk.failed && last ? last : first;
  result.failed = {
    ...final,
    path: shrunk.counterexamplePath ?? found.counterexamplePath ?? '',
    shrinks: shrunk.numShrinks,
    shrinkMs: Date.now() - shrinkStart,
    unshrunkSteps: first.steps.length,
  };
  return result;
}
