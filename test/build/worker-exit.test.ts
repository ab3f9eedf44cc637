// A jest worker ends as soon as its work is done (test/support/test-environment.cjs): ending by
// itself, a worker tears down V8's heap first, which on a busy machine outlasts the 500 ms jest
// gives it and ends `npm test` with "A worker process has failed to exit gracefully". Tried in a
// fresh Node process forked as jest-worker forks its workers (with an IPC channel), which stops
// listening to its parent the way a worker does when jest ends it.
import { spawn } from 'node:child_process';
import { describe, expect, it } from '@jest/globals';
import { projectPath } from '../../spec/project-root';

const ENVIRONMENT = projectPath('test', 'support', 'test-environment.cjs');

/** A worker's life: a server open (a handle), the environment loaded, process.exit reported on stdout. */
const WORKER = `
const fs = require('node:fs');
const net = require('node:net');
const exit = process.exit;
process.exit = (...code) => { fs.writeSync(1, 'ended by process.exit\\n'); exit(...code); };
process.exitCode = 3;
require(${JSON.stringify(ENVIRONMENT)});
const server = net.createServer().listen(0, '127.0.0.1', () => {
  fs.writeSync(1, 'listening\\n');
  // Like jest-worker at the end of a run: the last message, then the listener goes (once).
  if (process.send) process.once('message', () => server.close(() => fs.writeSync(1, 'closed\\n')));
  else server.close(() => fs.writeSync(1, 'closed\\n'));
});
`;

interface Ended {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs WORKER, forked with an IPC channel or not, and sends it its last message once it listens. */
function runWorker(forked: boolean): Promise<Ended> {
  const child = spawn(process.execPath, ['-e', WORKER], { stdio: ['ignore', 'pipe', 'pipe', forked ? 'ipc' : 'ignore'] });
  let stdout = '';
  let stderr = '';
  if (!child.stdout || !child.stderr) throw new Error('the worker was spawned without its output pipes');
  child.stdout.setEncoding('utf8').on('data', (text: string) => {
    stdout += text;
    if (forked && text.includes('listening')) child.send('end');
  });
  child.stderr.setEncoding('utf8').on('data', (text: string) => (stderr += text));
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

describe('how a jest worker ends', () => {
  it('jest runs the tests in the environment that ends its workers', () => {
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- the CommonJS config jest itself reads
    const config = require(projectPath('jest.config.js')) as { testEnvironment: string };
    expect(config.testEnvironment).toBe('<rootDir>/test/support/test-environment.cjs');
  });

  it('a worker whose last handle is closed ends through process.exit, with its exit code', async () => {
    const ended = await runWorker(true);
    expect(ended.stderr).toBe('');
    // It waited for the server: a worker still holding a handle is not ended, and jest names the leak.
    expect(ended.stdout).toBe('listening\nclosed\nended by process.exit\n');
    expect(ended.code).toBe(3);
  });

  it('a process jest did not fork (a run in band) ends by itself, as jest ends it', async () => {
    const ended = await runWorker(false);
    expect(ended.stderr).toBe('');
    expect(ended.stdout).toBe('listening\nclosed\n');
    expect(ended.code).toBe(3);
  });
});
