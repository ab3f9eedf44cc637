// `fos-mock record`: a client driven through the recording proxy in front of a mock; the session,
// written as a scenario, replays green on a fresh mock; no credential or token reaches the files;
// and the command itself, as a process, writes its files when interrupted.
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { startRecorder } from '../../mock/cli/record-proxy';
import { writeRecording } from '../../mock/cli/record-session';
import { loadScenarioFile, runScenario } from '../../mock/scenarios';
import { projectPath } from '../../spec/project-root';
import { freePort } from '../../scripts/free-port';
import { within } from '../support/waits';
import { listeningMock, type ListeningMock } from '../scenarios/support';

const folder = mkdtempSync(join(tmpdir(), 'fos-record-'));
const FUNDED = '5b1f23fb-f7c8-40e4-bd95-226207298952';
let target: ListeningMock;
let fresh: ListeningMock;

beforeAll(async () => {
  // Signing on: subscriptions then answer with a signingSecret, which must not be written.
  target = await listeningMock({ webhookSigning: true });
  fresh = await listeningMock();
});
afterAll(async () => {
  await Promise.all([target.stop(), fresh.stop()]);
});

/** A client's session: log in, list accounts, quote, deposit, read it, reuse the quote, subscribe, retry a key. */
async function clientSession(base: string): Promise<{ token: string; signingSecret: string; retriedKey: string }> {
  const call = async (method: string, path: string, body?: unknown, headers: Record<string, string> = {}) => {
    const answer = await fetch(`${base}${path}`, {
      method,
      headers: { 'content-type': 'application/json', ...headers },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    // eslint-disable-next-line @typescript-eslint/no-explicit-any -- the answers' fields are read loosely here
    return { status: answer.status, body: (await answer.json()) as Record<string, any> };
  };
  const login = await call('POST', '/api/oauth/client/token', { clientId: 'demo-client', clientSecret: 'demo-secret' });
  const token = login.body.accessToken as string;
  const [k1, k2, k3, k4] = [randomUUID(), randomUUID(), randomUUID(), randomUUID()];
  const auth = (key?: string) => ({ authorization: `Bearer ${token}`, ...(key ? { 'x-idempotency-key': key } : {}) });
  const accounts = await call('GET', '/api/accounts?limit=10', undefined, auth());
  const funded = (accounts.body.data as Array<{ id: string }>).find((a) => a.id === FUNDED)?.id;
  const quote = await call(
    'POST',
    '/v1/quotes',
    { accountId: funded, sourceAsset: 'BRL', targetAsset: 'BRL', sourceAmount: '20.00' },
    auth(k1),
  );
  const deposit = { accountId: funded, quoteId: quote.body.id, fundingInstruction: { rail: 'PIX' } };
  const op = await call('POST', '/v1/operations/deposits', deposit, auth(k2));
  expect(op.status).toBe(201);
  // The same key again: the stored answer, not a second deposit.
  expect((await call('POST', '/v1/operations/deposits', deposit, auth(k2))).body.id).toBe(op.body.id);
  expect((await call('GET', `/v1/operations/${op.body.id}`, undefined, auth())).status).toBe(200);
  expect((await call('POST', '/v1/operations/deposits', deposit, auth(k3))).status).toBe(409);
  const sub = await call('POST', '/api/subscriptions', { url: 'https://hooks.example.com/fos', includeAll: true }, auth(k4));
  expect(sub.status).toBe(201);
  return { token, signingSecret: sub.body.signingSecret as string, retriedKey: k2 };
}

describe('fos-mock record', () => {
  it('When a session is recorded through the proxy, then it replays green on a fresh mock and no secret is written', async () => {
    const recorder = await startRecorder({ target: target.url, port: 0 });
    let session;
    try {
      session = await clientSession(recorder.url);
    } finally {
      await recorder.close();
    }
    const { token, signingSecret, retriedKey } = session;
    expect(signingSecret).toMatch(/^whsec_/);
    const out = join(folder, 'session.yaml');
    const har = join(folder, 'session.har');
    const notes = writeRecording(
      recorder.exchanges,
      { target: target.url, out, har, port: '0', host: '127.0.0.1', customer: 'demo', name: 'a recorded deposit' },
      '0.0.0',
    );
    expect(notes).toEqual([]);

    const scenario = loadScenarioFile(out);
    expect(scenario.customer).toBe('demo');
    expect(scenario.steps.map((s) => `${s.call} ${s.expect?.status}`)).toEqual([
      'GET /api/accounts?limit=10 200',
      'POST /v1/quotes 201',
      'POST /v1/operations/deposits 201',
      'POST /v1/operations/deposits 201',
      'GET /v1/operations/{{deposit}} 200',
      'POST /v1/operations/deposits 409',
      'POST /api/subscriptions 201',
    ]);
    // Ids the answers gave are saved and reused; the funded account came from the list.
    expect(scenario.steps[0]?.save).toEqual({ account: 'body.data[1].id' });
    expect(scenario.steps[1]?.body).toEqual({ accountId: '{{account}}', sourceAsset: 'BRL', targetAsset: 'BRL', sourceAmount: '20.00' });
    expect(scenario.steps[1]?.save).toEqual({ quote: 'body.id' });
    // The deliberate retry keeps its key; the other keys are the runner's own.
    expect(scenario.steps[2]?.headers).toEqual({ 'X-Idempotency-Key': retriedKey });
    expect(scenario.steps[1]?.headers).toBeUndefined();

    const written = readFileSync(out, 'utf8') + readFileSync(har, 'utf8');
    for (const secret of [token, 'demo-secret', signingSecret]) expect(written).not.toContain(secret);
    expect(written).not.toContain('Bearer ');
    const log = JSON.parse(readFileSync(har, 'utf8')) as { log: { version: string; entries: Array<{ request: { method: string } }> } };
    expect(log.log.version).toBe('1.2');
    expect(log.log.entries).toHaveLength(recorder.exchanges.length);

    const replay = await runScenario(out, { baseUrl: fresh.url });
    expect(replay.steps.filter((s) => !s.ok)).toEqual([]);
    expect(replay.passed).toBe(true);
  });

  it('When the command in front of a mock is interrupted, then it writes both files, says so, and the scenario replays there', async () => {
    const port = await freePort();
    const out = join(folder, 'cli.yaml');
    const har = join(folder, 'cli.har');
    const child = spawn(
      projectPath('node_modules', '.bin', 'tsx'),
      [projectPath('mock', 'main.ts'), 'record', '--target', target.url, '--port', String(port), '--out', out, '--har', har],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let stdout = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    const ended = new Promise<number | null>((resolve) => child.on('exit', resolve));
    await within(
      'the recording proxy to listen',
      new Promise<void>((resolve) => child.stdout.on('data', () => stdout.includes('Ctrl-C writes') && resolve())),
    );
    const login = await fetch(`http://127.0.0.1:${port}/api/oauth/client/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ clientId: 'demo-client', clientSecret: 'demo-secret' }),
    });
    const { accessToken } = (await login.json()) as { accessToken: string };
    const accounts = await fetch(`http://127.0.0.1:${port}/api/accounts`, { headers: { authorization: `Bearer ${accessToken}` } });
    expect(accounts.status).toBe(200);
    child.kill('SIGINT');
    expect(await within('the recorder to exit', ended)).toBe(0);
    expect(stdout).toContain(`fos-mock record: 2 exchanges written to ${out} and ${har}`);
    // The target is a fos-mock (it serves /_mock/health) and demo-client logged in with its public secret.
    expect(stdout).toContain(
      'note: the scenario logs in as demo-client with its public demo secret, as on the fos-mock it was recorded on',
    );
    const scenario = loadScenarioFile(out);
    expect(scenario.customer).toBe('demo');
    expect(scenario.steps).toEqual([{ call: 'GET /api/accounts', expect: { status: 200 } }]);
    expect(readFileSync(har, 'utf8')).not.toContain(accessToken);
    // Replayed on the mock it was recorded on, as `scenario run <file> --url <it>` does.
    const replay = await runScenario(out, { baseUrl: target.url });
    expect(replay.steps.filter((s) => !s.ok)).toEqual([]);
    expect(replay.passed).toBe(true);
  });
});
