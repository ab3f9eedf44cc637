// Explore's speed: generated steps a second against the in-process mock (the mock in the same
// process as explore, as `--compare-with mock` and `scenario run` use it), alone and compared with
// a second in-process mock; and the time to shrink a failure found on a deliberately broken mock
// (quote-usable-twice: a quote accepted twice). Several seeds, medians.
import { median } from './lib/load';
import { tableRow } from './lib/markdown';
import { startLocalMock } from '../mock/cli/local-mock';
import { explore } from '../mock/explore';
import { BREAKS } from '../scripts/contract/breaks/index';
import { startMock } from '../scripts/contract/lib';

export interface ExploreSpeedRow {
  mode: string;
  seed: number;
  runs: number;
  steps: number;
  stepsPerSecond: number;
}

export interface ShrinkRow {
  seed: number;
  found: boolean;
  stepsBefore: number;
  stepsAfter: number;
  shrinks: number;
  shrinkSeconds: number;
}

export interface ExploreBenchResult {
  runsPerSeed: number;
  speed: ExploreSpeedRow[];
  medianStepsPerSecond: { alone: number; compared: number };
  shrink: ShrinkRow[];
  medianShrinkSeconds: number;
}

const base = { rate: 0, timeMs: 0, shrinkMs: 120_000, maxSteps: 30, command: 'npm run bench' };

export async function exploreBench(options: { rounds: number; runs: number }): Promise<ExploreBenchResult> {
  const seeds = Array.from({ length: options.rounds }, (_, i) => i + 1);
  const mock = await startLocalMock();
  const second = await startLocalMock();
  const speed: ExploreSpeedRow[] = [];
  try {
    for (const seed of seeds)
      for (const mode of ['alone', 'compared'] as const) {
        const report = await explore({
          ...base,
          url: mock.url,
          seed,
          runs: options.runs,
          ...(mode === 'compared' ? { compareWith: second.url } : {}),
        });
        if (report.result.failed) throw new Error(`explore bench: the unbroken mock failed ${report.result.failed.failure.message}`);
        const { runs, steps, searchMs } = report.result;
        speed.push({ mode, seed, runs, steps, stepsPerSecond: (steps * 1000) / searchMs });
      }
  } finally {
    await mock.stop();
    await second.stop();
  }
  const brk = BREAKS.find((b) => b.id === 'quote-usable-twice')!;
  const broken = await startMock({ config: { strictResponses: false, logLevel: 'silent' }, ...brk.options?.(() => broken.mock) }, brk.wrap);
  const shrink: ShrinkRow[] = [];
  try {
    for (const seed of seeds) {
      const report = await explore({ ...base, url: broken.url, seed, runs: 1_000 });
      const failed = report.result.failed;
      shrink.push({
        seed,
        found: failed !== undefined,
        stepsBefore: failed?.unshrunkSteps ?? 0,
        stepsAfter: failed?.steps.length ?? 0,
        shrinks: failed?.shrinks ?? 0,
        shrinkSeconds: (failed?.shrinkMs ?? 0) / 1000,
      });
    }
  } finally {
    await broken.close();
  }
  const rate = (mode: string) => median(speed.filter((r) => r.mode === mode).map((r) => r.stepsPerSecond));
  return {
    runsPerSeed: options.runs,
    speed,
    medianStepsPerSecond: { alone: rate('alone'), compared: rate('compared') },
    shrink,
    medianShrinkSeconds: median(shrink.filter((r) => r.found).map((r) => r.shrinkSeconds)),
  };
}

export function exploreMarkdown(result: ExploreBenchResult): string[] {
  return [
    '## Explore: generated steps a second, and the time to shrink',
    '',
    `${result.runsPerSeed} runs per seed against the in-process mock (memory store), ` +
      'alone and with --compare-with a second in-process mock. ' +
      `Median: ${result.medianStepsPerSecond.alone.toFixed(0)} steps/s alone (aim: at least 500), ` +
      `${result.medianStepsPerSecond.compared.toFixed(0)} steps/s compared (each step sent to both).`,
    '',
    '| mode | seed | runs | steps | steps/s |',
    '|---|---|---|---|---|',
    ...result.speed.map((r) => tableRow([r.mode, r.seed, r.runs, r.steps, r.stepsPerSecond.toFixed(0)])),
    '',
    `Shrinking a failure on the quote-usable-twice break (median ${result.medianShrinkSeconds.toFixed(1)} s):`,
    '',
    '| seed | found | run steps | shrunk steps | shrinks | shrink s |',
    '|---|---|---|---|---|---|',
    ...result.shrink.map((r) =>
      tableRow([r.seed, r.found ? 'yes' : 'no', r.stepsBefore, r.stepsAfter, r.shrinks, r.shrinkSeconds.toFixed(1)]),
    ),
  ];
}
