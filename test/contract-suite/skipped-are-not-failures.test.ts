// When the suite cannot open its session against a target (here: a fos-mock without its control
// API, and no customer given), the tests that run fail with the reason, and the tests skipped for
// what the target lacks stay skipped: no failure message pinned on them, none printed for them.
// jest runs one contract file as a child process, as `npm run test:contract` does against a URL.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from '@jest/globals';
import pino from 'pino';
import { createApp, type MockApp } from '../../mock/app';
import { projectPath } from '../../spec/project-root';

interface JestJson {
  testResults: Array<{ assertionResults: Array<{ title: string; status: string; failureMessages: string[] }> }>;
}

let mock: MockApp;
let server: Server;
let url: string;
let dir: string;

beforeAll(async () => {
  mock = await createApp({ config: { controlApi: false }, logger: pino({ level: 'silent' }) });
  server = createServer(mock.app).listen(0, '127.0.0.1');
  await once(server, 'listening');
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  dir = mkdtempSync(join(tmpdir(), 'contract-skipped-'));
});

afterAll(async () => {
  await mock?.close();
  server?.closeAllConnections();
  await new Promise((resolve) => server?.close(resolve));
  if (dir) rmSync(dir, { recursive: true, force: true });
});

it('a run whose session cannot open fails the tests that run, with why, and reports the skipped ones as skipped only', async () => {
  const env = Object.fromEntries(
    Object.entries(process.env).filter(([name]) => !name.startsWith('CONTRACT_') && !name.startsWith('JEST_')),
  );
  const outputFile = join(dir, 'results.json');
  const child = spawn(
    process.execPath,
    [
      projectPath('node_modules', 'jest', 'bin', 'jest.js'),
      'contract-tests/operations.test.ts',
      '--runInBand',
      '--ci',
      '--json',
      `--outputFile=${outputFile}`,
    ],
    {
      cwd: projectPath(),
      env: { ...env, CONTRACT_BASE_URL: url, CONTRACT_REPORT_DIR: dir, FORCE_COLOR: '0' },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let printed = '';
  child.stdout.on('data', (chunk: Buffer) => (printed += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (printed += chunk.toString()));
  const [code] = (await once(child, 'close')) as [number | null];
  expect(code).toBe(1);

  const tests = (JSON.parse(readFileSync(outputFile, 'utf8')) as JestJson).testResults.flatMap((file) => file.assertionResults);
  const skipped = tests.filter((t) => t.status === 'pending');
  const failed = tests.filter((t) => t.status === 'failed');
  expect(skipped.length).toBeGreaterThan(0);
  expect(failed.length).toBeGreaterThan(0);
  for (const test of skipped)
    expect({ title: test.title, failureMessages: test.failureMessages }).toEqual({ title: test.title, failureMessages: [] });
  for (const test of failed) expect(test.failureMessages.join('\n')).toContain('needs a customer to act as');
  // jest prints one failure block (●) per failed test, none for a skipped one.
  expect(printed.match(/^ {2}● /gm)).toHaveLength(failed.length);
}, 180_000);
