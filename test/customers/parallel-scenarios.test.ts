// Proof that tests sharing one mock each have a world of their own: eight scenario
// files (test/scenarios/parallel/), each on a fresh customer with its own clock, each moving that
// clock, adding a fault scoped to its customer and verifying its deliveries, run all at once
// against one mock - and against two replicas on one Redis behind a round-robin balancer - and
// each ends as it does when run alone.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { readdirSync } from 'node:fs';
import { loadScenarioFile, runScenario, type Scenario, type ScenarioResult } from '../../mock/scenarios';
import { projectPath } from '../../spec/project-root';
import { listeningMock, type ListeningMock } from '../scenarios/support';
import { describeWithRedis } from '../support/redis-suite';
import { startBalancedReplicas, type BalancedReplicas } from '../support/replicas';

/** A hang guard for the hooks that start replicas. */
const START_MS = 300_000;
const folder = projectPath('test', 'scenarios', 'parallel');
const scenarios: Scenario[] = readdirSync(folder)
  .filter((file) => file.endsWith('.yaml'))
  .sort()
  .map((file) => loadScenarioFile(`${folder}/${file}`));

/** What must be the same alone and at once: the verdict, and each step's outcome and status. */
const outcome = (result: ScenarioResult) => ({
  name: result.name,
  passed: result.passed,
  steps: result.steps.map((step) => ({ title: step.title, ok: step.ok, status: step.status, error: step.error })),
});

/** Each scenario alone, one after another; then all at once. */
async function aloneThenAtOnce(url: string) {
  const alone = [];
  for (const scenario of scenarios) alone.push(outcome(await runScenario(scenario, { baseUrl: url })));
  const atOnce = (await Promise.all(scenarios.map((scenario) => runScenario(scenario, { baseUrl: url })))).map(outcome);
  return { alone, atOnce };
}

/** Every scenario moves its own clock, adds a fault for its customer and verifies deliveries. */
function checkTheFiles(): void {
  expect(scenarios.length).toBeGreaterThanOrEqual(8);
  for (const scenario of scenarios) {
    expect(scenario.clock).toBe('own');
    expect(scenario.steps.some((step) => step.clock !== undefined)).toBe(true);
    expect(scenario.steps.some((step) => step.control === 'POST /faults' && JSON.stringify(step.body).includes('{{customer.id}}'))).toBe(
      true,
    );
    expect(scenario.steps.some((step) => step.control === 'POST /deliveries/verify')).toBe(true);
  }
}

describe('eight scenario files at once on one mock, each on its own customer and clock', () => {
  let target: ListeningMock;
  beforeAll(async () => {
    target = await listeningMock();
  });
  afterAll(() => target?.stop());

  it('each moves its clock, adds a fault for its customer and verifies deliveries', checkTheFiles);

  it('run all at once, every one passes with the same steps and answers as alone; the mock’s clock never moved', async () => {
    const { alone, atOnce } = await aloneThenAtOnce(target.url);
    expect(alone.filter((result) => !result.passed)).toEqual([]);
    expect(atOnce).toEqual(alone);
    const clock = (await (await fetch(`${target.url}/_mock/clock`)).json()) as { now: string };
    expect(clock.now).toBe('2026-11-21T12:00:00.000Z');
  });
});

describeWithRedis('eight scenario files at once on two replicas on one Redis', (redis) => {
  let replicas: BalancedReplicas | undefined;
  beforeAll(async () => {
    replicas = await startBalancedReplicas(2, { redisUrl: redis().url });
  }, START_MS);
  afterAll(() => replicas?.close(), START_MS);

  it('through a round-robin balancer, every one passes with the same steps and answers as alone', async () => {
    const { alone, atOnce } = await aloneThenAtOnce((replicas as BalancedReplicas).balancer.url);
    expect(alone.filter((result) => !result.passed)).toEqual([]);
    expect(atOnce).toEqual(alone);
  });
});
