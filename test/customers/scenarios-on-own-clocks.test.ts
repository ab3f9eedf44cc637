// Scenarios on a customer's own clock (`clock: own`): several run at once against one mock, each
// moving its own time, and each passes as it does alone; a `clock` step moves the customer's clock
// only, never the mock's.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { readdirSync } from 'node:fs';
import { loadScenarioFile, parseScenario, runScenario, type Scenario } from '../../mock/scenarios';
import { projectPath } from '../../spec/project-root';
import { listeningMock, type ListeningMock } from '../scenarios/support';

const shipped = readdirSync(projectPath('fixtures', 'scenarios'))
  .filter((file) => file.endsWith('.yaml'))
  .map((file) => loadScenarioFile(projectPath('fixtures', 'scenarios', file)));

let target: ListeningMock;
beforeAll(async () => {
  // The mock's defaults: auto-settlement 5 s after creation, webhook retries from 5 s.
  target = await listeningMock();
});
afterAll(() => target.stop());

describe('scenarios on their own clocks', () => {
  it('the shipped scenarios, each twice, all at once on one mock and each on its own clock, pass as they do alone', async () => {
    expect(shipped.length).toBeGreaterThanOrEqual(4);
    const runs = [...shipped, ...shipped].map((scenario): Scenario => ({ ...scenario, clock: 'own' }));
    const results = await Promise.all(runs.map((scenario) => runScenario(scenario, { baseUrl: target.url })));
    const failed = results.filter((result) => !result.passed).map((result) => [result.name, result.steps.find((s) => !s.ok)?.error]);
    expect(failed).toEqual([]);
    expect(results.length).toBeGreaterThanOrEqual(8);
    // Their clock steps moved their own clocks only.
    const clock = (await (await fetch(`${target.url}/_mock/clock`)).json()) as { now: string };
    expect(clock.now).toBe('2026-11-21T12:00:00.000Z');
  });

  it('a clock step moves the customer’s clock from the instant it was given', async () => {
    const result = await runScenario(
      {
        name: 'own clock from an instant',
        clock: { start: '2030-01-01T00:00:00.000Z' },
        steps: [
          { clock: '90s' },
          {
            control: 'GET /customers/{{customer.id}}/clock',
            expect: { body: { own: true, now: '2030-01-01T00:01:30.000Z', frozen: true } },
          },
        ],
      },
      { baseUrl: target.url },
    );
    expect(result.steps.filter((s) => !s.ok)).toEqual([]);
  });

  it('a scenario file says `clock: own`, or gives start and frozen; anything else is refused with the hint', () => {
    expect(parseScenario('name: x\nclock: own\nsteps: [{clock: 1s}]').clock).toBe('own');
    expect(parseScenario('name: x\nclock: {start: "2030-01-01T00:00:00Z", frozen: false}\nsteps: [{clock: 1s}]').clock).toEqual({
      start: '2030-01-01T00:00:00Z',
      frozen: false,
    });
    expect(() => parseScenario('name: x\nclock: sometimes\nsteps: [{clock: 1s}]')).toThrow('must be own, or {start?, frozen?}');
  });

  it('a clock of its own for a customer that is not fresh is refused before any step, saying why', async () => {
    await expect(
      runScenario({ name: 'x', customer: 'demo', clock: 'own', steps: [{ clock: '1s' }] }, { baseUrl: target.url }),
    ).rejects.toThrow('clock: a clock of its own needs customer: fresh');
  });
});
