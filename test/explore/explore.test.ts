// `explore()` as a program calls it: against the mock as it is, a seeded search finds nothing and
// sends the same runs again for the same seed; against a mock with one deliberate break of
// scripts/contract/breaks, it names the check the break defeats, shrinks the run, and writes a
// scenario that passes on an unbroken mock (the oracle) and fails on the broken one. Seeds are
// fixed and the searches small, so each test is a few seconds; no search is bounded by time.
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import yaml from 'js-yaml';
import { explore, type ExploreOptions, type ExploreReport } from '../../mock/explore';
import type { Scenario } from '../../mock/scenarios';
import type { RunningMock } from '../../scripts/contract/lib';
import { listeningMock, type ListeningMock } from '../scenarios/support';
import { brokenMock, tempFolder } from './support';

let plain: ListeningMock;
let oracle: ListeningMock;
beforeAll(async () => {
  plain = await listeningMock({ strictResponses: true });
  oracle = await listeningMock();
});
afterAll(() => Promise.all([plain.stop(), oracle.stop()]));

function search(url: string, options: Partial<ExploreOptions> = {}): Promise<ExploreReport> {
  return explore({
    url,
    rate: 0,
    seed: 1,
    runs: 20,
    timeMs: 0,
    shrinkMs: 60_000,
    maxSteps: 10,
    outDir: tempFolder('out'),
    oracle: () => Promise.resolve(oracle.url),
    command: 'jest test/explore/explore.test.ts',
    ...options,
  });
}

/** Explore against the mock with the break `id`, stopped afterwards. */
async function searchBroken(id: string, options: Partial<ExploreOptions> = {}): Promise<ExploreReport> {
  const broken: RunningMock = await brokenMock(id);
  try {
    // Up to 200 runs: the search ends at the first failure, so a caught break costs only the runs it takes.
    return await search(broken.url, { runs: 200, maxSteps: 20, ...options });
  } finally {
    await broken.close();
  }
}

function writtenScenario(report: ExploreReport): { text: string; scenario: Scenario } {
  expect(report.scenario).toBeDefined();
  const text = readFileSync(report.scenario!.file, 'utf8');
  return { text, scenario: yaml.load(text) as Scenario };
}

/** The written scenario replays: it passes on the oracle and fails on the target explore ran against. */
function replaysTheFinding(report: ExploreReport): void {
  expect(report.scenario?.onOracle).toBe('passed');
  expect(report.scenario?.onTarget).toBe('failed');
}

describe('explore against the mock as it is', () => {
  it('When a seeded search of 20 runs ends, then no check failed, every run was made and steps were sent', async () => {
    const report = await search(plain.url);
    expect(report.result.failed?.failure.message).toBeUndefined();
    expect(report.result.runs).toBe(20);
    expect(report.result.steps).toBeGreaterThan(0);
    expect(report.result.allowedHits).toEqual([]);
    expect(report.scenario).toBeUndefined();
    // A fos-mock on this machine: every check can act (control API, a receiver, another customer).
    expect(report.target).toMatchObject({ url: plain.url, isMock: true, writes: true, receiver: true });
    expect(report.target.foreign.sort()).toEqual(['account', 'beneficiary', 'key', 'operation', 'quote', 'subscription']);
  });

  it('When the same seed is searched twice, then each run sends as many steps as it did the first time', async () => {
    const seen: Array<Array<{ runs: number; steps: number }>> = [[], []];
    for (const done of seen) await search(plain.url, { seed: 5, onRun: (run) => done.push({ ...run }) });
    expect(seen[0]).toHaveLength(20);
    expect(seen[1]).toEqual(seen[0]);
  });
});

describe('explore against a mock with a deliberate break', () => {
  it('When a quote funds two operations (quote-usable-twice), then quote.consumed-once fails, shrunk; the scenario replays', async () => {
    // Seed 29 reaches a second operation on a used quote within its first runs.
    const report = await searchBroken('quote-usable-twice', { seed: 29, runs: 40, maxSteps: 20 });
    const failed = report.result.failed;
    expect(failed?.failure.check).toBe('quote.consumed-once');
    expect(failed!.steps.length).toBeLessThanOrEqual(failed!.unshrunkSteps);
    expect(failed!.acts).toContain('used quote');
    replaysTheFinding(report);
    const { text, scenario } = writtenScenario(report);
    expect(scenario.customer).toBe('fresh');
    // The run's own customer logged in for it: neither its secret nor its token is written.
    expect(text).not.toMatch(/clientSecret|client_secret|accessToken|demo-secret/i);
    expect(scenario.steps.filter((step) => step.headers?.authorization !== undefined)).toEqual([]);
  });

  it('When a key sent with another body replays the first answer (key-reused-other-body), then idempotency.conflict fails', async () => {
    const report = await searchBroken('key-reused-other-body');
    expect(report.result.failed?.failure.check).toBe('idempotency.conflict');
    replaysTheFinding(report);
  });

  it('When an account of another customer answers 200 (tenancy-leak), then tenancy.isolation fails', async () => {
    const report = await searchBroken('tenancy-leak');
    expect(report.result.failed?.failure.check).toBe('tenancy.isolation');
    replaysTheFinding(report);
  });

  it('When createQuote answers 200 (create-quote-200), then document.status fails; the failing step expects conforms: true', async () => {
    const report = await searchBroken('create-quote-200');
    const failed = report.result.failed;
    expect(failed?.failure.check).toBe('document.status');
    replaysTheFinding(report);
    const { scenario } = writtenScenario(report);
    const failing = scenario.steps[failed!.failure.step - 1];
    expect(failing?.call).toBe('POST /v1/quotes');
    expect(failing?.expect?.conforms).toBe(true);
  });

  it('When the broken check is allowed, then nothing is reported as failed and the allowed failures are counted', async () => {
    const report = await searchBroken('quote-usable-twice', {
      seed: 29,
      runs: 40,
      maxSteps: 20,
      allow: [{ check: 'quote.consumed-once', reason: 'known' }],
    });
    expect(report.result.failed?.failure.message).toBeUndefined();
    expect(report.result.runs).toBe(40);
    expect(report.result.allowedHits.length).toBeGreaterThan(0);
    expect(new Set(report.result.allowedHits.map((hit) => hit.check))).toEqual(new Set(['quote.consumed-once']));
    expect(report.scenario).toBeUndefined();
  });
});
