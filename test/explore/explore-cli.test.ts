// `fos-mock explore` through program().parseAsync (stdout, stderr and the exit code captured):
// exit code 2 and one line for a target it cannot use, 1 for a bad flag (naming it) or a
// failure found, 0 when nothing is found; its reports; the written scenario replayed by
// `fos-mock scenario run`; --compare-with mock and --no-receiver; and on a target that is not a
// fos-mock, no writes unless allowed.
import { existsSync, readFileSync } from 'node:fs';
import { createServer, type RequestListener, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { CHECK_NAMES } from '../../mock/explore';
import { program } from '../../mock/main';
import { closedPort } from '../../mock/receiver/closed-port';
import type { RunningMock } from '../../scripts/contract/lib';
import { captured, listeningMock, type ListeningMock } from '../scenarios/support';
import { brokenMock, tempFolder } from './support';

/** stderr without explore's progress lines (`explore: N runs, M steps so far`, every 5 s of a long search). */
const withoutProgress = (stderr: string) =>
  stderr
    .split('\n')
    .filter((line) => line !== '' && !/^explore: \d+ runs, \d+ steps so far$/.test(line))
    .join('\n');

const fosMock = (...args: string[]) => captured(() => program().parseAsync(args, { from: 'user' }));

/** Every request the mock without a control API received, as `METHOD path`. */
const received: string[] = [];
const counting =
  (app: RequestListener): RequestListener =>
  (req, res) => {
    received.push(`${req.method} ${req.url}`);
    app(req, res);
  };

let plain: ListeningMock;
let withoutControl: ListeningMock;
let broken: RunningMock;
let elsewhere: Server;
let elsewhereUrl: string;
beforeAll(async () => {
  for (const name of ['FOS_MOCK_URL', 'FOS_EXPLORE_CLIENT_ID', 'FOS_EXPLORE_CLIENT_SECRET', 'FOS_EXPLORE_FOREIGN_SECRET'])
    delete process.env[name];
  plain = await listeningMock();
  withoutControl = await listeningMock({ controlApi: false }, counting);
  broken = await brokenMock('quote-usable-twice');
  // A web server, but not of this API: every path is an HTML page not found.
  elsewhere = createServer((_req, res) => res.writeHead(404, { 'content-type': 'text/html' }).end('<h1>Not Found</h1>'));
  await new Promise<void>((resolve) => elsewhere.listen(0, '127.0.0.1', resolve));
  elsewhereUrl = `http://127.0.0.1:${(elsewhere.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await Promise.all([plain.stop(), withoutControl.stop(), broken.close()]);
  await new Promise((resolve) => elsewhere.close(resolve));
});

/** Exit code 2, nothing on stdout, one line on stderr (returned). */
function unusable(run: { stdout: string; stderr: string; exitCode: number }): string {
  expect(run.exitCode).toBe(2);
  expect(run.stdout).toBe('');
  const lines = run.stderr.trim().split('\n');
  expect(lines).toHaveLength(1);
  expect(lines[0]).toMatch(/^fos-mock: /);
  return lines[0]!;
}

const small = ['--runs', '3', '--max-steps', '10', '--seed', '1', '--rate', '0'];

describe('fos-mock explore: a target it cannot use', () => {
  it('When nothing listens at --url, then one line and exit code 2', async () => {
    const url = `http://127.0.0.1:${await closedPort()}`;
    unusable(await fosMock('explore', '--url', url, ...small, '--out-dir', tempFolder('closed')));
  });

  it('When the target is not a fos-mock and no --client-id is given, then one line naming --client-id and exit code 2', async () => {
    const line = unusable(await fosMock('explore', '--url', elsewhereUrl, ...small, '--out-dir', tempFolder('elsewhere')));
    expect(line).toContain('--client-id');
  });

  it('When the target refuses the credentials, then one line and exit code 2', async () => {
    const run = await fosMock(
      'explore',
      '--url',
      withoutControl.url,
      '--client-id',
      'demo-client',
      '--client-secret',
      'not-the-secret',
      ...small,
      '--out-dir',
      tempFolder('refused'),
    );
    const line = unusable(run);
    expect(line).not.toContain('not-the-secret');
  });
});

describe('fos-mock explore: a bad flag', () => {
  it.each([
    [['--runs', '0'], '--runs'],
    [['--time', 'soon'], '--time'],
    [['--max-steps', 'many'], '--max-steps'],
    [['--client-id', 'demo-client'], '--client-id'],
  ])('When given %j, then the message names %s and the exit code is 1', async (flags, named) => {
    const run = await fosMock('explore', '--url', plain.url, ...flags, '--out-dir', tempFolder('flags'));
    expect(run.exitCode).toBe(1);
    expect(run.stdout).toBe('');
    expect(run.stderr.trim().split('\n')).toHaveLength(1);
    expect(run.stderr).toContain(named);
  });
});

