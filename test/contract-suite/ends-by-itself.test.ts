// The contract suite ends by itself against a misbehaving target. A target whose answers lack
// X-Request-Id (the real mock, mock/app.ts, behind a listener that removes the header from every
// answer) fails the suite; the jest process running it must then report the failures and exit
// with a non-zero code on its own, without --forceExit: whatever the suite opened (the webhook
// receiver, its HTTP connections, an in-process target) is closed on every path, including a
// session that cannot open and an assertion that fails mid-test.
//
// Each case runs jest on two contract files as a child process with CONTRACT_BASE_URL pointing at
// the misbehaving target, the way `npm run test:contract` does against a URL. jest prints "Jest did
// not exit one second after the test run has completed" when something is still open; that line
// (or no exit at all) fails the case, and the child is killed. Nothing here measures time: the
// jest time-out below is only a bound on a busy machine.
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, ServerResponse, type RequestListener, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createApp, type MockApp } from '../../mock/app';
import { projectPath } from '../../spec/project-root';

const HANG_NOTICE = 'Jest did not exit one second after the test run has completed';
/** Files that open a webhook receiver (webhooks) and that need none (shapes); both need the session. */
const FILES = ['contract-tests/webhooks.test.ts', 'contract-tests/shapes.test.ts'];
const CASE_TIMEOUT_MS = 300_000;

/** The listener with X-Request-Id removed from every answer, however the answer sets it. */
function withoutRequestId(listener: RequestListener): RequestListener {
  const isRequestId = (name: unknown) => String(name).toLowerCase() === 'x-request-id';
  return (req, res) => {
    // Every answer's head goes through writeHead (Node calls it for an implicit head too).
    const writeHead = (...args: unknown[]) =>
      ServerResponse.prototype.writeHead.apply(res, args as Parameters<ServerResponse['writeHead']>);
    res.writeHead = ((...args: unknown[]) => {
      res.removeHeader('x-request-id');
      const headers = args.map((arg) => {
        if (!Array.isArray(arg)) {
          return arg && typeof arg === 'object' ? Object.fromEntries(Object.entries(arg).filter(([name]) => !isRequestId(name))) : arg;
        }
        // Raw headers: [[name, value], ...] or [name, value, name, value, ...].
        if (Array.isArray(arg[0])) return (arg as unknown[][]).filter(([name]) => !isRequestId(name));
        return arg.flatMap((value, i) => (i % 2 === 1 || isRequestId(value) ? [] : [value, arg[i + 1]]));
      });
      return writeHead(...headers);
    }) as typeof res.writeHead;
    listener(req, res);
  };
}

async function listen(listener: RequestListener): Promise<{ server: Server; url: string }> {
  const server = createServer(listener).listen(0, '127.0.0.1');
  await once(server, 'listening');
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

interface Outcome {
  /** The exit code, or null when it was killed or did not exit. */
  code: number | null;
  /** jest said it did not exit after its run: something stayed open. */
  hung: boolean;
  output: string;
}

/** The end of jest's output (its summary, and what it says about open handles). */
const tail = (output: string) => output.slice(-3000);

const children = new Set<ChildProcess>();

/** Kills the child's whole process group (jest and anything it started). */
function kill(child: ChildProcess): void {
  if (child.exitCode !== null || child.signalCode !== null) return;
  try {
    process.kill(-child.pid!, 'SIGKILL');
  } catch {
    child.kill('SIGKILL');
  }
}

/** Runs jest on FILES against `env`'s target; settles when the child exits, or says it hangs. */
function runSuite(env: Record<string, string>): Promise<Outcome> {
  const inherited = Object.fromEntries(
    // Not this jest's own: its worker id, its contract reporter's run id, any CONTRACT_ setting.
    Object.entries(process.env).filter(([name]) => !name.startsWith('CONTRACT_') && !name.startsWith('JEST_')),
  );
  const args = [
    projectPath('node_modules', 'jest', 'bin', 'jest.js'),
    ...FILES,
    '--runInBand',
    '--ci',
    '--reporters=default',
    '--reporters=./contract-tests/support/contract-reporter.js',
  ];
  // Its own process group, so the kill takes jest and anything it started.
  const child = spawn(process.execPath, args, {
    cwd: projectPath(),
    env: { ...inherited, ...env, FORCE_COLOR: '0' },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  children.add(child);
  let output = '';
  return new Promise<Outcome>((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      output += chunk.toString('utf8');
      if (output.includes(HANG_NOTICE)) {
        kill(child);
        resolve({ code: null, hung: true, output });
      }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, hung: output.includes(HANG_NOTICE), output }));
  });
}

