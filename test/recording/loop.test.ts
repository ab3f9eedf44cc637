// The whole loop of docs/recording.md, with a mock standing for the sandbox: its records pulled as
// fixtures, a client's session against it recorded, the recording replayed green on a mock serving
// the pulled records, and the fidelity report of the two showing no difference.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { pullFixtures } from '../../mock/cli/fixtures-pull';
import { startRecorder } from '../../mock/cli/record-proxy';
import { probeFosMock, writeRecording } from '../../mock/cli/record-session';
import { program } from '../../mock/main';
import { runScenario } from '../../mock/scenarios';
import { captured, listeningMock, type ListeningMock } from '../scenarios/support';

const folder = mkdtempSync(join(tmpdir(), 'fos-loop-'));
let sandbox: ListeningMock;
let local: ListeningMock;

beforeAll(async () => {
  // A sandbox serves no /_mock: the recording cannot take it for a fos-mock.
  sandbox = await listeningMock({ controlApi: false });
  const fixtures = join(folder, 'sandbox.json');
  await pullFixtures({
    url: sandbox.url,
    clientId: 'demo-client',
    clientSecret: 'demo-secret',
    out: fixtures,
    maskKey: 'k',
    balance: '25000',
  });
  local = await listeningMock({ fixturesPath: fixtures });
});
afterAll(async () => {
  await Promise.all([sandbox.stop(), local.stop()]);
});

/** The client under test: logs in, reads its first beneficiary, quotes and withdraws to it, reads the withdrawal. */
async function client(base: string): Promise<void> {
  const send = async (method: string, path: string, body?: unknown, token?: string) => {
    const headers: Record<string, string> = { 'content-type': 'application/json' };
    if (token) headers.authorization = `Bearer ${token}`;
    if (method === 'POST' && token) headers['x-idempotency-key'] = crypto.randomUUID();
    const answer = await fetch(`${base}${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
    return (await answer.json()) as { id: string; accessToken: string; data: Array<{ id: string }> };
  };
  const { accessToken } = await send('POST', '/api/oauth/client/token', { clientId: 'demo-client', clientSecret: 'demo-secret' });
  const accounts = await send('GET', '/api/accounts?sortOrder=ASCENDING', undefined, accessToken);
  const beneficiaries = await send('GET', '/v1/beneficiaries', undefined, accessToken);
  const accountId = accounts.data[1]!.id;
  const quote = await send('POST', '/v1/quotes', { accountId, sourceAsset: 'BRL', targetAsset: 'BRL', sourceAmount: '10.00' }, accessToken);
  const beneficiary = { mode: 'REFERENCE', id: beneficiaries.data[0]!.id };
  const withdrawal = await send('POST', '/v1/operations/withdrawals', { accountId, quoteId: quote.id, beneficiary }, accessToken);
  await send('GET', `/v1/operations/${withdrawal.id}`, undefined, accessToken);
}

describe('record the sandbox, replay on the mock, read the fidelity report', () => {
  it('When a sandbox session is replayed on a mock serving its pulled records, then it passes and shows no difference', async () => {
    const recorder = await startRecorder({ target: sandbox.url, port: 0 });
    try {
      await client(recorder.url);
    } finally {
      await recorder.close();
    }
    const session = join(folder, 'session.yaml');
    const notes = writeRecording(
      recorder.exchanges,
      { target: sandbox.url, out: session, port: '0', host: '127.0.0.1', customer: 'recorded', name: 'a withdrawal' },
      '0.0.0',
      { fosMock: (await probeFosMock(sandbox.url)) ?? false },
    );
    expect(notes).toEqual([expect.stringContaining('logs in as demo-client with the secret fos-mock-local')]);

    const replay = await runScenario(session, { baseUrl: local.url });
    expect(replay.steps.filter((s) => !s.ok)).toEqual([]);

    const report = join(folder, 'fidelity.md');
    const run = await captured(() =>
      program().parseAsync(
        [
          'scenario',
          'run',
          session,
          '--url',
          local.url,
          '--compare-with',
          sandbox.url,
          '--compare-secret',
          'demo-secret',
          '--report-md',
          report,
        ],
        { from: 'user' },
      ),
    );
    expect(run.stderr).toBe('');
    expect(run.stdout).toContain('✓ a withdrawal: no difference between A and B in 5 steps');
    expect(run.exitCode).toBe(0);
  });
});
