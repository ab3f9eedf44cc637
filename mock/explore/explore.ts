// `explore`: generated stateful runs against one target, every answer checked; the first failure
// shrunk and written as a scenario (its expectations from the oracle, a fos-mock).
import { startReceiver, type Receiver } from '../receiver/receiver';
import { UserError } from '../scenarios/errors';
import type { Credentials } from '../scenarios/setup';
import { isAllowed, type Allowance } from './allow-list';
import { foreignRecords } from './foreign';
import { search, type SearchResult } from './search';
import { writeScenario, type WrittenScenario } from './scenario-out';
import { ExploreTarget } from './target';

export interface ExploreOptions {
  url: string;
  credentials?: Credentials;
  foreign?: Credentials;
  allowWrites?: boolean;
  /** Requests per second at most (0: unpaced). */
  rate: number;
  seed: number;
  runs: number;
  timeMs: number;
  shrinkMs: number;
  maxSteps: number;
  allow?: Allowance[];
  /** Where the failing run's scenario goes; none written without it. */
  outDir?: string;
  /** The fos-mock whose answers the written scenario expects; started on demand by the caller. */
  oracle?: () => Promise<string>;
  /** --compare-with: a second target (a fos-mock, the oracle, or another service) each step is also sent to. */
  compareWith?: string;
  /** No receiver even where the target seems to reach one (a mock in a container published on loopback). */
  noReceiver?: boolean;
  /** The command that reproduces the search (in the scenario and the report). */
  command: string;
  onRun?(done: { runs: number; steps: number }): void;
}

export interface ExploreReport {
  target: { url: string; isMock: boolean; writes: boolean; receiver: boolean; foreign: string[]; compareWith?: string };
  result: SearchResult;
  scenario?: WrittenScenario;
  /** Why no scenario could be written for a failure (the failure itself stands). */
  scenarioError?: string;
  command: string;
}

/** A receiver only where the target can reach it: a fos-mock on this machine's loopback. */
function loopback(url: string): boolean {
  const host = new URL(url).hostname;
  return host === 'localhost' || host === '::1' || host === '[::1]' || host.startsWith('127.');
}

export async function explore(options: ExploreOptions): Promise<ExploreReport> {
  const target = await ExploreTarget.open({
    url: options.url,
    credentials: options.credentials,
    foreign: options.foreign,
    allowWrites: options.allowWrites,
    rate: options.rate,
  });
  let receiver: Receiver | undefined;
  let second: ExploreTarget | undefined;
  try {
    if (!options.noReceiver && target.isMock && loopback(target.url)) receiver = await startReceiver();
    if (options.compareWith)
      second = await ExploreTarget.open({ url: options.compareWith, role: { kind: 'target', flag: '--compare-with' }, rate: options.rate });
    const foreign = await foreignRecords(target);
    const twin = second ? { target: second, receiver: second.isMock && loopback(second.url) ? receiver : undefined } : undefined;
    const result = await search(
      { target, receiver },
      foreign,
      {
        seed: options.seed,
        runs: options.runs,
        timeMs: options.timeMs,
        shrinkMs: options.shrinkMs,
        maxSteps: options.maxSteps,
        ...(options.onRun ? { onRun: (done: { runs: number; steps: number }) => options.onRun?.(done) } : {}),
        allowed: options.allow?.length ? (failure) => isAllowed(options.allow!, failure) : undefined,
      },
      twin,
    );
    const report: ExploreReport = {
      target: {
        ...(second ? { compareWith: second.url } : {}),
        url: target.url,
        isMock: target.isMock,
        writes: target.writes,
        // Events are checked only where every target reaches a receiver (search.ts subscribes none otherwise).
        receiver: receiver !== undefined && (!twin || twin.receiver !== undefined),
        foreign: Object.keys(foreign),
      },
      result,
      command: options.command,
    };
    if (result.failed && options.outDir && options.oracle) {
      try {
        report.scenario = await writeScenario(result.failed, {
          outDir: options.outDir,
          // The second target is the oracle when it is a fos-mock (--compare-with mock).
          oracleUrl: second?.isMock ? second.url : await options.oracle(),
          targetUrl: target.url,
          targetIsMock: target.isMock,
          seed: options.seed,
          command: options.command,
        });
      } catch (error) {
        if (!(error instanceof UserError)) throw error;
        report.scenarioError = error.message;
      }
    }
    return report;
  } finally {
    await receiver?.close();
    await second?.close();
    await target.close();
  }
}
