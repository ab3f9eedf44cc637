// A session recorded in front of a fos-mock serving the demo data replays there as recorded: the
// scenario logs in with the demo client's public credentials (`customer: demo` for demo-client),
// on that mock and on a fresh one. A login a mock refuses says which field or option gives the
// credentials.
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { startRecorder } from '../../mock/cli/record-proxy';
import { probeFosMock, writeRecording } from '../../mock/cli/record-session';
import { loadScenarioFile, runScenario } from '../../mock/scenarios';
import { listeningMock, type ListeningMock } from '../scenarios/support';

const folder = mkdtempSync(join(tmpdir(), 'fos-record-mock-'));
let demo: ListeningMock;
let fresh: ListeningMock;

beforeAll(async () => {
  [demo, fresh] = await Promise.all([listeningMock(), listeningMock()]);
});
afterAll(async () => {
  await Promise.all([demo.stop(), fresh.stop()]);
});

/** QA's first session: log in, list the accounts, quote on the first approved one, deposit with it and read the deposit. */
async function session(base: string, clientId: string, clientSecret: string): Promise<string> {
  const call = async (method: string, path: string, body?: unknown, token?: string) => {
    const headers: Record<string, string> = { 'content-type': 'application/json' };
    if (token) headers.authorization = `Bearer ${token}`;
    if (method === 'POST' && token) headers['x-idempotency-key'] = crypto.randomUUID();
    const answer = await fetch(`${base}${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
    // eslint-disable-next-line @typescript-eslint/no-explicit-any -- the answers' fields are read loosely here
    return { status: answer.status, body: (await answer.json()) as Record<string, any> };
  };
  const login = await call('POST', '/api/oauth/client/token', { clientId, clientSecret });
  expect(login.status).toBe(200);
  const token = login.body.accessToken as string;
  const accounts = await call('GET', '/api/accounts?sortOrder=ASCENDING', undefined, token);
  const accountId = (accounts.body.data as Array<{ id: string; currentState: { status: string } }>).find(
    (a) => a.currentState.status === 'APPROVED',
  )?.id;
  const quote = await call('POST', '/v1/quotes', { accountId, sourceAsset: 'BRL', targetAsset: 'BRL', sourceAmount: '20.00' }, token);
  expect(quote.status).toBe(201);
  const deposit = await call(
    'POST',
    '/v1/operations/deposits',
    { accountId, quoteId: quote.body.id, fundingInstruction: { rail: 'PIX' } },
    token,
  );
  expect(deposit.status).toBe(201);
  expect((await call('GET', `/v1/operations/${deposit.body.id}`, undefined, token)).status).toBe(200);
  return token;
}

/** The session as `fos-mock record --target <demo>` writes it: proxied, the target probed, the files written. */
async function recorded(clientId: string, clientSecret: string, file: string): Promise<{ notes: string[]; token: string }> {
  const recorder = await startRecorder({ target: demo.url, port: 0 });
  const fosMock = probeFosMock(demo.url);
  let token: string;
  try {
    token = await session(recorder.url, clientId, clientSecret);
  } finally {
    await recorder.close();
  }
  const flags = { target: demo.url, out: join(folder, `${file}.yaml`), har: join(folder, `${file}.har`), port: '0', host: '127.0.0.1' };
  const notes = writeRecording(recorder.exchanges, { ...flags, customer: 'recorded' }, '0.0.0', { fosMock: (await fosMock) ?? false });
  return { notes, token };
}

describe('a session recorded in front of the demo mock', () => {
  it('When demo-client is recorded on a fos-mock, then it logs in as customer: demo and replays on that mock and a fresh one', async () => {
    const { notes } = await recorded('demo-client', 'demo-secret', 'demo-client');
    expect(notes).toEqual([expect.stringContaining('the scenario logs in as demo-client with its public demo secret, as on the fos-mock')]);
    const file = join(folder, 'demo-client.yaml');
    const scenario = loadScenarioFile(file);
    expect(scenario.customer).toBe('demo');
    expect(scenario.steps.map((s) => `${s.call} ${s.expect?.status}`)).toEqual([
      'GET /api/accounts?sortOrder=ASCENDING 200',
      'POST /v1/quotes 201',
      'POST /v1/operations/deposits 201',
      'GET /v1/operations/{{deposit}} 200',
    ]);

    for (const mock of [demo, fresh]) {
      const replay = await runScenario(file, { baseUrl: mock.url });
      expect(replay.steps.filter((s) => !s.ok)).toEqual([]);
      expect(replay.passed).toBe(true);
    }
  });

  it('When demo-client-2 is recorded on a fos-mock, then its public secret is written (no token) and it replays there', async () => {
    const { token } = await recorded('demo-client-2', 'demo-secret-2', 'demo-client-2');
    const file = join(folder, 'demo-client-2.yaml');
    expect(loadScenarioFile(file).customer).toEqual({ clientId: 'demo-client-2', clientSecret: 'demo-secret-2' });
    expect(readFileSync(file, 'utf8')).not.toContain(token);
    // The HAR file is the session as it went: its login keeps no secret, public or not.
    const har = readFileSync(join(folder, 'demo-client-2.har'), 'utf8');
    for (const secret of ['demo-secret-2', token]) expect(har).not.toContain(secret);

    const replay = await runScenario(file, { baseUrl: demo.url });
    expect(replay.steps.filter((s) => !s.ok)).toEqual([]);
  });
});

describe('a login the mock refuses', () => {
  const scenario = (clientSecret: string) => ({
    name: 'recorded elsewhere',
    customer: { clientId: 'demo-client', clientSecret },
    steps: [{ call: 'GET /api/accounts' }],
  });

  it('When fos-mock-local is refused by a demo mock, then the 401 names the customer: field and what to set', async () => {
    await expect(runScenario(scenario('fos-mock-local'), { baseUrl: demo.url })).rejects.toThrow(
      'the mock refused the credentials of demo-client (401 INVALID_CLIENT: Unknown client or wrong client secret.): ' +
        'fos-mock-local is the secret `fos-mock fixtures pull` gives the customers it writes: run the scenario on a mock serving ' +
        "those fixtures (fos-mock serve --fixtures <file>), or set the scenario's customer: to demo (demo-client, on a mock serving " +
        'the demo data), fresh (a customer of its own) or {clientId, clientSecret} of a client this mock knows',
    );
  });

  it('When the second target of a comparison refuses the scenario customer, then the 401 names --compare-secret', async () => {
    const role = { kind: 'target', flag: '--compare-with' } as const;
    await expect(runScenario(scenario('fos-mock-local'), { baseUrl: demo.url, role })).rejects.toThrow(
      `${demo.url} (--compare-with) refused the credentials of demo-client (401 INVALID_CLIENT: Unknown client or wrong client secret.): ` +
        'give its secret for demo-client with --compare-secret (or FOS_COMPARE_SECRET)',
    );
  });
});
