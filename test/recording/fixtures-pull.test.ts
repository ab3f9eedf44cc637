// `fos-mock fixtures pull`: a mock's records read through the service API into a fixtures file,
// which a second mock loads and serves: the same accounts, beneficiaries and subscriptions as the
// source listed; masked consistently when asked; no secret in the file.
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { masker } from '../../mock/cli/fixtures-mask';
import { pullFixtures } from '../../mock/cli/fixtures-pull';
import { program } from '../../mock/main';
import type { DemoFixtures } from '../../fixtures/types';
import { captured, listeningMock, type ListeningMock } from '../scenarios/support';

const folder = mkdtempSync(join(tmpdir(), 'fos-pull-'));
let source: ListeningMock;
let sourceToken: string;
let signingSecret: string;

async function login(base: string, clientId: string, clientSecret: string): Promise<string> {
  const answer = await fetch(`${base}/api/oauth/client/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ clientId, clientSecret }),
  });
  expect(answer.status).toBe(200);
  return ((await answer.json()) as { accessToken: string }).accessToken;
}

async function list(base: string, token: string, path: string): Promise<unknown[]> {
  const answer = await fetch(`${base}${path}?limit=100&sortOrder=ASCENDING`, { headers: { authorization: `Bearer ${token}` } });
  expect(answer.status).toBe(200);
  return ((await answer.json()) as { data: unknown[] }).data;
}

const LISTS = ['/api/accounts', '/v1/beneficiaries', '/v1/subscriptions'];

beforeAll(async () => {
  source = await listeningMock({ webhookSigning: true });
  sourceToken = await login(source.url, 'demo-client', 'demo-secret');
  const sub = await fetch(`${source.url}/api/subscriptions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${sourceToken}`, 'x-idempotency-key': crypto.randomUUID() },
    body: JSON.stringify({ url: 'https://hooks.example.com/fos', resources: [{ name: 'OPERATION', events: ['OPERATION_COMPLETED'] }] }),
  });
  expect(sub.status).toBe(201);
  signingSecret = ((await sub.json()) as { signingSecret: string }).signingSecret;
});
afterAll(async () => {
  await source.stop();
});

describe('fos-mock fixtures pull', () => {
  it('When a pulled file is served, then the mock lists the same accounts, beneficiaries and subscriptions as the source', async () => {
    const out = join(folder, 'pulled.json');
    // One record a page: every cursor is followed.
    const { counts } = await pullFixtures(
      { url: source.url, clientId: 'demo-client', clientSecret: 'demo-secret', out, maskKey: 'k', balance: '250.5' },
      1,
    );
    expect(counts).toEqual({ accounts: 3, beneficiaries: 2, subscriptions: 1 });
    const served = await listeningMock({ fixturesPath: out });
    try {
      const token = await login(served.url, 'demo-client', 'fos-mock-local');
      for (const path of LISTS) {
        const listed = await list(source.url, sourceToken, path);
        // The served mock signs nothing (the default): its subscriptions show no secret.
        expect(await list(served.url, token, path)).toEqual(listed.map((r) => withoutSecret(r as object)));
      }
      // The balances the API does not show: --balance, at each asset's scale.
      const balances = await (await fetch(`${served.url}/_mock/accounts/5b1f23fb-f7c8-40e4-bd95-226207298952/balances`)).json();
      expect(balances).toMatchObject({ balances: { BRL: '250.50', USDT: '250.500000' } });
    } finally {
      await served.stop();
    }
    const text = readFileSync(out, 'utf8');
    for (const secret of ['demo-secret', signingSecret, sourceToken]) expect(text).not.toContain(secret);
  });

  it('When --mask is given, then personal data is replaced the same way everywhere and the file still loads', async () => {
    const out = join(folder, 'masked.json');
    const run = await captured(() =>
      program().parseAsync(
        ['fixtures', 'pull', '--url', source.url, '--client-id', 'demo-client', '--client-secret', 'demo-secret', '--out', out, '--mask'],
        { from: 'user' },
      ),
    );
    expect(run.stderr).toBe('');
    expect(run.exitCode).toBe(0);
    expect(run.stdout).toContain(`3 accounts, 2 beneficiaries and 1 subscriptions of demo-client written to ${out} (personal data masked)`);
    expect(run.stdout).toContain('each asset of each account holds 1000 (edit "balances" in the file)');
    const masked = JSON.parse(readFileSync(out, 'utf8')) as DemoFixtures;
    const original = (await list(source.url, sourceToken, '/api/accounts')) as DemoFixtures['accounts'];
    const mask = masker('fos-mock');
    masked.accounts.forEach((account, i) => {
      const before = original[i]!;
      expect(account.id).toBe(before.id);
      const owner = account.owner as { legalName: string; taxId: { value: string } };
      const ownerBefore = before.owner as { legalName: string; taxId: { value: string } };
      expect(owner.legalName).not.toBe(ownerBefore.legalName);
      expect(owner.legalName).toBe(mask(ownerBefore.legalName));
      expect(owner.taxId.value).toMatch(new RegExp(`^\\d{${ownerBefore.taxId.value.length}}$`));
      expect(owner.taxId.value).not.toBe(ownerBefore.taxId.value);
    });
    const text = JSON.stringify(masked);
    for (const account of original) expect(text).not.toContain((account.owner as { legalName: string }).legalName);
    expect(mask('Helena Costa')).toBe(masker('fos-mock')('Helena Costa'));
    const served = await listeningMock({ fixturesPath: out });
    await served.stop();
  });
});

function withoutSecret(record: object): object {
  const { signingSecret: _, ...rest } = record as { signingSecret?: unknown };
  return rest;
}
