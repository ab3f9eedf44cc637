// `explore()` with `compareWith`: every step also sent to a second target, on its own records, and
// the two answers compared. Two unbroken mocks never differ; a mock with a break that changes a
// refusal's status is caught as compare.status; a list walked page by page on both targets sends
// each target its own cursors (saved by name, sent back as `{{cursorN}}`). Seeds are fixed and the
// searches small; no search is bounded by time.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { explore, type ExploreOptions, type ExploreReport } from '../../mock/explore';
import { walk } from '../../mock/explore/pages';
import { RunContext } from '../../mock/explore/run-context';
import { ExploreTarget } from '../../mock/explore/target';
import type { RunningMock } from '../../scripts/contract/lib';
import { listeningMock, type ListeningMock } from '../scenarios/support';
import { brokenMock, tempFolder } from './support';

let first: ListeningMock;
let second: ListeningMock;
beforeAll(async () => {
  first = await listeningMock({ strictResponses: true });
  second = await listeningMock();
});
afterAll(() => Promise.all([first.stop(), second.stop()]));

function search(url: string, options: Partial<ExploreOptions> = {}): Promise<ExploreReport> {
  return explore({
    url,
    rate: 0,
    seed: 1,
    runs: 30,
    timeMs: 0,
    shrinkMs: 60_000,
    maxSteps: 10,
    outDir: tempFolder('compare'),
    oracle: () => Promise.resolve(second.url),
    command: 'jest test/explore/explore-compare.test.ts',
    ...options,
  });
}

describe('explore --compare-with', () => {
  it('When two unbroken mocks are compared over a seeded search of 30 runs, then no check failed', async () => {
    const report = await search(first.url, { compareWith: second.url });
    expect(report.result.failed?.failure.message).toBeUndefined();
    expect(report.result.runs).toBe(30);
    expect(report.result.steps).toBeGreaterThan(0);
    expect(report.target.compareWith).toBe(second.url);
  });

  it('When the first target refuses invalid requests with 422 UNPROCESSABLE (validation-as-422), then compare.status fails', async () => {
    // 422 is a status the document declares for the calls explore makes invalid, so the document
    // check on the first target holds and the difference is the second target's 400.
    const broken: RunningMock = await brokenMock('validation-as-422');
    try {
      const report = await search(broken.url, { compareWith: second.url, runs: 200, maxSteps: 20 });
      const failed = report.result.failed;
      expect(failed?.failure.check).toBe('compare.status');
      expect(failed!.failure.message).toMatch(/status is 422 on the first target, 400 on the second/);
      // The second target is a fos-mock: it is the oracle the scenario is replayed on.
      expect(report.scenario?.onOracle).toBe('passed');
      expect(report.scenario?.onTarget).toBe('failed');
    } finally {
      await broken.close();
    }
  });
});

describe('a list walked page by page on both targets', () => {
  it('When three subscriptions are walked with limit 1, then both targets walk three pages, each with its own cursors', async () => {
    const targets = await Promise.all([first.url, second.url].map((url) => ExploreTarget.open({ url, rate: 0 })));
    try {
      const [one, two] = targets as [ExploreTarget, ExploreTarget];
      const twin = new RunContext(two, await two.session('pages twin'));
      const run = new RunContext(one, await one.session('pages'), undefined, {}, twin);
      for (const n of [1, 2, 3])
        await run.do({
          call: 'POST /api/subscriptions',
          body: { url: `https://hooks.example.com/explore/pages/${n}`, includeAll: true },
        });

      const walked = await walk(run, '/v1/subscriptions', 1, 'ASCENDING');

      expect(walked.records).toHaveLength(3);
      const pages = run.steps.filter((step) => step.call?.startsWith('GET /v1/subscriptions'));
      expect(pages).toHaveLength(3);
      expect(pages[1]!.call).toMatch(/cursor=\{\{cursor\d+\}\}/);
      // The second target got every page too, and saved its own cursors (not the first target's).
      expect(twin.steps.map((step) => step.call)).toEqual(run.steps.map((step) => step.call));
      const cursors = Object.keys(run.saved).filter((name) => name.startsWith('cursor'));
      expect(cursors).toHaveLength(2);
      for (const name of cursors) {
        expect(typeof twin.saved[name]).toBe('string');
        expect(twin.saved[name]).not.toBe(run.saved[name]);
      }
    } finally {
      await Promise.all(targets.map((target) => target.close()));
    }
  });
});