let mock: MockApp;
let broken: { server: Server; url: string };
let intact: { server: Server; url: string };
let reportDir: string;

beforeAll(async () => {
  mock = await createApp({ config: { logLevel: 'silent' } });
  broken = await listen(withoutRequestId(mock.app));
  // The same mock's control API, answered whole (for the case where only the service API misbehaves).
  intact = await listen(mock.app);
  reportDir = mkdtempSync(join(tmpdir(), 'contract-ends-'));
});

afterAll(async () => {
  for (const child of children) kill(child);
  await mock?.close();
  for (const { server } of [broken, intact].filter(Boolean)) {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
  if (reportDir) rmSync(reportDir, { recursive: true, force: true });
});

describe('a contract run against a target whose answers lack X-Request-Id', () => {
  it('When the target misbehaves, then it really answers without X-Request-Id (and the intact listener with one)', async () => {
    const without = await fetch(`${broken.url}/_mock/health`);
    expect(without.status).toBe(200);
    expect(without.headers.get('x-request-id')).toBeNull();
    const token = await fetch(`${broken.url}/api/oauth/client/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ clientId: 'x', clientSecret: 'y' }),
    });
    expect(token.status).toBe(401);
    expect(token.headers.get('x-request-id')).toBeNull();
    expect((await fetch(`${intact.url}/_mock/health`)).headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
  });

  it(
    'When every answer lacks it (no file’s session opens), then the suite reports it and exits by itself, non-zero',
    async () => {
      const outcome = await runSuite({ CONTRACT_BASE_URL: broken.url, CONTRACT_REPORT_DIR: join(reportDir, 'whole') });
      expect({ hung: outcome.hung, tail: outcome.hung ? tail(outcome.output) : '' }).toEqual({ hung: false, tail: '' });
      expect(outcome.code).not.toBeNull();
      expect(outcome.code).not.toBe(0);
      // The session's first control call (the clock's state, before the file's customer is made with a
      // clock of its own) is refused for want of the header, in both files.
      expect(outcome.output).toMatch(/control GET \/health: no X-Request-Id/);
      for (const file of FILES) expect(outcome.output).toContain(`FAIL ${file}`);
      expect(outcome.output).toMatch(/Tests: +\d+ failed/);
    },
    CASE_TIMEOUT_MS,
  );

  it(
    'When only the service API lacks it (tests fail mid-way; control API whole), then the suite reports it and exits by itself, non-zero',
    async () => {
      const outcome = await runSuite({
        CONTRACT_BASE_URL: broken.url,
        CONTRACT_CONTROL_URL: intact.url,
        CONTRACT_REPORT_DIR: join(reportDir, 'service'),
      });
      expect({ hung: outcome.hung, tail: outcome.hung ? tail(outcome.output) : '' }).toEqual({ hung: false, tail: '' });
      expect(outcome.code).not.toBeNull();
      expect(outcome.code).not.toBe(0);
      // The checking client fails each call of the public API.
      expect(outcome.output).toMatch(/X-Request-Id must be a uuid, got undefined/);
      for (const file of FILES) expect(outcome.output).toContain(`FAIL ${file}`);
      expect(outcome.output).toMatch(/Tests: +\d+ failed/);
    },
    CASE_TIMEOUT_MS,
  );
});
