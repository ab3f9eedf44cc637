// The client commands of `fos-mock`, driven through program().parseAsync against an in-process
// mock on an ephemeral port (stdout, stderr and the exit code captured), and once as a real
// process through tsx.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import { program } from '../../mock/main';
import { projectPath } from '../../spec/project-root';
import { startReceiver, type Receiver } from '../../mock/receiver/receiver';
import { captured, listeningMock, type ListeningMock } from './support';
import { runToEnd } from '../support/waits';

const scenarios = projectPath('fixtures', 'scenarios');
const folder = mkdtempSync(join(tmpdir(), 'fos-cli-'));
let target: ListeningMock;
let receiver: Receiver;

const fosMock = (...args: string[]) => captured(() => program().parseAsync(args, { from: 'user' }));

async function controlGet(path: string): Promise<Record<string, unknown>> {
  return (await (await fetch(`${target.url}/_mock${path}`)).json()) as Record<string, unknown>;
}

beforeAll(async () => {
  delete process.env.FOS_MOCK_URL;
  target = await listeningMock();
  receiver = await startReceiver();
  // demo-client's endpoint for every event type, so each trigger can be seen arriving.
  const token = (await (
    await fetch(`${target.url}/api/oauth/client/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ clientId: 'demo-client', clientSecret: 'demo-secret' }),
    })
  ).json()) as { accessToken: string };
  const sub = await fetch(`${target.url}/api/subscriptions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token.accessToken}`, 'x-idempotency-key': crypto.randomUUID() },
    body: JSON.stringify({ url: receiver.url, includeAll: true }),
  });
  expect(sub.status).toBe(201);
});
afterAll(async () => {
  await target.stop();
  await receiver.close();
});

describe('fos-mock scenario run', () => {
  it('runs a file against --url, one line per step, exit code 0', async () => {
    const { stdout, stderr, exitCode } = await fosMock('scenario', 'run', join(scenarios, 'quote-expires.yaml'), '--url', target.url);
    expect(stderr).toBe('');
    expect(exitCode).toBe(0);
    const lines = stdout.trim().split('\n');
    expect(lines[0]).toBe(`▶ quote expires before use (${join(scenarios, 'quote-expires.yaml')})`);
    expect(lines[1]).toMatch(/^ {2}✓ 1\/6 POST \/v1\/quotes 201 \(\d+ ms\)$/);
    expect(lines[3]).toMatch(/^ {2}✓ 3\/6 POST \/v1\/operations\/deposits 422 \(\d+ ms\) - the expired quote is refused$/);
    expect(lines.at(-1)).toMatch(/^✓ quote expires before use: 6\/6 steps passed \(\d+ ms\)$/);
  });

  it('runs every scenario of a folder and totals them', async () => {
    const { stdout, exitCode } = await fosMock('scenario', 'run', scenarios, '--url', target.url);
    expect(exitCode).toBe(0);
    expect(stdout.trim().split('\n').at(-1)).toMatch(/^\d+ scenarios: (\d+) passed, 0 failed$/);
  });

  it('When a scenario fails or a file is malformed, then it says where and the exit code is 1; the others still run', async () => {
    const wrong = join(folder, 'wrong.yaml');
    writeFileSync(wrong, 'name: wrong\nsteps:\n  - call: GET /api/accounts\n    expect: {status: 200, body: {meta: {total: 99}}}\n');
    const malformed = join(folder, 'malformed.yaml');
    writeFileSync(malformed, 'name: malformed\nsteps:\n  - clock: soon\n');
    const { stdout, stderr, exitCode } = await fosMock(
      'scenario',
      'run',
      wrong,
      malformed,
      join(scenarios, 'quote-expires.yaml'),
      '--url',
      target.url,
    );
    expect(exitCode).toBe(1);
    expect(stdout).toContain('  ✗ 1/1 GET /api/accounts 200');
    expect(stdout).toContain('      body.meta.total: expected 99, got 3\n');
    expect(stdout).toContain('✗ wrong: failed at step 1/1 (GET /api/accounts)');
    expect(stdout).toContain('✓ quote expires before use');
    expect(stdout.trim().split('\n').at(-1)).toBe('3 scenarios: 1 passed, 2 failed');
    expect(stderr).toBe(
      `✗ ${malformed}: step 1 (clock soon), field clock: ` +
        'must be a duration such as 250ms, 30s, 5m, 1h30m or 2d, or a whole number of milliseconds\n',
    );
  });

  it('without --url, starts an in-process mock for the run and stops it', async () => {
    const { stdout, exitCode } = await fosMock('scenario', 'run', join(scenarios, 'deposit-settles.yaml'));
    expect(exitCode).toBe(0);
    expect(stdout).toMatch(/^fos-mock: started an in-process mock at http:\/\/127\.0\.0\.1:\d+ \(demo data, frozen clock\)\n/);
    expect(stdout).toContain('✓ deposit settles: 8/8 steps passed');
  });

  it('When nothing listens at --url, then it asks whether the mock is running', async () => {
    const { stderr, exitCode } = await fosMock('scenario', 'run', join(scenarios, 'quote-expires.yaml'), '--url', 'http://127.0.0.1:9');
    expect(exitCode).toBe(1);
    expect(stderr).toMatch(/^fos-mock: cannot reach the mock at http:\/\/127\.0\.0\.1:9 \(ECONNREFUSED\): is `npm start` running\?/);
  });

  it('When nothing listens at --compare-with, then it names that URL and its flag, not the mock', async () => {
    const file = join(scenarios, 'quote-expires.yaml');
    const { stderr, exitCode } = await fosMock('scenario', 'run', file, '--url', target.url, '--compare-with', 'http://127.0.0.1:9');
    expect(exitCode).toBe(1);
    expect(stderr).toContain('cannot reach http://127.0.0.1:9 (ECONNREFUSED): is it up, and is --compare-with its base URL?');
    expect(stderr).not.toContain('npm start');
  });
});

describe('fos-mock snapshot and clock', () => {
  it('snapshot save writes the state; snapshot load brings it back, clock included', async () => {
    const file = join(folder, 'state.json');
    const saved = await fosMock('snapshot', 'save', file, '--url', target.url);
    expect(saved.exitCode).toBe(0);
    const snapshot = JSON.parse(readFileSync(file, 'utf8'));
    expect(snapshot).toMatchObject({ version: 1, clock: { frozen: true } });
    expect(saved.stdout).toMatch(
      new RegExp(`^saved the state of ${target.url} to ${file}: \\d+ records, mock clock ${snapshot.clock.now} \\(frozen\\)\\n$`),
    );

    const moved = await fosMock('clock', 'advance', '1h', '--url', target.url);
    expect(moved.stdout).toBe(
      `mock clock advanced by 1h: now ${new Date(Date.parse(snapshot.clock.now) + 3_600_000).toISOString()} (frozen)\n`,
    );
    expect((await controlGet('/clock')).now).not.toBe(snapshot.clock.now);

    const loaded = await fosMock('snapshot', 'load', file, '--url', target.url);
    expect(loaded.exitCode).toBe(0);
    expect(loaded.stdout).toMatch(/^loaded .+state\.json into http:\/\/127\.0\.0\.1:\d+: \d+ records, mock clock /);
    expect((await controlGet('/clock')).now).toBe(snapshot.clock.now);
  });

  it('When the snapshot file is not one, then the mock’s refusal is shown with its fields', async () => {
    const file = join(folder, 'not-a-snapshot.json');
    writeFileSync(file, '{"version": 2}');
    const { stderr, exitCode } = await fosMock('snapshot', 'load', file, '--url', target.url);
    expect(exitCode).toBe(1);
    expect(stderr).toMatch(/^fos-mock: the mock refused .+not-a-snapshot\.json: 400 VALIDATION_ERROR: .*\n {2}body\./);
    const missing = await fosMock('snapshot', 'load', join(folder, 'none.json'), '--url', target.url);
    expect(missing.stderr).toBe(`fos-mock: cannot read ${join(folder, 'none.json')}: no such file\n`);
  });

  it('clock advance --customer moves that customer’s own clock and no other; one on the mock’s clock is told to leave it out', async () => {
    const made = await fetch(`${target.url}/_mock/customers`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ clock: { start: '2030-01-01T00:00:00Z', frozen: true } }),
    });
    const { customerId } = (await made.json()) as { customerId: string };
    const mockBefore = (await controlGet('/clock')).now;
    const moved = await fosMock('clock', 'advance', '90s', '--customer', customerId, '--url', target.url);
    expect(moved.stdout).toBe(`customer ${customerId}'s clock advanced by 90s: now 2030-01-01T00:01:30.000Z (frozen)\n`);
    expect((await controlGet(`/customers/${customerId}/clock`)).now).toBe('2030-01-01T00:01:30.000Z');
    expect((await controlGet('/clock')).now).toBe(mockBefore);

    const plain = (
      (await (
        await fetch(`${target.url}/_mock/customers`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '{}' })
      ).json()) as { customerId: string }
    ).customerId;
    const refused = await fosMock('clock', 'advance', '5s', '--customer', plain, '--url', target.url);
    expect(refused.exitCode).toBe(1);
    expect(refused.stderr).toContain(`customer ${plain} follows the mock's clock (it has no clock of its own): leave out --customer`);
    const unknown = await fosMock('clock', 'advance', '5s', '--customer', '00000000-0000-4000-8000-000000000000', '--url', target.url);
    expect(unknown.stderr).toBe('fos-mock: no customer 00000000-0000-4000-8000-000000000000 in this mock\n');
  });

  it('clock advance refuses what is not a duration', async () => {
    const { stderr, exitCode } = await fosMock('clock', 'advance', 'soon', '--url', target.url);
    expect(exitCode).toBe(1);
    expect(stderr).toBe(
      'fos-mock: "soon" is not a duration: write 250ms, 30s, 5m, 1h30m or 2d (units d h m s ms, in that order), or milliseconds\n',
    );
  });

  it('When the control API is off, then it says so', async () => {
    const off = await listeningMock({ controlApi: false });
    try {
      for (const args of [
        ['clock', 'advance', '5s'],
        ['snapshot', 'save', join(folder, 'x.json')],
        ['trigger', 'OPERATION_COMPLETED'],
      ]) {
        const { stderr, exitCode } = await fosMock(...args, '--url', off.url);
        expect(exitCode).toBe(1);
        expect(stderr).toBe(
          `fos-mock: the control API is off at ${off.url} (GET /_mock/health answers 404): ` +
            'start the mock without --no-control-api / CONTROL_API=off\n',
        );
      }
    } finally {
      await off.stop();
    }
  });
});

