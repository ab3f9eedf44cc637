// Every scenario shipped in fixtures/scenarios/ runs green against an in-process mock: one test
// per file, found by listing the folder, so a new file is a new test.
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { runScenario } from '../../mock/scenarios';
import { projectPath } from '../../spec/project-root';
import { listeningMock, type ListeningMock } from './support';

const folder = projectPath('fixtures', 'scenarios');
const files = readdirSync(folder)
  .filter((name) => name.endsWith('.yaml'))
  .sort();

let target: ListeningMock;
beforeAll(async () => {
  target = await listeningMock();
});
afterAll(() => target.stop());

describe('the shipped scenarios', () => {
  it('are the five docs/scenarios-and-cli.md names, at least', () => {
    expect(files).toEqual(
      expect.arrayContaining([
        'deposit-settles.yaml',
        'withdrawal-insufficient-balance.yaml',
        'quote-expires.yaml',
        'webhook-retries.yaml',
        'account-locked-after-review.yaml',
      ]),
    );
  });

  it.each(files)('%s passes every step', async (file) => {
    const result = await runScenario(join(folder, file), { baseUrl: target.url });
    expect(result.steps.filter((step) => !step.ok)).toEqual([]);
    expect(result).toMatchObject({ passed: true, total: result.steps.length });
  });
});