describe('fos-mock explore against a fos-mock', () => {
  it('When nothing fails, then exit code 0, "no check failed", and the Markdown and JUnit reports are written', async () => {
    const folder = tempFolder('reports');
    const markdown = join(folder, 'explore.md');
    const junit = join(folder, 'explore.xml');
    const run = await fosMock(
      'explore',
      '--url',
      plain.url,
      '--runs',
      '5',
      '--seed',
      '1',
      '--out-dir',
      folder,
      '--report-md',
      markdown,
      '--junit',
      junit,
    );
    expect(withoutProgress(run.stderr)).toBe('');
    expect(run.exitCode).toBe(0);
    expect(run.stdout).toContain('seed 1: 5 runs');
    expect(run.stdout).toContain('no check failed');
    expect(readFileSync(markdown, 'utf8')).toContain(`Seed 1: 5 runs`);
    const xml = readFileSync(junit, 'utf8');
    const cases = [...xml.matchAll(/<testcase classname="fos-mock explore" name="([^:"]+):/g)].map((m) => m[1]);
    expect(cases.sort()).toEqual([...CHECK_NAMES].sort());
    expect(xml).not.toContain('<failure');
  });

  it('When --compare-with mock is given against an unbroken mock, then every step is compared and the exit code is 0', async () => {
    const run = await fosMock('explore', '--url', plain.url, ...small, '--compare-with', 'mock', '--out-dir', tempFolder('compare'));
    expect(withoutProgress(run.stderr)).toBe('');
    expect(run.exitCode).toBe(0);
    expect(run.stdout).toContain('no check failed');
    expect(run.stdout).not.toContain('not checked: compare.');
  });

  it('When --no-receiver is given, then the events are not checked, and the report says so', async () => {
    const run = await fosMock('explore', '--url', plain.url, ...small, '--no-receiver', '--out-dir', tempFolder('no-receiver'));
    expect(withoutProgress(run.stderr)).toBe('');
    expect(run.exitCode).toBe(0);
    expect(run.stdout).toContain('events not checked (no receiver it can reach)');
    expect(run.stdout).toMatch(/^not checked: lifecycle\.events, events\.payload \(no receiver the target can reach\)$/m);
  });

  it('When a check fails, then exit code 1 and the scenario written fails on the broken mock and passes on an unbroken one', async () => {
    const folder = tempFolder('found');
    // Seed 29 reaches a second operation on a used quote within its first runs (explore.test.ts).
    const junit = join(folder, 'explore.xml');
    const run = await fosMock(
      ...['explore', '--url', broken.url, '--seed', '29', '--runs', '40', '--max-steps', '20', '--out-dir', folder, '--junit', junit],
    );
    expect(withoutProgress(run.stderr)).toBe('');
    expect(run.exitCode).toBe(1);
    expect(run.stdout).toContain('✗ quote.consumed-once');
    const file = join(folder, 'explore-29-quote-consumed-once.yaml');
    expect(existsSync(file)).toBe(true);
    expect(run.stdout).toContain(`scenario: ${file}`);
    expect(run.stdout).toContain('on the oracle passed, on the target failed');
    const xml = readFileSync(junit, 'utf8');
    expect(xml.match(/<failure /g)).toHaveLength(1);
    expect(xml).toMatch(/name="quote\.consumed-once:[^"]*">\s*<failure /);

    const onBroken = await fosMock('scenario', 'run', file, '--url', broken.url);
    expect(onBroken.exitCode).toBe(1);
    const inProcess = await fosMock('scenario', 'run', file);
    expect(withoutProgress(inProcess.stderr)).toBe('');
    expect(inProcess.exitCode).toBe(0);
  });
});

describe('fos-mock explore against a target that is not a fos-mock', () => {
  const writes = () => received.filter((r) => !r.startsWith('GET ') && !r.startsWith('POST /api/oauth/client/token'));
  const credentials = ['--client-id', 'demo-client', '--client-secret', 'demo-secret'];

  it('When --allow-writes is not given, then only reads are sent (and the token call), and the report says so', async () => {
    received.length = 0;
    const run = await fosMock('explore', '--url', withoutControl.url, ...credentials, ...small, '--out-dir', tempFolder('reads'));
    expect(withoutProgress(run.stderr)).toBe('');
    expect(run.exitCode).toBe(0);
    expect(run.stdout).toContain('reads only (no --allow-writes)');
    expect(received.length).toBeGreaterThan(0);
    expect(writes()).toEqual([]);
    expect(run.stdout).not.toContain('demo-secret');
  });

  it('When --allow-writes is given, then it writes too', async () => {
    received.length = 0;
    const run = await fosMock(
      'explore',
      '--url',
      withoutControl.url,
      ...credentials,
      '--allow-writes',
      '--runs',
      '10',
      '--max-steps',
      '15',
      '--seed',
      '1',
      '--rate',
      '0',
      '--out-dir',
      tempFolder('writes'),
    );
    expect(withoutProgress(run.stderr)).toBe('');
    expect(run.stdout).toContain('writes allowed');
    expect(run.exitCode).toBe(0);
    expect(writes().length).toBeGreaterThan(0);
    expect(run.stdout).not.toContain('demo-secret');
  });

  it('When a check fails there, then the finding is reported and written; its scenario is replayed on the oracle only', async () => {
    // The written scenario asks for a fresh customer with its own clock: only a fos-mock gives one.
    const target = await brokenMock('create-quote-200', { controlApi: false });
    const folder = tempFolder('sandbox');
    try {
      const run = await fosMock('explore', '--url', target.url, ...credentials, '--allow-writes', ...small, '--out-dir', folder);
      expect(withoutProgress(run.stderr)).toBe('');
      expect(run.exitCode).toBe(1);
      expect(run.stdout).toContain('✗ document.status');
      const file = join(folder, 'explore-1-document-status.yaml');
      expect(existsSync(file)).toBe(true);
      expect(run.stdout).toContain('on the oracle passed, on the target not replayed');
      expect(readFileSync(file, 'utf8')).not.toContain('demo-secret');
    } finally {
      await target.close();
    }
  });
});