describe('fos-mock trigger', () => {
  beforeEach(() => {
    receiver.received.length = 0;
  });
  const types = () => receiver.received.map((r) => r.headers['x-event-type']);

  it.each([
    'OPERATION_REQUESTED',
    'OPERATION_COMPLETED',
    'OPERATION_FAILED',
    'OPERATION_ACTION_REQUIRED',
    'BENEFICIARY_INSTRUCTION_CREATED',
    'BENEFICIARY_INSTRUCTION_APPROVED',
    'BENEFICIARY_INSTRUCTION_REJECTED',
    'BENEFICIARY_INSTRUCTION_ACTION_REQUIRED',
    'ACCOUNT_ACTION_REQUIRED',
    'ACCOUNT_ASSET_ACTIVATED',
    'ACCOUNT_ASSET_FAILED',
  ])('%s reaches demo-client’s subscribed endpoint', async (event) => {
    const { stdout, stderr, exitCode } = await fosMock('trigger', event, '--url', target.url);
    expect(stderr).toBe('');
    expect(exitCode).toBe(0);
    expect(stdout.split('\n')[0]).toBe(`Triggering ${event} for demo-client at ${target.url}`);
    expect(stdout).toContain(`Trigger succeeded: ${event} for `);
    expect(stdout).toContain(`Sent to 1 subscription of demo-client: ${receiver.url}`);
    expect(types()).toContain(event);
    expect(types().at(-1)).toBe(event);
  });

  it('ACCOUNT_ASSET_* with no ONBOARDING asset left: a fresh customer, its credentials printed', async () => {
    const { stdout, exitCode } = await fosMock('trigger', 'account_asset_activated', '--url', target.url);
    expect(exitCode).toBe(0);
    expect(stdout).toContain(
      'ACCOUNT_ASSET_ACTIVATED needs an asset still ONBOARDING and this customer has none left: ' +
        'making a fresh customer (POST /_mock/customers)',
    );
    expect(stdout).toMatch(/A fresh customer was made: clientId=client-[0-9a-f]{8} clientSecret=\S+ \(customer [0-9a-f-]{36}\)\./);
    expect(types()).toEqual([]); // demo-client's endpoint hears nothing of another customer
    expect(stdout).toMatch(
      /No subscription received ACCOUNT_ASSET_ACTIVATED, nothing was delivered: it happened for the fresh customer client-[0-9a-f]{8}, /,
    );
  });

  it('When no subscription of the customer listens for the event, it says so before making it happen, and makes it happen', async () => {
    const { stdout, exitCode } = await fosMock(
      'trigger',
      'OPERATION_REQUESTED',
      '--client-id',
      'demo-client-2',
      '--client-secret',
      'demo-secret-2',
      '--url',
      target.url,
    );
    expect(exitCode).toBe(0);
    const lines = stdout.trim().split('\n');
    const warning = lines.indexOf(
      'No subscription of demo-client-2 listens for OPERATION_REQUESTED: it will happen, but nothing will be delivered. ' +
        'Subscribe an endpoint (POST /api/subscriptions) to receive it.',
    );
    expect(warning).toBeGreaterThan(0);
    expect(lines.findIndex((line) => line.startsWith('  POST /v1/quotes'))).toBeGreaterThan(warning);
    expect(lines.at(-1)).toMatch(/^Trigger succeeded: OPERATION_REQUESTED for operation [0-9a-f-]{36}\.$/);
    expect(types()).toEqual([]);
  });

  it('ACCOUNT_CREATED needs a fresh customer, and says nobody could hear it yet', async () => {
    const { stdout, exitCode } = await fosMock('trigger', 'ACCOUNT_CREATED', '--url', target.url);
    expect(exitCode).toBe(0);
    expect(stdout).toContain(
      'ACCOUNT_CREATED fires when an account is created, which only a fresh customer does: making a fresh customer (POST /_mock/customers)',
    );
    expect(stdout).toMatch(/Trigger succeeded: ACCOUNT_CREATED for 3 accounts of fresh customer client-[0-9a-f]{8}\./);
    expect(stdout).toMatch(/clientId=client-[0-9a-f]{8} clientSecret=\S+/);
    expect(stdout).toContain('nothing was delivered');
  });

  it('of another customer: only its own endpoints; with wrong credentials or an unknown event, a clear error', async () => {
    const other = await fosMock(
      'trigger',
      'OPERATION_REQUESTED',
      '--client-id',
      'demo-client-2',
      '--client-secret',
      'demo-secret-2',
      '--url',
      target.url,
    );
    expect(other.exitCode).toBe(0);
    expect(types()).toEqual([]);

    const refused = await fosMock('trigger', 'OPERATION_REQUESTED', '--client-secret', 'wrong', '--url', target.url);
    expect(refused.exitCode).toBe(1);
    expect(refused.stderr).toBe(
      'fos-mock: cannot log in as demo-client: the mock answered 401 INVALID_CLIENT: Unknown client or wrong client secret.\n',
    );

    const unknown = await fosMock('trigger', 'PAYMENT_SENT', '--url', target.url);
    expect(unknown.exitCode).toBe(1);
    expect(unknown.stderr).toMatch(/^fos-mock: unknown event "PAYMENT_SENT"; one of: OPERATION_REQUESTED, .*ACCOUNT_CREATED\n$/);
  });
});

describe('as a real process', () => {
  it('a failing scenario exits 1 with the message and no stack trace; the in-process mock lets the process end', () => {
    const wrong = join(folder, 'process.yaml');
    writeFileSync(
      wrong,
      'name: wrong in a process\n' +
        'steps:\n' +
        '  - call: POST /v1/quotes\n' +
        '    body: {accountId: "{{accounts.funded}}", sourceAsset: BRL, targetAsset: BRL, sourceAmount: "1.00"}\n' +
        '    expect: {status: 200}\n',
    );
    // Waited for until it ends by itself (it starts an in-process mock: seconds, more on a busy machine).
    const run = runToEnd(projectPath('node_modules', '.bin', 'tsx'), [projectPath('mock', 'main.ts'), 'scenario', 'run', wrong], {
      encoding: 'utf8',
      env: { ...process.env, FOS_MOCK_URL: '' },
    });
    expect(run.status).toBe(1);
    expect(run.stdout).toContain('  ✗ 1/1 POST /v1/quotes 201');
    expect(run.stdout).toContain('      status: expected 200, got 201');
    expect(`${run.stdout}${run.stderr}`).not.toMatch(/\n\s+at /);
  });
});
