// POST /_mock/reset reads the fixtures file again: an edited file takes effect without a restart,
// and a file that cannot be loaded is refused naming its problems, with the data kept as it was.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { DemoFixtures } from '../../fixtures/types';
import { projectPath } from '../../spec/project-root';
import { startMock, type Authed, type Harness } from '../http/harness';
import { control } from './support';

const demo = (): DemoFixtures => JSON.parse(readFileSync(projectPath('fixtures', 'demo.json'), 'utf8')) as DemoFixtures;

let folder: string;
let file: string;
let h: Harness;
let api: Authed;

beforeAll(async () => {
  folder = mkdtempSync(join(tmpdir(), 'fos-fixtures-'));
  file = join(folder, 'fixtures.json');
  writeFileSync(file, JSON.stringify(demo()));
  // The fixtures come from the file, as with `serve --fixtures`, not given in code.
  h = await startMock({ fixtures: undefined, config: { fixturesPath: file } });
  api = await h.as();
});
afterAll(async () => {
  await h?.close();
  rmSync(folder, { recursive: true, force: true });
});

const firstAccount = () => demo().accounts.find((a) => a.customer.id === demo().customers[0]!.id)!;

describe('reset with a fixtures file', () => {
  it('when the file was edited, then the reset serves the edited data without a restart', async () => {
    const edited = demo();
    const account = edited.accounts.find((a) => a.id === firstAccount().id)!;
    account.tags = [...(account.tags ?? []), { key: 'edited', value: 'by-hand' }];
    writeFileSync(file, JSON.stringify(edited));

    await control(h).post('/reset').expect(200);

    const shown = (await api.get(`/api/accounts/${account.id}`).expect(200)).body as { tags: unknown[] };
    expect(shown.tags).toContainEqual({ key: 'edited', value: 'by-hand' });
    expect(h.mock.fixtures.accounts.find((a) => a.id === account.id)!.tags).toContainEqual({ key: 'edited', value: 'by-hand' });
  });

  it('when the file no longer parses, then the reset is refused with 422 FIXTURES_INVALID naming it, and nothing changes', async () => {
    await control(h).post('/reset').expect(200);
    const before = (await api.get('/v1/beneficiaries?limit=100').expect(200)).body;
    writeFileSync(file, '{ "customers": [');

    const refused = await control(h).post('/reset').expect(422);

    expect(refused.body.code).toBe('FIXTURES_INVALID');
    expect(refused.body.details.file).toBe(file);
    expect(refused.body.details.problems).toEqual([expect.stringMatching(/^cannot read fixtures .*fixtures\.json: .*JSON/)]);
    expect((await api.get('/v1/beneficiaries?limit=100').expect(200)).body).toEqual(before);
  });

  it('when the file holds what the mock cannot serve, then each problem is named and the data from before is served on', async () => {
    writeFileSync(file, JSON.stringify(demo()));
    await control(h).post('/reset').expect(200);
    await control(h).put(`/accounts/${firstAccount().id}/balances`, { BRL: '7.00' }).expect(200);
    const broken = demo();
    broken.accounts[0]!.id = 'not-a-uuid';
    broken.rates = broken.rates.map((r) => ({ ...r, rate: 'ten' }));
    expect(broken.rates.length).toBeGreaterThan(0);
    writeFileSync(file, JSON.stringify(broken));

    const refused = await control(h).post('/reset').expect(422);

    expect(refused.body.code).toBe('FIXTURES_INVALID');
    const problems = refused.body.details.problems as string[];
    expect(problems).toContain('accounts[0].id must match format "uuid" (Account)');
    expect(problems.filter((p) => p.startsWith('rates[') && p.includes('(DecimalString)'))).toHaveLength(broken.rates.length);
    // Nothing was reset: the balance set after the last good reset is still there, and quotes still price.
    expect((await control(h).get(`/accounts/${firstAccount().id}/balances`).expect(200)).body.balances.BRL).toBe('7.00');
    const quote = { accountId: firstAccount().id, sourceAsset: 'BRL', targetAsset: 'USDT', sourceAmount: '10.00' };
    await api.post('/v1/quotes', quote).expect(201);
  });
});
